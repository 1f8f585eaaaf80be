#!/usr/bin/python3
"""audit-image.py: the syscall audit of a whole root filesystem (issue 39,
item 2): scripts/audit/image/ (its __init__.py says which module does what;
main.py the usage). Debian's python3 (pyelftools, capstone): not pyenv's."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from image import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main.main(sys.argv))
