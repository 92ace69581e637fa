"""``python -m bot`` is the ``flybot`` command."""

import sys

from bot.cli import main

sys.exit(main())
