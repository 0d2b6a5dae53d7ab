// ORC LLJIT set-up: host target machine, process symbols (libm) and taipan's runtime symbols.
#include "cpu/CpuJit.h"

#include "cpu/HostInfo.h"
#include "runtime/LoadTimeSymbols.h"
#include "runtime/Runtime.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/SubtargetFeature.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace taipan {

namespace {
[[noreturn]] void fail(const std::string &what, llvm::Error error) {
  throw std::runtime_error(what + ": " + llvm::toString(std::move(error)));
}

template <typename T> T check(llvm::Expected<T> value, const std::string &what) {
  if (!value)
    fail(what, value.takeError());
  return std::move(*value);
}

/// The prefix of glibc's vector math functions (the vector function ABI's names, _ZGVdN4v_exp).
constexpr llvm::StringLiteral VectorMathPrefix = "_ZGV";

/// LLJIT's compiler of IR modules, which creates its target machine for the first module it
/// compiles: a process that only loads cached object code never pays for it (about 0.15 ms).
class LazyIRCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  explicit LazyIRCompiler(llvm::orc::JITTargetMachineBuilder builder)
      : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(builder.getOptions())),
        builder(std::move(builder)) {}

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module &module) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (!compiler) {
      auto machine = builder.createTargetMachine();
      if (!machine)
        return machine.takeError();
      compiler = std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*machine));
    }
    return (*compiler)(module);
  }

private:
  llvm::orc::JITTargetMachineBuilder builder;
  std::mutex mutex;
  std::unique_ptr<llvm::orc::TMOwningSimpleCompiler> compiler;
};
} // namespace

struct CpuJit::Implementation {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  std::optional<llvm::orc::JITTargetMachineBuilder> machineBuilder;
  std::mutex mutex;
  /// The load-time symbols defined so far (guarded by `mutex`).
  std::set<std::string> loadTimeSymbols;

  /// Defines, once per process, the load-time symbols among `names` (runtime/LoadTimeSymbols),
  /// each resolved in this process, before code naming them is added: one that cannot be
  /// resolved throws, leaving the JIT as it was (a cache or a pickle then compiles instead).
  void defineLoadTimeSymbols(const std::vector<std::string> &names) {
    llvm::orc::SymbolMap symbols;
    llvm::orc::MangleAndInterner mangle(jit->getExecutionSession(), jit->getDataLayout());
    std::vector<std::string> added;
    for (const std::string &name : names) {
      if (!llvm::StringRef(name).starts_with(runtime::LoadTimeSymbolPrefix) ||
          loadTimeSymbols.count(name) || std::find(added.begin(), added.end(), name) != added.end())
        continue;
      void *address = runtime::resolveLoadTimeSymbol(name);
      if (!address)
        throw std::runtime_error("the code uses " + name + ", which this process cannot find");
      symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
      added.push_back(name);
    }
    if (symbols.empty())
      return;
    if (auto error = jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols))))
      fail("cannot define the load-time symbols", std::move(error));
    loadTimeSymbols.insert(added.begin(), added.end());
  }

  /// Loads libmvec (hostHasVectorMath) before code calling one of `names` is linked, which
  /// the JIT's search of the process then finds: only code that calls it pays for loading it.
  static void loadVectorMathFor(const std::vector<std::string> &names) {
    for (const std::string &name : names)
      if (llvm::StringRef(name).starts_with(VectorMathPrefix)) {
        hostHasVectorMath();
        return;
      }
  }

  /// The load-time symbols and vector math functions a module declares.
  static std::vector<std::string> loadTimeSymbolsOf(const llvm::Module &module) {
    std::vector<std::string> names;
    for (const llvm::GlobalValue &value : module.global_values())
      if (value.isDeclaration() && (value.getName().starts_with(runtime::LoadTimeSymbolPrefix) ||
                                    value.getName().starts_with(VectorMathPrefix)))
        names.push_back(value.getName().str());
    return names;
  }

  /// The load-time symbols and vector math functions object code leaves undefined (without the
  /// platform's prefix).
  std::vector<std::string> loadTimeSymbolsOf(const llvm::MemoryBuffer &objectCode) {
    std::vector<std::string> names;
    auto object = llvm::object::ObjectFile::createObjectFile(objectCode.getMemBufferRef());
    if (!object) { // addObjectFile reports it
      llvm::consumeError(object.takeError());
      return names;
    }
    char globalPrefix = jit->getDataLayout().getGlobalPrefix();
    for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
      llvm::Expected<uint32_t> flags = symbol.getFlags();
      llvm::Expected<llvm::StringRef> name = symbol.getName();
      if (!flags || !name) {
        llvm::consumeError(flags.takeError());
        llvm::consumeError(name.takeError());
        continue;
      }
      llvm::StringRef text = *name;
      if (globalPrefix && text.starts_with(llvm::StringRef(&globalPrefix, 1)))
        text = text.drop_front();
      if ((*flags & llvm::object::SymbolRef::SF_Undefined) &&
          (text.starts_with(runtime::LoadTimeSymbolPrefix) || text.starts_with(VectorMathPrefix)))
        names.push_back(text.str());
    }
    return names;
  }
};

CpuJit &CpuJit::get() {
  static CpuJit instance;
  return instance;
}

