"""The dispatcher of ``@cuda.jit`` functions: one PTX specialisation per argument-type tuple,
launched with ``kernel[griddim, blockdim, stream, sharedmem](args)``."""

import functools
import hashlib
import pickle
import threading
import time
from types import SimpleNamespace

from taipan import _core
from taipan.cuda import api, compiler, driver, launchconfig, linking
from taipan.cuda.launcher import (
    argument_type,
    cuda_core_view,
    launch,
    warn_implicit_copy,
    warn_low_occupancy,
)
from taipan.cuda.streams import owned_stream, stream_handle
from taipan.dispatcher import CompiledFunction
from taipan.types import Type

_lock = _core.compiler_lock  # kernels compile under it: the one compiler lock
# CUfunction_attribute numbers (cuda.h) of what the dispatcher's get_* methods report.
_MAX_THREADS_PER_BLOCK, _SHARED_SIZE_BYTES, _CONST_SIZE_BYTES, _LOCAL_SIZE_BYTES, _NUM_REGS = range(
    5
)
_PREFERRED_SHARED_CARVEOUT = 9  # CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
# shared_memory_carveout's names, as percentages of shared memory (numba-cuda's).
_CARVEOUTS = {"default": -1, "maxl1": 0, "maxshared": 100}


_converting_kernels = []  # build(dispatcher, key, signature): use_converting_kernels


def same_integer_bits(actual, formal):
    """Whether `actual` and `formal` are arrays of one dimension count whose dtypes are integers
    of one width (int32 and uint32): the same bits, read with another signedness."""
    if actual.kind_name != "Array" or formal.kind_name != "Array" or actual.ndim != formal.ndim:
        return False
    a, f = actual.dtype, formal.dtype
    return a.kind_name == f.kind_name == "Integer" and a.bitwidth == f.bitwidth


def use_converting_kernels(build):
    """Registers how a kernel converting launch arguments to a signature is built
    (kernelgen.converting_kernel, above this module in the import graph); taipan.cuda's GPU
    backend registers it when it is imported."""
    _converting_kernels[:] = [build]


_callback_load_lock = threading.Lock()


def disk_key(job_hash):
    """The disk cache's key of a kernel: its job hash and the device library's source, whose
    code the kernel's PTX holds where it calls library functions."""
    combined = f"{job_hash}:{compiler.device_library_digest()}".encode()
    return hashlib.sha256(combined).hexdigest()


class TypeAnnotation:
    """numba-cuda's ``kernel.type_annotation``: the type of each variable of the kernel
    (``typemap``, by name) and, as its text, the source annotated with them."""

    def __init__(self, text, typemap):
        self.typemap = dict(typemap)
        self._text = text

    def __str__(self):
        return self._text


