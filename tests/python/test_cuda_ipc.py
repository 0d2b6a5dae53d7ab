"""Device memory shared with other processes (numba-cuda's IPC API, taipan.cuda.ipc): a device
array's ``get_ipc_handle()`` and a context's ``get_ipc_handle(memory)`` give handles that
pickle (``base`` None, the 64 bytes, size, offset kept) and open in a spawned process as the
same memory: whole arrays, slices, another library's view, staged copies; a handle opens once
at a time. Pool memory needs the pool, which the exporting process serves over a Unix socket
to processes of its user: that part runs without a GPU; the rest needs one."""

import concurrent.futures
import multiprocessing
import os
import pickle

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda import ipc
from taipan.cuda import memory as memory_module

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def test_a_handle_is_64_bytes():
    assert ipc.IpcMemHandle(bytes(range(64))).reserved == bytes(range(64))
    with pytest.raises(ValueError, match="64 bytes, not 3"):
        ipc.IpcMemHandle(b"abc")


def test_a_handle_pickles_without_its_base():
    handle = ipc.IpcHandle(
        object(), ipc.IpcMemHandle(b"\x07" * 64), 80, "GPU-x", offset=24, exporter=(1, 0)
    )
    copy = pickle.loads(pickle.dumps(handle))
    assert copy.base is None
    assert (copy.handle.reserved, copy.size, copy.source_info, copy.offset) == (
        b"\x07" * 64,
        80,
        "GPU-x",
        24,
    )
    assert copy._exporter == (1, 0)
    with pytest.raises(ValueError, match="IpcHandle not opened"):
        copy.close()


def _descriptor_in_child(pid, ordinal):
    descriptor = ipc.pool_descriptor_from(pid, ordinal)
    try:
        return os.read(descriptor, 100)
    finally:
        os.close(descriptor)


def test_the_exporting_process_serves_its_pools_descriptor(tmp_path):
    # A file stands in for the pool's descriptor: the child reads it through what it got.
    path = tmp_path / "pool"
    path.write_bytes(b"the pool")
    descriptor = os.open(path, os.O_RDONLY)
    ipc.serve_pool(99, descriptor)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(_descriptor_in_child, os.getpid(), 99).result(60) == b"the pool"
        with pytest.raises(RuntimeError, match="does not share device 98"):
            pool.submit(_descriptor_in_child, os.getpid(), 98).result(60)


def _claims_in_child(data):
    """What this process's parent, asked first, answers for an export's bytes: (ordinal, the
    pool's contents) or None; and what exporter_of makes of bytes nobody claims."""
    parent = ipc._serving_processes()[0]
    answer = ipc._ask(parent, ipc.BY_BYTES.to_bytes(4, "little") + data)
    if answer is not None:
        ordinal, descriptor = answer
        try:
            answer = ordinal, os.read(descriptor, 100)
        finally:
            os.close(descriptor)
    return parent, answer, ipc.exporter_of(b"\x00" * 64)


class Holder:
    """Stands in for an exported allocation."""


def test_the_exporter_claims_the_bytes_of_its_exports_while_they_live(tmp_path):
    path = tmp_path / "pool"
    path.write_bytes(b"pool 96")
    ipc.serve_pool(96, os.open(path, os.O_RDONLY))
    allocation = Holder()
    data = bytes(range(100, 164))
    ipc.record_export(data, 96, allocation)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        parent, answer, unclaimed = pool.submit(_claims_in_child, data).result(60)
        assert parent == os.getpid()
        assert answer == (96, b"pool 96")
        assert unclaimed is None  # nobody's export: a legacy handle
        del allocation  # the allocation is gone: its bytes are nobody's
        assert pool.submit(_claims_in_child, data).result(60)[1] is None
    assert data not in ipc._exported_bytes


def test_a_process_that_does_not_serve_is_reported():
    with pytest.raises(RuntimeError, match="does not answer"):
        ipc.pool_descriptor_from(2**22 + 12345, 0)


# --- on a GPU, through spawned processes -------------------------------------------------------


def _open_array(handle):
    with handle as array:
        values = array.copy_to_host()
        with pytest.raises(ValueError, match="IpcHandle is already opened"), handle:
            pass
        array[0:1].copy_to_device(np.array([-1], dtype=values.dtype))  # seen by the exporter
    return values


def _open_memory(handle, itemsize):
    array = handle.open_array(cuda.current_context(), handle.size // itemsize, np.intp)
    values = array.copy_to_host()
    handle.close()
    return values


def _open_staged(handle):
    memory = handle.open_staged(cuda.current_context())
    host = np.zeros(handle.size // 8, np.intp)
    memory_module.device_to_host(host, memory, handle.size)
    handle.close()
    return host


@pytest.fixture(scope="module")
def spawned():
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        yield pool


class Exporter:
    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


@needs_gpu
@pytest.mark.parametrize("index", [slice(None), slice(3, None), slice(3, 8), slice(None, 8)])
@pytest.mark.parametrize("foreign", [False, True])
def test_an_array_opens_in_another_process(spawned, index, foreign):
    whole = cuda.to_device(np.arange(10, dtype=np.intp))
    array = whole[index]
    if foreign:
        array = cuda.as_cuda_array(Exporter(array))
    expected = array.copy_to_host()
    handle = array.get_ipc_handle()
    np.testing.assert_array_equal(spawned.submit(_open_array, handle).result(60), expected)
    # The other process wrote the first element through its view: the same memory.
    assert array.copy_to_host()[0] == -1


@needs_gpu
@pytest.mark.parametrize("index", [slice(None), slice(3, 8)])
def test_a_contexts_handle_of_an_arrays_memory_pickles_and_opens(spawned, index):
    array = cuda.to_device(np.arange(10, dtype=np.intp))[index]
    handle = cuda.current_context().get_ipc_handle(array.gpu_data)
    copy = pickle.loads(pickle.dumps(handle))
    assert copy.base is None and copy.size == handle.size == array.nbytes
    assert copy.handle.reserved == handle.handle.reserved
    opened = spawned.submit(_open_memory, handle, 8).result(60)
    np.testing.assert_array_equal(opened, array.copy_to_host())
    staged = spawned.submit(_open_staged, handle).result(60)
    np.testing.assert_array_equal(staged, array.copy_to_host())


def _open_bare_bytes(data, size, offset, as_ints):
    data = tuple(data) if as_ints else data
    with cuda.open_ipc_array(data, shape=size // 8, dtype=np.intp, offset=offset) as array:
        return array.copy_to_host()


@needs_gpu
@pytest.mark.parametrize("as_ints", [False, True])
def test_an_exports_bare_bytes_open_in_another_process(spawned, as_ints):
    # numba-cuda's test_ipc_handle: only the handle's 64 bytes (or their ints) and the size
    # travel; the exporter is found by asking who made them.
    array = cuda.to_device(np.arange(10, dtype=np.intp))
    handle = cuda.current_context().get_ipc_handle(array.gpu_data)
    data = handle.handle.reserved
    opened = spawned.submit(_open_bare_bytes, data, handle.size, 0, as_ints).result(60)
    np.testing.assert_array_equal(opened, np.arange(10))
    part = spawned.submit(_open_bare_bytes, data, 24, 16, as_ints).result(60)
    np.testing.assert_array_equal(part, [2, 3, 4])
