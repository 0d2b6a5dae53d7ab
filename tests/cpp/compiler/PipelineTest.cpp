// PipelineTest.cpp - Tests of the one compile pipeline (compiler/Compiler.h) across platforms and
// products: the platform registry, what each platform refuses, and that a job's products (code,
// assembly, IR, a CUDA kernel's PTX) come from the same stages with the same hash.

#include "../testing/SyntaxBuilder.h"

#include "compiler/Compiler.h"
#include "compiler/Platforms.h"
#include "cpu/HostInfo.h"
#include "cuda/CudaTarget.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace taipan;
using namespace taipan::test;

namespace {

/// `def name(a, b): return a + b`, or with `returns` false `x = a + b` (a kernel's body).
std::shared_ptr<FunctionSource> addFunction(const std::string &name, bool returns) {
  SyntaxBuilder b(name, {"a", "b"});
  Expr *sum = b.binary(BinaryOp::Add, b.name("a"), b.name("b"));
  b.body({returns ? b.ret(sum) : b.assign("x", sum)});
  return b.source;
}

bool hasStage(const CompiledFunction &compiled, const std::string &stage) {
  const auto &stages = compiled.times.stages();
  return std::any_of(stages.begin(), stages.end(),
                     [&](const auto &entry) { return entry.first == stage; });
}

std::vector<const Type *> twoFloats() { return {types::float64(), types::float64()}; }

TEST(PipelineTest, PlatformsAreFoundByTheirNames) {
  EXPECT_TRUE(platformNamed("cpu").loadsIntoProcess());
  EXPECT_FALSE(platformNamed("cuda").loadsIntoProcess());
  EXPECT_EQ(platformNamed("cuda").assemblyName(), "PTX");
  EXPECT_THROW(platformNamed("no such platform"), CompileError);
}

TEST(PipelineTest, PlatformsRefuseEntryKindsTheyHaveNot) {
  CompileOptions options;
  TargetDescription kernel(JobTarget::CudaKernel, 90);
  EXPECT_THROW(platformNamed("cpu").makeTarget(kernel, options), CompileError);
  TargetDescription ufuncLoop(JobTarget::UfuncLoop);
  EXPECT_THROW(platformNamed("cuda").makeTarget(ufuncLoop, options), CompileError);
  EXPECT_NE(platformNamed("cuda").makeTarget(kernel, options), nullptr);
}

TEST(PipelineTest, PresetsDescribeTheirPlatformAndEntry) {
  TargetDescription device(JobTarget::CudaDevice, 80);
  EXPECT_EQ(device.platform, "cuda");
  EXPECT_EQ(device.entry, EntryKind::DeviceFunction);
  EXPECT_EQ(device.computeCapability, 80);
  TargetDescription cfunc(JobTarget::Cfunc);
  EXPECT_EQ(cfunc.platform, "cpu");
  EXPECT_EQ(cfunc.entry, EntryKind::Cfunc);
}

TEST(PipelineTest, TextProductsComeFromTheSameStagesAsCode) {
  auto source = addFunction("products", true);
  CompileJob job{source, twoFloats(), nullptr, JobTarget::Cpu};
  CompiledFunction code = compileFunction(job);
  ASSERT_NE(code.entry, nullptr);
  EXPECT_TRUE(code.text.empty());
  for (Product product : {Product::Assembly, Product::OptimizedIR, Product::UnoptimizedIR}) {
    job.product = product;
    CompiledFunction text = compileFunction(job);
    EXPECT_EQ(text.entry, nullptr) << "text products load nothing";
    EXPECT_FALSE(text.text.empty());
    EXPECT_EQ(text.hash, code.hash) << "the product does not enter the job hash";
    EXPECT_EQ(text.returnType, types::float64());
    EXPECT_EQ(text.text, inspectFunction(source, twoFloats(), product));
  }
}

TEST(PipelineTest, ACpuDescriptionNamesTheCpuCodeIsGeneratedFor) {
  auto source = addFunction("generic_cpu", true);
  CompileJob host{source, twoFloats(), nullptr, JobTarget::Cpu};
  CompileJob generic = host;
  generic.target.cpuName = "generic";
  generic.target.cpuFeatures = "";
  CompiledFunction code = compileFunction(generic);
  ASSERT_NE(code.entry, nullptr);
  double a = 1.5, b = 2.25, result = 0;
  void *arguments[] = {&a, &b};
  EXPECT_EQ(code.entry(arguments, &result), 0);
  EXPECT_EQ(result, 3.75);
  EXPECT_NE(code.hash, hashJob(host)) << "the CPU enters the job hash";
  // The host's name and features, named, are the job that names none.
  CompileJob named = host;
  named.target.cpuName = hostCpuName();
  named.target.cpuFeatures = hostCpuFeatures();
  EXPECT_EQ(hashJob(named), hashJob(host));
  // Only the host's own instructions use the VEX encoding (AVX): generic x86-64 is SSE2.
  generic.product = host.product = Product::Assembly;
  EXPECT_EQ(compileFunction(generic).text.find("vaddsd"), std::string::npos);
  if (("," + hostCpuFeatures() + ",").find(",+avx,") != std::string::npos)
    EXPECT_NE(compileFunction(host).text.find("vaddsd"), std::string::npos);
}

TEST(PipelineTest, CodeOfACudaPlatformIsNotLoadedIntoTheProcess) {
  CompileJob job{addFunction("kernel_callable", false), twoFloats(), nullptr,
                 TargetDescription(JobTarget::CudaKernel, 90)};
  EXPECT_THROW(compileFunction(job), CompileError);
}

TEST(PipelineTest, ACudaKernelIsItsPtxThroughTheSamePipeline) {
  if (!std::filesystem::exists(cuda::libdevicePath()))
    GTEST_SKIP() << "libdevice not found: PTX emission needs the CUDA toolkit";
  CompileJob job{addFunction("kernel", false), twoFloats(), nullptr,
                 TargetDescription(JobTarget::CudaKernel, 90)};
  job.product = Product::Assembly;
  job.keepOptimizedIR = true;
  CompiledFunction kernel = compileFunction(job);
  EXPECT_NE(kernel.text.find(".target sm_90"), std::string::npos);
  EXPECT_NE(kernel.text.find(".entry " + kernel.entryName), std::string::npos);
  EXPECT_NE(kernel.optimizedIR.find("define"), std::string::npos);
  EXPECT_EQ(kernel.hash, hashJob(job));
  EXPECT_TRUE(hasStage(kernel, "target finalization"));
  EXPECT_TRUE(hasStage(kernel, "code generation (PTX)"));
  // Another architecture is another job: its hash differs.
  CompileJob other = job;
  other.target.computeCapability = 80;
  EXPECT_NE(hashJob(other), kernel.hash);
}

} // namespace
