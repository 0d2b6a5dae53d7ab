// The taipan._core module: wires the front end, the compiler, dispatchers and types together,
// and turns compiler errors and compiled-code exceptions into Python exceptions.
#include "Module.h"

#include "ArrayBoxing.h"
#include "AstReader.h"
#include "CudaBindings.h"
#include "DLPack.h"
#include "FirstClassFunctions.h"
#include "JitClassBoxing.h"
#include "ListBoxing.h"
#include "ObjectModeBlocks.h"
#include "OptionConversion.h"
#include "SourceTexts.h"
#include "StringBoxing.h"
#include "TypedContainers.h"
#include "Ufuncs.h"

#include "Dispatcher.h"
#include "GlobalResolution.h"
#include "TypeObjects.h"

#include "compiler/Compiler.h"
#include "compiler/JobHash.h"
#include "cpu/HostInfo.h"
#include "cuda/CudaTarget.h"
#include "runtime/Cfuncs.h"
#include "runtime/Matmul.h"
#include "runtime/MemoryRuntime.h"
#include "runtime/NumpyRandom.h"
#include "runtime/PythonDialect.h"
#include "runtime/PythonMath.h"

#include "runtime/ExceptionHandling.h"
#include "runtime/FloatFormat.h"
#include "runtime/LoadTimeSymbols.h"
#include "runtime/Runtime.h"

#include "types/NumericPromotion.h"
#include "typing/ConstantArguments.h"
#include "typing/GlobalResolver.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

PyObject *typingErrorClass = nullptr;
PyObject *unsupportedErrorClass = nullptr;
PyObject *internalErrorClass = nullptr;
PyObject *loweringErrorClass = nullptr;
PyObject *conversionErrorClass = nullptr;
PyObject *forceLiteralClass = nullptr; ///< Numba's ForceLiteralArg: the dispatcher's request
PyObject *valueErrorClass = nullptr;   ///< CompileErrorKind::Value: a TypingError and a ValueError

std::vector<PyObject *> exceptionClasses;
std::unordered_map<PyObject *, int> exceptionIds;

void registerBuiltinExceptions() {
  exceptionClasses.assign(FirstUserException, PyExc_RuntimeError);
  auto add = [](int id, PyObject *cls) {
    exceptionClasses[id] = cls;
    exceptionIds[cls] = id;
  };
  add(ZeroDivisionErrorId, PyExc_ZeroDivisionError);
  add(ValueErrorId, PyExc_ValueError);
  add(IndexErrorId, PyExc_IndexError);
  add(AssertionErrorId, PyExc_AssertionError);
  add(OverflowErrorId, PyExc_OverflowError);
  add(TypeErrorId, PyExc_TypeError);
  add(RuntimeErrorId, PyExc_RuntimeError);
  add(KeyErrorId, PyExc_KeyError);
  add(StopIterationId, PyExc_StopIteration);
  add(MemoryErrorId, PyExc_MemoryError);
  add(UnboundLocalErrorId, PyExc_UnboundLocalError);
  add(NameErrorId, PyExc_NameError);
}

/// print() from compiled code goes to sys.stdout, so redirection and pytest's capture work.
void printToPythonStdout(const char *text, size_t length) {
  PyGILState_STATE state = PyGILState_Ensure();
  PyObject *out = PySys_GetObject("stdout");
  if (out && out != Py_None) {
    PyObject *result =
        PyObject_CallMethod(out, "write", "s#", text, static_cast<Py_ssize_t>(length));
    if (!result)
      PyErr_WriteUnraisable(out);
    Py_XDECREF(result);
  }
  PyGILState_Release(state);
}

std::vector<const Type *> typeList(nb::handle sequence) {
  std::vector<const Type *> result;
  for (nb::handle item : sequence)
    result.push_back(nb::cast<TypeRef>(item).type);
  return result;
}

using CoreDimensions = std::optional<std::vector<std::vector<int>>>;

/// The CPU that CPU jobs are compiled for, as taipan.config gives it when imported (CPU_NAME,
/// CPU_FEATURES: Numba's NUMBA_CPU_NAME and NUMBA_CPU_FEATURES); none: the host's.
std::optional<std::string> configuredCpuName, configuredCpuFeatures;

/// `target` (a CPU description) for the configured CPU.
void describeConfiguredCpu(TargetDescription &target) {
  target.cpuName = configuredCpuName;
  target.cpuFeatures = configuredCpuFeatures;
}