class Kernel:
    """One compiled specialisation: its PTX, and the loaded function once launched."""

    def __init__(
        self,
        ptx,
        name,
        return_type,
        annotations,
        hash,
        links=(),
        python_name="",
        max_registers=0,
        carveout=None,
    ):
        self.ptx = ptx
        self.name = name
        self.hash = hash  # the job hash: the same in every process for the same code
        self.return_type = return_type
        self.type_annotations = annotations
        self.python_name = python_name or name
        self.max_registers = max_registers  # for the driver's JIT, as numba-cuda's linker gets it
        # shared_memory_carveout as a percentage (-1: the driver's default), set once loaded.
        self.carveout = carveout
        self._handles = {}  # (module, function) by (device, context generation)
        # The dispatcher's stage times for this specialisation: loading adds the driver's part.
        self.timers = {}
        self._cubins = {}  # by compute capability
        self.disk_cache = None  # the FunctionCache keeping this kernel (cache=True)
        self.process_specific = ""
        # cg.this_grid().sync() needs every block resident: a cooperative launch.
        self.cooperative = linking.calls_cooperative_code(ptx)
        # Compiled for one launch configuration (numba-cuda's mark_launch_config_sensitive).
        self.launch_config_sensitive = False
        # The variables' types, when this process compiled the kernel (not for cached code).
        self._type_annotation = None
        # Files to link: the dispatcher's link=, and those of the device functions and
        # declared foreign functions it calls.
        self.external_symbols = linking.external_symbols(ptx)
        self.links = tuple(dict.fromkeys(links))

    def cubin(self):
        """The kernel linked for the current device, with its link= files."""
        key = driver.current_compute_capability()
        cubin = self._cubins.get(key)
        if cubin is None:
            cubin = linking.link_kernel(
                self.ptx, self.name, self.links, self.python_name, self.max_registers
            )
            self._cubins[key] = cubin
        return cubin

    def _cached_cubin(self):
        """The cubin for this GPU from the disk cache, or linked now and written there, so a
        later process skips the driver's PTX compilation too."""
        key = driver.current_compute_capability()
        if key not in self._cubins:
            self.cubin()
            self.disk_cache.save_kernel(disk_key(self.hash), self, self._cubins)
        return self._cubins[key]

    @property
    def library(self):
        """numba-cuda's code library, as far as code reads it: ``get_llvm_str()``, the
        optimised LLVM IR (compiled again: kernels do not keep it)."""
        return SimpleNamespace(get_llvm_str=lambda: self._llvm_ir())

    def _llvm_ir(self):
        raise NotImplementedError("the LLVM IR of code loaded from a cache or a pickle")

    def inspect_llvm(self):
        """The optimised LLVM IR (numba-cuda's per-kernel inspect_llvm; compiled again)."""
        return self._llvm_ir()

    @property
    def _codelibrary(self):
        """numba-cuda's code library, as far as code reads it: the files linked with the kernel
        (``_linking_files``; a grid barrier links nothing, taipan's is its own code)."""
        return SimpleNamespace(_linking_files=set(self.links))

    @property
    def fndesc(self):
        """numba-cuda's function descriptor, as far as taipan has one: the symbol."""
        return SimpleNamespace(
            mangled_name=self.name, llvm_func_name=self.name, qualname=self.python_name
        )

    def inspect_asm(self, cc=None):
        """The kernel's PTX (numba-cuda's per-kernel inspect_asm; one PTX serves every
        compute capability from the one it was compiled for)."""
        return self.ptx

    @property
    def type_annotation(self):
        """The variables' types (numba-cuda's TypeAnnotation), or None for cached code."""
        return self._type_annotation

    def _attribute(self, number):
        """A CUfunction_attribute of the kernel loaded for the current device."""
        return driver.function_attribute(self.function(), number)

    # What numba-cuda's _Kernel reports, read from the driver for the current device.
    regs_per_thread = property(lambda self: self._attribute(_NUM_REGS))
    const_mem_size = property(lambda self: self._attribute(_CONST_SIZE_BYTES))
    shared_mem_per_block = property(lambda self: self._attribute(_SHARED_SIZE_BYTES))
    max_threads_per_block = property(lambda self: self._attribute(_MAX_THREADS_PER_BLOCK))
    local_mem_per_thread = property(lambda self: self._attribute(_LOCAL_SIZE_BYTES))

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """numba-cuda's: the most blocks of `blockdim` (an int or a tuple of up to three) a
        cooperative launch of this kernel may have on the current GPU, with `dynsmemsize`
        bytes of dynamic shared memory: every block must be resident at once."""
        threads = 1
        for extent in blockdim if isinstance(blockdim, tuple) else (blockdim,):
            threads *= extent
        per_multiprocessor = driver.max_active_blocks(self, threads, dynsmemsize)
        return per_multiprocessor * driver.multiprocessor_count()

    def function(self):
        key = (driver.current_device(), driver.context_generation())
        handle = self._handles.get(key)
        if handle is None:
            if self.external_symbols and not self.links:
                raise driver.LinkerError(
                    f"kernel {self.python_name} calls the foreign functions "
                    f"{', '.join(self.external_symbols)}, but nothing is linked: name the files "
                    "defining them in @cuda.jit(link=[...]) or cuda.declare_device(link=[...])"
                )
            start = time.perf_counter()
            image = self.ptx
            if self.links:
                image = self.cubin()
            elif self.disk_cache is not None:
                image = self._cached_cubin()
            if linking.has_module_callbacks(self.links):
                with _callback_load_lock:  # one module (and setup) per context, not per thread
                    handle = self._handles.get(key) or linking.load_with_callbacks(
                        image, self.name, self.links
                    )
                    self._handles[key] = handle
            else:
                handle = self._handles[key] = driver.load_function(
                    image, self.name, self.max_registers
                )
            if self.carveout is not None:
                driver.set_function_attribute(handle, _PREFERRED_SHARED_CARVEOUT, self.carveout)
            stage = "linking and loading (driver)"
            self.timers[stage] = self.timers.get(stage, 0.0) + time.perf_counter() - start
        return handle


