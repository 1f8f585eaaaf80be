"""image/link.py: symbol binding in load order, with versions.

glibc (elf/dl-lookup.c, _dl_lookup_symbol_x and check_match): the global
scope is searched in load order (the program, then its DT_NEEDED breadth
first); the first definition that matches wins, which is how a program or
an earlier library interposes a symbol of a later one. A reference with a
version (.gnu.version_r) matches a definition of that version, hidden or
not, or an unversioned definition; a reference without one matches a
definition that is not hidden (the default version, `@@`). Undefined,
local and section symbols do not define anything.
"""
import bisect


class Scope:
    def __init__(self, objs):
        self.objs = list(objs)    # [(index, facts)] in load order
        self.cache = {}

    def extend(self, more):
        self.objs += [x for x in more if x not in self.objs]
        self.cache = {}

    def lookup(self, key):
        """(object index, address, symbol type) of KEY = (name, version,
        weak), or None when nothing in the scope defines it."""
        k = key[:2]
        if k in self.cache:
            return self.cache[k]
        name, ver = k
        got = None
        for i, o in self.objs:
            for dver, hidden, value, stype, bind in o["exports"].get(name, ()):
                if bind == "STB_LOCAL" or stype in ("STT_SECTION", "STT_FILE"):
                    continue
                if ver is None and hidden:
                    continue
                if ver is not None and dver is not None and dver != ver:
                    continue
                got = (i, value & ~1, stype)
                break
            if got:
                break
        self.cache[k] = got
        return got


def region_of(o, addr):
    """The index of the region of object O holding ADDR, or None when ADDR is
    not in its code."""
    if not o["exec"] or not o["exec"][0] <= addr < o["exec"][1]:
        return None
    return bisect.bisect_right(o["starts"], addr) - 1


def name_of(o, ri):
    """A readable name for region RI of O: the exported function that starts
    it, else its address."""
    a = o["starts"][ri]
    names = o.setdefault("_names", {})
    if not names:
        for n, defs in o["exports"].items():
            for d in defs:
                if d[3] in ("STT_FUNC", "STT_GNU_IFUNC", "STT_LOOS"):
                    v = d[2] & ~1
                    if v not in names or (names[v].startswith("_") and not n.startswith("_")):
                        names[v] = n
    return names.get(a, "%#x" % a)
