// glibc's exp as inline IR. The algorithm is glibc's sysdeps/ieee754/dbl-64/e_exp.c (since
// glibc 2.28; Arm's optimized-routines math/exp.c, EXP_TABLE_BITS 7, EXP_POLY_ORDER 5):
// exp(x) = 2^(k/128) * exp(r), k = round(x * 128/ln2), r = x - k ln2/128 in two parts, a
// 256-entry table for 2^(k/128) as (tail, scale bits) and a degree-5 polynomial for exp(r) - 1.
// |x| in [512, 1024) takes glibc's `specialcase`: the scale's exponent is biased by -1009 (then
// the result multiplied by 2^1009, overflowing where glibc's does) or +1022 (results near or
// below 2^-1022, rounded once to the subnormal grid by a hi/lo sum, with underflow raised).
//
// Which operations are FMAs was read off glibc 2.36's x86-64 __exp_fma (built with -mfma
// -mavx2) in this machine's libm.so.6 (Debian 2.36-9+deb12u14): kd = x*InvLn2N + Shift, both
// steps of r = x + kd*NegLn2hiN + kd*NegLn2loN, C2 + r*C3, C4 + r*C5, r2*(C2 + r*C3) +
// (tail + r), r2*r2*(C4 + r*C5) + that, and scale*tmp + scale in the main path and the k > 0
// special case; the k < 0 special case computes scale*tmp once, unfused, and adds it twice.
//
// Check (not exhaustive: the disassembly is the argument): a C transcription with exactly those
// FMAs equals the system exp on 10^9 random doubles (all bit patterns, exponents 2^-63..2^16,
// uniform in [-746, 710] and in [-746, -708]) plus 2^22 consecutive doubles either side of 16
// boundaries and the subnormal and special inputs: 0 mismatches. Unfused, it differs on ~0.4%
// of inputs and then equals glibc's build without FMA (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA).
#include "cpu/GlibcExp.h"

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

