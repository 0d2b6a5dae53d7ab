"""Device memory shared with other processes of the machine: numba-cuda's IPC API
(``DeviceNDArray.get_ipc_handle()``, ``Context.get_ipc_handle(memory)``, ``IpcHandle`` with
``open``/``open_array``/``open_staged``/``close``, pickled to the other process, and
``cuda.open_ipc_array``).

taipan's device memory comes from a stream-ordered pool per device, which the driver's legacy
IPC handles (cuIpcGetMemHandle) do not cover. The pools are made exportable (a POSIX file
descriptor handle type), and a handle carries the pool's 64 bytes of export data for the
allocation (cuMemPoolExportPointer; numba-cuda's ``handle.reserved``), its offset, size, the
source device's UUID and the exporting process's id. The importing process needs the pool too:
it asks the exporter for the pool's file descriptor over a Unix socket of the exporter (an
abstract name holding its process id), which a daemon thread serves (SCM_RIGHTS) to processes
of the same user, from the first export on. Memory from cuMemAlloc (devices without pools)
travels as a legacy IPC handle and needs no exporter.

A handle's bare 64 bytes (``cuda.open_ipc_array(handle.reserved, ...)``) do not name their
exporter, so the importer asks: the parent process first, then every process serving taipan's
socket, each of which answers whether one of its exports made these bytes (it keeps them while
the exported allocation lives). Bytes nobody claims are a legacy handle."""

import contextlib
import os
import re
import threading
import weakref

import numpy as np

from taipan import _core
from taipan.cuda import api, driver
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.devices import current_context, gpus
from taipan.cuda.interop import ForeignMemory


class IpcMemHandle:
    """The 64 bytes of a handle (numba-cuda's ``CUipcMemHandle``, whose ``reserved`` its users
    read and pickle)."""

    def __init__(self, reserved):
        self.reserved = bytes(reserved)
        if len(self.reserved) != 64:
            raise ValueError(f"an IPC handle is 64 bytes, not {len(self.reserved)}")


def _socket_name(pid):
    return f"\0taipan-cuda-ipc-{pid}"


# The exporter's side: the pools' file descriptors by device ordinal, the device ordinal of each
# exported allocation's 64 bytes (while the allocation lives), and the serving thread.
_pool_descriptors = {}
_exported_bytes = {}
_server_lock = threading.Lock()
_server = []

# A request is a device ordinal (4 bytes, little-endian), or BY_BYTES and an export's 64 bytes:
# "the pool of the device whose export made these". The answer is b"ok", the ordinal and the
# pool's descriptor, or b"no".
BY_BYTES = 0xFFFFFFFF


def _receive(connection, count):
    import socket

    return connection.recv(count, socket.MSG_WAITALL)


def _answer(connection):
    import socket

    ordinal = int.from_bytes(_receive(connection, 4), "little")
    if ordinal == BY_BYTES:
        ordinal = _exported_bytes.get(_receive(connection, 64))
    descriptor = _pool_descriptors.get(ordinal)
    if descriptor is None:
        connection.sendall(b"no")
    else:
        socket.send_fds(connection, [b"ok" + ordinal.to_bytes(4, "little")], [descriptor])


def _serve(listener):
    import socket
    import struct

    while True:
        connection, _ = listener.accept()
        with connection:
            try:
                credentials = connection.getsockopt(
                    socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")
                )
                # Another user's process gets nothing.
                if struct.unpack("3i", credentials)[1] == os.getuid():
                    _answer(connection)
            except OSError:
                continue


def serve_pool(ordinal, descriptor=None):
    """Makes device `ordinal`'s pool (its exported file descriptor, or `descriptor`) available
    to other processes of this user."""
    import socket  # here: importing taipan.cuda does without it

    with _server_lock:
        if ordinal not in _pool_descriptors:
            _pool_descriptors[ordinal] = (
                _core.cuda_ipc_export_pool(ordinal) if descriptor is None else descriptor
            )
        if not _server:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(_socket_name(os.getpid()))
            listener.listen(16)
            thread = threading.Thread(
                target=_serve, args=(listener,), name="taipan-cuda-ipc", daemon=True
            )
            thread.start()
            _server.append((listener, thread))