def _numba_repr(type_):
    """A type as Numba's repr writes it where it differs from its name: an array is
    ``Array(float64, 1, 'C', False, aligned=True)`` (taipan's arrays are aligned)."""
    if type_.kind_name == "Array":
        return (
            f"Array({type_.dtype}, {type_.ndim}, '{type_.layout}', {type_.readonly}, aligned=True)"
        )
    return str(type_)


class CUDADispatcher(CompiledFunction, api.LaunchableKernel):
    """A kernel or device function."""

    _device_code = True

    def __init__(self, py_func, options, signatures=None):
        super().__init__(py_func, options)
        # debug=True checks bounds, as in Numba, so index errors reach the host too.
        self.targetoptions["boundscheck"] = bool(options.get("boundscheck") or options.get("debug"))
        self.targetoptions["error_model"] = compiler.error_model(
            options.get("debug"), options.get("fastmath")
        )
        self._kernels = {}
        # The argument types a kernel called this function with (its code compiled into the
        # kernel's), which numba-cuda lists among its overloads: the device function compiled
        # alone once looked at (None until then).
        self._called_with = {}
        self._launchers = {}
        self._jit_options = dict(options)
        # Kernels depending on their launch configuration, by (types, configuration).
        self._sensitive = {}
        # numba-cuda's argument handlers: each launch's arguments go through their
        # prepare_args (in Python), the last registered first.
        self.extensions = list(options.get("extensions") or ())
        carveout = options.get("shared_memory_carveout")
        self._carveout = _CARVEOUTS[carveout.lower()] if isinstance(carveout, str) else carveout
        # numba-cuda's specialisations: (compute capability, argument types) -> dispatcher.
        self.specializations = {}
        # One signature given (not a list), or made by specialize(): compiled for it only.
        self._specialized = False
        # Every call from Python goes to _compile_for_args, which explains how to launch.
        _core.configure_dispatcher(self, [], None, False, True)
        self._explicit_kernels = False
        self._converting = {}
        self._compile_signatures(signatures or ())
        # Given signatures, a launch must fit one of them (numba-cuda's rule, see specialize_for);
        # types one takes through conversions launch a converting kernel, kept apart.
        self._explicit_kernels = bool(signatures) and not self.device
        self._given = list(self._kernels)
        # A device function given signatures compiles no others either: a call from a kernel
        # converts its arguments to the signature they fit best
        # (taipan.dispatcher.explicit_signature_for, through _best_signature and _overloads).
        self._explicit = bool(signatures) and self.device

    @property
    def _overloads(self):
        """The given signatures' device functions, by argument types (their return types
        are what a call from compiled code converts the result to)."""
        return {key: self._kernels[key] for key in self._given}

    def _best_signature(self, key, signatures=None, allow_ambiguous=False):
        """The given signature argument types `key` convert to best (CompiledFunction's
        rule). Without `signatures`, for a call of this device function from compiled code:
        a tie between the best resolves to the first given, as numba-cuda's typing of the call
        does (numba#8307; its test_explicit_signatures_device_ambiguous), and a refusal names
        the call as numba-cuda's typing error does ("Invalid use of type ... with parameters
        (...)")."""
        if signatures is not None:
            return super()._best_signature(key, signatures, allow_ambiguous)
        try:
            return super()._best_signature(key, self._given, allow_ambiguous=True)
        except TypeError as error:
            wanted = ", ".join(str(t) for t in key)
            raise TypeError(
                f"Invalid use of type(CUDADispatcher({self.py_func!r})) with parameters "
                f"({wanted}): {error}"
            ) from None

    def _ambiguity(self, key, tied):
        """numba-cuda's message: the function, then the argument types and each tied
        signature as Numba's types print (repr) them, with its return type."""

        def described(types):
            return "(" + ", ".join(_numba_repr(t) for t in types) + ")"

        lines = [f"Ambiguous overloading for {self.py_func!r} {described(key)}:"]
        for signature in tied:
            kernel = self._kernels.get(signature)
            returned = kernel.return_type if kernel is not None else "none"
            lines.append(f"{described(signature)} -> {returned}")
        return "\n".join(lines)

    @property
    def device(self):
        return bool(self.targetoptions.get("device"))

    @property
    def specialized(self):
        """Whether this dispatcher was made for one signature (``cuda.jit(signature)`` or
        ``specialize``): it cannot be specialised again."""
        return self._specialized

    def specialize(self, *args):
        """numba-cuda's ``specialize``: a dispatcher compiled for the types of `args` (values,
        or taipan types), one per compute capability and types, kept in ``specializations``."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        types = tuple(a if isinstance(a, Type) else argument_type(a) for a in args)
        key = (driver.target_compute_capability(), types)
        specialization = self.specializations.get(key)
        if specialization is None:
            specialization = CUDADispatcher(self.py_func, self._jit_options, [types])
            specialization._specialized = True
            self.specializations[key] = specialization
        return specialization

    def _property(self, name, signature):
        """A kernel property (numba-cuda's get_regs_per_thread and the like): of the kernel of
        `signature`, of the one kernel of a specialised dispatcher, else {types: value}."""
        if signature is not None:
            argument_types, _ = compiler.split_signature(signature)
            return getattr(self._kernels[tuple(argument_types)], name)
        if self._specialized:
            return getattr(next(iter(self._kernels.values())), name)
        return {key: getattr(kernel, name) for key, kernel in self._kernels.items()}

    def get_regs_per_thread(self, signature=None):
        """Registers each thread of the kernel uses on the current device."""
        return self._property("regs_per_thread", signature)

    def get_const_mem_size(self, signature=None):
        """Bytes of constant memory the kernel uses."""
        return self._property("const_mem_size", signature)

    def get_shared_mem_per_block(self, signature=None):
        """Bytes of statically allocated shared memory per block."""
        return self._property("shared_mem_per_block", signature)

    def get_max_threads_per_block(self, signature=None):
        """The most threads per block the kernel can be launched with on the current device."""
        return self._property("max_threads_per_block", signature)

    def get_local_mem_per_thread(self, signature=None):
        """Bytes of local memory each thread uses."""
        return self._property("local_mem_per_thread", signature)

    def _compile_for_args(self, *args, **kwargs):
        """numba-cuda's compilation for a launch's arguments, which the launcher calls (with
        the launch configuration current) for types it has no kernel for; called from Python
        otherwise, the error explains how to launch."""
        config = launchconfig.current_launch_config()
        if config is None or config.dispatcher is not self or kwargs:
            raise api.not_configured(self)
        key = config.types
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self.specialize_for(key)
            if config.sensitive:
                kernel.launch_config_sensitive = True
        elif kernel.launch_config_sensitive:
            with _lock:
                kernel = self._compile_kernel(key)  # for this configuration alone
            kernel.launch_config_sensitive = True
        if kernel.launch_config_sensitive:
            self._sensitive[(key, config.key)] = kernel
        return kernel

    def mark_launch_config_sensitive(self):
        """Marks the kernel compiling for the current launch as depending on its launch
        configuration: launches of other configurations compile it again."""
        launchconfig.ensure_current_launch_config().sensitive = True

    def _kernel_for_launch(self, types, args, launcher):
        """The kernel a launch of these argument types and configuration runs: the one
        compiled for the types (for this configuration, if it depends on it), else compiled
        now through ``_compile_for_args`` with the launch configuration current."""
        key = tuple(types)
        kernel = self._kernels.get(key)
        config = launchconfig.LaunchConfig(self, args, launcher, key)
        if kernel is not None and kernel.launch_config_sensitive:
            kernel = self._sensitive.get((key, config.key))
        if kernel is None:
            with launchconfig.launching(config):
                kernel = self._compile_for_args(*args)
        return kernel

    def _compute_capability(self):
        return driver.target_compute_capability()

    def specialize_for(self, argument_types):
        """The compiled kernel for these argument types: from the kernels a pickle carried, the
        disk cache (cache=True) or a compilation."""
        key = tuple(argument_types)
        with _lock:
            kernel = self._kernels.get(key) or self._converting.get(key)
            if kernel is None and self._explicit_kernels:
                # Types no signature given takes (TypeError: "No matching definition"), or two
                # take equally well (TypeError: ambiguous), are refused as numba-cuda refuses
                # them; types one takes through conversions convert to it.
                as_pointers = self._addresses_as_pointers(key)
                kernel = self._kernels.get(as_pointers)
                if kernel is None:
                    signature = self._signature_for(as_pointers)
                    kernel = self._converting_kernel(as_pointers, signature)
                self._converting[key] = kernel
            if kernel is None:
                kernel = self._carried_kernel(key) or self._cached_kernel(key)
                if kernel is None:
                    kernel = self._compile_kernel(key)
                self._kernels[key] = kernel
                self._report_compilation(key)
            return kernel

    def _addresses_as_pointers(self, key):
        """`key` with an integer argument taken as an address where the given signatures all
        have a pointer (numba-cuda passes a CPointer parameter's value as it is): the two
        have one layout, 64 bits, so the launch lays the integer out as the pointer."""
        pointers = list(key)
        for i, argument in enumerate(key):
            at = {s[i] for s in self._given if len(s) == len(key)}
            if argument.kind_name == "Integer" and argument.bitwidth == 64 and len(at) == 1:
                (parameter,) = at
                if parameter.kind_name == "Pointer":
                    pointers[i] = parameter
        return tuple(pointers)

    def _signature_for(self, key):
        """The given signature a launch with argument types `key` runs: the one they convert
        to best. numba-cuda launches a kernel given one signature (not a list) with its arrays
        as they are, whatever their dtype: an integer array of the signature's width and the
        other signedness is taken as a view of the signature's dtype (the same bits), as there.
        Other arrays of another dtype stay refused (a different width would read other
        memory)."""
        try:
            return self._best_signature(key, self._given)
        except TypeError:
            if not self._specialized or len(self._given) != 1 or len(self._given[0]) != len(key):
                raise
            (signature,) = self._given
            for actual, formal in zip(key, signature):
                same = actual == formal or same_integer_bits(actual, formal)
                if not same and _core.conversion_kind(actual, formal) is None:
                    raise
            return signature

    def _converting_kernel(self, key, signature):
        """The kernel for argument types `key` that the given `signature` takes through
        conversions, as numba-cuda launches them (built by the library layer's
        kernelgen.converting_kernel, which taipan.cuda's GPU backend registers:
        use_converting_kernels)."""
        return _converting_kernels[0](self, key, signature)

    def _make_kernel(self, ptx, name, annotations, job_hash):
        return Kernel(
            ptx,
            name,
            None,
            annotations,
            job_hash,
            links=self.link_files(),
            python_name=self.__name__,
            max_registers=self.targetoptions.get("max_registers") or 0,
            carveout=self._carveout,
        )

    def _compile_kernel(self, key):
        compiled = compiler.compile_source(
            self._function_source(), key, self._compute_capability(), device=self.device
        )
        ptx, name, return_type, annotations, job_hash = compiled[:5]
        kernel = self._make_kernel(ptx, name, annotations, job_hash)
        kernel.return_type = return_type
        kernel.timers = self._record_times(key, compiled[6])
        kernel.process_specific = compiled[7]
        kernel._type_annotation = TypeAnnotation(annotations, compiled[8])
        kernel._llvm_ir = functools.partial(self._llvm_ir, key, self.device)
        for callee, argument_types in compiled[9]:
            if isinstance(callee, CUDADispatcher):
                callee._called_with.setdefault(tuple(argument_types))
        if self._caches_kernels():
            if kernel.process_specific:
                # numba-cuda refuses to cache what it cannot pickle, in these words.
                raise pickle.PicklingError(
                    f'Cannot cache kernel "{self.__qualname__}" as {kernel.process_specific}'
                )
            kernel.disk_cache = self._cache
            self._cache.save_kernel(disk_key(job_hash), kernel)
        return kernel

    def _caches_kernels(self):
        if not self.targetoptions.get("cache") or self.device:
            return False
        links = self.link_files()
        if links:
            # The cache key covers the kernel's source, not what the linked files hold: a kernel
            # loaded after they changed would run their old code. Refused, in numba-cuda's words.
            raise RuntimeError(
                f'Cannot pickle CUDACodeLibrary with linking files: kernel "{self.__qualname__}" '
                f"links {', '.join(map(str, links))}, which cache=True cannot tell have changed"
            )
        return True

    def _cached_kernel(self, key):
        """The kernel from the disk cache (cache=True): its PTX, and the cubin for this GPU when
        an earlier process linked one; None on a miss."""
        if not self._caches_kernels():
            return None
        job_hash = _core.hash_job(
            self._function_source(), list(key), self._compute_capability(), self.device
        )
        start = time.perf_counter()
        record = self._cache.load_kernel(disk_key(job_hash))
        if record is None:
            return None
        header, blobs = record
        try:
            kernel = self._make_kernel(
                blobs["ptx"].decode(), header["name"], header["annotations"], job_hash
            )
        except (KeyError, UnicodeDecodeError):
            return None
        for label, blob in blobs.items():
            if label.startswith("cubin sm_"):
                digits = label[len("cubin sm_") :]
                kernel._cubins[(int(digits[:-1]), int(digits[-1]))] = blob
        kernel.disk_cache = self._cache
        kernel.timers = self._record_times(
            key, [("loading cached code", time.perf_counter() - start)]
        )
        return kernel

    def _carried_kernel(self, key):
        """A kernel whose PTX a pickle brought (see __reduce__), when it was compiled for this
        argument types and a compute capability this GPU runs; None otherwise."""
        carried = self.__dict__.get("_carried")
        if not carried:
            return None
        entry = carried.pop(tuple(str(t) for t in key), None)
        if entry is None or entry["cc"] > self._compute_capability():
            return None
        kernel = self._make_kernel(entry["ptx"], entry["name"], entry["annotations"], entry["hash"])
        kernel.timers = self._record_times(key, [("loading pickled code", 0.0)])
        return kernel

    def __reduce__(self):
        """By reference when the module's name finds the kernel; by value otherwise, with the
        PTX of each specialisation compiled so far (not those holding per-process values): a
        worker loads it through its driver (which compiles PTX for its own GPU) instead of
        compiling the Python function again."""
        from taipan.serialize import reduce_dispatcher

        reduced = reduce_dispatcher(self)
        if isinstance(reduced, tuple):
            cc = self._compute_capability()
            reduced[2]["kernels"] = {
                tuple(str(t) for t in key): {
                    "ptx": kernel.ptx,
                    "name": kernel.name,
                    "annotations": kernel.type_annotations,
                    "hash": kernel.hash,
                    "cc": cc,
                }
                for key, kernel in self._kernels.items()
                if not kernel.process_specific
            }
        return reduced

    def __setstate__(self, state):
        from taipan.serialize import is_set_up, restore_dispatcher

        if is_set_up(self):
            return
        restore_dispatcher(self, state)
        self._carried = dict(state.get("kernels") or {})

    def link_files(self, seen=None):
        """This function's link= files and those of the device functions and declared foreign
        functions it refers to."""
        seen = set() if seen is None else seen
        seen.add(id(self))
        files = list(self.targetoptions.get("link") or ())
        for value in _referenced_values(self.py_func):
            files += _link_files_of(value, seen)
        return files

    def compile(self, signature):
        argument_types, _ = compiler.split_signature(signature)
        return self.specialize_for(argument_types)

    def compile_device(self, args, return_type=None):
        """numba-cuda's ``compile_device``: this device function compiled for the argument
        types `args`; its ``fndesc.mangled_name`` is the symbol the PTX and LLVM IR name it by."""
        if not self.device:
            raise RuntimeError(f"{self.__name__} is a kernel, not a device function")
        return self.specialize_for(tuple(args))

    @property
    def signatures(self):
        return list(self._kernels) + [key for key in self._called_with if key not in self._kernels]

    @property
    def overloads(self):
        overloads = dict(self._kernels)
        for key in self._called_with:
            if key not in overloads:
                overloads[key] = self._called_specialization(key)
        return overloads

    def _called_specialization(self, key):
        """This function compiled alone as the device function a kernel called with argument
        types `key` (numba-cuda's overload of it)."""
        if self.device:
            return self.specialize_for(key)
        with _lock:
            kernel = self._called_with.get(key)
            if kernel is None:
                compiled = compiler.compile_source(
                    self._function_source(), key, self._compute_capability(), device=True
                )
                kernel = self._make_kernel(compiled[0], compiled[1], compiled[3], compiled[4])
                kernel.return_type = compiled[2]
                kernel._type_annotation = TypeAnnotation(compiled[3], compiled[8])
                kernel._llvm_ir = functools.partial(self._llvm_ir, key, True)
                self._called_with[key] = kernel
            return kernel

    def _llvm_ir(self, key, device):
        return compiler.compile_source(
            self._function_source(), key, self._compute_capability(), device, keep_llvm=True
        )[5]

    def __getitem__(self, configuration):
        if not self.extensions:
            # A kept configuration, found here at every launch: going through super() first
            # cost more than the lookup itself (about 0.1 us of a launch).
            try:
                launcher = self._launchers.get(configuration)
            except TypeError:  # a list among the dimensions
                launcher = None
            if launcher is not None:
                return launcher
            return super().__getitem__(configuration)
        # Handlers run at every launch, in Python: no C++ launcher, none kept (the list may
        # change between launches).
        griddim, blockdim, stream, sharedmem = api.launch_configuration(configuration)
        warn_low_occupancy(griddim, stacklevel=3)
        return _Launcher(self, griddim, blockdim, stream, sharedmem)

    def _launcher(self, griddim, blockdim, stream, sharedmem, debug=None):
        """The C++ launcher of a configuration: every launch reads its arguments in C++ once
        (NumPy arrays copied to the device and back there, a debug kernel's exception raised
        there); values C++ cannot describe go to the Python launcher, which reports them."""
        if debug is None:
            debug = bool(self.targetoptions.get("debug"))
        warn_low_occupancy(griddim, stacklevel=4)
        launcher = _Launcher(self, griddim, blockdim, stream, sharedmem)
        # Copies of NumPy arrays are allocated as cuda.to_device(ary, stream) allocates them.
        owner = owned_stream(stream)
        return _core.CudaLauncher(
            griddim,
            blockdim,
            sharedmem,
            stream_handle(stream),
            launcher,
            debug=debug,
            allocation_stream=owner.handle if owner else 0,
        )

    def _for_all(self, ntasks, tpb, stream, sharedmem):
        return _ForAll(self, ntasks, tpb, stream, sharedmem)

    def _selected(self, signature):
        if signature is None:
            return list(self._kernels)
        argument_types, _ = compiler.split_signature(signature)
        return [tuple(argument_types)]

    def _texts(self, text_of, signature):
        texts = {key: text_of(key) for key in self._selected(signature)}
        return next(iter(texts.values())) if signature is not None else texts

    def inspect_asm(self, signature=None):
        """The PTX: one text for a signature, else a dict keyed by argument types."""
        return self._texts(lambda key: self._kernels[key].ptx, signature)

    def inspect_lto_ptx(self, signature=None):
        """numba-cuda's PTX after link-time optimisation: taipan compiles a kernel and every
        device function it calls (float16 operations included) as one LLVM module, so its PTX
        is already that; files named by link= are linked by the driver, not included. One text
        for a signature, else a dict keyed by argument types."""
        return self.inspect_asm(signature)

    def inspect_llvm(self, signature=None):
        """The optimised LLVM IR the PTX was made from: one text for a signature, else a dict
        keyed by argument types. Compiles again, since kernels do not keep their IR."""
        source = self._function_source()
        cc = self._compute_capability()
        return self._texts(
            lambda key: compiler.compile_source(
                source, key, cc, device=self.device, keep_llvm=True
            )[5],
            signature,
        )

    def inspect_sass(self, signature=None):
        """The GPU's machine code (SASS) as nvdisasm prints it: one text for a signature, else a
        dict keyed by argument types. Needs nvdisasm from the CUDA toolkit and a GPU, whose
        driver links the kernel."""
        if self.device:
            raise RuntimeError(  # numba-cuda's words and class
                f"Cannot inspect SASS of a device function: inspect the kernel calling "
                f"{self.__name__}"
            )
        nvdisasm = linking.find_nvdisasm()
        return self._texts(
            lambda key: linking.disassemble(nvdisasm, self._kernels[key].cubin()), signature
        )

    def inspect_types(self, file=None, signature=None, pretty=False):
        """Prints the source annotated with the type of every variable, per signature; with
        ``pretty=True`` returns it as an annotate.Annotation (a per-line listing)."""
        import sys

        if pretty:
            from taipan.annotate import Annotation

            annotation = Annotation(self._annotation(key) for key in self._selected(signature))
            if file is not None:
                print(annotation, file=file)
            return annotation
        for key in self._selected(signature):
            print(self._kernels[key].type_annotations, file=file or sys.stdout)

    def _annotation(self, key, vectorization=False):
        from taipan.annotate import FunctionAnnotation

        return FunctionAnnotation(self.__qualname__, self._kernels[key].type_annotations)

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<CUDA {kind} {self.__qualname__}>"


_core.enable_vectorcall(CUDADispatcher)
# kernel[config] of a kept configuration without running __getitem__ (bindings/CudaLaunch.cpp).
_core.cuda_enable_configured_kernels(CUDADispatcher)


class _Launcher(api.Launcher):
    def __call__(self, *args):
        """A launch the C++ launcher leaves to Python: a value of no kernel type (reported
        here) or an interface C++ does not read (one with a mask)."""
        dispatcher = self.kernel
        # cuda.core's Buffer and StridedMemoryView: arrays viewing their memory.
        args = tuple(a if (view := cuda_core_view(a)) is None else view for a in args)
        after = []  # the copies back of cuda.Out and cuda.InOut hints
        # The kernel is the one for the arguments as given (numba-cuda's rule): the handlers
        # (extensions=) and hints change only what is passed, e.g. a user type's address.
        types = [argument_type(a.value if isinstance(a, api.args.ArgHint) else a) for a in args]
        if dispatcher.extensions or any(isinstance(a, api.args.ArgHint) for a in args):
            args, _ = api.args.prepare_arguments(
                args, dispatcher.extensions, self.stream, after, argument_type
            )
        kernel = dispatcher._kernel_for_launch(types, args, self)
        self.run_pre_launch_callbacks(kernel)
        debug = bool(dispatcher.targetoptions.get("debug"))
        launch(kernel, self.griddim, self.blockdim, self.stream, self.sharedmem, args, debug=debug)
        for callback in after:
            callback()

    def copying_host_arrays(self):
        """The C++ launcher is about to copy host arrays to the device (and back)."""
        warn_implicit_copy(stacklevel=3)

    @property
    def args(self):
        """The arguments of this configuration's launch compiling on this thread, else None
        (numba-cuda's configured launch's ``args``)."""
        config = launchconfig.current_launch_config()
        return config.args if config is not None and config.launcher is self else None

    def specialize(self, types, args=()):
        """What the C++ launcher launches for argument types it has not seen: (function
        handle, cooperative, module handle) of the kernel, compiled now if it is new."""
        kernel = self.kernel._kernel_for_launch(types, args, self)
        driver.ready()
        module, function = kernel.function()
        return function, kernel.cooperative, module


class _ForAll(api.ForAll):
    def _launch(self, args):
        kernel = self.kernel.specialize_for([argument_type(a) for a in args])
        tpb = self.tpb or driver.suggested_block_size(kernel, self.sharedmem)
        griddim, blockdim = self.dimensions(tpb)
        # Launched as before: without reading a debug kernel's exception.
        self.kernel._launcher(griddim, blockdim, self.stream, self.sharedmem, debug=False)(*args)


def _referenced_values(py_func):
    """The values of the globals and closure variables a Python function names."""
    code = py_func.__code__
    cells = dict(zip(code.co_freevars, py_func.__closure__ or ()))
    for name in (*code.co_names, *code.co_freevars):
        if name not in cells:
            yield py_func.__globals__.get(name)
            continue
        try:
            yield cells[name].cell_contents
        except ValueError:  # an empty cell
            continue


def _link_files_of(value, seen):
    """The link= files a kernel naming ``value`` links with: a device function's, a declared
    foreign function's, and those of what the implementations chosen for an overload name
    (numba-cuda links an overload's declare_device(link=...) callee too)."""
    if isinstance(value, CUDADispatcher):
        return [] if id(value) in seen else value.link_files(seen)
    if isinstance(value, linking.ExternalFunction):
        return list(value.link)
    from taipan import extending

    try:
        entry = extending._registry._functions.get(value)
    except TypeError:  # unhashable
        return []
    if not isinstance(entry, extending._Overload):
        return []
    files = []
    for implementation in list(entry.implementations.values()):
        if implementation is None or id(implementation) in seen:
            continue
        seen.add(id(implementation))
        for named in _referenced_values(implementation.py_func):
            files += _link_files_of(named, seen)
    return files
