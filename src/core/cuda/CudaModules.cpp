// CudaModules.cpp - Loading code into the current context: PTX or cubin images, and images
// linked from several inputs (PTX, cubin, fatbin, objects, libraries) by the driver's linker.

#include "cuda/CudaModules.h"
#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaLibrary.h"

#include <unistd.h>

#include <cstdlib>
#include <iterator>
#include <system_error>

namespace taipan::cuda {

namespace {

const char *inputKindName(LinkInput::Kind kind) {
  switch (kind) {
  case LinkInput::Kind::Cubin:
    return "cubin";
  case LinkInput::Kind::Ptx:
    return "PTX";
  case LinkInput::Kind::Fatbinary:
    return "fatbin";
  case LinkInput::Kind::Object:
    return "object";
  case LinkInput::Kind::Library:
    return "library";
  }
  return "input";
}

/// An empty kernel in the PTX ISA version and for the architecture taipan's kernels use on a
/// device of `computeCapability` (CudaTarget's choice), so that the driver's compiler starts as
/// it will for them.
std::string emptyKernelPtx(int computeCapability) {
  const char *header = computeCapability >= 90   ? ".version 8.0\n.target sm_90\n"
                       : computeCapability >= 80 ? ".version 7.0\n.target sm_80\n"
                       : computeCapability >= 70 ? ".version 6.4\n.target sm_70\n"
                                                 : ".version 6.4\n.target sm_50\n";
  return std::string(header) +
         ".address_size 64\n.visible .entry taipan_jit_warm_up()\n{\n\tret;\n}\n";
}

/// The modules whose warm-up thread the process joins at exit (the driver's instance).
CudaModules *warmedModules = nullptr;

} // namespace

const CudaApi *CudaModules::api() const { return library.api(); }

CudaModules::~CudaModules() {
  finishJitWarmUp();
  if (warmedModules == this)
    warmedModules = nullptr;
}

void CudaModules::startJitWarmUp() {
  std::lock_guard<std::mutex> lock(warmUpMutex);
  if (warmUpStarted || !library.available() || contexts.selectedOrdinal() < 0)
    return;
  warmUpStarted = true;
  int computeCapability = 0;
  try {
    library.requireAvailable(); // refused in a child forked after initialisation
    auto [major, minor] = contexts.computeCapability(contexts.selectedOrdinal());
    computeCapability = major * 10 + minor;
  } catch (const CudaError &) {
    return;
  }
  warmUpProcess = static_cast<int>(getpid());
  try {
    warmUpThread = std::make_unique<std::thread>(
        [this, computeCapability] { loadEmptyKernel(computeCapability); });
  } catch (const std::system_error &) { // no thread to be had: the load pays the start-up
    return;
  }
  // Joined before the driver's own exit handlers (registered earlier, so run later) unload it.
  if (!warmedModules) {
    warmedModules = this;
    std::atexit([] {
      if (warmedModules)
        warmedModules->finishJitWarmUp();
    });
  }
}

void CudaModules::finishJitWarmUp() {
  std::unique_ptr<std::thread> thread;
  {
    std::lock_guard<std::mutex> lock(warmUpMutex);
    thread = std::move(warmUpThread);
  }
  if (!thread)
    return;
  if (warmUpProcess == static_cast<int>(getpid()))
    thread->join();
  else
    thread.release(); // a forked child's copy of the parent's thread: nothing to join
}

void CudaModules::loadEmptyKernel(int computeCapability) {
  try {
    contexts.ensureContext();
    std::string ptx = emptyKernelPtx(computeCapability);
    CUmodule module = nullptr;
    if (api()->invoke(api()->cuModuleLoadDataEx, &module, static_cast<const void *>(ptx.c_str()),
                      0u, static_cast<int *>(nullptr),
                      static_cast<void **>(nullptr)) == CUDA_SUCCESS)
      api()->invoke(api()->cuModuleUnload, module);
  } catch (...) {
    // Only a warm-up: the kernel's own load reports whatever is wrong.
  }
}

void *CudaModules::loadModule(const std::string &ptx, int maxRegisters, std::string *log) {
  contexts.ensureContext();
  JitOptions logs(maxRegisters);
  CUmodule module = nullptr;
  CUresult result =
      api()->invoke(api()->cuModuleLoadDataEx, &module, static_cast<const void *>(ptx.c_str()),
                    logs.count(), logs.options(), logs.values());
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuModuleLoadDataEx.name, "", logs.failureLog(log));
  if (log)
    *log = logs.infoLog();
  return module;
}

