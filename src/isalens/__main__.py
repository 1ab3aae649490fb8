"""``python -m isalens``."""

import sys

from isalens.cli import main

sys.exit(main())
