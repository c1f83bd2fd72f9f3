"""``python -m chameleon_lab.conformance COMMAND [ARGS]``: see the package docstring."""

import sys

from . import main

sys.exit(main())
