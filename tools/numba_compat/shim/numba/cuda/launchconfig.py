"""``numba.cuda.launchconfig``: the launch configuration a launch's compilation sees;
taipan's (taipan.cuda.launchconfig)."""

from taipan.cuda.launchconfig import (
    capture_compile_config,
    current_launch_config,
    ensure_current_launch_config,
)

__all__ = ["capture_compile_config", "current_launch_config", "ensure_current_launch_config"]
