"""A small data-frame-like column store that compiles users' row functions with taipan, the way
cuDF embeds Numba as its UDF compiler (the talk "Accelerated Python with Numba": ``haversine_dist
(row, lat, lon)`` applied to a frame's rows).

``ColumnStore({"lat1": a, "lon1": b}).apply(udf, *args)`` calls ``udf(row, *args)`` for every
row and returns the results as an array. ``row`` is a record of the store's columns (a NumPy
record type: ``row["lat1"]``), ``args`` are numbers, the same for every row.

On the GPU (``target="cuda"``) the engine

1. compiles the row function alone to PTX, ``cuda.compile(udf, (row_type, *arg_types),
   device=True, abi="c")``: a C function ``T udf_<name>_<n>(row *, args...)``;
2. declares it to taipan with ``cuda.declare_device`` (a record passes as the address of its
   bytes, as the C function takes it) and links that PTX into a kernel template
   (``@cuda.jit(link=[PTXSource(ptx)])``), whose thread ``i`` gathers row ``i`` from the
   columns into a record in local memory and calls the function;
3. launches the template over the rows, the columns and results staying on the device.

On the CPU (``target="cpu"``) it compiles the row function into a C callback with ``cfunc``
(``T entry(row *, args...)``) and calls it, through its address, from a compiled loop over the
rows: what an engine written in C++ would do with the address.

``link="device"`` (the only way in the CUDA simulator, which cannot run PTX) calls the row
function as a taipan device function from the same template instead of linking its PTX.

Each compilation is kept, by (function, argument types, target, link); ``timings`` holds the
seconds each step took, for ``run_on_gpu.py``.
"""

import ctypes
import itertools
import linecache
import time

import numpy as np

from taipan import carray, cfunc, config, cuda, from_dtype, njit, typeof, types
from taipan.cuda.linking import PTXSource

_serial = itertools.count()


def _define(text, namespace):
    """Runs generated source ``text`` in ``namespace`` under a file name of its own, registered
    with linecache so that taipan reads the functions' source as it reads a file's."""
    filename = f"<udf_engine generated {next(_serial)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 (the engine's own templates)
    return namespace


def _ctype(number_type):
    return np.ctypeslib.as_ctypes_type(np.dtype(str(number_type)))


class CompiledUDF:
    """A row function compiled for one store's row type and argument types: ``run(columns,
    out, args)`` applies it; ``timings`` holds {step: seconds}; ``ptx`` the row function's PTX
    (GPU, link='ptx')."""

    def __init__(self, run, return_type, timings, ptx=None, kernel=None):
        self.run = run
        self.return_type = return_type
        self.timings = timings
        self.ptx = ptx
        self.kernel = kernel