CpuJit::CpuJit() : implementation(std::make_unique<Implementation>()) {
  // X86's domain reassignment (moving integer work to AVX-512 mask registers) is quadratic in
  // the size of a basic block: 93% of code generation for a 1,000-statement function.
  // Vector epilogues from 4 lanes: a loop of 300 doubles then ends in vector code, not in 12
  // scalar iterations, also where the CPU prefers 256-bit vectors (Sapphire Rapids: 4 doubles;
  // LLVM 20, Numba's, asks for 16 lanes times the interleave, which 4 x 4 meets).
  // TAIPAN_LLVM_OPTIONS adds LLVM's own options (a developer's knob for comparing code
  // generation choices on one build; these two take precedence over it).
  static const char *const options[] = {"taipan", "-disable-x86-domain-reassignment",
                                        "-epilogue-vectorization-minimum-VF=4"};
  llvm::cl::ParseCommandLineOptions(3, options, "", nullptr, "TAIPAN_LLVM_OPTIONS");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  llvm::orc::JITTargetMachineBuilder machineBuilder{llvm::Triple(hostTargetTriple())};
  machineBuilder.setCPU(hostCpuName());
  llvm::SubtargetFeatures features;
  for (const auto &[feature, present] : hostCpuFeatureFlags())
    features.AddFeature(feature, present);
  machineBuilder.addFeatures(features.getFeatures());
  machineBuilder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);

  implementation->machineBuilder = machineBuilder;
  implementation->targetMachine = createTargetMachine();
  // The data layout is the target machine's (LLJIT would make a target machine to find it),
  // and the compiler of IR modules makes its own when it first compiles one.
  implementation->jit =
      check(llvm::orc::LLJITBuilder()
                .setJITTargetMachineBuilder(machineBuilder)
                .setDataLayout(implementation->targetMachine->createDataLayout())
                .setCompileFunctionCreator(
                    [](llvm::orc::JITTargetMachineBuilder builder)
                        -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                      return std::make_unique<LazyIRCompiler>(std::move(builder));
                    })
                .create(),
            "cannot create the JIT");

  llvm::orc::JITDylib &library = implementation->jit->getMainJITDylib();
  const llvm::DataLayout &layout = implementation->jit->getDataLayout();
  // libm and libc come from the process, which the interpreter has already linked; libmvec
  // is loaded before the first code that calls it is linked (loadVectorMathFor).
  library.addGenerator(check(
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(layout.getGlobalPrefix()),
      "cannot search the process for symbols"));
  // The runtime has hidden visibility, so its symbols are registered by address.
  llvm::orc::SymbolMap symbols;
  size_t count = 0;
  const runtime::RuntimeSymbol *table = runtime::runtimeSymbols(count);
  llvm::orc::MangleAndInterner mangle(implementation->jit->getExecutionSession(), layout);
  for (size_t i = 0; i < count; ++i)
    symbols[mangle(table[i].name)] = {llvm::orc::ExecutorAddr::fromPtr(table[i].address),
                                      llvm::JITSymbolFlags::Exported};
  if (auto error = library.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    fail("cannot define the runtime symbols", std::move(error));
}

CpuJit::~CpuJit() = default;

llvm::TargetMachine &CpuJit::targetMachine() { return *implementation->targetMachine; }

std::unique_ptr<llvm::TargetMachine> CpuJit::createTargetMachine() {
  return check(implementation->machineBuilder->createTargetMachine(),
               "cannot create the host target machine");
}

std::unique_ptr<llvm::TargetMachine> CpuJit::createTargetMachine(const std::string &cpuName,
                                                                 const std::string &cpuFeatures) {
  llvm::orc::JITTargetMachineBuilder builder = *implementation->machineBuilder;
  builder.setCPU(cpuName);
  builder.getFeatures() = llvm::SubtargetFeatures(cpuFeatures);
  return check(builder.createTargetMachine(), "cannot create a target machine for " + cpuName);
}

void *CpuJit::addModuleAndLookup(std::unique_ptr<llvm::Module> module,
                                 std::unique_ptr<llvm::LLVMContext> context,
                                 const std::string &symbol) {
  std::lock_guard<std::mutex> lock(implementation->mutex);
  std::vector<std::string> names = Implementation::loadTimeSymbolsOf(*module);
  Implementation::loadVectorMathFor(names);
  implementation->defineLoadTimeSymbols(names);
  llvm::orc::ThreadSafeModule safeModule(std::move(module), std::move(context));
  if (auto error = implementation->jit->addIRModule(std::move(safeModule)))
    fail("cannot add the module to the JIT", std::move(error));
  auto address = check(implementation->jit->lookup(symbol), "cannot find " + symbol);
  return address.toPtr<void *>();
}

void *CpuJit::lookup(const std::string &symbol) {
  std::lock_guard<std::mutex> lock(implementation->mutex);
  return check(implementation->jit->lookup(symbol), "cannot find " + symbol).toPtr<void *>();
}

void *CpuJit::addObjectAndLookup(const std::string &objectCode, const std::string &symbol) {
  std::lock_guard<std::mutex> lock(implementation->mutex);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(objectCode, symbol);
  std::vector<std::string> names = implementation->loadTimeSymbolsOf(*buffer);
  Implementation::loadVectorMathFor(names);
  implementation->defineLoadTimeSymbols(names);
  if (auto error = implementation->jit->addObjectFile(std::move(buffer)))
    fail("cannot add the object code to the JIT", std::move(error));
  auto address = check(implementation->jit->lookup(symbol), "cannot find " + symbol);
  return address.toPtr<void *>();
}

} // namespace taipan
