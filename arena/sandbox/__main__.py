"""A bot's host process: `python -m arena.sandbox CONTROL_FD SETTINGS_JSON` (see `host`)."""

import sys

from arena.sandbox.host import main

sys.exit(main(sys.argv))
