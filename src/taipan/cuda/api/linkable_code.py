"""Code to link held in memory: numba-cuda's ``LinkableCode`` classes (``CUSource``,
``PTXSource``, ``Cubin``, ``Fatbin``, ``Object``, ``Archive``, ``LTOIR``), which both backends
export (the simulator links nothing, but code naming them imports there too); the GPU path's
``linking`` compiles and links them."""

import hashlib
import io
import os

# CUjitInputType, as cuda.h numbers it (LinkInput::Kind in C++).
CUBIN, PTX, FATBIN, OBJECT, LIBRARY = range(5)


class LinkableCode:
    """Code to link held in memory (numba-cuda's class of that name): ``data`` (bytes, text,
    or an io.StringIO/BytesIO read when linking), the ``name`` messages give it, and module
    callbacks: ``setup_callback(object_code)`` runs when a module linking this code is loaded
    into a context, before its kernel's first launch there, and ``teardown_callback`` when the
    context is reset or the process ends. Both receive cuda.core's ``ObjectCode`` of the module
    (cuda-core must be installed to use them), whose ``handle`` is the module's ``CUlibrary``."""

    kind = None  # CUjitInputType, or "cu" for CUDA C++ that NVRTC compiles first
    default_name = "<unnamed>"

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if setup_callback and not callable(setup_callback):
            raise TypeError("setup_callback must be callable")
        if teardown_callback and not callable(teardown_callback):
            raise TypeError("teardown_callback must be callable")
        if nrt:
            raise NotImplementedError(
                "LinkableCode(nrt=True): linking numba-cuda's device NRT is not supported"
            )
        self.nrt = nrt
        self._name = name
        self._data = data
        self.setup_callback = setup_callback
        self.teardown_callback = teardown_callback

    @property
    def name(self):
        return self._name or self.default_name

    @property
    def data(self):
        if isinstance(self._data, (io.StringIO, io.BytesIO)):
            return self._data.getvalue()
        return self._data

    @property
    def has_callbacks(self):
        return bool(self.setup_callback or self.teardown_callback)

    @staticmethod
    def from_path(path):
        """The code of file `path`, as the class its extension names."""
        root, extension = os.path.splitext(path)
        cls = CLASS_BY_SUFFIX.get(extension)
        if cls is None:
            raise ValueError(f"Unknown extension: {extension}")
        with open(path, "r" if extension in (".cu", ".ptx") else "rb") as file:
            return cls(file.read(), name=os.path.basename(root))

    @classmethod
    def from_path_or_obj(cls, path_or_obj):
        return cls.from_path(path_or_obj) if isinstance(path_or_obj, str) else path_or_obj

    def __repr__(self):
        # The digest of the code: caches key kernels by their options' text, this included.
        data = self.data
        digest = hashlib.sha256(data.encode() if isinstance(data, str) else bytes(data))
        return f"<{type(self).__name__} {self.name} {digest.hexdigest()[:16]}>"


class PTXSource(LinkableCode):
    """PTX source code in memory."""

    kind = PTX
    default_name = "<unnamed-ptx>"


class CUSource(LinkableCode):
    """CUDA C/C++ source code in memory, compiled by NVRTC when linked."""

    kind = "cu"
    default_name = "<unnamed-cu>"


class Fatbin(LinkableCode):
    """An ELF fatbin in memory."""

    kind = FATBIN
    default_name = "<unnamed-fatbin>"


class Cubin(LinkableCode):
    """An ELF cubin in memory."""

    kind = CUBIN
    default_name = "<unnamed-cubin>"


class Archive(LinkableCode):
    """An archive of objects in memory."""

    kind = LIBRARY
    default_name = "<unnamed-archive>"


class Object(LinkableCode):
    """An object file in memory."""

    kind = OBJECT
    default_name = "<unnamed-object>"


class LTOIR(LinkableCode):
    """LTO-IR in memory. The driver's linker, which taipan links with, does not take it
    (nvJitLink does), so linking it is refused."""

    kind = "ltoir"
    default_name = "<unnamed-ltoir>"


CLASS_BY_SUFFIX = {
    ".cu": CUSource,
    ".ptx": PTXSource,
    ".fatbin": Fatbin,
    ".cubin": Cubin,
    ".a": Archive,
    ".o": Object,
    ".ltoir": LTOIR,
}
