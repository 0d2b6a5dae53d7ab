// Values compiled code cannot hold (Numba's imprecise types: a dtype or an array of Python
// objects): the error typing throws where it meets one, and the message that names a variable.
#pragma once

#include "support/CompileError.h"

#include <string>

namespace taipan {

/// Numba's message for a variable (a name as the source spells it) that would hold a value of
/// the imprecise type `typeName` (Numba's spelling: `array(pyobject, 1d, C)`).
inline std::string impreciseVariableMessage(const std::string &variable,
                                            const std::string &typeName) {
  return "Cannot infer the type of variable '" + variable + "', have imprecise type: " + typeName +
         ".";
}

/// Whether NumPy reads `text` as the dtype of Python objects (np.dtype("O"), "object").
inline bool namesObjectDtype(std::string text) {
  if (!text.empty() && (text[0] == '|' || text[0] == '<' || text[0] == '>' || text[0] == '='))
    text.erase(0, 1);
  return text == "O" || text == "O8" || text == "object";
}

/// Thrown where typing meets a value of an imprecise type. Numba reports such a value at the
/// variable that would hold it, whose type stays unknown: the assignment to a variable
/// catches it and reports impreciseVariableMessage (typing/StatementInference.cpp); anywhere
/// else (an argument, a returned value) it is a TypingError naming a value.
class ImpreciseValue : public CompileError {
public:
  ImpreciseValue(const std::string &typeName, SourceLocation location)
      : CompileError(CompileErrorKind::Typing,
                     "Cannot infer the type of a value, have imprecise type: " + typeName + ".",
                     location),
        typeName(typeName) {}

  std::string typeName;
};

} // namespace taipan
