"""Streams and events (Numba's ``cuda.stream()``, ``cuda.event()`` and friends): ordered queues
of GPU work, and markers in them for waiting and timing."""

import contextlib

from taipan import config
from taipan.cuda import driver

# The driver's pseudo-handles for the default streams (CU_STREAM_LEGACY, CU_STREAM_PER_THREAD).
_LEGACY_HANDLE = 1
_PER_THREAD_HANDLE = 2
# How a default stream names itself, by its kind.
_DEFAULT_KINDS = {
    "default": "Default",
    "legacy default": "Legacy default",
    "per-thread default": "Per-thread default",
}


class Stream:
    """A CUDA stream. Copies and launches given one are queued on it and return at once."""

    def __init__(self, handle, owned, kind):
        self.handle = handle
        self._owned = owned
        self._kind = kind
        # cuda.close() destroys every stream; one made before must not be destroyed again.
        self._generation = driver.context_generation()

    def synchronize(self):
        """Waits until all work queued on the stream has finished."""
        driver._driver().cuda_synchronize_stream(self.handle)

    def query(self):
        """Whether all work queued on the stream has finished."""
        return driver._driver().cuda_query_stream(self.handle)

    @contextlib.contextmanager
    def auto_synchronize(self):
        """A context manager that synchronizes the stream when the block ends."""
        yield self
        self.synchronize()

    def __int__(self):
        return self.handle

    @property
    def external(self):
        """Whether the stream is another library's (cuda.external_stream, or the producer's
        stream of an array imported through the CUDA Array Interface)."""
        return self._kind == "external"

    def __cuda_stream__(self):
        """The CUDA stream protocol: (version 0, the stream's handle)."""
        return (0, self.handle)

    def __repr__(self):
        # numba-cuda's wording, which its tests and users read.
        if self._kind in _DEFAULT_KINDS:
            return f"<{_DEFAULT_KINDS[self._kind]} CUDA stream>"
        if self._kind == "external":
            return f"<External CUDA stream {self.handle:d}>"
        return f"<CUDA stream {self.handle:d}>"

    def __del__(self):
        if self._owned and self._generation == driver.context_generation():
            with contextlib.suppress(Exception):
                driver._core.cuda_destroy_stream(self.handle)


def stream():
    """A new stream of this process's own, which waits for the legacy default stream."""
    return Stream(driver._driver().cuda_create_stream(False), True, "")


def default_stream():
    """The default stream (the legacy one, as CUDA's default is)."""
    return Stream(0, False, "default")


def legacy_default_stream():
    """The legacy default stream, which waits for and holds up every other blocking stream."""
    return Stream(_LEGACY_HANDLE, False, "legacy default")


def per_thread_default_stream():
    """The calling thread's default stream, ordered only against itself."""
    return Stream(_PER_THREAD_HANDLE, False, "per-thread default")


def external_stream(pointer):
    """Wraps another library's stream (a CUstream given as an integer); it is not destroyed."""
    return Stream(int(pointer), False, "external")


def stream_handle(stream):
    """The driver handle of a stream argument: a Stream, a raw handle, another library's
    stream object (the ``__cuda_stream__`` protocol: cuda.core's Stream and GraphBuilder,
    CuPy's), or 0/None for default."""
    if not stream:
        return None
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None and not isinstance(stream, Stream):
        return int((protocol() if callable(protocol) else protocol)[1])
    return int(getattr(stream, "handle", stream))


def owned_stream(stream):
    """The stream when taipan made it and so can keep it alive (a Stream from cuda.stream()),
    else None: raw handles and other libraries' streams may be destroyed under us."""
    if isinstance(stream, Stream) and stream._owned:
        return stream
    return None


class Event:
    """A marker recorded in a stream: it completes when the work queued before it has."""

    def __init__(self, timing=True):
        self.handle = driver._driver().cuda_create_event(bool(timing))
        self.timing = bool(timing)
        self._generation = driver.context_generation()

    def record(self, stream=0):
        """Records the event at the current end of `stream`."""
        driver._core.cuda_record_event(self.handle, stream_handle(stream) or 0)

    def synchronize(self):
        """Waits until the work before the last record has finished."""
        driver._core.cuda_synchronize_event(self.handle)

    def query(self):
        """Whether the work before the last record has finished."""
        return driver._core.cuda_query_event(self.handle)

    def elapsed_time(self, other):
        """Milliseconds from this event to `other`; both recorded, both with timing."""
        return event_elapsed_time(self, other)

    def wait(self, stream=0):
        """Makes work queued on `stream` after this call wait for the event. Done by waiting on
        the host until the event completes, which orders every later launch and copy after it
        (on any stream) at the cost of blocking the caller meanwhile."""
        self.synchronize()

    def __del__(self):
        # A failed constructor leaves no handle to destroy.
        if getattr(self, "_generation", None) == driver.context_generation():
            with contextlib.suppress(Exception):
                driver._core.cuda_destroy_event(self.handle)


def event(timing=True):
    """A new event; timing=False events are cheaper but cannot be timed."""
    return Event(timing)


def event_elapsed_time(start, end):
    """Milliseconds between two recorded timing events."""
    if not (start.timing and end.timing):
        raise ValueError("elapsed time needs two events created with timing=True")
    return driver._core.cuda_elapsed_milliseconds(start.handle, end.handle)


def wait_for_producer(interface, stream=None):
    """Synchronizes the stream an exported array's producer named, unless the consumer's
    `stream` already orders after it (the same stream, or both the legacy default)."""
    producer = interface.get("stream")
    if producer is None:
        return
    consumer = int(getattr(stream, "handle", stream) or 0)
    if producer == consumer or (producer == 1 and consumer in (0, 1)):
        return
    synchronize_producer(int(producer))


def synchronize_producer(handle):
    """The wait for an exported array's producer stream that a consumer is not ordered after
    (launches read it from C++ too: cuda_set_producer_wait): ``Stream.synchronize()`` of the
    producer's stream unless CUDA_ARRAY_INTERFACE_SYNC is off, as numba-cuda waits."""
    if config.CUDA_ARRAY_INTERFACE_SYNC:
        external_stream(handle).synchronize()


if hasattr(driver._core, "cuda_set_producer_wait"):
    driver._core.cuda_set_producer_wait(synchronize_producer)