def record_export(data, ordinal, *holders):
    """Answers for `data` (an export's 64 bytes of device `ordinal`'s pool) while the first of
    `holders` that can be weakly referenced lives (the exported allocation, else its handle)."""
    data = bytes(data)
    _exported_bytes[data] = ordinal
    for holder in holders:
        try:
            weakref.finalize(holder, _exported_bytes.pop, data, None)
            return
        except TypeError:
            continue


# The importer's side: pools imported from other processes, by (process id, device ordinal).
_imported_pools = {}


def _ask(pid, request):
    """(device ordinal, pool file descriptor) that process `pid` answers to `request`, or None
    when it does not share that pool; the caller closes the descriptor."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(30)  # a stuck exporter must not hang the importer
        try:
            connection.connect(_socket_name(pid))
            connection.sendall(request)
            message, descriptors, _, _ = socket.recv_fds(connection, 16, 1)
        except OSError as error:
            raise RuntimeError(
                f"the process {pid} that made this IPC handle does not answer ({error}): "
                "it must still be running, and hold the memory, while others open it"
            ) from None
    if message[:2] != b"ok" or not descriptors:
        return None
    return int.from_bytes(message[2:6], "little"), descriptors[0]


def pool_descriptor_from(pid, ordinal):
    """A file descriptor of device `ordinal`'s pool, asked of process `pid` (which exported
    memory of it); the caller closes it."""
    answer = _ask(pid, int(ordinal).to_bytes(4, "little"))
    if answer is None:
        raise RuntimeError(f"the process {pid} does not share device {ordinal}'s memory")
    return answer[1]


def _keep_pool(pid, ordinal, descriptor):
    """Imports a pool's descriptor once per (process, device); closes the descriptor."""
    key = (pid, ordinal)
    try:
        if key not in _imported_pools:
            _imported_pools[key] = _core.cuda_ipc_import_pool(descriptor)
    finally:
        os.close(descriptor)
    return _imported_pools[key]


def _imported_pool(pid, ordinal):
    pool = _imported_pools.get((pid, ordinal))
    if pool is None:
        pool = _keep_pool(pid, ordinal, pool_descriptor_from(pid, ordinal))
    return pool


def _serving_processes():
    """Process ids of the other processes serving taipan's IPC socket, the parent first."""
    try:
        with open("/proc/net/unix") as table:
            listed = re.findall(r"@taipan-cuda-ipc-(\d+)$", table.read(), re.MULTILINE)
    except OSError:
        listed = []
    others = sorted({int(pid) for pid in listed} - {os.getpid(), os.getppid()})
    return [os.getppid(), *others]


def exporter_of(data):
    """(process id, device ordinal) of the process whose pool export made these 64 bytes, its
    pool imported; None when no process claims them (a legacy handle)."""
    request = BY_BYTES.to_bytes(4, "little") + bytes(data)
    for pid in _serving_processes():
        try:
            answer = _ask(pid, request)
        except RuntimeError:
            continue  # the parent need not be a taipan exporter
        if answer is not None:
            _keep_pool(pid, *answer)
            return pid, answer[0]
    return None


