// glibc's expf as inline IR. The algorithm is glibc's sysdeps/ieee754/flt-32/e_expf.c (since
// glibc 2.27; Arm's optimized-routines math/expf.c with EXP2F_TABLE_BITS = 5): exp(x) =
// 2^(k/32) * 2^(r/32) with k = round(x * 32/ln2), a 32-entry table for 2^(i/32) and a cubic for
// 2^(r/32), all in double, rounded once to float. On x86-64 glibc runs the copy built with
// -mfma -mavx2 (__expf_fma), where GCC contracts every multiply-add into an FMA, including
// kd = InvLn2N * x + Shift and r = InvLn2N * x - kd. This IR makes exactly those FMAs.
//
// Proof: a C transcription with those FMAs, compared with glibc 2.36's expf over all 2^32 float
// bit patterns on an AMD EPYC (znver3), gave 0 mismatches (NaN payloads included), and
// tests/python/test_expf32.py repeats the exhaustive comparison on the compiled code (slow).
// The FMA that matters is r's: without it 2 inputs differ, and that unfused transcription is
// what glibc's non-FMA build (__expf_sse2, forced by GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA)
// gives for all 2^32; the fingerprint below tells the two builds apart by those 2 inputs.
#include "cpu/GlibcExpf.h"

#include "cpu/ExactVectorVariants.h"
#include "cpu/HostInfo.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

