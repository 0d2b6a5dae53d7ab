"""``numba.core``: the parts of Numba's core that the shim maps (types, errors, config, utils,
compiler, extending, registry, runtime); the others are placeholders."""