/// __exp_data.tab: for i < 128, tab[2i] is the tail (2^(i/128) minus its double rounding,
/// relative) and tab[2i + 1] = bits(2^(i/128)) - (i << 45), so that adding k << 45 gives the
/// bits of the scale 2^(k/128) while its exponent stays in range. Copied from libm.so.6's data.
constexpr uint64_t Table[256] = {
    0x0000000000000000, 0x3ff0000000000000, 0x3c9b3b4f1a88bf6e, 0x3feff63da9fb3335,
    0xbc7160139cd8dc5d, 0x3fefec9a3e778061, 0xbc905e7a108766d1, 0x3fefe315e86e7f85,
    0x3c8cd2523567f613, 0x3fefd9b0d3158574, 0xbc8bce8023f98efa, 0x3fefd06b29ddf6de,
    0x3c60f74e61e6c861, 0x3fefc74518759bc8, 0x3c90a3e45b33d399, 0x3fefbe3ecac6f383,
    0x3c979aa65d837b6d, 0x3fefb5586cf9890f, 0x3c8eb51a92fdeffc, 0x3fefac922b7247f7,
    0x3c3ebe3d702f9cd1, 0x3fefa3ec32d3d1a2, 0xbc6a033489906e0b, 0x3fef9b66affed31b,
    0xbc9556522a2fbd0e, 0x3fef9301d0125b51, 0xbc5080ef8c4eea55, 0x3fef8abdc06c31cc,
    0xbc91c923b9d5f416, 0x3fef829aaea92de0, 0x3c80d3e3e95c55af, 0x3fef7a98c8a58e51,
    0xbc801b15eaa59348, 0x3fef72b83c7d517b, 0xbc8f1ff055de323d, 0x3fef6af9388c8dea,
    0x3c8b898c3f1353bf, 0x3fef635beb6fcb75, 0xbc96d99c7611eb26, 0x3fef5be084045cd4,
    0x3c9aecf73e3a2f60, 0x3fef54873168b9aa, 0xbc8fe782cb86389d, 0x3fef4d5022fcd91d,
    0x3c8a6f4144a6c38d, 0x3fef463b88628cd6, 0x3c807a05b0e4047d, 0x3fef3f49917ddc96,
    0x3c968efde3a8a894, 0x3fef387a6e756238, 0x3c875e18f274487d, 0x3fef31ce4fb2a63f,
    0x3c80472b981fe7f2, 0x3fef2b4565e27cdd, 0xbc96b87b3f71085e, 0x3fef24dfe1f56381,
    0x3c82f7e16d09ab31, 0x3fef1e9df51fdee1, 0xbc3d219b1a6fbffa, 0x3fef187fd0dad990,
    0x3c8b3782720c0ab4, 0x3fef1285a6e4030b, 0x3c6e149289cecb8f, 0x3fef0cafa93e2f56,
    0x3c834d754db0abb6, 0x3fef06fe0a31b715, 0x3c864201e2ac744c, 0x3fef0170fc4cd831,
    0x3c8fdd395dd3f84a, 0x3feefc08b26416ff, 0xbc86a3803b8e5b04, 0x3feef6c55f929ff1,
    0xbc924aedcc4b5068, 0x3feef1a7373aa9cb, 0xbc9907f81b512d8e, 0x3feeecae6d05d866,
    0xbc71d1e83e9436d2, 0x3feee7db34e59ff7, 0xbc991919b3ce1b15, 0x3feee32dc313a8e5,
    0x3c859f48a72a4c6d, 0x3feedea64c123422, 0xbc9312607a28698a, 0x3feeda4504ac801c,
    0xbc58a78f4817895b, 0x3feed60a21f72e2a, 0xbc7c2c9b67499a1b, 0x3feed1f5d950a897,
    0x3c4363ed60c2ac11, 0x3feece086061892d, 0x3c9666093b0664ef, 0x3feeca41ed1d0057,
    0x3c6ecce1daa10379, 0x3feec6a2b5c13cd0, 0x3c93ff8e3f0f1230, 0x3feec32af0d7d3de,
    0x3c7690cebb7aafb0, 0x3feebfdad5362a27, 0x3c931dbdeb54e077, 0x3feebcb299fddd0d,
    0xbc8f94340071a38e, 0x3feeb9b2769d2ca7, 0xbc87deccdc93a349, 0x3feeb6daa2cf6642,
    0xbc78dec6bd0f385f, 0x3feeb42b569d4f82, 0xbc861246ec7b5cf6, 0x3feeb1a4ca5d920f,
    0x3c93350518fdd78e, 0x3feeaf4736b527da, 0x3c7b98b72f8a9b05, 0x3feead12d497c7fd,
    0x3c9063e1e21c5409, 0x3feeab07dd485429, 0x3c34c7855019c6ea, 0x3feea9268a5946b7,
    0x3c9432e62b64c035, 0x3feea76f15ad2148, 0xbc8ce44a6199769f, 0x3feea5e1b976dc09,
    0xbc8c33c53bef4da8, 0x3feea47eb03a5585, 0xbc845378892be9ae, 0x3feea34634ccc320,
    0xbc93cedd78565858, 0x3feea23882552225, 0x3c5710aa807e1964, 0x3feea155d44ca973,
    0xbc93b3efbf5e2228, 0x3feea09e667f3bcd, 0xbc6a12ad8734b982, 0x3feea012750bdabf,
    0xbc6367efb86da9ee, 0x3fee9fb23c651a2f, 0xbc80dc3d54e08851, 0x3fee9f7df9519484,
    0xbc781f647e5a3ecf, 0x3fee9f75e8ec5f74, 0xbc86ee4ac08b7db0, 0x3fee9f9a48a58174,
    0xbc8619321e55e68a, 0x3fee9feb564267c9, 0x3c909ccb5e09d4d3, 0x3feea0694fde5d3f,
    0xbc7b32dcb94da51d, 0x3feea11473eb0187, 0x3c94ecfd5467c06b, 0x3feea1ed0130c132,
    0x3c65ebe1abd66c55, 0x3feea2f336cf4e62, 0xbc88a1c52fb3cf42, 0x3feea427543e1a12,
    0xbc9369b6f13b3734, 0x3feea589994cce13, 0xbc805e843a19ff1e, 0x3feea71a4623c7ad,
    0xbc94d450d872576e, 0x3feea8d99b4492ed, 0x3c90ad675b0e8a00, 0x3feeaac7d98a6699,
    0x3c8db72fc1f0eab4, 0x3feeace5422aa0db, 0xbc65b6609cc5e7ff, 0x3feeaf3216b5448c,
    0x3c7bf68359f35f44, 0x3feeb1ae99157736, 0xbc93091fa71e3d83, 0x3feeb45b0b91ffc6,
    0xbc5da9b88b6c1e29, 0x3feeb737b0cdc5e5, 0xbc6c23f97c90b959, 0x3feeba44cbc8520f,
    0xbc92434322f4f9aa, 0x3feebd829fde4e50, 0xbc85ca6cd7668e4b, 0x3feec0f170ca07ba,
    0x3c71affc2b91ce27, 0x3feec49182a3f090, 0x3c6dd235e10a73bb, 0x3feec86319e32323,
    0xbc87c50422622263, 0x3feecc667b5de565, 0x3c8b1c86e3e231d5, 0x3feed09bec4a2d33,
    0xbc91bbd1d3bcbb15, 0x3feed503b23e255d, 0x3c90cc319cee31d2, 0x3feed99e1330b358,
    0x3c8469846e735ab3, 0x3feede6b5579fdbf, 0xbc82dfcd978e9db4, 0x3feee36bbfd3f37a,
    0x3c8c1a7792cb3387, 0x3feee89f995ad3ad, 0xbc907b8f4ad1d9fa, 0x3feeee07298db666,
    0xbc55c3d956dcaeba, 0x3feef3a2b84f15fb, 0xbc90a40e3da6f640, 0x3feef9728de5593a,
    0xbc68d6f438ad9334, 0x3feeff76f2fb5e47, 0xbc91eee26b588a35, 0x3fef05b030a1064a,
    0x3c74ffd70a5fddcd, 0x3fef0c1e904bc1d2, 0xbc91bdfbfa9298ac, 0x3fef12c25bd71e09,
    0x3c736eae30af0cb3, 0x3fef199bdd85529c, 0x3c8ee3325c9ffd94, 0x3fef20ab5fffd07a,
    0x3c84e08fd10959ac, 0x3fef27f12e57d14b, 0x3c63cdaf384e1a67, 0x3fef2f6d9406e7b5,
    0x3c676b2c6c921968, 0x3fef3720dcef9069, 0xbc808a1883ccb5d2, 0x3fef3f0b555dc3fa,
    0xbc8fad5d3ffffa6f, 0x3fef472d4a07897c, 0xbc900dae3875a949, 0x3fef4f87080d89f2,
    0x3c74a385a63d07a7, 0x3fef5818dcfba487, 0xbc82919e2040220f, 0x3fef60e316c98398,
    0x3c8e5a50d5c192ac, 0x3fef69e603db3285, 0x3c843a59ac016b4b, 0x3fef7321f301b460,
    0xbc82d52107b43e1f, 0x3fef7c97337b9b5f, 0xbc892ab93b470dc9, 0x3fef864614f5a129,
    0x3c74b604603a88d3, 0x3fef902ee78b3ff6, 0x3c83c5ec519d7271, 0x3fef9a51fbc74c83,
    0xbc8ff7128fd391f0, 0x3fefa4afa2a490da, 0xbc8dae98e223747d, 0x3fefaf482d8e67f1,
    0x3c8ec3bc41aa2008, 0x3fefba1bee615a27, 0x3c842b94c3a9eb32, 0x3fefc52b376bba97,
    0x3c8a64a931d185ee, 0x3fefd0765b6e4540, 0xbc8e37bae43be3ed, 0x3fefdbfdad9cbe14,
    0x3c77893b4d91cd9d, 0x3fefe7c1819e90d8, 0x3c5305c14160cc89, 0x3feff3c22b8f71f1,
};
constexpr double InvLn2N = 0x1.71547652b82fep0 * 128; ///< 128 / ln 2
constexpr double NegLn2hiN = -0x1.62e42fefa0000p-8;   ///< -ln 2 / 128, high part (exact k*)
constexpr double NegLn2loN = -0x1.cf79abc9e3b3ap-47;  ///< -ln 2 / 128, low part
constexpr double Shift = 0x1.8p52; ///< adding it rounds to an integer (kept in the low bits)
/// exp(r) - 1 ~= r + C2 r^2 + C3 r^3 + C4 r^4 + C5 r^5.
constexpr double C2 = 0x1.ffffffffffdbdp-2;
constexpr double C3 = 0x1.555555555543cp-3;
constexpr double C4 = 0x1.55555cf172b91p-5;
constexpr double C5 = 0x1.1111167a4d017p-7;

