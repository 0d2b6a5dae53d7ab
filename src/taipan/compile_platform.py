"""The platform the compile running on a thread is for ('cpu' or 'cuda'): the extension API
chooses overloads by it, and intrinsics' code generators (context.get_function) ask it."""

import _thread

_compiling = _thread._local()


def compiling_platform():
    """The platform the compile running on this thread is for: 'cuda' inside compiling_for
    ('cuda'), else 'cpu'. Overloads for one target are chosen by it."""
    return getattr(_compiling, "platform", "cpu")


class compiling_for:
    """Marks the compiles on this thread, while in the block, as being for `platform`."""

    def __init__(self, platform):
        self.platform = platform

    def __enter__(self):
        self.saved = compiling_platform()
        _compiling.platform = self.platform

    def __exit__(self, *exc):
        _compiling.platform = self.saved
