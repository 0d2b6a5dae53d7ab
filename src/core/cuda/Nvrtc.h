// Nvrtc.h - CUDA C++ compiled at run time by NVRTC, for the .cu files that kernels link with.
// libnvrtc is opened with dlopen at first use, as libcuda is, so the build needs no toolkit.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace taipan::cuda {

/// NVRTC could not be loaded (unavailable() is set), or it rejected a source; the message is
/// meant for users and, for a rejected source, carries NVRTC's log.
class NvrtcError : public std::runtime_error {
public:
  NvrtcError(const std::string &message, bool unavailable)
      : std::runtime_error(message), isUnavailable(unavailable) {}
  bool unavailable() const { return isUnavailable; }

private:
  bool isUnavailable;
};

/// The process's NVRTC. Libraries are tried in order: a path given to setLibraryPath() (the
/// Python side finds NVIDIA's wheels there), TAIPAN_NVRTC, CUDA_HOME/lib64, /usr/local/cuda/lib64,
/// then the sonames of CUDA 13, 12 and 11.2 on the loader's own path.
class Nvrtc {
public:
  static Nvrtc &get();

  /// A library to try first; only has an effect before the first use.
  void setLibraryPath(const std::string &path);
  bool available();
  /// Why available() is false, in words for users.
  std::string unavailableReason();
  /// (major, minor) of the loaded NVRTC; throws NvrtcError when none loads.
  std::pair<int, int> version();

  /// Compiles CUDA C++ `source` (called `name` in messages) to a relocatable cubin for
  /// sm_<computeCapability> (with `archSpecific`, its arch-specific variant: sm_90a), ready for
  /// CudaModules::link(). `includeDirectories` go on the include path; `log` receives NVRTC's
  /// warnings. Throws NvrtcError with the log on failure.
  std::string compile(const std::string &source, const std::string &name, int computeCapability,
                      const std::vector<std::string> &includeDirectories,
                      std::string *log = nullptr, bool archSpecific = false);

private:
  struct Api;
  Nvrtc();
  ~Nvrtc();
  void load();

  std::once_flag loaded;
  std::unique_ptr<Api> api;
  std::string preferredPath;
  std::string failureReason;
};

} // namespace taipan::cuda
