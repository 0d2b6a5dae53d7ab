// Where lowering keeps a variable: the versions of one Python variable that have one type share
// a slot (syntax/VariableVersions.h), as the single variable they were before versioning.
#pragma once

#include "syntax/VariableVersions.h"
#include "types/Type.h"

#include <cstdint>
#include <string>

namespace taipan {

/// The slot of variable `name` of type `type`: `x` and `x.1` of one type share a slot, so a
/// chain of reassignments of one type is one stack slot (and one entry in a segment's frame),
/// not thousands. At any point only one version of a Python variable is read (the one that
/// reaches it), so sharing never mixes two live values. Hidden names keep slots of their own.
inline std::string variableSlotName(const std::string &name, const Type *type) {
  std::string spelled = pythonVariableName(name);
  if (spelled.empty() || spelled[0] == '$' || name.find('@') != std::string::npos)
    return name;
  return spelled + "#" + std::to_string(reinterpret_cast<std::uintptr_t>(type));
}

} // namespace taipan
