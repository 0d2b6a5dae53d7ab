// Facts about the NumPy installed beside taipan where NumPy releases compute different things.
// The extension records them once while it is imported; typing and lowering read them.
#pragma once

namespace taipan {

/// What the installed NumPy does where its releases differ, so compiled code gives the answer
/// of the NumPy the user runs (as `numpy_library/search.py` follows its probe order).
struct InstalledNumpy {
  /// NumPy 2.5 gave np.sign of a timedelta64 the loop 'm->d' (float64, NaN for NaT); earlier
  /// releases have 'm->m' (a timedelta holding the count's sign, -1 for NaT).
  bool timedeltaSignIsFloat = false;
};

/// The one record of the installed NumPy, written only while the extension is imported.
inline InstalledNumpy &installedNumpy() {
  static InstalledNumpy facts;
  return facts;
}

} // namespace taipan
