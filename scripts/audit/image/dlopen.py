"""image/dlopen.py: what a program can load at run time.

A program that reaches a dlopen can load more code, whose syscalls count.
glibc 2.36 has two ways in (both in libc.so.6 since 2.34):

  - dlopen/dlmopen, public (dlfcn/dlopen.c): the program's own modules
    (lighttpd's mod_*.so, nginx's modules), from a path the program's
    configuration names. The audit does not read configurations: every
    shared object in the image counts as loaded.
  - __libc_dlopen_mode, glibc's own (elf/dl-libc.c): NSS modules
    libnss_<service>.so.2 as /etc/nsswitch.conf names them (nss/nss_module.c,
    module_load), gconv modules for iconv (iconv/gconv_dl.c,
    __gconv_find_shlib, from gconv-modules), libgcc_s.so.1 for unwinding and
    pthread_cancel (misc/unwind-link.c, __libc_unwind_link_get), and
    libidn2.so.0 for IDN names in getaddrinfo (inet/idna.c). The audit
    counts every such file in the image, whatever nsswitch.conf says.

musl's dlopen (ldso/dynlink.c) has only the public way in. A target that is
not in the image (written at run time, or on another filesystem) is not
known: the report says what the audit assumed.
"""
import os
import re

PUBLIC = ("dlopen", "dlmopen")
GLIBC_INTERNAL = ("__libc_dlopen_mode",)
GLIBC_TARGETS = (re.compile(r"/libnss_[^/]*\.so[.0-9]*$"), re.compile(r"/gconv/[^/]*\.so$"),
                 re.compile(r"/libgcc_s\.so\.1$"), re.compile(r"/libidn2\.so\.0$"))


def targets(kind, shared, loaded):
    """The image paths of the shared objects a dlopen of KIND ('public' or
    'glibc') may load: SHARED is every shared object of the image (no
    interpreter: not a program), LOADED those already loaded."""
    out = []
    for p in sorted(shared):
        if p in loaded:
            continue
        if kind == "public" or any(r.search(p) for r in GLIBC_TARGETS):
            out.append(p)
    return out


def summary(paths):
    """{folder: count} for the report."""
    by = {}
    for p in paths:
        d = os.path.dirname(p)
        by[d] = by.get(d, 0) + 1
    return by
