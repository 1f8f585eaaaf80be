"""audit/image: the syscall audit of a whole root filesystem (issue 39, item 2).

A product is a root filesystem of dynamically linked programs. This package
audits it as the image's own loader links it, one module per concern:

  rootfs.py   the image: a folder, a cpio (.gz) or a tar; paths resolved
              inside it (symlinks too), and every ELF found in it
  loader.py   which objects a program loads and in which order: PT_INTERP,
              DT_NEEDED searched along DT_RPATH, DT_RUNPATH, the image's
              /etc/ld.so.conf(.d) and the default paths (glibc's
              elf/dl-load.c _dl_map_object; musl's ldso/dynlink.c
              load_library), breadth first (glibc's _dl_map_object_deps)
  decode.py   the instructions (capstone, ARM), and the values of registers
              found backwards along the code (syscall numbers, arguments)
  elfobj.py   one object, analysed once whatever number of programs load
              it: symbols and versions, relocations, the PLT, function
              starts (.dynsym, .ARM.exidx, PLT, call targets), regions and
              their edges, svc sites, roots (entry, init_array, IFUNC,
              pointers in data)
  link.py     symbol binding in load order, with versions
  reach.py    reachability across objects from each program's entry and
              the loader's, and the syscall set each program can make
  dlopen.py   what a program can dlopen: NSS, gconv, its own modules
  main.py     the command line: names files, JSON for report.py, the report

scripts/audit/audit-image.py is the command; scripts/audit/audit.sh runs it
for `make audit IMAGE=PATH`.
"""