std::string CudaModules::link(const std::vector<LinkInput> &inputs, int maxRegisters,
                              std::string *log, unsigned target) {
  contexts.ensureContext();
  JitOptions logs(maxRegisters);
  if (target)
    logs.setTarget(target);
  CUlinkState state = nullptr;
  api()->call(api()->cuLinkCreate, logs.count(), logs.options(), logs.values(), &state);
  // The state owns the linked image, so it is copied out before the state goes.
  struct Destroy {
    const CudaApi &api;
    CUlinkState state;
    ~Destroy() { api.cuLinkDestroy.function(state); }
  } destroy{*api(), state};
  for (const LinkInput &input : inputs) {
    int kind = static_cast<int>(input.kind);
    std::string context = std::string(" for the ") + inputKindName(input.kind) + " " + input.name;
    CUresult result;
    const char *function;
    if (input.data.empty()) {
      function = api()->cuLinkAddFile.name;
      result = api()->invoke(api()->cuLinkAddFile, state, kind, input.name.c_str(), 0u,
                             static_cast<int *>(nullptr), static_cast<void **>(nullptr));
    } else {
      function = api()->cuLinkAddData.name;
      // PTX must end in a NUL, which std::string keeps after its size.
      size_t bytes = input.data.size() + (input.kind == LinkInput::Kind::Ptx ? 1 : 0);
      result = api()->invoke(api()->cuLinkAddData, state, kind,
                             static_cast<void *>(const_cast<char *>(input.data.c_str())), bytes,
                             input.name.c_str(), 0u, static_cast<int *>(nullptr),
                             static_cast<void **>(nullptr));
    }
    if (result != CUDA_SUCCESS)
      api()->fail(result, function, context, logs.failureLog(log));
  }
  void *image = nullptr;
  size_t bytes = 0;
  CUresult result = api()->invoke(api()->cuLinkComplete, state, &image, &bytes);
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuLinkComplete.name, "", logs.failureLog(log));
  if (log)
    *log = logs.infoLog();
  return std::string(static_cast<const char *>(image), bytes);
}

void CudaModules::unloadModule(void *module) {
  if (!module)
    return;
  contexts.ensureContext();
  api()->call(api()->cuModuleUnload, static_cast<CUmodule>(module));
}

void *CudaModules::getFunction(void *module, const std::string &name) {
  contexts.ensureContext();
  CUfunction function = nullptr;
  CUresult result = api()->invoke(api()->cuModuleGetFunction, &function,
                                  static_cast<CUmodule>(module), name.c_str());
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuModuleGetFunction.name, " for kernel '" + name + "'");
  return function;
}

uint64_t CudaModules::getGlobal(void *module, const std::string &name, size_t *size) {
  contexts.ensureContext();
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CUresult result = api()->invoke(api()->cuModuleGetGlobal, &address, &bytes,
                                  static_cast<CUmodule>(module), name.c_str());
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuModuleGetGlobal.name, " for global '" + name + "'");
  if (size)
    *size = bytes;
  return address;
}

int CudaModules::functionAttribute(void *function, int attribute) {
  contexts.ensureContext();
  int value = 0;
  api()->call(api()->cuFuncGetAttribute, &value, attribute, asFunction(function));
  return value;
}

void CudaModules::setFunctionAttribute(void *function, int attribute, int value) {
  contexts.ensureContext();
  api()->call(api()->cuFuncSetAttribute, asFunction(function), attribute, value);
}

void CudaModules::setMaxDynamicSharedMemory(void *function, int bytes) {
  contexts.ensureContext();
  api()->call(api()->cuFuncSetAttribute, asFunction(function),
              static_cast<int>(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), bytes);
}

} // namespace taipan::cuda