/// A CPU job as compile, hash_job and load_compiled take it: a function, a NumPy ufunc loop
/// (`ufuncLoop`), a gufunc loop (`coreDimensions` given) or a C-callable function (`cfunc`).
CompileJob cpuJob(std::shared_ptr<FunctionSource> source, nb::handle argumentTypes,
                  nb::handle returnType, bool ufuncLoop, CoreDimensions coreDimensions,
                  bool cfunc = false, std::vector<int64_t> coreSizes = {}) {
  const Type *declared = returnType.is_none() ? nullptr : nb::cast<TypeRef>(returnType).type;
  CompileJob job{std::move(source), typeList(argumentTypes), declared,
                 coreDimensions ? JobTarget::GufuncLoop
                 : ufuncLoop    ? JobTarget::UfuncLoop
                 : cfunc        ? JobTarget::Cfunc
                                : JobTarget::Cpu};
  if (coreDimensions)
    job.target.coreDimensions = std::move(*coreDimensions);
  job.target.coreSizes = std::move(coreSizes);
  describeConfiguredCpu(job.target);
  return job;
}

/// Runs a compiler entry point, turning its errors into taipan's Python exceptions.
template <typename Function> auto translateErrors(Function &&function) {
  try {
    return function();
  } catch (const CompileError &error) {
    setCompileError(error);
    throw nb::python_error();
  } catch (const nb::python_error &) {
    throw;
  } catch (const std::exception &error) {
    PyErr_Format(internalErrorClass ? internalErrorClass : PyExc_RuntimeError,
                 "internal compiler error: %s", error.what());
    throw nb::python_error();
  }
}

} // namespace

/// The exception class at `module`.`qualifiedName` in this process, or an invalid object; the
/// module is imported when `import` (loading code that names the class), else only looked up.
static nb::object exceptionClassAt(const std::string &module, const std::string &qualifiedName,
                                   bool import) {
  if (module.empty() || qualifiedName.empty() || qualifiedName.find('<') != std::string::npos)
    return {}; // "f.<locals>.E": a class made by a call, which no path finds again
  try {
    nb::object target;
    if (import) {
      target = nb::module_::import_(module.c_str());
    } else {
      PyObject *loaded = PyImport_GetModule(nb::str(module.c_str()).ptr());
      if (!loaded) {
        PyErr_Clear();
        return {};
      }
      target = nb::steal(loaded);
    }
    size_t start = 0;
    while (start <= qualifiedName.size()) {
      size_t dot = std::min(qualifiedName.find('.', start), qualifiedName.size());
      target = nb::getattr(target, qualifiedName.substr(start, dot - start).c_str(), nb::none());
      if (target.is_none())
        return {};
      start = dot + 1;
    }
    if (!PyType_Check(target.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(target.ptr()),
                          reinterpret_cast<PyTypeObject *>(PyExc_BaseException)))
      return {};
    return target;
  } catch (nb::python_error &) { // an import that failed: the class is not found
    return {};
  }
}

/// Tells the runtime where another process finds user exception class `id` again (its module
/// and qualified name), and whether that path leads to this very class.
static void describeUserExceptionClass(int id, PyObject *exceptionClass) {
  nb::handle cls(exceptionClass);
  nb::object module = nb::getattr(cls, "__module__", nb::none());
  nb::object name = nb::getattr(cls, "__qualname__", nb::none());
  if (!PyUnicode_Check(module.ptr()) || !PyUnicode_Check(name.ptr())) {
    runtime::describeExceptionClass(id, "", reinterpret_cast<PyTypeObject *>(cls.ptr())->tp_name,
                                    false);
    return;
  }
  std::string moduleName = nb::cast<std::string>(module),
              qualifiedName = nb::cast<std::string>(name);
  nb::object found = exceptionClassAt(moduleName, qualifiedName, false);
  runtime::describeExceptionClass(id, moduleName, qualifiedName,
                                  found.is_valid() && found.ptr() == exceptionClass);
}

/// The runtime's ExceptionClassFinder: code loaded in this process names a user exception
/// class by its module and qualified name.
static int findExceptionClassForLoading(const std::string &module,
                                        const std::string &qualifiedName) {
  PyGILState_STATE state = PyGILState_Ensure();
  int id = -1;
  {
    nb::object found = exceptionClassAt(module, qualifiedName, true);
    if (found.is_valid())
      id = exceptionIdFor(found.ptr());
  }
  PyGILState_Release(state);
  return id;
}

