"""The host side numba-cuda's users and tests reach: streams named as numba-cuda names them and
taken from other libraries through the ``__cuda_stream__`` protocol, kernels and configured
launches pickled with plain ``pickle`` (functions defined in other functions or in __main__
carried by value, as Numba's dispatchers are), and the disk cache's kernel key covering the
device library's source. Here (no GPU) what needs no driver; the device's UUID on a GPU."""

import os
import pickle
import re
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest
from child_processes import child_python_path

import taipan
from taipan import cuda, float32, int64
from taipan.cuda import compiler, streams
from taipan.serialize import dumps_by_value

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def test_default_streams_are_named_as_numba_cuda_names_them():
    assert repr(cuda.default_stream()) == "<Default CUDA stream>"
    assert repr(cuda.legacy_default_stream()) == "<Legacy default CUDA stream>"
    assert repr(cuda.per_thread_default_stream()) == "<Per-thread default CUDA stream>"
    assert repr(cuda.external_stream(4096)) == "<External CUDA stream 4096>"
    assert int(cuda.legacy_default_stream()) == 1
    assert int(cuda.per_thread_default_stream()) == 2
    for stream in (cuda.default_stream(), cuda.legacy_default_stream()):
        assert stream  # truthy, handle 0 included: copies take it as a stream
        assert not stream.external
    assert cuda.external_stream(4096).external


def test_streams_speak_the_cuda_stream_protocol():
    assert cuda.default_stream().__cuda_stream__() == (0, 0)
    assert cuda.external_stream(0x5000).__cuda_stream__() == (0, 0x5000)


class _ProtocolStream:
    """Another library's stream (cuda.core's Stream, a GraphBuilder): only the protocol."""

    def __init__(self, handle):
        self.handle = object()  # not an integer: the protocol must win
        self._handle = handle

    def __cuda_stream__(self):
        return (0, self._handle)


class _PropertyProtocolStream:
    """An older exporter whose ``__cuda_stream__`` is a property."""

    __cuda_stream__ = (0, 0x7000)


def test_other_libraries_streams_are_taken_through_the_protocol():
    assert streams.stream_handle(_ProtocolStream(0x6000)) == 0x6000
    assert streams.stream_handle(_PropertyProtocolStream()) == 0x7000
    assert streams.stream_handle(cuda.external_stream(0x8000)) == 0x8000
    assert streams.stream_handle(0) is None
    assert streams.stream_handle(0x9000) == 0x9000


def _make_closures():
    scale = 3

    def scaled(a, offset=1, *, extra=0):
        return a * scale + offset + extra + np.int64(0)

    def countdown(n):
        return 0 if n == 0 else countdown(n - 1) + 1

    def unassigned():
        return later  # noqa: F821 (the cell is emptied below)

    later = 5
    del later  # an empty cell
    return scaled, countdown, unassigned


def test_functions_defined_in_functions_pickle_by_value():
    scaled, countdown, unassigned = _make_closures()
    restored = pickle.loads(dumps_by_value(scaled))
    assert restored(2) == 7 and restored(2, 0, extra=4) == 10
    assert restored.__qualname__ == scaled.__qualname__
    assert restored.__defaults__ == (1,) and restored.__kwdefaults__ == {"extra": 0}
    assert pickle.loads(dumps_by_value(countdown))(4) == 4  # reaches itself through a cell
    with pytest.raises(NameError, match="later"):
        pickle.loads(dumps_by_value(unassigned))()


def test_a_local_kernel_and_its_configured_launch_pickle_with_plain_pickle():
    @cuda.jit(device=True)
    def inner(a):
        return a + 1

    @cuda.jit
    def kernel(out):
        out[0] = inner(out[0])

    kernel.specialize_for([int64[::1]])
    assert pickle.loads(pickle.dumps(kernel)) is kernel  # one object per process
    configured = pickle.loads(pickle.dumps(kernel[5, 8]))
    assert configured.griddim == (5, 1, 1) and configured.blockdim == (8, 1, 1)
    assert configured.kernel is kernel


