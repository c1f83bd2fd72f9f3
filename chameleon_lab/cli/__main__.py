"""``python -m chameleon_lab.cli``: the ``chameleon-lab`` command."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
