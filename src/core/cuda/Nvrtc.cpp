// Nvrtc.cpp - NVRTC resolved with dlopen and dlsym: CUDA C++ sources to relocatable cubins.

#include "cuda/Nvrtc.h"

#include <dlfcn.h>

#include <cstdlib>

namespace taipan::cuda {

namespace {

struct NvrtcProgram;
using nvrtcProgram = NvrtcProgram *;
/// nvrtcResult; 0 is NVRTC_SUCCESS.
using nvrtcResult = int;

/// The places to look for libnvrtc, most specific first.
std::vector<std::string> candidateLibraries(const std::string &preferred) {
  std::vector<std::string> candidates;
  if (!preferred.empty())
    candidates.push_back(preferred);
  if (const char *path = std::getenv("TAIPAN_NVRTC"); path && *path)
    candidates.push_back(path);
  static const char *sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                  "libnvrtc.so"};
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable); root && *root)
      for (const char *soname : sonames)
        candidates.push_back(std::string(root) + "/lib64/" + soname);
  for (const char *soname : sonames)
    candidates.push_back(std::string("/usr/local/cuda/lib64/") + soname);
  for (const char *soname : sonames)
    candidates.push_back(soname);
  return candidates;
}

} // namespace

struct Nvrtc::Api {
  void *library = nullptr;
  std::string path;
  nvrtcResult (*nvrtcVersion)(int *, int *) = nullptr;
  const char *(*nvrtcGetErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                    const char *const *, const char *const *) = nullptr;
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *) = nullptr;
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *) = nullptr;
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *) = nullptr;
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *) = nullptr;
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *) = nullptr;
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *) = nullptr;

  template <typename Function> bool resolve(Function &function, const char *name) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    return function != nullptr;
  }

  bool resolveAll() {
    return resolve(nvrtcVersion, "nvrtcVersion") &&
           resolve(nvrtcGetErrorString, "nvrtcGetErrorString") &&
           resolve(nvrtcCreateProgram, "nvrtcCreateProgram") &&
           resolve(nvrtcDestroyProgram, "nvrtcDestroyProgram") &&
           resolve(nvrtcCompileProgram, "nvrtcCompileProgram") &&
           resolve(nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize") &&
           resolve(nvrtcGetProgramLog, "nvrtcGetProgramLog") &&
           resolve(nvrtcGetCUBINSize, "nvrtcGetCUBINSize") &&
           resolve(nvrtcGetCUBIN, "nvrtcGetCUBIN");
  }

  /// Throws for a failed call, naming it and NVRTC's reason, with `log` after it.
  void check(nvrtcResult result, const char *call, const std::string &log = {}) const {
    if (result == 0)
      return;
    std::string message = std::string(call) + " failed: " + nvrtcGetErrorString(result);
    if (!log.empty())
      message += "\n" + log;
    throw NvrtcError(message, false);
  }
};

Nvrtc &Nvrtc::get() {
  // Never destroyed, as CudaDriver::get() is not: the library stays loaded to the end.
  static Nvrtc *instance = new Nvrtc();
  return *instance;
}

Nvrtc::Nvrtc() = default;
Nvrtc::~Nvrtc() = default;

void Nvrtc::setLibraryPath(const std::string &path) { preferredPath = path; }

void Nvrtc::load() {
  std::string tried;
  for (const std::string &candidate : candidateLibraries(preferredPath)) {
    void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      tried += "\n  " + candidate;
      continue;
    }
    auto loadedApi = std::make_unique<Api>();
    loadedApi->library = library;
    loadedApi->path = candidate;
    if (!loadedApi->resolveAll()) {
      tried += "\n  " + candidate + " (lacks the NVRTC functions taipan needs)";
      continue;
    }
    api = std::move(loadedApi);
    return;
  }
  failureReason = "NVRTC, which compiles the .cu files given to link=, was not found; install "
                  "NVIDIA's nvidia-cuda-nvrtc wheel or the CUDA toolkit, or set TAIPAN_NVRTC to "
                  "the library's path. Tried:" +
                  tried;
}

bool Nvrtc::available() {
  std::call_once(loaded, [this] { load(); });
  return api != nullptr;
}

std::string Nvrtc::unavailableReason() { return available() ? "" : failureReason; }

std::pair<int, int> Nvrtc::version() {
  if (!available())
    throw NvrtcError(failureReason, true);
  int major = 0, minor = 0;
  api->check(api->nvrtcVersion(&major, &minor), "nvrtcVersion");
  return {major, minor};
}

std::string Nvrtc::compile(const std::string &source, const std::string &name,
                           int computeCapability,
                           const std::vector<std::string> &includeDirectories, std::string *log,
                           bool archSpecific) {
  if (!available())
    throw NvrtcError(failureReason, true);
  nvrtcProgram program = nullptr;
  api->check(api->nvrtcCreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr),
             "nvrtcCreateProgram");
  struct Destroy {
    Api &api;
    nvrtcProgram &program;
    ~Destroy() { api.nvrtcDestroyProgram(&program); }
  } destroy{*api, program};

  // Relocatable device code, so the driver's linker can resolve the kernel's calls into it.
  std::vector<std::string> options = {"--gpu-architecture=sm_" + std::to_string(computeCapability) +
                                          (archSpecific ? "a" : ""),
                                      "--relocatable-device-code=true"};
  for (const std::string &directory : includeDirectories)
    options.push_back("--include-path=" + directory);
  std::vector<const char *> optionPointers;
  for (const std::string &option : options)
    optionPointers.push_back(option.c_str());
  nvrtcResult compiled = api->nvrtcCompileProgram(program, static_cast<int>(optionPointers.size()),
                                                  optionPointers.data());

  size_t logSize = 0;
  std::string programLog;
  if (api->nvrtcGetProgramLogSize(program, &logSize) == 0 && logSize > 1) {
    programLog.resize(logSize);
    api->nvrtcGetProgramLog(program, programLog.data());
    programLog.resize(logSize - 1); // the NUL
  }
  if (log)
    *log = programLog;
  if (compiled != 0)
    throw NvrtcError("NVRTC could not compile " + name + " (" + api->nvrtcGetErrorString(compiled) +
                         "):\n" + programLog,
                     false);

  size_t bytes = 0;
  api->check(api->nvrtcGetCUBINSize(program, &bytes), "nvrtcGetCUBINSize");
  std::string cubin(bytes, '\0');
  api->check(api->nvrtcGetCUBIN(program, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

} // namespace taipan::cuda
