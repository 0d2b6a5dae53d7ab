"""Settings read from TAIPAN_* environment variables when taipan is imported."""

import os


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("", "0", "false", "no", "off")


BOUNDSCHECK = _flag("TAIPAN_BOUNDSCHECK")
DISABLE_JIT = _flag("TAIPAN_DISABLE_JIT")
# Prints where each compilation spent its time (dispatcher.get_metadata(sig)["timers"]).
TIMING = _flag("TAIPAN_TIMING")