int exceptionIdFor(PyObject *exceptionClass) {
  auto found = exceptionIds.find(exceptionClass);
  if (found != exceptionIds.end())
    return found->second;
  Py_INCREF(exceptionClass); // kept for the life of the process, like the code that raises it
  int id = static_cast<int>(exceptionClasses.size());
  exceptionClasses.push_back(exceptionClass);
  exceptionIds[exceptionClass] = id;
  describeUserExceptionClass(id, exceptionClass);
  return id;
}

PyObject *exceptionClassFor(int id) {
  if (id <= 0 || id >= static_cast<int>(exceptionClasses.size()))
    return PyExc_RuntimeError;
  if (id == AxisErrorId && exceptionClasses[id] == PyExc_RuntimeError) {
    // NumPy's AxisError, imported when first raised: compiled code that checks axes has NumPy
    // loaded, and `import taipan` must not load it. ValueError if it cannot be found.
    PyObject *module = PyImport_ImportModule("numpy.exceptions");
    PyObject *axisError = module ? PyObject_GetAttrString(module, "AxisError") : nullptr;
    Py_XDECREF(module);
    if (!axisError)
      PyErr_Clear();
    exceptionClasses[id] = axisError ? axisError : PyExc_ValueError; // kept for the process
  }
  return exceptionClasses[id];
}

/// Whether the registered exception class `raised` is `handler` or a subclass of it, for
/// compiled except clauses. Python's hierarchy decides; each thread remembers the answers, so
/// the GIL is taken only the first time a pair is asked about.
static bool exceptionMatches(int32_t raised, int32_t handler) {
  thread_local std::unordered_map<uint64_t, bool> answers;
  uint64_t key =
      (static_cast<uint64_t>(static_cast<uint32_t>(raised)) << 32) | static_cast<uint32_t>(handler);
  auto found = answers.find(key);
  if (found != answers.end())
    return found->second;
  PyGILState_STATE state = PyGILState_Ensure();
  bool result = PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(exceptionClassFor(raised)),
                                 reinterpret_cast<PyTypeObject *>(exceptionClassFor(handler)));
  PyGILState_Release(state);
  answers.emplace(key, result);
  return result;
}

/// Raises `cls(key)` where `repr` is the key's repr (numbers, strings, tuples of them); false
/// when it cannot be read back.
static bool raiseKeyError(PyObject *cls, const char *repr) {
  PyObject *key = nullptr;
  PyObject *names = Py_BuildValue("{s:d,s:d}", "nan", std::nan(""), "inf", HUGE_VAL);
  PyObject *globals = names ? Py_BuildValue("{s:{}}", "__builtins__") : nullptr;
  if (globals)
    key = PyRun_String(repr, Py_eval_input, globals, names);
  Py_XDECREF(globals);
  Py_XDECREF(names);
  if (!key) {
    PyErr_Clear();
    return false;
  }
  PyObject *arguments = PyTuple_Pack(1, key);
  Py_DECREF(key);
  if (!arguments) {
    PyErr_Clear();
    return false;
  }
  PyErr_SetObject(cls, arguments);
  Py_DECREF(arguments);
  return true;
}

/// str() of the exception Python would make of a compiled raise (`cls(message)`, or `cls()` for
/// no message), for `str(e)` in compiled handlers: a class may format its arguments (KeyError
/// shows the key's repr) or define __str__. False when Python fails (the caller keeps the text).
static bool exceptionText(int32_t id, const std::string &message, std::string &text) {
  if (!message.empty() && message[0] == '\x01') {
    text = message.substr(1); // a missing dict key's repr: str(KeyError(key)) is repr(key)
    return true;
  }
  PyGILState_STATE state = PyGILState_Ensure();
  if (objectModeExceptionText(id, message, text)) { // raised by a with objmode(...) block
    PyGILState_Release(state);
    return true;
  }
  PyObject *cls = exceptionClassFor(id);
  PyObject *instance = nullptr;
  if (message.empty()) {
    instance = PyObject_CallNoArgs(cls);
  } else if (PyObject *argument = PyUnicode_FromStringAndSize(message.data(), message.size())) {
    instance = PyObject_CallOneArg(cls, argument);
    Py_DECREF(argument);
  }
  PyObject *str = instance ? PyObject_Str(instance) : nullptr;
  Py_ssize_t size = 0;
  const char *utf8 = str ? PyUnicode_AsUTF8AndSize(str, &size) : nullptr;
  if (utf8)
    text.assign(utf8, static_cast<size_t>(size));
  else
    PyErr_Clear();
  Py_XDECREF(str);
  Py_XDECREF(instance);
  PyGILState_Release(state);
  return utf8 != nullptr;
}

