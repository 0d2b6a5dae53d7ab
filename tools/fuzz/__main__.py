"""``python3 -m tools.fuzz``: see ``tools/fuzz/run.py``."""

import sys

from tools.fuzz.run import main

sys.exit(main())
