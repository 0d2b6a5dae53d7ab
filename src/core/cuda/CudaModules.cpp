// CudaModules.cpp - Loading code into the current context: PTX or cubin images, and images
// linked from several inputs (PTX, cubin, fatbin, objects, libraries) by the driver's linker.

#include "cuda/CudaModules.h"
#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaLibrary.h"

#include <iterator>

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

} // namespace

const CudaApi *CudaModules::api() const { return library.api(); }

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