def _run_as_main(script):
    """Runs `script` as `python -c` (its functions live in `__main__`) with this taipan
    importable, and returns the finished process after checking that it exited cleanly."""
    environment = dict(os.environ, PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_a_main_kernel_travels_by_plain_pickle_to_another_process():
    script = textwrap.dedent(
        """
        import pickle, subprocess, sys
        from taipan import cuda, int64

        @cuda.jit(device=True)
        def inner(a):
            return a + 1

        @cuda.jit
        def kernel(out):
            out[0] = inner(out[0])

        kernel.specialize_for([int64[::1]])
        child = subprocess.run(
            [sys.executable, "-c",
             "import pickle, sys; k = pickle.loads(sys.stdin.buffer.read()); "
             "print(k.griddim, k.kernel.py_func.__qualname__, sorted(k.kernel._carried))"],
            input=pickle.dumps(kernel[2, 3]), capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
        """
    )
    result = _run_as_main(script)
    assert "(2, 1, 1) kernel [('array(int64, 1d, C)',)]" in result.stdout, result.stdout


def _cached_kernel():
    @cuda.jit(cache=True)
    def add_one(out, x):
        out[0] = x[0] + 1.0

    return add_one


def test_the_kernel_cache_key_covers_the_device_library(tmp_path, monkeypatch):
    monkeypatch.setattr(taipan.config, "CACHE_DIR", str(tmp_path))
    argument_types = [float32[::1], float32[::1]]
    _cached_kernel().specialize_for(argument_types)
    again = _cached_kernel()
    again.specialize_for(argument_types)
    assert again._cache.stats == (1, 0)  # the same library: a hit
    monkeypatch.setattr(compiler, "_device_library_digest", ["another library's text"])
    changed = _cached_kernel()
    changed.specialize_for(argument_types)
    assert changed._cache.stats == (0, 1)  # a changed library: a miss, compiled again
    assert len(list(tmp_path.rglob("*.taipan"))) == 2


def test_the_device_library_digest_is_its_source_texts():
    import hashlib

    path = os.path.join(os.path.dirname(cuda.__file__), "device_runtime.py")
    with open(path, "rb") as source:
        assert compiler.device_library_digest() == hashlib.sha256(source.read()).hexdigest()


@needs_gpu
def test_device_uuid_reads_as_nvidia_smi_prints_it():
    uuid = cuda.get_current_device().uuid
    assert re.fullmatch(r"GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", uuid)


@needs_gpu
def test_context_streams_and_external_streams():
    context = cuda.current_context()
    assert repr(context.get_default_stream()) == "<Default CUDA stream>"
    assert int(context.get_legacy_default_stream()) == 1
    assert int(context.get_per_thread_default_stream()) == 2
    made = cuda.stream()
    external = context.create_external_stream(int(made))
    assert external.external and int(external) == int(made)
    with pytest.raises(TypeError, match="must be an int"):
        context.create_external_stream(made)


def _cuda_core_stand_in(name, **attributes):
    """An object of a class named and placed as cuda.core's (which this machine may lack)."""
    kind = type(name, (), {"__module__": "cuda.core._memory"})
    value = kind()
    for key, item in attributes.items():
        setattr(value, key, item)
    return value


def test_cuda_core_buffers_and_strided_views_are_kernel_arrays():
    from taipan.cuda.launcher import cuda_core_view

    buffer = _cuda_core_stand_in(
        "Buffer", size=10, handle=0x7F0000000000, is_device_accessible=True
    )
    view = cuda_core_view(buffer)
    assert (view.shape, view.dtype) == ((10,), np.uint8)
    assert view.__cuda_array_interface__["data"][0] == 0x7F0000000000
    strided = _cuda_core_stand_in(
        "StridedMemoryView",
        ptr=0x7F0000001000,
        shape=(2, 3),
        strides=(1, 2),  # in elements, as cuda.core counts them
        dtype=np.dtype(np.float64),
        readonly=False,
        is_device_accessible=True,
    )
    view = cuda_core_view(strided)
    assert (view.shape, view.strides, view.dtype) == ((2, 3), (8, 16), np.float64)
    contiguous = _cuda_core_stand_in(
        "StridedMemoryView",
        ptr=0x7F0000002000,
        shape=(4,),
        strides=None,
        dtype=np.dtype(np.int32),
        readonly=True,
        is_device_accessible=True,
    )
    assert cuda_core_view(contiguous).strides == (4,)
    assert cuda_core_view(np.zeros(3)) is None


def test_cuda_core_host_buffers_are_refused():
    from taipan.cuda.launcher import cuda_core_view
    from taipan.errors import TypingError

    host = _cuda_core_stand_in("Buffer", size=4, handle=0x1000, is_device_accessible=False)
    with pytest.raises(TypingError, match="Buffer of host memory"):
        cuda_core_view(host)


@needs_gpu
def test_kernels_take_cuda_core_buffers_on_the_gpu():
    core = pytest.importorskip("cuda.core")

    @cuda.jit
    def fill(buffer, count):
        i = cuda.grid(1)
        if i < len(buffer):
            buffer[i] = i + 1
        if i == 0:
            count[0] = len(buffer)

    memory = cuda.device_array(12, np.uint8)
    address = memory.__cuda_array_interface__["data"][0]
    buffer = core.Buffer.from_handle(address, size=12)
    count = cuda.device_array(1, np.int64)
    fill[1, 32](buffer, count)
    np.testing.assert_array_equal(memory.copy_to_host(), np.arange(1, 13, dtype=np.uint8))
    assert count.copy_to_host()[0] == 12


class _ExportedOnStream:
    """Another library's array whose interface names the stream that wrote it."""

    def __init__(self, address, stream_handle):
        self.__cuda_array_interface__ = {
            "shape": (4,),
            "strides": None,
            "typestr": "<f4",
            "data": (address, False),
            "version": 3,
            "stream": stream_handle,
        }


def test_a_producer_stream_is_waited_for_through_stream_synchronize(monkeypatch):
    waited = []
    monkeypatch.setattr(streams.Stream, "synchronize", lambda self: waited.append(self.handle))
    exported = _ExportedOnStream(0x7F0000000000, 0x5000)
    streams.wait_for_producer(exported.__cuda_array_interface__)
    streams.wait_for_producer(exported.__cuda_array_interface__, cuda.external_stream(0x5000))
    legacy = dict(exported.__cuda_array_interface__, stream=1)
    streams.wait_for_producer(legacy)  # the default stream follows the legacy one already
    assert waited == [0x5000]
    monkeypatch.setattr(taipan.config, "CUDA_ARRAY_INTERFACE_SYNC", False)
    streams.wait_for_producer(exported.__cuda_array_interface__)
    assert waited == [0x5000]  # numba-cuda's setting: the consumer does not wait


@needs_gpu
def test_launches_wait_for_producers_through_stream_synchronize(monkeypatch):
    @cuda.jit
    def read(x, y):
        pass

    first, second = cuda.stream(), cuda.stream()
    a = cuda.device_array(4, np.float32, stream=first)
    b = cuda.device_array(4, np.float32, stream=second)
    address = lambda array: array.__cuda_array_interface__["data"][0]
    waited = []
    monkeypatch.setattr(streams.Stream, "synchronize", lambda self: waited.append(self.handle))
    read[1, 1](
        _ExportedOnStream(address(a), first.handle), _ExportedOnStream(address(b), second.handle)
    )
    assert waited == [first.handle, second.handle]
    read[1, 1, first](
        _ExportedOnStream(address(a), first.handle), _ExportedOnStream(address(b), first.handle)
    )
    assert waited == [first.handle, second.handle]  # ordered on the producer's stream already


def test_a_local_cuda_ufunc_pickles_with_plain_pickle():
    def make():
        @cuda.vectorize(["intp(intp)", "float64(float64)"])
        def doubled(x):
            return x * 2

        return doubled

    ufunc = make()
    restored = pickle.loads(pickle.dumps(ufunc))
    assert type(restored) is type(ufunc)
    assert restored.types == ufunc.types and restored.__name__ == "doubled"
    assert restored.py_func(21) == 42


def test_without_cloudpickle_main_kernels_and_recursive_functions_still_pickle():
    script = textwrap.dedent(
        """
        import pickle, subprocess, sys
        sys.modules["cloudpickle"] = None  # not installed
        from taipan import cuda, int64, njit

        STEP = 2

        @njit
        def countdown(n):
            return 0 if n == 0 else countdown(n - 1) + STEP

        @cuda.jit
        def kernel(out):
            out[0] = countdown(3)

        payload = pickle.dumps((countdown, kernel))
        child = subprocess.run(
            [sys.executable, "-c",
             "import pickle, sys; sys.modules['cloudpickle'] = None; "
             "f, k = pickle.loads(sys.stdin.buffer.read()); "
             "print(f(4), k.py_func.__name__)"],
            input=payload, capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
        """
    )
    result = _run_as_main(script)
    assert "8 kernel" in result.stdout, result.stdout


def test_a_kernel_given_a_signature_pickles_with_its_ptx():
    @cuda.jit(device=True)
    def inner(a):
        return a + 1

    @cuda.jit("void(intp[:])")
    def kernel(arr):
        arr[0] = inner(arr[0])

    state = kernel.__reduce__()[2]
    assert state["compiled"] == {}  # no CPU object code: the kernels' PTX travels instead
    (entry,) = state["kernels"].values()
    assert ".entry" in entry["ptx"]
    assert pickle.loads(pickle.dumps(kernel)) is kernel


def test_pre_launch_callbacks_make_a_configuration_its_own_and_refuse_pickling():
    @cuda.jit
    def kernel(out):
        out[0] = 1

    configured = kernel[5, 8]
    assert kernel[5, 8] is configured  # kept per configuration while it has no callbacks
    assert configured.pre_launch_callbacks == []
    configured.pre_launch_callbacks.append(lambda launched, launch_config: None)
    assert kernel[5, 8] is not configured  # a later kernel[5, 8] has no callbacks
    assert kernel[5, 8].pre_launch_callbacks == []
    with pytest.raises(pickle.PicklingError, match="pre-launch callbacks"):
        pickle.dumps(configured)
    pickle.dumps(kernel[5, 8])


def test_pre_launch_callbacks_run_in_the_simulators_launches():
    from taipan.cuda.simulator import launch as simulated

    calls = []

    kernel = types.SimpleNamespace(_launchers={})
    launcher = simulated._Launcher(kernel, (1, 1, 1), (1, 1, 1), 0, 0)
    launcher.pre_launch_callbacks.append(lambda kernel, config: calls.append(config))
    launcher.run_pre_launch_callbacks(launcher.kernel)
    assert calls == [launcher]


@needs_gpu
def test_pre_launch_callbacks_run_before_each_launch_on_the_gpu():
    @cuda.jit
    def kernel(out):
        out[0] += 1

    seen = []
    out = cuda.to_device(np.zeros(1, np.int64))
    configured = kernel[1, 1]
    configured.pre_launch_callbacks.append(lambda launched, config: seen.append(launched))
    configured(out)
    configured(out)
    kernel[1, 1](out)  # a fresh configuration: no callbacks
    assert len(seen) == 2 and out.copy_to_host()[0] == 3