/// Inputs where glibc's exp is not correctly rounded, with its result bits; the last three are
/// inputs where the FMA variant differs from glibc's builds without FMA.
struct FingerprintValue {
  uint64_t x;
  uint64_t exp;
};
constexpr FingerprintValue Fingerprint[] = {
    {0x4069fb5b9b60f030, 0x52ad44c0f6dbb06e}, {0xc070077c087f722d, 0x28cfe4cf1ab9ad19},
    {0xc079bc0c9b97a77d, 0x1acf40827a02aef7}, {0xc0826f0ed2bdafe0, 0x0abf8e36d485ae42},
    {0x4049996ca208e420, 0x448d1f121450e4cd}, {0xc0807148e3e24974, 0x107e1470202d3af8},
    {0x4081c1b899489fac, 0x732b1e1ccd825ff9}, {0x407e43b21b77a0a0, 0x6b983638350e4c54},
    {0x4079727e79cf7530, 0x64a52352ee3cc77c}, {0x40516e4288a9c528, 0x4638102a82f4ba3b},
    {0x407c0e2f9c3bd03c, 0x68685c6f4e31659c}, {0x407987bb43a59324, 0x64c3ed877cf3d423},
    {0x4061aab60f47a2ec, 0x4cadead0ba5ecd41}, {0xc06b7e7a01df67e0, 0x2c198f29f968ec41},
    {0xc071bd891e11280b, 0x265693db71db7665},
};

