// Keeps taipan._core loadable on glibc 2.35 (Ubuntu 22.04), so a wheel built on Debian 12 is
// manylinux_2_35 rather than manylinux_2_36. Debian's static LLVM was configured on glibc 2.36,
// so sys::Process::GetRandomNumber in libLLVMSupport.a calls arc4random, which glibc added in
// 2.36. This hidden definition is linked before the LLVM archives, so their reference binds here
// and the module needs no arc4random@GLIBC_2.36 from libc; nothing outside the module sees it.
#include <cstdint> // defines __GLIBC__ (through <features.h>) where the C library is glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

extern "C" __attribute__((visibility("hidden"))) std::uint32_t arc4random() noexcept {
  std::uint32_t value = 0;
  for (;;) {
    ssize_t got = getrandom(&value, sizeof value, 0);
    if (got == static_cast<ssize_t>(sizeof value))
      return value;
    if (got < 0 && errno != EINTR)
      break;
  }
  // getrandom unavailable (an old kernel, or a seccomp filter): /dev/urandom, then the clock.
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t got = read(fd, &value, sizeof value);
    close(fd);
    if (got == static_cast<ssize_t>(sizeof value))
      return value;
  }
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  std::uint64_t mixed = (static_cast<std::uint64_t>(now.tv_sec) << 32) ^
                        static_cast<std::uint64_t>(now.tv_nsec) ^
                        (static_cast<std::uint64_t>(getpid()) << 16);
  mixed *= 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint32_t>(mixed >> 32);
}
#endif
