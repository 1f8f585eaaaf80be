"""image/loader.py: which objects a program loads, in which order, as the
image's own loader finds them.

glibc (elf/dl-load.c, _dl_map_object): a DT_NEEDED name with a slash is a
path; otherwise it is searched in the DT_RPATH of the object that needs it
and of its loaders (only when that object has no DT_RUNPATH), then
LD_LIBRARY_PATH (not set on a product: ignored), then the object's own
DT_RUNPATH, then ld.so.cache (built from /etc/ld.so.conf and its include
/etc/ld.so.conf.d/*.conf; ldconfig, elf/ldconfig.c), then the default
paths (sysdeps: /lib/<multiarch>, /usr/lib/<multiarch>, /lib, /usr/lib on
Debian, elf/Makefile's system-dirs with the multiarch triplet). $ORIGIN and
$LIB are expanded (elf/dl-load.c, _dl_dst_substitute). A name already
loaded (same soname) is not loaded again (_dl_map_object's l_soname test).
The objects are loaded breadth first (elf/dl-deps.c, _dl_map_object_deps),
and that order is the global scope symbols are looked up in.

musl (ldso/dynlink.c, load_library): the same for a name with a slash,
DT_RPATH/DT_RUNPATH of the object (both, $ORIGIN expanded: fixup_rpath),
then the path file /etc/ld-musl-arm.path (ldso/dynlink.c: "/etc/ld-musl-"
LDSO_ARCH ".path"), else "/lib:/usr/local/lib:/usr/lib". libc.so is the
loader itself (its soname libc.musl-*.so.1 or "libc.so").
"""
import glob
import os

GLIBC_DEFAULT = ["/lib/arm-linux-gnueabi", "/usr/lib/arm-linux-gnueabi",
                 "/lib/arm-linux-gnueabihf", "/usr/lib/arm-linux-gnueabihf", "/lib", "/usr/lib"]
MUSL_DEFAULT = ["/lib", "/usr/local/lib", "/usr/lib"]


def ld_so_conf(fs):
    """The directories of the image's /etc/ld.so.conf and what it includes
    (ldconfig's parse_conf: "include GLOB" lines, comments after #)."""
    out, seen = [], set()

    def parse(p, depth):
        if depth > 8 or p in seen:
            return
        seen.add(p)
        data = fs.read(p)
        if data is None:
            return
        for line in data.decode("latin-1").splitlines():
            line = line.split("#")[0].strip()
            if not line:
                continue
            if line.startswith("include"):
                for pat in line.split()[1:]:
                    if not pat.startswith("/"):
                        pat = os.path.join(os.path.dirname(p), pat)
                    for h in sorted(glob.glob(os.path.join(fs.root, pat.lstrip("/")))):
                        parse(fs.image_path(h), depth + 1)
            elif line.startswith("hwcap"):
                continue
            else:
                out.extend(d for d in line.replace(",", " ").split() if d.startswith("/"))
    parse("/etc/ld.so.conf", 0)
    if "/etc/ld.so.conf" not in seen or fs.read("/etc/ld.so.conf") is None:
        # No ld.so.conf: Debian's libc-bin ships "include /etc/ld.so.conf.d/*.conf";
        # without it ldconfig reads none, and the cache has only the default paths.
        pass
    return out


class Loader:
    """Finds objects in the image. FLAVOUR is 'glibc' or 'musl', from the
    program's PT_INTERP."""

    def __init__(self, fs, analyse):
        self.fs = fs
        self.analyse = analyse   # image path -> object facts (elfobj)
        self.conf = ld_so_conf(fs)
        self.musl_path = None
        pre = fs.read("/etc/ld.so.preload")
        self.preload = [] if pre is None else [
            w for line in pre.decode("latin-1").splitlines()
            for w in line.split("#")[0].replace(":", " ").split()]
        for p in fs.walk():
            if p.startswith("/etc/ld-musl-") and p.endswith(".path"):
                data = fs.read(p).decode("latin-1")
                self.musl_path = [d for d in data.replace(":", "\n").split() if d]

    def expand(self, d, origin):
        return d.replace("$ORIGIN", origin).replace("${ORIGIN}", origin) \
                .replace("$LIB", "lib/arm-linux-gnueabi").replace("${LIB}", "lib/arm-linux-gnueabi")

    def find(self, name, obj, parents, flavour):
        """(image path, how) of DT_NEEDED NAME of OBJ; None when not found."""
        if "/" in name:
            p = self.fs.host(self.expand(name, os.path.dirname(obj["path"])))
            return (self.fs.image_path(p), "path") if p else None
        dirs = []
        if flavour == "musl":
            for o in [obj]:
                dirs += [(self.expand(d, os.path.dirname(o["path"])), "rpath")
                         for d in o["rpath"] + o["runpath"]]
            dirs += [(d, "ld-musl path") for d in (self.musl_path or MUSL_DEFAULT)]
        else:
            if not obj["runpath"]:
                for o in [obj] + parents:
                    dirs += [(self.expand(d, os.path.dirname(o["path"])), "DT_RPATH of %s" %
                              o["path"]) for d in o["rpath"]]
            dirs += [(self.expand(d, os.path.dirname(obj["path"])), "DT_RUNPATH")
                     for d in obj["runpath"]]
            dirs += [(d, "ld.so.conf") for d in self.conf]
            dirs += [(d, "default path") for d in GLIBC_DEFAULT]
        for d, how in dirs:
            h = self.fs.host(os.path.join(d, name))
            if h and os.path.isfile(h):
                return self.fs.image_path(h), how
        return None

    def closure(self, path, missing):
        """The objects PATH loads, breadth first (glibc's _dl_map_object_deps),
        as [(image path, object facts)], its interpreter included where a
        DT_NEEDED names it (or last). MISSING gets a line per DT_NEEDED not
        found."""
        root = self.analyse(path)
        flavour = "musl" if root["interp"] and "musl" in root["interp"] else "glibc"
        order, by_real, sonames = [], {}, {}
        queue = [(path, root, [])]
        # /etc/ld.so.preload: glibc loads these into every program, after it
        # and before its DT_NEEDED (elf/rtld.c, dl_main: handle_preload_list,
        # then _dl_map_object_deps with the preloads first in the scope)
        for n in ([] if flavour == "musl" else self.preload):
            got = self.find(n, root, [], flavour)
            if got is None:
                missing.append("/etc/ld.so.preload names %s: not found in the image" % n)
            else:
                queue.append((got[0], self.analyse(got[0]), [root]))
        while queue:
            p, o, parents = queue.pop(0)
            real = self.fs.host(p)
            if real in by_real:
                continue
            by_real[real] = o
            order.append((p, o))
            if o["soname"]:
                sonames[o["soname"]] = p
            for n in o["needed"]:
                if n in sonames:
                    continue
                if flavour == "musl" and (n == "libc.so" or n.startswith("libc.musl")):
                    n = root["interp"]
                got = self.find(n, o, parents, flavour)
                if got is None:
                    missing.append("%s needs %s: not found in the image (searched %s)" % (
                        p, n, "DT_RPATH/DT_RUNPATH, ld.so.conf, the default paths"
                        if flavour == "glibc" else "DT_RPATH/DT_RUNPATH, the musl path"))
                    continue
                sonames[n] = got[0]
                queue.append((got[0], self.analyse(got[0]), [o] + parents))
        if root["interp"]:
            h = self.fs.host(root["interp"])
            if h is None:
                missing.append("%s: its interpreter %s is not in the image" % (
                    path, root["interp"]))
            elif h not in by_real:
                ip = self.fs.image_path(h)
                order.append((ip, self.analyse(ip)))
        return order