/// glibc's exp on `lanes` doubles at once: the body of `<lanes x double>
/// taipan_exact_exp_v<lanes>(<lanes x double>)` (its table shared between widths).
/// Special cases are selects after the main path, computed for every lane.
void defineGlibcExpBody(llvm::Function &function) {
  llvm::Module &module = *function.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *doubleType = function.getReturnType();
  llvm::Type *wordType = llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(doubleType));
  llvm::GlobalVariable *table = constantTable(module, "taipan.glibc_exp.table", Table);

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  auto real = [&](double value) { return llvm::ConstantFP::get(doubleType, value); };
  auto word = [&](uint64_t value) { return llvm::ConstantInt::get(wordType, value); };
  auto bitsOf = [&](double value) { return word(std::bit_cast<uint64_t>(value)); };
  auto fma = [&](llvm::Value *a, llvm::Value *b, llvm::Value *c) {
    return builder.CreateIntrinsic(llvm::Intrinsic::fma, {doubleType}, {a, b, c});
  };
  llvm::Value *x = function.getArg(0);
  // Cases are told apart on x's bits, as glibc does: comparisons of doubles may raise invalid
  // for a quiet NaN (x86's vector compares do), which glibc never does.
  llvm::Value *bits = builder.CreateBitCast(x, wordType);
  llvm::Value *magnitude = builder.CreateAnd(bits, 0x7fffffffffffffff);
  // glibc returns 1 + x for |x| < 2^-54 (zeros included), NaN and +inf; 0 for -inf.
  llvm::Value *onePlusX = builder.CreateOr(builder.CreateICmpULT(magnitude, bitsOf(0x1p-54)),
                                           builder.CreateICmpUGE(magnitude, bitsOf(INFINITY)));
  // The main path runs on x clamped to (-1024, 1024), and on 0 where glibc returns 1 + x, so
  // that it raises only the floating-point exceptions glibc raises (NumPy's ufunc loops turn
  // them into warnings, or errors under np.seterr(all='raise')): x >= 1024 overflows as 1000
  // does, x <= -1024 underflows to +0 as -1000 does, 0 raises nothing. Positive doubles order as
  // signed integers, negative ones as unsigned, by magnitude.
  llvm::Value *clamped =
      builder.CreateSelect(builder.CreateICmpSGE(bits, bitsOf(1024.0)), real(1000.0), x);
  clamped =
      builder.CreateSelect(builder.CreateICmpUGE(bits, bitsOf(-1024.0)), real(-1000.0), clamped);
  clamped = builder.CreateSelect(onePlusX, real(0.0), clamped);
  llvm::Value *clampedBits = builder.CreateBitCast(clamped, wordType);
  // glibc's specialcase: 512 <= x < 1024 (k > 0) and -1024 < x <= -512 (k < 0).
  llvm::Value *large = builder.CreateICmpSGE(clampedBits, bitsOf(512.0));
  llvm::Value *small = builder.CreateICmpUGE(clampedBits, bitsOf(-512.0));

  // x = k ln2/128 + r, k an integer, |r| <= ln2/256: k in the low bits of kd + Shift.
  llvm::Value *shifted = fma(clamped, real(InvLn2N), real(Shift));
  llvm::Value *ki = builder.CreateBitCast(shifted, wordType);
  llvm::Value *kd = builder.CreateFSub(shifted, real(Shift));
  llvm::Value *r = fma(kd, real(NegLn2hiN), clamped);
  r = fma(kd, real(NegLn2loN), r);
  // 2^(k/128) ~= scale * (1 + tail), from the table entries for k % 128.
  llvm::Value *index = builder.CreateShl(builder.CreateAnd(ki, 127), 1);
  llvm::SmallVector<llvm::Value *, 2> entries = readLaneByLane(builder, table, index, 2);
  llvm::Value *tail = builder.CreateBitCast(entries[0], doubleType);
  llvm::Value *scaleBits = builder.CreateAdd(entries[1], builder.CreateShl(ki, 45));
  // tmp = tail + exp(r) - 1, so that exp(x) ~= scale + scale * tmp.
  llvm::Value *r2 = builder.CreateFMul(r, r);
  llvm::Value *tmp = fma(fma(r, real(C3), real(C2)), r2, builder.CreateFAdd(tail, r));
  tmp = fma(builder.CreateFMul(r2, r2), fma(r, real(C5), real(C4)), tmp);
  // The scale's exponent biased as glibc's specialcase does, and by -64 in the main path (the
  // result then multiplied by 2^64, exactly): every lane's scale is normal and finite, and the
  // final multiplication's factor is never 1, so LLVM does not move it past the select.
  llvm::Value *bias =
      builder.CreateSelect(large, word(-(1009ull << 52)),
                           builder.CreateSelect(small, word(1022ull << 52), word(-(64ull << 52))));
  llvm::Value *scale = builder.CreateBitCast(builder.CreateAdd(scaleBits, bias), doubleType);
  llvm::Value *result = builder.CreateFMul(
      fma(scale, tmp, scale), builder.CreateSelect(large, real(0x1p1009), real(0x1p64)));

  // k < 0: y = scale + scale*tmp (unfused, as glibc) and 2^-1022 * y. For y < 1, glibc rounds
  // y + its error to the 2^-52 grid through hi = 1 + y, and raises underflow by multiplying
  // 2^-1022 by itself. Here the final product raises it: for y2 = n 2^-52 (0 < n <= 2^52),
  // y2 2^-1000 * (1 - 2^-53) 2^-22 is n 2^-1074 less than half a unit, so it rounds to
  // glibc's value, inexact and tiny; y2 = 0 becomes 2^-54, whose product rounds to +0. Other
  // lanes take y = 1 here (and scale = 1 for the sums), which raises nothing.
  llvm::Value *smallScale = builder.CreateSelect(small, scale, real(1.0));
  llvm::Value *product = builder.CreateFMul(smallScale, tmp);
  llvm::Value *y = builder.CreateSelect(small, builder.CreateFAdd(smallScale, product), real(1.0));
  llvm::Value *belowOne = builder.CreateFCmpOLT(y, real(1.0));
  llvm::Value *lo = builder.CreateFAdd(builder.CreateFSub(smallScale, y), product);
  llvm::Value *hi = builder.CreateFAdd(real(1.0), y);
  lo = builder.CreateFAdd(builder.CreateFAdd(builder.CreateFSub(real(1.0), hi), y), lo);
  llvm::Value *rounded = builder.CreateFSub(builder.CreateFAdd(hi, lo), real(1.0));
  rounded = builder.CreateSelect(builder.CreateFCmpOEQ(rounded, real(0.0)), real(0x1p-54), rounded);
  llvm::Value *subnormal = builder.CreateFMul(
      builder.CreateFMul(builder.CreateSelect(belowOne, rounded, y), real(0x1p-1000)),
      builder.CreateSelect(belowOne, real(0x1.fffffffffffffp-23), real(0x1p-22)));
  result = builder.CreateSelect(small, subnormal, result);

  // glibc's 1 + x quiets a NaN, raising invalid for a signalling one, and raises nothing else
  // for the inputs it is chosen for (inexact for tiny ones).
  llvm::Value *special = builder.CreateSelect(builder.CreateICmpEQ(bits, bitsOf(-INFINITY)),
                                              real(0.0), builder.CreateFAdd(x, real(1.0)));
  result = builder.CreateSelect(onePlusX, special, result);
  builder.CreateRet(result);
}

} // namespace

bool hostExpIsGlibcFma() {
  static const bool matches = [] {
    if (!hostHasFmaAndAvx2())
      return false;
    // Through a volatile pointer, so the compiler cannot fold the calls with its own exp.
    double (*volatile libmExp)(double) = ::exp;
    for (const FingerprintValue &value : Fingerprint)
      if (std::bit_cast<uint64_t>(libmExp(std::bit_cast<double>(value.x))) != value.exp)
        return false;
    return true;
  }();
  return matches;
}

const ExactVectorVariants &glibcExpVariants() {
  static constexpr unsigned Lanes[] = {2, 4, 8};
  static const ExactVectorVariants variants{"exp", Lanes, defineGlibcExpBody};
  return variants;
}

} // namespace taipan
