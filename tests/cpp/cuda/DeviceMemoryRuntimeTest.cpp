// DeviceMemoryRuntimeTest.cpp - The device memory runtime's definitions, run on the host: the
// same IR, compiled for this CPU with malloc, free and taipan_raise replaced by recorders, so
// the blocks' layout, counts, checks, destructors and statistics are checked without a GPU.

#include "cuda/DeviceMemoryRuntime.h"
#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

namespace {

using taipan::cuda::DeviceMemoryStatistics;
using taipan::runtime::MemInfo;

/// What the runtime's calls did: live allocations, the last raise.
struct Recorder {
  std::set<void *> live;
  int mallocs = 0;
  int frees = 0;
  bool failNextMalloc = false;
  int raisedId = 0;
  std::string raisedMessage;
  int destructorCalls = 0;
  void *destroyedData = nullptr;
  void *destroyedPayload = nullptr;
};
Recorder *recorder = nullptr;

extern "C" void *recordingMalloc(uint64_t bytes) {
  if (recorder->failNextMalloc) {
    recorder->failNextMalloc = false;
    return nullptr;
  }
  void *memory = std::malloc(bytes);
  recorder->live.insert(memory);
  ++recorder->mallocs;
  return memory;
}

extern "C" void recordingFree(void *memory) {
  EXPECT_EQ(recorder->live.erase(memory), 1u) << "freed memory that is not live";
  ++recorder->frees;
  std::free(memory);
}

extern "C" void recordingRaise(int32_t id, const char *message) {
  recorder->raisedId = id;
  recorder->raisedMessage = message;
}

extern "C" void recordingDestructor(void *data, void *payload) {
  ++recorder->destructorCalls;
  recorder->destroyedData = data;
  recorder->destroyedPayload = payload;
}

/// The runtime's five calls, declared as lowering declares them, defined by the device runtime
/// and compiled for the host.
class DeviceMemoryRuntime : public ::testing::Test {
protected:
  using Allocate = MemInfo *(*)(int64_t);
  using AllocateWithDestructor = MemInfo *(*)(int64_t, void (*)(void *, void *), void *);
  using AllocateArray = MemInfo *(*)(const int64_t *, int64_t, int64_t);
  using Count = void (*)(MemInfo *);

  void SetUp() override {
    recorder = &record;
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>("runtime", *context);
    llvm::Type *pointer = llvm::PointerType::get(*context, 0);
    llvm::Type *i64 = llvm::Type::getInt64Ty(*context);
    llvm::Type *voidType = llvm::Type::getVoidTy(*context);
    auto declare = [&](const char *name, llvm::Type *result, std::vector<llvm::Type *> params) {
      llvm::Function::Create(llvm::FunctionType::get(result, params, false),
                             llvm::GlobalValue::ExternalLinkage, name, *module);
    };
    declare("taipan_nrt_allocate", pointer, {i64});
    declare("taipan_nrt_allocate_with_destructor", pointer, {i64, pointer, pointer});
    declare("taipan_nrt_allocate_array", pointer, {pointer, i64, i64});
    declare("taipan_nrt_incref", voidType, {pointer});
    declare("taipan_nrt_decref", voidType, {pointer});
    taipan::cuda::defineDeviceMemoryRuntime(*module);
    // The definitions are internal (a kernel's module keeps only its entry): the test reaches
    // them through exported wrappers of its own.
    for (const char *name : {"taipan_nrt_allocate", "taipan_nrt_allocate_with_destructor",
                             "taipan_nrt_allocate_array", "taipan_nrt_incref", "taipan_nrt_decref"})
      module->getFunction(name)->setLinkage(llvm::GlobalValue::ExternalLinkage);
    // The memsys pointer lives in the device's global address space; on the host that is plain
    // memory, given an initial value by the test.
    module->getGlobalVariable(taipan::cuda::DeviceMemorySystemGlobal)
        ->setLinkage(llvm::GlobalValue::ExternalLinkage);

    auto jit = llvm::orc::LLJITBuilder().create();
    ASSERT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
    engine = std::move(*jit);
    module->setDataLayout(engine->getDataLayout());
    llvm::orc::MangleAndInterner mangle(engine->getExecutionSession(), engine->getDataLayout());
    auto symbol = [&](auto *function) {
      return llvm::orc::ExecutorSymbolDef(llvm::orc::ExecutorAddr::fromPtr(function),
                                          llvm::JITSymbolFlags::Exported);
    };
    llvm::orc::SymbolMap symbols;
    symbols[mangle("malloc")] = symbol(&recordingMalloc);
    symbols[mangle("free")] = symbol(&recordingFree);
    symbols[mangle("taipan_raise")] = symbol(&recordingRaise);
    ASSERT_FALSE(static_cast<bool>(
        engine->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)))));
    ASSERT_FALSE(static_cast<bool>(
        engine->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))));
    allocate = lookup<Allocate>("taipan_nrt_allocate");
    allocateWithDestructor = lookup<AllocateWithDestructor>("taipan_nrt_allocate_with_destructor");
    allocateArray = lookup<AllocateArray>("taipan_nrt_allocate_array");
    incref = lookup<Count>("taipan_nrt_incref");
    decref = lookup<Count>("taipan_nrt_decref");
    memsys = lookup<DeviceMemoryStatistics **>(taipan::cuda::DeviceMemorySystemGlobal);
    statistics.enabled = 1;
    *memsys = &statistics;
  }

  void TearDown() override {
    EXPECT_TRUE(record.live.empty()) << "blocks leaked";
    recorder = nullptr;
  }

  template <typename T> T lookup(const char *name) {
    auto address = engine->lookup(name);
    if (!address) {
      ADD_FAILURE() << llvm::toString(address.takeError());
      return nullptr;
    }
    return address->toPtr<T>();
  }

  Recorder record;
  DeviceMemoryStatistics statistics{};
  std::unique_ptr<llvm::orc::LLJIT> engine;
  Allocate allocate = nullptr;
  AllocateWithDestructor allocateWithDestructor = nullptr;
  AllocateArray allocateArray = nullptr;
  Count incref = nullptr;
  Count decref = nullptr;
  DeviceMemoryStatistics **memsys = nullptr;
};