void raisePendingException() {
  runtime::PendingException pending = runtime::takePendingException();
  if (restoreObjectModeException(pending))
    return; // the very exception a with objmode(...) block raised
  PyObject *cls = exceptionClassFor(pending.exceptionId);
  if (pending.message && pending.message[0] == '\x01' && raiseKeyError(cls, pending.message + 1))
    return; // KeyError(key), from the repr of a missing dict key (runtime/Dicts.cpp)
  if (pending.message && *pending.message)
    PyErr_SetString(cls, pending.message);
  else
    PyErr_SetNone(cls);
}

/// A cfunc's exception, which no Python code can catch (its caller is C): printed as
/// unraisable on whichever thread called it, as ctypes does for its callbacks.
void reportFailedCfunc() {
  PyGILState_STATE state = PyGILState_Ensure();
  raisePendingException();
  PyErr_WriteUnraisable(nullptr);
  PyGILState_Release(state);
}

void setCompileError(const CompileError &error) {
  std::string message = error.what();
  auto *source = static_cast<const FunctionSource *>(error.function);
  if (source && error.location.line > 0) {
    int fileLine = source->fileLine(error.location.line);
    std::string lineText = source->lineText(error.location.line);
    message += "\n\nFile \"" + source->filename + "\", line " + std::to_string(fileLine) + ", in " +
               source->name + ":\n" + lineText + "\n";
    int caret = error.location.column + source->columnOffset;
    message += std::string(std::max(0, caret), ' ') + "^\n";
  }
  if (auto *literal = dynamic_cast<const LiteralParametersNeeded *>(&error);
      literal && forceLiteralClass) {
    // The root's parameters to compile again with their values as literals (taipan.dispatcher).
    nb::object raised = nb::borrow(forceLiteralClass)(nb::str(message.c_str()));
    nb::list requested;
    for (size_t parameter : literal->parameters)
      requested.append(parameter);
    raised.attr("requested_args") = nb::steal(PyList_AsTuple(requested.ptr()));
    PyErr_SetObject(forceLiteralClass, raised.ptr());
    return;
  }
  PyObject *cls = error.kind == CompileErrorKind::Unsupported  ? unsupportedErrorClass
                  : error.kind == CompileErrorKind::Internal   ? internalErrorClass
                  : error.kind == CompileErrorKind::Lowering   ? loweringErrorClass
                  : error.kind == CompileErrorKind::Conversion ? conversionErrorClass
                  : error.kind == CompileErrorKind::Value      ? valueErrorClass
                                                               : typingErrorClass;
  PyErr_SetString(cls ? cls : PyExc_TypeError, message.c_str());
}

} // namespace taipan::bindings

using namespace taipan;
using namespace taipan::bindings;

/// The compiler lock's wait hooks: a thread that must wait for the lock lets go of the GIL
/// first and takes it back once it holds the lock, so the lock's holder can always run Python.
void *releaseGilForCompilerLock() { return PyGILState_Check() ? PyEval_SaveThread() : nullptr; }

void takeGilAfterCompilerLock(void *state) {
  if (state)
    PyEval_RestoreThread(static_cast<PyThreadState *>(state));
}

/// taipan.dispatcher's `compiler_lock`: the one lock of every compilation, for Python's `with`.
struct PythonCompilerLock {};