class ColumnStore:
    """Named columns of equal length (1-D NumPy arrays of numbers)."""

    def __init__(self, columns):
        if not columns:
            raise ValueError("a ColumnStore needs at least one column")
        self.columns = {name: np.ascontiguousarray(values) for name, values in columns.items()}
        lengths = {len(values) for values in self.columns.values()}
        if len(lengths) != 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        for name, values in self.columns.items():
            if values.ndim != 1 or values.dtype.kind not in "biuf":
                raise TypeError(f"column {name!r} is not a 1-D array of numbers")
            if not name.isidentifier():
                raise ValueError(f"column name {name!r} is not a Python identifier")
        self.row_dtype = np.dtype([(n, v.dtype) for n, v in self.columns.items()], align=True)
        self.row_type = from_dtype(self.row_dtype)
        self._device_columns = None
        self._compiled = {}

    def __len__(self):
        return len(next(iter(self.columns.values())))

    def to_device(self):
        """Copies the columns to the GPU once; later GPU applies read them there."""
        if self._device_columns is None:
            self._device_columns = [cuda.to_device(v) for v in self.columns.values()]
        return self._device_columns

    def compile(self, udf, arg_types, target="cuda", link=None):
        """The CompiledUDF of ``udf`` for this store's rows and ``arg_types``."""
        if link is None:
            link = "device" if config.ENABLE_CUDASIM else "ptx"
        if target not in ("cuda", "cpu"):
            raise ValueError(f"target must be 'cuda' or 'cpu', not {target!r}")
        if link not in ("ptx", "device"):
            raise ValueError(f"link must be 'ptx' or 'device', not {link!r}")
        key = (udf, tuple(arg_types), target, link if target == "cuda" else None)
        if key not in self._compiled:
            if target == "cpu":
                self._compiled[key] = self._compile_cpu(udf, tuple(arg_types))
            else:
                self._compiled[key] = self._compile_cuda(udf, tuple(arg_types), link)
        return self._compiled[key]

    def apply(self, udf, *args, target="cuda", link=None):
        """``udf(row, *args)`` for every row: a NumPy array (CPU) or a device array (GPU)."""
        arg_types = tuple(typeof(a) for a in args)
        compiled = self.compile(udf, arg_types, target, link)
        dtype = np.dtype(str(compiled.return_type))
        if target == "cpu":
            out = np.empty(len(self), dtype=dtype)
            compiled.run(list(self.columns.values()), out, args)
        else:
            out = cuda.device_array(len(self), dtype=dtype)
            compiled.run(self.to_device(), out, args)
        return out

    def _template_names(self, count):
        columns = [f"column{i}" for i in range(len(self.columns))]
        arguments = [f"argument{i}" for i in range(count)]
        gathers = "\n".join(
            f"        row[0][{name!r}] = {column}[i]" for name, column in zip(self.columns, columns)
        )
        return columns, arguments, gathers

    def _compile_cuda(self, udf, arg_types, link):
        timings = {}
        start = time.perf_counter()
        ptx = None
        if link == "ptx":
            symbol = f"udf_{udf.__name__}_{next(_serial)}"
            ptx, return_type = cuda.compile(
                udf,
                (self.row_type, *arg_types),
                device=True,
                abi="c",
                abi_info={"abi_name": symbol},
            )
            # the row is passed as the address of its bytes, as the C function takes it
            function = cuda.declare_device(symbol, return_type(self.row_type, *arg_types), abi="c")
            links = [PTXSource(ptx, name=symbol)]
        else:
            function = cuda.jit(device=True)(udf)
            return_type = self._return_type(udf, arg_types)
            links = []
        timings["compile row function"] = time.perf_counter() - start
        columns, arguments, gathers = self._template_names(len(arg_types))
        text = (
            f"def apply_{udf.__name__}(out, {', '.join(columns + arguments)}):\n"
            "    i = cuda.grid(1)\n"
            "    if i < out.size:\n"
            "        row = cuda.local.array(1, row_dtype)\n"
            f"{gathers}\n"
            f"        out[i] = udf(row[0], {', '.join(arguments)})\n"
        )
        namespace = {"cuda": cuda, "row_dtype": self.row_dtype, "udf": function}
        template = _define(text, namespace)[f"apply_{udf.__name__}"]
        kernel = cuda.jit(link=links)(template)

        def run(device_columns, out, args, threads=256):
            blocks = (len(out) + threads - 1) // threads
            kernel[blocks, threads](out, *device_columns, *args)

        return CompiledUDF(run, return_type, timings, ptx=ptx, kernel=kernel)

    def _return_type(self, udf, arg_types):
        dispatcher = njit(udf)
        dispatcher.compile((self.row_type, *arg_types))
        return dispatcher.nopython_signatures[0].return_type

    def _compile_cpu(self, udf, arg_types):
        timings = {}
        start = time.perf_counter()
        return_type = self._return_type(udf, arg_types)
        arguments = [f"argument{i}" for i in range(len(arg_types))]
        text = (
            f"def entry_{udf.__name__}(row_pointer, {', '.join(arguments)}):\n"
            f"    return udf(carray(row_pointer, 1)[0], {', '.join(arguments)})\n"
        )
        namespace = {"carray": carray, "udf": njit(udf)}
        entry = _define(text, namespace)[f"entry_{udf.__name__}"]
        signature = return_type(types.CPointer(self.row_type), *arg_types)
        callback = cfunc(signature)(entry)
        # What an engine in C would hold: the callback's address and its C prototype.
        prototype = ctypes.CFUNCTYPE(
            _ctype(return_type), ctypes.c_void_p, *[_ctype(t) for t in arg_types]
        )
        function = prototype(callback.address)
        timings["compile row function (cfunc)"] = time.perf_counter() - start
        columns, arguments, gathers = self._template_names(len(arg_types))
        text = (
            f"def apply_{udf.__name__}(out, {', '.join(columns + arguments)}):\n"
            "    row = np.empty(1, row_dtype)\n"
            "    address = row.ctypes.data\n"
            "    for i in range(out.size):\n"
            f"{gathers}\n"
            f"        out[i] = udf(address, {', '.join(arguments)})\n"
        )
        namespace = {"np": np, "row_dtype": self.row_dtype, "udf": function}
        loop = njit(_define(text, namespace)[f"apply_{udf.__name__}"])

        def run(columns, out, args):
            loop(out, *columns, *args)

        return CompiledUDF(run, return_type, timings, kernel=loop)
