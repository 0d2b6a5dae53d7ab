"""``python -m taipan``: versions, the host CPU as LLVM sees it, the CUDA driver and GPUs, the
cache directory, the thread pool and the settings taken from environment variables.
``python -m taipan annotate script.py [-o out.html]`` runs a script and writes the annotated
source of every function it compiled (taipan.annotate)."""

import ctypes
import platform
import sys


def _cuda_summary():
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return "no CUDA driver found (libcuda.so.1 could not be loaded)"
    if driver.cuInit(0) != 0:
        return "CUDA driver found, but cuInit failed (no usable GPU?)"
    version = ctypes.c_int()
    driver.cuDriverGetVersion(ctypes.byref(version))
    count = ctypes.c_int()
    driver.cuDeviceGetCount(ctypes.byref(count))
    lines = [
        f"CUDA driver {version.value // 1000}.{version.value % 1000 // 10}, {count.value} device(s)"
    ]
    for index in range(count.value):
        device = ctypes.c_int()
        driver.cuDeviceGet(ctypes.byref(device), index)
        name = ctypes.create_string_buffer(256)
        driver.cuDeviceGetName(name, 256, device)
        major, minor = ctypes.c_int(), ctypes.c_int()
        driver.cuDeviceGetAttribute(ctypes.byref(major), 75, device)
        driver.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)
        lines.append(f"  [{index}] {name.value.decode()} (sm_{major.value}{minor.value})")
    return "\n".join(lines)


def _configuration_lines():
    """One line per setting of taipan.config: its value and the variable that set it."""
    from taipan import config

    lines = []
    for option in config.OPTIONS:
        value = getattr(config, option.attribute)
        source = config.SOURCES.get(option.attribute)
        where = f"from {source}" if source else f"default; set with {option.variable}"
        lines.append(f"  {option.attribute:<21}: {value!r} ({where})")
    return lines


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "annotate":
        from taipan.annotate import main as annotate

        return annotate(argv[1:])
    if argv:
        print("usage: python -m taipan [annotate SCRIPT [-o OUT.html] [ARGS...]]", file=sys.stderr)
        return 2
    import taipan
    from taipan import _core, config
    from taipan.caching import describe_cache_location

    info = _core.system_info()
    try:
        import numpy

        numpy_version = numpy.__version__
    except ImportError:
        numpy_version = "not installed"
    print("taipan system information")
    print("-------------------------")
    print(f"taipan version    : {taipan.__version__}")
    print(f"Python            : {sys.version.split()[0]} ({platform.python_implementation()})")
    print(f"NumPy             : {numpy_version}")
    print(f"LLVM              : {info['llvm_version']} (linked statically)")
    print(f"Platform          : {platform.platform()}")
    print(f"Target triple     : {info['target_triple']}")
    print(f"Host CPU          : {info['cpu_name']}")
    print(f"CPU features      : {info['cpu_features']}")
    if config.CPU_NAME is None and config.CPU_FEATURES is None:
        print("Code compiled for : the host CPU")
    else:  # TAIPAN_CPU_NAME / NUMBA_CPU_NAME, TAIPAN_CPU_FEATURES / NUMBA_CPU_FEATURES
        features = info["target_cpu_features"] or "its own features"
        print(f"Code compiled for : {info['target_cpu_name']} ({features})")
    print(f"CUDA              : {_cuda_summary()}")
    print(f"Cache directory   : {describe_cache_location()}")
    threads = config.SOURCES.get("NUM_THREADS", "every hardware thread")
    print(
        f"Threading layer   : taipan's own thread pool, {config.NUM_THREADS} threads ({threads}), "
        f"{taipan.get_num_threads()} in use"
    )
    print("Configuration (environment variables, read at import):")
    print("\n".join(_configuration_lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
