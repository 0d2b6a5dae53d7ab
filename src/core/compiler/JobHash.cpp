// Job hashes: SHA-256 over a canonical text of what decides the code. Process-specific values
// (addresses, registry ids of user exception classes, counters) never enter it.
#include "compiler/JobHash.h"

#include "runtime/LoadTimeSymbols.h"
#include "runtime/Runtime.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <vector>

namespace taipan {
namespace {

/// Accumulates length-prefixed fields, so that no two different field lists give one text.
class Digest {
public:
  Digest &add(const std::string &field) {
    std::string length = std::to_string(field.size()) + ":";
    hasher.update(llvm::StringRef(length));
    hasher.update(llvm::StringRef(field));
    return *this;
  }
  Digest &add(int64_t value) { return add(std::to_string(value)); }
  /// The first 128 bits, in hex: collisions are out of reach and symbols stay short.
  std::string hex() {
    std::array<uint8_t, 32> bytes = hasher.final();
    return llvm::toHex(llvm::ArrayRef<uint8_t>(bytes.data(), 16), true);
  }

private:
  llvm::SHA256 hasher;
};

void addConstant(Digest &digest, const Constant &constant) {
  digest.add(static_cast<int64_t>(constant.kind))
      .add(constant.intValue)
      .add(static_cast<int64_t>(std::bit_cast<uint64_t>(constant.floatValue)))
      .add(static_cast<int64_t>(std::bit_cast<uint64_t>(constant.imagValue)))
      .add(constant.text);
}

void addType(Digest &digest, const Type *type) { digest.add(type ? type->name() : "?"); }

/// Where a function comes from: its names, file, place and text.
void addSource(Digest &digest, const FunctionSource &source) {
  digest.add(source.qualifiedName).add(source.filename).add(source.firstLine);
  digest.add(static_cast<int64_t>(source.sourceLines.size()));
  for (const std::string &line : source.sourceLines)
    digest.add(line);
  for (const Parameter &parameter : source.parameters) {
    digest.add(parameter.name).add(parameter.hasDefault).add(parameter.defaultName);
    addConstant(digest, parameter.defaultValue);
  }
}

void addGlobal(Digest &digest, const GlobalValue &value) {
  digest.add(static_cast<int64_t>(value.kind)).add(value.name);
  addConstant(digest, value.constant);
  digest.add(static_cast<int64_t>(value.items.size()));
  for (const Constant &item : value.items)
    addConstant(digest, item);
  addType(digest, value.arrayType);
  addType(digest, value.scalarType);
  addType(digest, value.functionType);
  digest.add(static_cast<int64_t>(value.shape.size()));
  for (int64_t extent : value.shape)
    digest.add(extent);
  digest.add(value.bytes);
  // A captured device array: its address and layout (the memory it views, not its contents).
  digest.add(static_cast<int64_t>(value.onDevice)).add(static_cast<int64_t>(value.deviceAddress));
  digest.add(static_cast<int64_t>(value.strides.size()));
  for (int64_t stride : value.strides)
    digest.add(stride);
  digest.add(static_cast<int64_t>(value.elements.size()));
  for (const GlobalValue &element : value.elements)
    addGlobal(digest, element);
  // Builtin exception classes have fixed ids; a user class's id is its place in this process's
  // registry, so its load-time symbol stands for it (its module and qualified name, which each
  // process loading the code resolves to its own id). A class that name does not find (made in
  // a function, or sent by value in a pickle) hashes apart: code naming it finds another class.
  if (value.kind == GlobalValue::Kind::ExceptionClass) {
    if (value.exceptionId < FirstUserException) {
      digest.add(value.exceptionId);
    } else {
      std::string symbol = runtime::exceptionClassSymbol(value.exceptionId);
      digest.add(symbol.empty() ? "unfindable " + runtime::exceptionClassName(value.exceptionId)
                                : symbol);
    }
  }
  if (value.kind == GlobalValue::Kind::JitFunction && value.function)
    addSource(digest, *value.function);
}

template <typename Map> std::vector<int> sortedKeys(const Map &map) {
  std::vector<int> keys;
  for (const auto &entry : map)
    keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

} // namespace

const std::string &FunctionDigests::of(const TypedFunction &function) {
  auto found = digests.find(&function);
  if (found != digests.end())
    return found->second;
  inProgress.insert(&function);
  Digest digest;
  addSource(digest, *function.source);
  digest.add(function.source->options.fingerprint());
  digest.add(static_cast<int64_t>(function.argumentTypes.size()));
  for (const Type *argument : function.argumentTypes)
    addType(digest, argument);
  addType(digest, function.returnType);
  for (int id : sortedKeys(function.globals)) {
    digest.add(id);
    addGlobal(digest, function.globals.at(id));
  }
  for (int id : sortedKeys(function.calls)) {
    const TypedFunction *callee = function.calls.at(id).callee;
    digest.add(id);
    if (!callee)
      continue;
    if (inProgress.count(callee)) {
      // Recursion: the callee is this function or one calling it, whose source and types are
      // already part of the digest being computed.
      addSource(digest, *callee->source);
      for (const Type *argument : callee->argumentTypes)
        addType(digest, argument);
    } else {
      digest.add(of(*callee));
    }
  }
  for (int id : sortedKeys(function.intrinsics)) { // their IR is code of this function
    const IntrinsicBody &body = function.intrinsics.at(id);
    digest.add(id).add(body.instructions).add(body.declarations).add(body.module);
    addType(digest, body.returnType);
    for (const Type *parameter : body.parameterTypes)
      addType(digest, parameter);
    for (size_t index : body.argumentOrder)
      digest.add(static_cast<int64_t>(index));
  }
  inProgress.erase(&function);
  return digests[&function] = digest.hex();
}

std::string jobHash(const CompileJob &job, const Target &target, const std::string &rootDigest) {
  Digest digest;
  digest.add(taipanVersion()).add(rootDigest);
  addType(digest, job.declaredReturnType);
  // The entry kind by its number, fixed forever: the disk cache keys by this hash.
  digest.add(static_cast<int64_t>(job.target.entry));
  for (const std::string &field : target.identity())
    digest.add(field);
  return digest.hex();
}

std::string symbolFor(const std::string &name, const std::string &digest) {
  std::string clean;
  for (char c : name)
    clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return "taipan_" + clean + "_" + digest.substr(0, 16);
}

std::string sha256Hex(const std::string &bytes) {
  llvm::SHA256 hasher;
  hasher.update(llvm::StringRef(bytes));
  std::array<uint8_t, 32> digest = hasher.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest.data(), digest.size()), true);
}

const char *taipanVersion() { return TAIPAN_VERSION; }

} // namespace taipan
