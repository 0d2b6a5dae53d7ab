"""The exceptions ``taipan.cuda`` raises, the same classes on the GPU path and in the simulator
(which raises the driver's errors for launches the driver would refuse)."""


class CudaSupportError(RuntimeError):
    """No CUDA driver or device: raised when a kernel is launched or device memory is used."""

    @property
    def msg(self):
        """The message (numba-cuda's attribute)."""
        return str(self.args[0]) if self.args else ""


class CudaDriverError(RuntimeError):
    """The CUDA driver refused a call; the message carries its reason."""


class LinkerError(RuntimeError):
    """The driver's linker could not join a kernel with its link= files; the message carries
    the linker's log."""


class LinkFileNotFoundError(LinkerError, FileNotFoundError):
    """A file ``link=`` names does not exist (numba-cuda's LinkerError, and an OSError)."""


class LinkFileKindError(LinkerError, ValueError):
    """A file ``link=`` names is of a kind the linker does not take (by its extension)."""


class NvrtcError(RuntimeError):
    """NVRTC failed."""


class NvrtcCompilationError(NvrtcError):
    """NVRTC rejected a .cu file; the message carries its log."""