class IpcHandle:
    """numba-cuda's IPC handle of device memory: ``base`` (the exported memory, kept alive; None
    once pickled), ``handle`` (``.reserved``: 64 bytes), ``size``, ``source_info`` (the source
    device's UUID), ``offset`` (of the memory in its allocation). Open it once at a time."""

    def __init__(self, base, handle, size, source_info=None, offset=0, exporter=None):
        self.base = base
        self.handle = handle
        self.size = size
        self.source_info = source_info
        self.offset = offset
        # (process id, device ordinal) of memory from a pool; None for a legacy handle.
        self._exporter = exporter
        self._opened = None  # (address, pooled, copied) while open

    def can_access_peer(self, context):
        """Whether `context`'s device is the source device (opened in place)."""
        return self.source_info is None or self.source_info == context.device.uuid

    def _import(self):
        pooled = self._exporter is not None
        pool = _imported_pool(*self._exporter) if pooled else 0
        return _core.cuda_ipc_open(pooled, self.handle.reserved, pool), pooled

    def open_direct(self, context):
        """The memory, opened in place (same device), as a MemoryPointer."""
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")
        base, pooled = self._import()
        self._opened = (base, pooled, None)
        return api.memory.MemoryPointer(context, base + self.offset, self.size, owner=self)

    def open_staged(self, context):
        """A copy of the memory on `context`'s device (numba-cuda's way to devices that cannot
        reach the source device's memory), as a MemoryPointer."""
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")
        source = _device_of(self.source_info)
        with gpus[source] if source is not None else _nothing():
            base, pooled = self._import()
            try:
                host = np.empty(self.size, np.uint8)
                _core.cuda_copy_to_host(host, base + self.offset, None)
            finally:
                _core.cuda_ipc_close(pooled, base)
        copy = _core.cuda_allocate(self.size, 0, None)
        _core.cuda_copy_to_device(copy.pointer, host, None)
        self._opened = (None, pooled, copy)
        return api.memory.MemoryPointer(context, copy.pointer, self.size, owner=copy)

    def open(self, context):
        """The memory in `context`: in place on its own device, else a copy."""
        if self.can_access_peer(context):
            return self.open_direct(context)
        return self.open_staged(context)

    def open_array(self, context, shape, dtype, strides=None):
        """The memory as a device array of this layout (1-D contiguous by default)."""
        dtype = np.dtype(dtype)
        memory = self.open(context)
        if isinstance(strides, int):
            strides = (strides,)
        return DeviceNDArray(shape, strides, dtype, ForeignMemory(memory.pointer, memory))

    def close(self):
        """Gives the opened memory back (arrays opened from it must not be used after)."""
        if self._opened is None:
            raise ValueError("IpcHandle not opened")
        base, pooled, _ = self._opened
        self._opened = None
        if base is not None:
            _core.cuda_ipc_close(pooled, base)

    def __reduce__(self):
        state = (self.handle.reserved, self.size, self.source_info, self.offset, self._exporter)
        return _rebuild_handle, state


def _rebuild_handle(reserved, size, source_info, offset, exporter):
    return IpcHandle(None, IpcMemHandle(reserved), size, source_info, offset, exporter)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exception):
        return False


def _device_of(uuid):
    """The ordinal of the device with this UUID in this process, or None."""
    for device in gpus:
        if device.uuid == uuid:
            return device.id
    return None


def get_ipc_handle(manager, memory):
    """An IpcHandle of `memory` (a device array's buffer, a MemoryPointer, another library's
    memory): the allocation holding it, exported."""
    address = api.memory.address_of(getattr(memory, "pointer", None) or memory.device_pointer)
    # taipan's own allocation starts where its buffer does (the driver's range query may give
    # the start of the pool's mapping instead).
    buffer = getattr(memory, "buffer", memory)
    start = buffer.pointer if isinstance(buffer, _core.DeviceBuffer) else 0
    pooled, base, _, data = _core.cuda_ipc_export(address, start)
    ordinal = _core.cuda_pointer_device(address)
    exporter = None
    if pooled:
        serve_pool(ordinal)
        exporter = (os.getpid(), ordinal)
    size = getattr(memory, "size", None)
    if size is None:
        size = getattr(memory, "nbytes", 0)
    handle = IpcHandle(
        memory,
        IpcMemHandle(data),
        int(size),
        driver._core.cuda_device_uuid(ordinal),
        offset=address - base,
        exporter=exporter,
    )
    if pooled:
        record_export(data, ordinal, buffer, memory, handle)
    return handle


def open_array_handle(ipc_handle, layout):
    """A device array's IPC handle opened (api.memory.IpcArrayHandle.open): its memory opened
    in the current context, viewed with the array's layout."""
    memory = ipc_handle.open(current_context())
    return DeviceNDArray(
        layout["shape"],
        layout["strides"],
        layout["dtype"],
        ForeignMemory(memory.pointer, memory),
        offset=layout.get("offset", 0),
    )


def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """numba-cuda's context manager: the memory of an IPC handle given as its 64 bytes (bytes,
    or a sequence of ints), as a device array of this layout, closed on leaving. Pool memory's
    bytes are claimed by the process that exported them (exporter_of); an IpcHandle works too."""

    @contextlib.contextmanager
    def opened():
        if isinstance(handle, IpcHandle):
            ipc = handle
        else:
            data = IpcMemHandle(bytes(handle))
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            exporter = exporter_of(data.reserved)
            ipc = IpcHandle(None, data, size, offset=offset, exporter=exporter)
        array = ipc.open_array(current_context(), shape, dtype, strides)
        try:
            yield array
        finally:
            ipc.close()

    return opened()
