"""``numba.core.config``: taipan's settings (``taipan.config``, read from the same NUMBA_*
variables) and Numba's defaults for the other names Numba's tests read."""

import platform
import struct
import sys
import types as _pytypes

from numba._missing import fill_missing
from taipan import config as _taipan_config

MACHINE_BITS = struct.calcsize("P") * 8
IS_32BITS = MACHINE_BITS == 32
IS_WIN32 = sys.platform.startswith("win32")
IS_OSX = sys.platform.startswith("darwin")
PYVERSION = sys.version_info[:2]
DEBUG = DEBUG_CACHE = DEBUG_TYPEINFER = DEBUG_FRONTEND = DEBUG_ARRAY_OPT = False
DUMP_IR = DUMP_ASSEMBLY = DUMP_LLVM = DUMP_OPTIMIZED = DUMP_BYTECODE = False
FULL_TRACEBACKS = DEVELOPER_MODE = SHOW_HELP = False
DISABLE_PERFORMANCE_WARNINGS = False
CAPTURED_ERRORS = "new_style"
USE_LEGACY_TYPE_SYSTEM = 1
ENABLE_CUDASIM = False
ENABLE_PARALLEL_CHUNKSIZE = True
COMPATIBILITY_MODE = None
CPU_NAME = None
CPU_FEATURES = None
PLATFORM = platform.system()
CACHE_DIR = ""

# taipan's own values win over the defaults above.
for _name, _value in vars(_taipan_config).items():
    if _name.isupper():
        globals()[_name] = _value


class _OptLevel(int):
    """Numba's ``config.OPT`` value: an int, ``'max'`` being 3."""

    def __new__(cls, value):
        return super().__new__(cls, 3 if value == "max" else int(value))

    @property
    def is_opt_max(self):
        return self == 3


class _ForwardingModule(_pytypes.ModuleType):
    """Setting one of taipan's settings here (a test's ``override_config``) sets taipan's."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in _TAIPAN_SETTINGS:
            setattr(_taipan_config, name, value)


_TAIPAN_SETTINGS = frozenset(option.attribute for option in _taipan_config.OPTIONS)
sys.modules[__name__].__class__ = _ForwardingModule

__getattr__ = fill_missing(globals(), __name__)