NB_MODULE(_core, module) {
  // Dispatchers and their compiled code live until the process ends, by design.
  nb::set_leak_warnings(false);
  registerBuiltinExceptions();
  runtime::setExceptionClassFinder(findExceptionClassForLoading);
  runtime::setPrintSink(printToPythonStdout);
  runtime::setExceptionMatcher(exceptionMatches);
  runtime::setExceptionText(exceptionText);
  installStringHooks();
  runtime::setCfuncFailureSink(reportFailedCfunc);
  defineTypeObjects(module);
  defineCudaBindings(module);
  defineCudaLinkingBindings(module);
  defineDLPackBindings(module);
  defineUfuncBindings(module);
  defineSourceTextBindings(module);
  defineTypedContainers(module);
  defineObjectModeBlocks(module);
  defineJitClasses(module);
  CompilerLock::setWaitHooks(releaseGilForCompilerLock, takeGilAfterCompilerLock);
  python::setMinorVersion(PY_MINOR_VERSION); // the Python this extension is built for
  nb::class_<PythonCompilerLock>(module, "CompilerLock")
      .def("__enter__", [](PythonCompilerLock &) { CompilerLock::acquire(); })
      .def("__exit__", [](PythonCompilerLock &, nb::args) { CompilerLock::release(); })
      .def("acquire", [](PythonCompilerLock &) { CompilerLock::acquire(); })
      .def("release", [](PythonCompilerLock &) { CompilerLock::release(); });
  module.attr("compiler_lock") = nb::cast(PythonCompilerLock{});

  nb::class_<FunctionSource>(module, "FunctionSource")
      .def_prop_ro("name", [](const FunctionSource &self) { return self.name; })
      .def_prop_ro("filename", [](const FunctionSource &self) { return self.filename; })
      .def_prop_ro("uninitialized_reads", [](const FunctionSource &self) {
        nb::list reads; // (name, line in the file) of reads a path reaches unassigned
        for (const auto &[name, location] : self.uninitializedReads)
          reads.append(nb::make_tuple(name, self.fileLine(location.line)));
        return reads;
      });

  nb::class_<CompiledFunction>(module, "CompiledFunction")
      .def_prop_ro("argument_types",
                   [](const CompiledFunction &self) {
                     std::vector<TypeRef> types;
                     for (const Type *type : self.argumentTypes)
                       types.push_back({type});
                     return types;
                   })
      .def_prop_ro("return_type",
                   [](const CompiledFunction &self) { return TypeRef{self.returnType}; })
      .def_prop_ro("type_annotations",
                   [](const CompiledFunction &self) { return self.typeAnnotations; })
      .def_prop_ro("array_variables",
                   [](const CompiledFunction &self) { return self.arrayVariables; })
      .def_prop_ro("hash", [](const CompiledFunction &self) { return self.hash; })
      .def_prop_ro("stage_times", [](const CompiledFunction &self) { return self.times.stages(); })
      .def_prop_ro("object_code",
                   [](const CompiledFunction &self) {
                     return nb::bytes(self.objectCode.data(), self.objectCode.size());
                   })
      .def_prop_ro("entry_name", [](const CompiledFunction &self) { return self.entryName; })
      .def_prop_ro("process_specific",
                   [](const CompiledFunction &self) { return self.processSpecific; })
      .def_prop_ro("parallel_loops",
                   [](const CompiledFunction &self) {
                     nb::list loops;
                     for (const ParallelLoopReport &loop : self.parallelLoops) {
                       nb::dict entry;
                       entry["function"] = loop.function;
                       entry["filename"] = loop.filename;
                       entry["line"] = loop.line;
                       entry["parallel"] = loop.parallel;
                       entry["reason"] = loop.reason;
                       entry["privates"] = loop.privates;
                       entry["shared"] = loop.shared;
                       entry["reductions"] = loop.reductions;
                       entry["notes"] = loop.notes;
                       loops.append(entry);
                     }
                     return loops;
                   })
      .def_prop_ro("first_tier", [](const CompiledFunction &self) { return self.firstTier; })
      .def_prop_ro("address", [](const CompiledFunction &self) {
        return reinterpret_cast<uintptr_t>(self.entry);
      });

  PyTypeObject *dispatcherType = createDispatcherType();
  dispatcherBaseType = dispatcherType;
  module.attr("DispatcherBase") = nb::handle(reinterpret_cast<PyObject *>(dispatcherType));

  module.def("set_error_classes",
             [](nb::handle typing, nb::handle unsupported, nb::handle internal) {
               typingErrorClass = typing.inc_ref().ptr();
               unsupportedErrorClass = unsupported.inc_ref().ptr();
               internalErrorClass = internal.inc_ref().ptr();
             });
  module.def("set_later_error_classes",
             [](nb::handle lowering, nb::handle conversion, nb::handle forceLiteral) {
               loweringErrorClass = lowering.inc_ref().ptr();
               conversionErrorClass = conversion.inc_ref().ptr();
               forceLiteralClass = forceLiteral.inc_ref().ptr();
             });
  module.def("set_value_error_class",
             [](nb::handle value) { valueErrorClass = value.inc_ref().ptr(); });

  registerOptionTable(module);
  module.def("read_function",
             [](nb::handle function, nb::handle node, std::vector<std::string> lines,
                const std::string &filename, int firstLine, int columnOffset, nb::dict options) {
               return readFunction(function, node, std::move(lines), filename, firstLine,
                                   columnOffset, readOptions(options));
             });

  module.def(
      "compile",
      [](std::shared_ptr<FunctionSource> source, nb::handle argumentTypes, nb::handle returnType,
         bool ufuncLoop, CoreDimensions coreDimensions, bool keepObject, bool cfunc,
         std::vector<int64_t> coreSizes, bool firstTier) {
        CompileJob job = cpuJob(source, argumentTypes, returnType, ufuncLoop,
                                std::move(coreDimensions), cfunc, std::move(coreSizes));
        job.keepObjectCode = keepObject;
        job.allowFirstTier = firstTier;
        return translateErrors([&] { return compileFunction(job); });
      },
      nb::arg("source"), nb::arg("argument_types"), nb::arg("return_type").none(),
      nb::arg("ufunc_loop") = false, nb::arg("core_dimensions").none() = nb::none(),
      nb::arg("keep_object") = false, nb::arg("cfunc") = false,
      nb::arg("core_sizes") = std::vector<int64_t>{}, nb::arg("first_tier") = false);

  module.def(
      "compile_all",
      [](std::shared_ptr<FunctionSource> source, nb::list signatures, bool ufuncLoop,
         CoreDimensions coreDimensions, bool keepObject) {
        // One job per (argument types, return type or None): their code is generated in
        // parallel (compileFunctions), the signatures of an eager @vectorize or @guvectorize.
        std::vector<CompileJob> jobs;
        for (nb::handle signature : signatures) {
          nb::tuple pair = nb::cast<nb::tuple>(signature);
          jobs.push_back(cpuJob(source, pair[0], pair[1], ufuncLoop, coreDimensions));
          jobs.back().keepObjectCode = keepObject;
        }
        return translateErrors([&] { return compileFunctions(jobs); });
      },
      nb::arg("source"), nb::arg("signatures"), nb::arg("ufunc_loop") = false,
      nb::arg("core_dimensions").none() = nb::none(), nb::arg("keep_object") = false);

  module.def(
      "hash_job",
      [](std::shared_ptr<FunctionSource> source, nb::handle argumentTypes, int computeCapability,
         bool device) {
        // A compute capability (90 for sm_90) hashes a CUDA kernel or device function job.
        CompileJob job{source, typeList(argumentTypes), nullptr, JobTarget::Cpu};
        describeConfiguredCpu(job.target);
        if (computeCapability != 0)
          job.target = {device ? JobTarget::CudaDevice : JobTarget::CudaKernel, computeCapability};
        return translateErrors([&] { return hashJob(job); });
      },
      nb::arg("source"), nb::arg("argument_types"), nb::arg("compute_capability") = 0,
      nb::arg("device") = false);

  module.def(
      "load_compiled",
      [](std::shared_ptr<FunctionSource> source, nb::handle argumentTypes, nb::bytes objectCode,
         const std::string &entryName, const std::string &expectedHash, nb::handle returnType,
         bool ufuncLoop, CoreDimensions coreDimensions, bool cfunc) {
        CompileJob job =
            cpuJob(source, argumentTypes, returnType, ufuncLoop, std::move(coreDimensions), cfunc);
        std::string object(objectCode.c_str(), objectCode.size());
        return translateErrors(
            [&] { return loadCompiledFunction(job, object, entryName, expectedHash); });
      },
      nb::arg("source"), nb::arg("argument_types"), nb::arg("object_code"), nb::arg("entry_name"),
      nb::arg("expected_hash"), nb::arg("return_type").none() = nb::none(),
      nb::arg("ufunc_loop") = false, nb::arg("core_dimensions").none() = nb::none(),
      nb::arg("cfunc") = false);

  module.def(
      "load_object",
      [](nb::handle argumentTypes, const TypeRef &returnType, nb::bytes objectCode,
         const std::string &entryName, const std::string &hash,
         const std::string &typeAnnotations) {
        std::string object(objectCode.c_str(), objectCode.size());
        return translateErrors([&] {
          return loadObjectCode(typeList(argumentTypes), returnType.type, object, entryName, hash,
                                typeAnnotations);
        });
      },
      nb::arg("argument_types"), nb::arg("return_type"), nb::arg("object_code"),
      nb::arg("entry_name"), nb::arg("hash"), nb::arg("type_annotations"));

  // Numba's conversion kind (exact 1, promote 2, safe 3, unsafe 4), or None: no conversion.
  module.def("conversion_kind", [](const TypeRef &from, const TypeRef &to) -> nb::object {
    Conversion kind = conversionKind(from.type, to.type);
    if (kind == Conversion::Impossible)
      return nb::none();
    return nb::int_(static_cast<int>(kind) + 1);
  });

  module.def(
      "inspect",
      [](std::shared_ptr<FunctionSource> source, nb::handle argumentTypes, const std::string &kind,
         nb::handle returnType, bool ufuncLoop, CoreDimensions coreDimensions, bool cfunc) {
        InspectionKind inspection = kind == "asm"                ? InspectionKind::Assembly
                                    : kind == "llvm-unoptimized" ? InspectionKind::UnoptimizedIR
                                                                 : InspectionKind::OptimizedIR;
        CompileJob job =
            cpuJob(source, argumentTypes, returnType, ufuncLoop, std::move(coreDimensions), cfunc);
        job.product = inspection;
        return translateErrors([&] { return compileFunction(job).text; });
      },
      nb::arg("source"), nb::arg("argument_types"), nb::arg("kind"),
      nb::arg("return_type").none() = nb::none(), nb::arg("ufunc_loop") = false,
      nb::arg("core_dimensions").none() = nb::none(), nb::arg("cfunc") = false);

  module.def(
      "configure_dispatcher",
      [](nb::handle dispatcher, std::vector<std::string> names, nb::handle defaults, bool nogil,
         bool generic, Py_ssize_t starIndex, Py_ssize_t keywordOnlyCount,
         nb::handle keywordDefaults) {
        configureDispatcher(dispatcher.ptr(), names, defaults.ptr(), nogil, generic, starIndex,
                            keywordOnlyCount, keywordDefaults.ptr());
      },
      nb::arg("dispatcher"), nb::arg("names"), nb::arg("defaults").none(), nb::arg("nogil"),
      nb::arg("generic") = false, nb::arg("star_index") = -1, nb::arg("keyword_only_count") = 0,
      nb::arg("keyword_defaults").none() = nb::none());

  module.def(
      "add_overload",
      [](nb::handle dispatcher, const CompiledFunction &compiled, nb::handle key,
         int64_t tierUpAfter) {
        addOverload(dispatcher.ptr(), compiled, typeList(key), tierUpAfter);
      },
      nb::arg("dispatcher"), nb::arg("compiled"), nb::arg("key"), nb::arg("tier_up_after") = 0);

  module.def("replace_overloads", [](nb::handle dispatcher, const CompiledFunction &replaced,
                                     const CompiledFunction &compiled) {
    replaceOverloads(dispatcher.ptr(), replaced, compiled);
  });

  module.def("enable_vectorcall", [](nb::handle subclass) { enableVectorcall(subclass.ptr()); });

  module.def("describe_unsupported", [](nb::handle value) {
    std::string list = describeUnsupportedList(value.ptr());
    if (list.empty())
      list = describeUntypedContainer(value.ptr());
    if (list.empty())
      list = describeFirstClassObject(value.ptr());
    return list.empty() ? describeUnsupportedArray(value.ptr()) : list;
  });

  module.def(
      "compile_kernel",
      [](std::shared_ptr<FunctionSource> source, nb::handle argumentTypes, int computeCapability,
         bool device, bool keepIR, nb::handle returnType, nb::handle cSymbol) {
        // A declared return type converts the result (compile_ptx's signature); a C symbol
        // makes a device function with the C ABI under that name (compile(abi='c')).
        JobTarget preset = !device             ? JobTarget::CudaKernel
                           : cSymbol.is_none() ? JobTarget::CudaDevice
                                               : JobTarget::CudaDeviceCAbi;
        TargetDescription target{preset, computeCapability};
        if (!cSymbol.is_none())
          target.entrySymbol = nb::cast<std::string>(cSymbol);
        const Type *declared = returnType.is_none() ? nullptr : nb::cast<TypeRef>(returnType).type;
        CompileJob job{source, typeList(argumentTypes), declared, target};
        job.product = Product::Assembly;
        job.keepOptimizedIR = keepIR;
        CompiledFunction kernel = translateErrors([&] { return compileFunction(job); });
        nb::dict variableTypes;
        for (const auto &[name, type] : kernel.variableTypes)
          if (type)
            variableTypes[nb::str(name.c_str())] = TypeRef{type};
        nb::list called; // (dispatcher, argument types) of the jitted functions compiled in
        for (const auto &[callee, types] : kernel.calledFunctions)
          if (PyObject *dispatcher = dispatcherOf(callee)) {
            nb::list arguments;
            for (const Type *type : types)
              arguments.append(TypeRef{type});
            called.append(nb::make_tuple(nb::steal(dispatcher), arguments));
          }
        return nb::make_tuple(kernel.text, kernel.entryName, TypeRef{kernel.returnType},
                              kernel.typeAnnotations, kernel.hash,
                              keepIR ? nb::object(nb::str(kernel.optimizedIR.c_str())) : nb::none(),
                              kernel.times.stages(), kernel.processSpecific, variableTypes, called);
      },
      nb::arg("source"), nb::arg("argument_types"), nb::arg("compute_capability"),
      nb::arg("device") = false, nb::arg("keep_llvm") = false,
      nb::arg("return_type").none() = nb::none(), nb::arg("c_symbol").none() = nb::none());

  module.def("set_libdevice", [](const std::string &path) { cuda::setLibdevicePath(path); });

  module.def("set_float32_positional_limit",
             [](float limit) { runtime::setNumpyFloat32PositionalLimit(limit); });

  module.def("register_blas",
             [](const std::string &path) { return runtime::findBlasInLibrary(path.c_str()); });

  module.def("exception_class", [](int id) { return nb::borrow(exceptionClassFor(id)); });

  module.def("memory_statistics", [] {
    runtime::AllocationStatistics statistics = runtime::allocationStatistics();
    return nb::make_tuple(statistics.allocations, statistics.frees);
  });

  // The calling thread's Mersenne Twister (np.random's legacy one, or random's) read and set
  // as (index, words): what Numba's `_helperlib.rnd_get_state`/`rnd_set_state` do, so that a
  // Python generator can follow a compiled stream (the Numba test shim maps them here).
  auto twister = [](bool numpy) -> runtime::RandomState & {
    return numpy ? runtime::threadNumpyRandomState().twister() : runtime::threadRandomState();
  };
  module.def("random_state", [twister](bool numpy) {
    const runtime::RandomState &state = twister(numpy);
    return nb::make_tuple(state.index(),
                          std::vector<uint32_t>(state.words().begin(), state.words().end()));
  });
  module.def("set_random_state", [](bool numpy, unsigned index, std::vector<uint32_t> words) {
    if (words.size() != runtime::RandomState::N || index > runtime::RandomState::N)
      throw nb::value_error("a Mersenne Twister state is 624 words and an index up to 624");
    std::span<const uint32_t, runtime::RandomState::N> view(words.data(), words.size());
    if (numpy)
      runtime::threadNumpyRandomState().setState(index, view);
    else
      runtime::threadRandomState().setState(index, view);
  });
  module.def("twist_random_state", [twister](bool numpy) { twister(numpy).refill(); });
  // Numba's `rnd_seed`: an int seeds as NumPy does (init_genrand), words as init_by_array.
  module.def("seed_random_state", [twister](bool numpy, std::vector<uint32_t> key, bool isWords) {
    runtime::RandomState &state = twister(numpy);
    if (isWords)
      state.seedFromArray(key);
    else
      state.seedFromUInt32(key.empty() ? 0 : key[0]);
    if (numpy) { // drops the legacy gauss cache too
      std::array<uint32_t, runtime::RandomState::N> words = state.words();
      runtime::threadNumpyRandomState().setState(state.index(), words);
    }
  });

  module.def("system_info", [] {
    nb::dict info;
    info["llvm_version"] = llvmVersion();
    info["cpu_name"] = hostCpuName();
    info["cpu_features"] = hostCpuFeatures();
    info["target_triple"] = hostTargetTriple();
    // The CPU compiled for (taipan.config.CPU_NAME, CPU_FEATURES), the host's unless set.
    info["target_cpu_name"] = configuredCpuName.value_or(hostCpuName());
    info["target_cpu_features"] = configuredCpuFeatures.value_or(hostCpuFeatures());
    info["version"] = std::string(taipanVersion());
    return info;
  });

  module.def(
      "set_cpu_target",
      [](std::optional<std::string> name, std::optional<std::string> features) {
        std::string problem =
            cpuModelProblem(name.value_or(hostCpuName()), features.value_or(hostCpuFeatures()));
        if (!problem.empty())
          throw nb::value_error(problem.c_str());
        configuredCpuName = std::move(name);
        configuredCpuFeatures = std::move(features);
      },
      nb::arg("name").none(), nb::arg("features").none(),
      "The CPU that CPU code is compiled for from now on (None: the host's name or features); "
      "ValueError for a CPU or feature LLVM does not know on this architecture.");

  module.def(
      "sha256_hex",
      [](nb::bytes data) { return sha256Hex(std::string(data.c_str(), data.size())); },
      nb::arg("data"), "The SHA-256 of `data` in hex, as hashlib's hexdigest gives it.");
}
