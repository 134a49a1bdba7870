"""``python -m maumau``: the command line (see maumau.cli)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
