"""image/rootfs.py: the root filesystem: a folder, a cpio (.gz) or a tar.

An archive is unpacked once into a folder beside the audit's output
(cpio with --no-absolute-filenames, tar without owners), and then read as a
folder. Paths are resolved inside the image, symlinks too: an absolute
link target is read from the image's root, never from the host's.
"""
import os
import shutil
import subprocess

ELF_MAGIC = b"\x7fELF"


class Rootfs:
    def __init__(self, path, scratch):
        self.source = path
        if os.path.isdir(path):
            self.root = os.path.abspath(path)
        else:
            self.root = unpack(path, scratch)

    def host(self, p):
        """The host path of image path P (absolute in the image), symlinks
        resolved inside the image; None when it does not exist."""
        parts = [x for x in p.split("/") if x and x != "."]
        cur = []
        hops = 0
        while parts:
            x = parts.pop(0)
            if x == "..":
                if cur:
                    cur.pop()
                continue
            h = os.path.join(self.root, *cur, x)
            if os.path.islink(h):
                hops += 1
                if hops > 40:
                    return None
                t = os.readlink(h)
                if t.startswith("/"):
                    cur = []
                parts = [y for y in t.split("/") if y and y != "."] + parts
                continue
            if not os.path.lexists(h):
                return None
            cur.append(x)
        return os.path.join(self.root, *cur)

    def image_path(self, host):
        return "/" + os.path.relpath(host, self.root)

    def walk(self):
        """Every regular file (not a symlink) of the image, as image paths."""
        for d, dirs, files in os.walk(self.root):
            dirs.sort()
            for f in sorted(files):
                h = os.path.join(d, f)
                if os.path.isfile(h) and not os.path.islink(h):
                    yield self.image_path(h)

    def elfs(self):
        """{image path: True} for every ELF file, and the scripts (#!) that are
        executable: {path: interpreter line}."""
        elfs, scripts = [], {}
        for p in self.walk():
            h = os.path.join(self.root, p[1:])
            try:
                with open(h, "rb") as f:
                    head = f.read(128)
            except OSError:
                continue
            if head.startswith(ELF_MAGIC):
                elfs.append(p)
            elif head.startswith(b"#!") and os.access(h, os.X_OK):
                scripts[p] = head[2:].split(b"\n")[0].decode("latin-1").strip()
        return elfs, scripts

    def read(self, p):
        h = self.host(p)
        if h is None or not os.path.isfile(h):
            return None
        with open(h, "rb") as f:
            return f.read()


def unpack(path, scratch):
    """Unpack the archive PATH into SCRATCH/rootfs (again each time)."""
    out = os.path.join(scratch, "rootfs")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with open(path, "rb") as f:
        head = f.read(262)
    if head[:2] == b"\x1f\x8b":
        cat = ["gzip", "-dc", path]
        with subprocess.Popen(cat, stdout=subprocess.PIPE) as p:
            inner = p.stdout.read(262)
        gz = True
    else:
        inner, gz = head, False
    if inner[:6] in (b"070701", b"070702", b"070707"):
        cmd = "cpio -idm --quiet --no-absolute-filenames"
    elif inner[257:262] == b"ustar":
        cmd = "tar -x --no-same-owner --no-same-permissions -f -"
    else:
        raise SystemExit("audit-image: %s: not a folder, cpio, cpio.gz or tar" % path)
    src = "gzip -dc %s" % sh(path) if gz else "cat %s" % sh(path)
    subprocess.run("%s | (cd %s && %s)" % (src, sh(out), cmd), shell=True, check=True)
    return out


def sh(s):
    return "'" + s.replace("'", "'\\''") + "'"
