// np.random.Generator arguments: recognised by their class (without importing NumPy), passed
// as the `bitgen_t *` NumPy's own Cython code draws through, so draws advance its state.
#include "RandomGeneratorBoxing.h"

#include "runtime/NumpyBitgen.h"
#include "types/RandomGeneratorType.h"

#include <cstdio>
#include <cstring>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace taipan::bindings {

namespace {
/// Whether the loaded NumPy is older than 2.3.4 (Generator.wald's older formula), read from
/// numpy.__version__ (NumPy is loaded: a Generator exists).
bool numpyBefore234() {
  PyObject *numpy = PyImport_AddModule("numpy"); // borrowed
  PyObject *version = numpy ? PyObject_GetAttrString(numpy, "__version__") : nullptr;
  const char *text = version ? PyUnicode_AsUTF8(version) : nullptr;
  int major = 0, minor = 0, patch = 0;
  bool before = text && std::sscanf(text, "%d.%d.%d", &major, &minor, &patch) >= 2 &&
                std::make_tuple(major, minor, patch) < std::make_tuple(2, 3, 4);
  Py_XDECREF(version);
  PyErr_Clear();
  return before;
}
/// The Generators passed to compiled code, by their `bitgen_t` address: compiled code holds only
/// that address, and a Generator it returns boxes back to this object. Each entry holds a
/// reference (so the address cannot be reused while the entry lives); entries that nothing
/// else holds any more are dropped whenever the table has doubled. The GIL guards the table.
/// Two Generators sharing one bit generator share an entry: the one passed last is returned.
class GeneratorsByBitgen {
public:
  void remember(void *bitgen, PyObject *generator) {
    auto [entry, inserted] = generators.try_emplace(bitgen, generator);
    if (!inserted) {
      if (entry->second == generator)
        return;
      PyObject *previous = entry->second;
      Py_INCREF(generator);
      entry->second = generator;
      Py_DECREF(previous);
      return;
    }
    Py_INCREF(generator);
    if (generators.size() >= sweepAt)
      sweep();
  }

  PyObject *find(void *bitgen) const {
    auto entry = generators.find(bitgen);
    return entry == generators.end() ? nullptr : entry->second;
  }

private:
  void sweep() {
    std::vector<PyObject *> unused;
    for (auto entry = generators.begin(); entry != generators.end();) {
      if (Py_REFCNT(entry->second) == 1) {
        unused.push_back(entry->second);
        entry = generators.erase(entry);
      } else {
        ++entry;
      }
    }
    sweepAt = 2 * generators.size() + 16;
    // Released after the table is consistent: a finalizer may pass a Generator again.
    for (PyObject *generator : unused)
      Py_DECREF(generator);
  }

  std::unordered_map<void *, PyObject *> generators;
  size_t sweepAt = 16;
};

GeneratorsByBitgen &generatorsByBitgen() {
  static auto *table = new GeneratorsByBitgen(); // never destroyed: it outlives the interpreter
  return *table;
}
} // namespace

const Type *typeOfRandomGenerator(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  if (std::strcmp(type->tp_name, "numpy.random._generator.Generator") != 0)
    return nullptr;
  static const bool chosen = [] {
    runtime::numpy_random::useWaldOfNumpyBefore234(numpyBefore234());
    return true;
  }();
  (void)chosen;
  return randomGeneratorType();
}

bool unboxRandomGenerator(PyObject *value, void *storage) {
  PyObject *bitGenerator = PyObject_GetAttrString(value, "bit_generator");
  if (!bitGenerator)
    return false;
  PyObject *capsule = PyObject_GetAttrString(bitGenerator, "capsule");
  Py_DECREF(bitGenerator);
  if (!capsule)
    return false;
  // The capsule's pointer lives in the bit generator, which the Generator holds.
  void *bitgen = PyCapsule_GetPointer(capsule, "BitGenerator");
  Py_DECREF(capsule);
  if (!bitgen)
    return false;
  std::memcpy(storage, &bitgen, sizeof(bitgen));
  generatorsByBitgen().remember(bitgen, value);
  return true;
}

PyObject *boxRandomGenerator(const void *storage) {
  void *bitgen;
  std::memcpy(&bitgen, storage, sizeof(bitgen));
  PyObject *generator = generatorsByBitgen().find(bitgen);
  if (!generator) {
    PyErr_SetString(PyExc_SystemError, "a numpy.random.Generator value compiled code returned "
                                       "was not passed to it from Python");
    return nullptr;
  }
  Py_INCREF(generator);
  return generator;
}

} // namespace taipan::bindings
