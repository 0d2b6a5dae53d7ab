// The job hash: a digest of everything that decides a compile job's code, equal in every
// process for the same code, and the symbol names derived from it.
#pragma once

#include "compiler/Compiler.h"
#include "target/Target.h"
#include "typing/TypeInference.h"

#include <map>
#include <set>
#include <string>

namespace taipan {

/// Digests the typed functions of one compile session. A function's digest covers its source
/// text and place, its argument and return types, its options, the frozen values of the globals
/// and closure variables it reads, and the digests of the functions it calls.
class FunctionDigests {
public:
  /// The digest of `function` (hex), computed once.
  const std::string &of(const TypedFunction &function);

private:
  std::map<const TypedFunction *, std::string> digests;
  std::set<const TypedFunction *> inProgress;
};

/// The job hash: the root function's digest with the declared return type, the target (its
/// identity: the host CPU's name and features, or the compute capability) and taipan's version.
std::string jobHash(const CompileJob &job, const Target &target, const std::string &rootDigest);

/// An LLVM symbol for a function named `name` (any Python name) with digest `digest`: the same
/// function compiles to the same symbol in any process.
std::string symbolFor(const std::string &name, const std::string &digest);

/// The SHA-256 of `bytes` in lowercase hex (as hashlib's hexdigest gives it): the disk cache's
/// code keys, hashed without Python importing a hash module on a cached first call.
std::string sha256Hex(const std::string &bytes);

} // namespace taipan