TEST_F(DeviceMemoryRuntime, AnArrayBlockIsTheHostsLayoutAndIsFreedByItsLastReference) {
  int64_t shape[] = {3, 4};
  MemInfo *block = allocateArray(shape, 2, 8);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->references.load(), 1);
  EXPECT_EQ(block->size, 96u);
  EXPECT_EQ(block->data, reinterpret_cast<char *>(block) + 64);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block->data) % 16, 0u);
  EXPECT_EQ(block->destructor, nullptr);
  EXPECT_EQ(record.mallocs, 1);
  EXPECT_EQ(statistics.alloc, 1u);
  EXPECT_EQ(statistics.miAlloc, 1u);
  incref(block);
  EXPECT_EQ(block->references.load(), 2);
  decref(block);
  EXPECT_EQ(record.frees, 0);
  decref(block);
  EXPECT_EQ(record.frees, 1);
  EXPECT_EQ(statistics.free, 1u);
  EXPECT_EQ(statistics.miFree, 1u);
  EXPECT_EQ(record.raisedId, 0);
}

TEST_F(DeviceMemoryRuntime, NullBlocksAreNotCounted) {
  incref(nullptr);
  decref(nullptr);
  EXPECT_EQ(record.mallocs + record.frees, 0);
}

TEST_F(DeviceMemoryRuntime, ExtentsAreCheckedAsNumPyChecksThem) {
  int64_t negative[] = {3, -1};
  EXPECT_EQ(allocateArray(negative, 2, 8), nullptr);
  EXPECT_EQ(record.raisedId, taipan::ValueErrorId);
  EXPECT_EQ(record.raisedMessage, "negative dimensions are not allowed");
  record.raisedId = 0;
  int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 30};
  EXPECT_EQ(allocateArray(huge, 2, 8), nullptr);
  EXPECT_EQ(record.raisedId, taipan::ValueErrorId);
  EXPECT_NE(record.raisedMessage.find("array is too big"), std::string::npos);
  EXPECT_EQ(record.mallocs, 0);
  // An empty array: zero bytes of data, even when another extent is large.
  record.raisedId = 0;
  int64_t empty[] = {0, int64_t(1) << 40};
  MemInfo *block = allocateArray(empty, 2, 8);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->size, 0u);
  EXPECT_EQ(record.raisedId, 0);
  decref(block);
  // No extents: one item.
  MemInfo *scalar = allocateArray(nullptr, 0, 16);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar->size, 16u);
  decref(scalar);
}

TEST_F(DeviceMemoryRuntime, AFullHeapIsAMemoryError) {
  record.failNextMalloc = true;
  int64_t shape[] = {10};
  EXPECT_EQ(allocateArray(shape, 1, 8), nullptr);
  EXPECT_EQ(record.raisedId, taipan::MemoryErrorId);
  EXPECT_EQ(statistics.alloc, 0u);
  record.raisedId = 0;
  record.failNextMalloc = true;
  EXPECT_EQ(allocate(8), nullptr);
  EXPECT_EQ(record.raisedId, taipan::MemoryErrorId);
  // A size that wraps with the header asks malloc for everything.
  record.raisedId = 0;
  record.failNextMalloc = true;
  EXPECT_EQ(allocate(-1), nullptr);
  EXPECT_EQ(record.raisedId, taipan::MemoryErrorId);
}

TEST_F(DeviceMemoryRuntime, TheLastReferenceRunsTheDestructor) {
  int payload = 0;
  MemInfo *block = allocateWithDestructor(24, &recordingDestructor, &payload);
  ASSERT_NE(block, nullptr);
  incref(block);
  decref(block);
  EXPECT_EQ(record.destructorCalls, 0);
  decref(block);
  EXPECT_EQ(record.destructorCalls, 1);
  EXPECT_EQ(record.destroyedPayload, &payload);
  EXPECT_EQ(record.frees, 1);
}

TEST_F(DeviceMemoryRuntime, CountingFollowsTheSwitchAndThePointer) {
  statistics.enabled = 0;
  MemInfo *block = allocate(8);
  decref(block);
  EXPECT_EQ(statistics.alloc + statistics.free + statistics.miAlloc + statistics.miFree, 0u);
  *memsys = nullptr; // no memsys given: nothing counted, nothing read
  block = allocate(8);
  decref(block);
  *memsys = &statistics;
  statistics.enabled = 1;
  for (int i = 0; i < 5; ++i)
    decref(allocate(i));
  EXPECT_EQ(statistics.alloc, 5u);
  EXPECT_EQ(statistics.free, 5u);
  EXPECT_EQ(statistics.miAlloc, 5u);
  EXPECT_EQ(statistics.miFree, 5u);
}

} // namespace