namespace taipan {
namespace {

/// __exp2f_data.tab: tab[i] = bits(2^(i/32)) - (i << 47), so that adding k << 47 to tab[k % 32]
/// gives the bits of 2^(k/32) for |k| < 150 * 32.
constexpr uint64_t Table[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
constexpr double InvLn2N = 0x1.71547652b82fep+0 * 32; ///< invln2_scaled: 32 / ln 2
constexpr double Shift = 0x1.8p+52; ///< adding it rounds to an integer (kept in the low bits)
/// poly_scaled: 2^(r/32) ~= C0 r^3 + C1 r^2 + C2 r + 1.
constexpr double C0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32;
constexpr double C1 = 0x1.ebfce50fac4f3p-3 / 32 / 32;
constexpr double C2 = 0x1.62e42ff0c52d6p-1 / 32;
constexpr float OverflowBound = 0x1.62e42ep6f;   ///< above: +inf (log(0x1p128) ~= 88.72)
constexpr float UnderflowBound = -0x1.9fe368p6f; ///< below: +0 (log(0x1p-150) ~= -103.97)

/// Inputs where glibc's expf is not correctly rounded, with its result bits; the last two are
/// the only inputs where the FMA variant differs from glibc's build without FMA (sse2).
struct FingerprintValue {
  uint32_t x;
  uint32_t expf;
};
constexpr FingerprintValue Fingerprint[] = {
    {0x3c00357f, 0x3f81016d}, {0xbc403bb3, 0x3f7d038f}, {0x3c801b5b, 0x3f820475},
    {0xbcc00721, 0x3f7a11a5}, {0x3d000c6b, 0x3f841092}, {0xbd4007b8, 0x3f74466e},
    {0x3d8000fc, 0x3f88416c}, {0xbdc0041a, 0x3f6916be}, {0x3e000230, 0x3f910b52},
    {0xbe4009a2, 0x3f543942}, {0x3e80240f, 0x3fa46686}, {0xbec00135, 0x3f2ff1c7},
    {0x3f001569, 0x3fd31af4}, {0xbf40015a, 0x3ef1d8c1}, {0x3f801252, 0x402e113d},
    {0xbfc0012e, 0x3e647a21}, {0x4202422f, 0x56fc9f1c}, {0xc27c65d9, 0x11fa2993},
};

/// glibc's expf on `lanes` floats at once: the body of `<lanes x float>
/// taipan_exact_expf_v<lanes>(<lanes x float>)` (its table shared between widths).
/// Special cases are selects after the main path, computed for every lane.
void defineGlibcExpfBody(llvm::Function &function) {
  llvm::Module &module = *function.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *floatType = function.getReturnType();
  unsigned lanes = llvm::cast<llvm::FixedVectorType>(floatType)->getNumElements();
  auto vector = [&](llvm::Type *element) { return llvm::FixedVectorType::get(element, lanes); };
  llvm::Type *doubleType = vector(llvm::Type::getDoubleTy(context));
  llvm::Type *wordType = vector(llvm::Type::getInt64Ty(context));
  llvm::Type *floatBitsType = vector(llvm::Type::getInt32Ty(context));
  llvm::GlobalVariable *table = constantTable(module, "taipan.glibc_expf.table", Table);

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  auto real = [&](double value) { return llvm::ConstantFP::get(doubleType, value); };
  auto fma = [&](llvm::Value *a, llvm::Value *b, llvm::Value *c) {
    return builder.CreateIntrinsic(llvm::Intrinsic::fma, {doubleType}, {a, b, c});
  };
  auto single = [&](float value) { return llvm::ConstantFP::get(floatType, value); };
  auto bitsOf = [&](float value) {
    return llvm::ConstantInt::get(floatBitsType, std::bit_cast<uint32_t>(value));
  };
  llvm::Value *x = function.getArg(0);
  // Cases are told apart on x's bits, as glibc does: comparisons of floats may raise invalid
  // for a quiet NaN (x86's vector compares and min/max do), which glibc never does.
  llvm::Value *word = builder.CreateBitCast(x, floatBitsType);
  llvm::Value *magnitude = builder.CreateAnd(word, 0x7fffffff);
  llvm::Value *infinityBits = llvm::ConstantInt::get(floatBitsType, 0x7f800000);
  llvm::Value *isNaN = builder.CreateICmpUGT(magnitude, infinityBits);
  llvm::Value *nonFinite = builder.CreateICmpUGE(magnitude, infinityBits);
  // Positive floats order as signed integers; negative ones as unsigned, by magnitude.
  auto above = [&](float bound) { return builder.CreateICmpSGT(word, bitsOf(bound)); };
  auto below = [&](float bound) { return builder.CreateICmpUGT(word, bitsOf(bound)); };
  // The main path runs on x clamped to [-104, 89], and on 0 for infinities and NaNs, so that it
  // raises only the floating-point exceptions glibc's branches raise (overflow and underflow
  // beyond the bounds, none for +-inf and quiet NaNs): NumPy's ufunc loops turn them into
  // warnings, or errors under np.seterr(all='raise').
  llvm::Value *clamped = builder.CreateSelect(above(89.0f), single(89.0f), x);
  clamped = builder.CreateSelect(below(-104.0f), single(-104.0f), clamped);
  clamped = builder.CreateSelect(nonFinite, single(0.0f), clamped);
  llvm::Value *xd = builder.CreateFPExt(clamped, doubleType);
  // x*32/ln2 = k + r, k an integer, |r| <= 1/2: k in the low bits of kd + Shift.
  llvm::Value *shifted = fma(real(InvLn2N), xd, real(Shift));
  llvm::Value *ki = builder.CreateBitCast(shifted, wordType);
  llvm::Value *kd = builder.CreateFSub(shifted, real(Shift));
  llvm::Value *r = fma(real(InvLn2N), xd, builder.CreateFNeg(kd));
  // s = 2^(k/32) from the table entry for k % 32, its exponent raised by k / 32.
  llvm::Value *index = builder.CreateAnd(ki, 31);
  llvm::Value *entry = readLaneByLane(builder, table, index)[0];
  llvm::Value *s =
      builder.CreateBitCast(builder.CreateAdd(entry, builder.CreateShl(ki, 47)), doubleType);
  llvm::Value *z = fma(real(C0), r, real(C1));
  llvm::Value *r2 = builder.CreateFMul(r, r);
  llvm::Value *y = fma(real(C2), r, real(1.0));
  y = fma(z, r2, y);
  llvm::Value *result = builder.CreateFPTrunc(builder.CreateFMul(y, s), floatType);
  // glibc's branches for |x| >= 88 and NaN (-inf is below the underflow bound, +inf above the
  // overflow bound).
  result = builder.CreateSelect(below(UnderflowBound), single(0.0f), result);
  result = builder.CreateSelect(above(OverflowBound), single(INFINITY), result);
  // NaN: glibc's x + x quiets it, raising invalid for a signalling NaN. x + 0 does the same and,
  // unlike x + x, raises nothing for any other x, wherever LLVM moves it past the select.
  llvm::Value *nan = builder.CreateSelect(isNaN, x, single(0.0f));
  result = builder.CreateSelect(isNaN, builder.CreateFAdd(nan, single(0.0f)), result);
  builder.CreateRet(result);
}

} // namespace

bool hostExpfIsGlibcFma() {
  static const bool matches = [] {
    if (!hostHasFmaAndAvx2())
      return false;
    // Through a volatile pointer, so the compiler cannot fold the calls with its own expf.
    float (*volatile libmExpf)(float) = ::expf;
    for (const FingerprintValue &value : Fingerprint)
      if (std::bit_cast<uint32_t>(libmExpf(std::bit_cast<float>(value.x))) != value.expf)
        return false;
    return true;
  }();
  return matches;
}

const ExactVectorVariants &glibcExpfVariants() {
  static constexpr unsigned Lanes[] = {4, 8};
  static const ExactVectorVariants variants{"expf", Lanes, defineGlibcExpfBody};
  return variants;
}

} // namespace taipan
