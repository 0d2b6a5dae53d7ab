// The LLVM IR spelling of taipan types' representations (lower/LowerTypes), as text.
#include "compiler/LlvmTypeText.h"

#include "lower/LowerTypes.h"

#include <llvm/Support/raw_ostream.h>

namespace taipan {

std::string llvmTypeText(const Type *type, bool inMemory) {
  llvm::LLVMContext context;
  llvm::Type *representation = inMemory ? memoryType(context, type) : valueType(context, type);
  std::string text;
  llvm::raw_string_ostream stream(text);
  representation->print(stream);
  return stream.str();
}

} // namespace taipan
