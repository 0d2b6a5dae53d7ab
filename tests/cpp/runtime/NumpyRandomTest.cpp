// NumpyRandomTest.cpp - Checks taipan's legacy NumPy generator against `np.random`.
// Expected values were produced by NumPy 2.4.6; each table names the command that made it.

#include "runtime/NumpyRandom.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

namespace {

// Seeds shared by the tables below, including both ends of the accepted range.
const std::vector<int64_t> Seeds = {0, 1, 42, 123456789, 4294967295LL};

// clang-format off
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.random_sample() for _ in range(6)])"
const std::vector<std::vector<double>> SampleValues = {
    {0.5488135039273248, 0.7151893663724195, 0.6027633760716439, 0.5448831829968969, 0.4236547993389047, 0.6458941130666561},
    {0.417022004702574, 0.7203244934421581, 0.00011437481734488664, 0.30233257263183977, 0.14675589081711304, 0.0923385947687978},
    {0.3745401188473625, 0.9507143064099162, 0.7319939418114051, 0.5986584841970366, 0.15601864044243652, 0.15599452033620265},
    {0.532833024789759, 0.5341366008904166, 0.509553035526467, 0.7135640318327616, 0.25699895475697543, 0.7526936088721111},
    {0.0976320289940138, 0.9123828453026218, 0.78903530185164, 0.7800035981134678, 0.01793967398674523, 0.9695059322147525},
};
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.uniform(-3.5, 10.25) for _ in range(6)])"
const std::vector<std::vector<double>> UniformValues = {
    {4.046185679000716, 6.333853787620768, 4.7879964209851025, 3.992143766207332, 2.3252534909099394, 5.381044054666521},
    {2.2340525646603924, 6.4044617848296745, -3.498427346261508, 0.6570728736877971, -1.4821065012646955, -2.23034432192903},
    {1.6499266341512344, 9.572321713136347, 6.564916699906821, 4.731554157709253, -1.354743693916498, -1.3550753453772137},
    {3.826454090859187, 3.844378262243228, 3.506354238488922, 6.311505437700472, 0.033735627908412, 6.849537121991528},
    {-2.15755960133231, 9.04526412291105, 7.349235400460049, 7.225049474060182, -3.253329482682253, 9.830706567952847},
};
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.standard_normal() for _ in range(7)])"
const std::vector<std::vector<double>> StandardNormalValues = {
    {1.764052345967664, 0.4001572083672233, 0.9787379841057392, 2.240893199201458, 1.8675579901499675, -0.977277879876411, 0.9500884175255894},
    {1.6243453636632417, -0.6117564136500754, -0.5281717522634557, -1.0729686221561705, 0.8654076293246785, -2.3015386968802827, 1.74481176421648},
    {0.4967141530112327, -0.13826430117118466, 0.6476885381006925, 1.5230298564080254, -0.23415337472333597, -0.23413695694918055, 1.5792128155073915},
    {2.2129019979039612, 2.128397797652002, 1.8417114045748335, 0.08238247951406152, 0.858963679564603, -0.8260164271334273, 1.1572705185893468},
    {0.6484086742306527, 0.6693235306338161, -1.0805437227474493, 0.2845010447986309, 0.11388773652167104, 0.8676218937929382, -0.044026015448043285},
};
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.normal(2.5, 0.75) for _ in range(7)])"
const std::vector<std::vector<double>> NormalValues = {
    {3.823039259475748, 2.8001179062754176, 3.2340534880793044, 4.180669899401093, 3.9006684926124757, 1.7670415900926917, 3.212566313144192},
    {3.7182590227474313, 2.0411826897624437, 2.1038711858024084, 1.6952735333828721, 3.149055721993509, 0.7738459773397879, 3.80860882316236},
    {2.8725356147584247, 2.3963017741216115, 2.9857664035755196, 3.642272392306019, 2.324384968957498, 2.3243972822881145, 3.6844096116305436},
    {4.159676498427971, 4.096298348239001, 3.881283553431125, 2.561786859635546, 3.144222759673452, 1.8804876796499297, 3.36795288894201},
    {2.9863065056729896, 3.001992647975362, 1.689592207939413, 2.7133757835989734, 2.5854158023912532, 3.1507164203447036, 2.4669804884139674},
};
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.randint(-5, 17) for _ in range(10)])"
const std::vector<std::vector<int64_t>> RandIntSmall = {
    {7, 10, 16, -5, -2, -2, 2, 4, 14, 16},
    {0, 6, 7, 3, 4, 6, 0, 10, -5, 11},
    {1, 14, 9, 5, 2, 15, 1, 13, 5, 5},
    {13, 7, 2, -1, 10, 14, 8, 15, -5, -2},
    {-2, -3, 7, 2, 15, -5, -5, 13, 6, 6},
};
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.randint(-3, 10**12) for _ in range(6)])"
const std::vector<std::vector<int64_t>> RandIntLarge = {
    {741280623148, 506137267389, 291447657208, 841157541220, 41332891344, 91845220079},
    {163196666088, 605300724805, 876169207426, 340316410813, 620178591870, 877839392324},
    {441507790256, 395924837643, 458615280708, 810017303569, 440001501302, 902372521171},
    {794528788121, 214804862934, 389656036122, 339572721872, 364758272733, 427236223852},
    {700559016223, 53956357188, 775354646077, 922432766455, 933225791261, 547627168376},
};
// The widest range NumPy accepts for int64, where the rejection mask covers every bit.
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.randint(-2**63, 2**63-1) for _ in range(4)])"
const std::vector<std::vector<int64_t>> RandIntFull = {
    {900450186894289455LL, 3969543146641149120LL, 1895649597198586619LL, 827948490035658087LL},
    {-1530673954295414549LL, 4064269471072392264LL, -9221262077785750647LL, -3646320530140619131LL},
    {-2314326399425823309LL, 8314211556539077902LL, 4279532810384561223LL, 1819927849474927636LL},
    {605662376642686620LL, 629709215729850329LL, 176222416774578973LL, 3939561072118645511LL},
    {-7422378986580066014LL, 7607120784305990727LL, 5331760257347419712LL, 5165154706003526138LL},
};
// A range of exactly 2**32 values: NumPy's unmasked single-word branch.
// python3 -c "import numpy as np; np.random.seed(S); print([np.random.randint(7, 7 + 2**32) for _ in range(4)])"
const std::vector<std::vector<int64_t>> RandIntWord = {
    {2357136051, 2546248246, 3071714940, 3626093767},
    {1791095852, 4282876146, 3093770131, 4005303375},
    {1608637549, 3421126074, 4083286883, 787846421},
    {2288500415, 4254805667, 2294099257, 56498144},
    {419326378, 479346985, 3918654483, 2416749646},
};
// python3 -c "import numpy as np; np.random.seed(S); a = np.arange(10, 20); np.random.shuffle(a); print(a.tolist())"
const std::vector<std::vector<int64_t>> ShuffleValues = {
    {12, 18, 14, 19, 11, 16, 17, 13, 10, 15},
    {12, 19, 16, 14, 10, 13, 11, 17, 18, 15},
    {18, 11, 15, 10, 17, 12, 19, 14, 13, 16},
    {17, 10, 16, 13, 14, 15, 19, 11, 12, 18},
    {16, 19, 15, 11, 18, 10, 17, 14, 12, 13},
};
// python3 -c "import numpy as np; np.random.seed(S); print(np.random.permutation(12).tolist())"
const std::vector<std::vector<int64_t>> PermutationValues = {
    {6, 11, 4, 10, 2, 8, 1, 7, 9, 3, 0, 5},
    {2, 3, 4, 10, 1, 6, 0, 7, 11, 9, 8, 5},
    {10, 9, 0, 8, 5, 2, 1, 11, 4, 7, 3, 6},
    {11, 1, 5, 0, 6, 3, 4, 10, 7, 9, 2, 8},
    {11, 8, 5, 9, 1, 10, 6, 0, 4, 7, 2, 3},
};
// clang-format on

TEST(NumpyRandomTest, RandomSampleMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    for (double Expected : SampleValues[S])
      EXPECT_EQ(taipan_np_random_sample(), Expected) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, UniformMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    for (double Expected : UniformValues[S])
      EXPECT_EQ(taipan_np_random_uniform(-3.5, 10.25), Expected) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, StandardNormalMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    for (double Expected : StandardNormalValues[S])
      EXPECT_EQ(taipan_np_random_standard_normal(), Expected) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, NormalMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    for (double Expected : NormalValues[S])
      EXPECT_EQ(taipan_np_random_normal(2.5, 0.75), Expected) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, RandIntMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    for (int64_t Expected : RandIntSmall[S])
      EXPECT_EQ(taipan_np_random_randint(-5, 17), Expected) << "seed " << Seeds[S];
    taipan_np_random_seed(Seeds[S]);
    for (int64_t Expected : RandIntLarge[S])
      EXPECT_EQ(taipan_np_random_randint(-3, 1000000000000LL), Expected) << "seed " << Seeds[S];
    taipan_np_random_seed(Seeds[S]);
    for (int64_t Expected : RandIntFull[S])
      EXPECT_EQ(taipan_np_random_randint(INT64_MIN, INT64_MAX), Expected) << "seed " << Seeds[S];
    taipan_np_random_seed(Seeds[S]);
    for (int64_t Expected : RandIntWord[S])
      EXPECT_EQ(taipan_np_random_randint(7, 7 + 4294967296LL), Expected) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, RandIntEdgeCases) {
  // python3 -c "import numpy as np; np.random.seed(2024);
  //   print([np.random.randint(5) for _ in range(8)],
  //         [np.random.randint(-2**62, 2**62) for _ in range(3)])"
  taipan_np_random_seed(2024);
  const std::vector<int64_t> Small = {0, 2, 0, 0, 3, 4, 1, 1};
  for (int64_t Expected : Small)
    EXPECT_EQ(taipan_np_random_randint(0, 5), Expected);
  const std::vector<int64_t> Wide = {-3922633915106563869LL, 843404904086974786LL,
                                     -1483947207738657883LL};
  for (int64_t Expected : Wide)
    EXPECT_EQ(taipan_np_random_randint(-(1LL << 62), 1LL << 62), Expected);

  // A single-value range returns it without drawing, as NumPy's rng == 0 branch.
  taipan_np_random_seed(5);
  EXPECT_EQ(taipan_np_random_randint(9, 10), 9);
  double First = taipan_np_random_sample();
  taipan_np_random_seed(5);
  EXPECT_EQ(taipan_np_random_sample(), First);
}

TEST(NumpyRandomTest, MixedDrawsShareTheGaussCache) {
  // python3 -c "import numpy as np; np.random.seed(7); print([np.random.standard_normal(),
  //   np.random.random_sample(), np.random.standard_normal(), np.random.randint(0, 2**32 + 1),
  //   np.random.normal(0, 1)])"
  taipan_np_random_seed(7);
  EXPECT_EQ(taipan_np_random_standard_normal(), 1.690525703800356);
  EXPECT_EQ(taipan_np_random_sample(), 0.9779895119966027);
  EXPECT_EQ(taipan_np_random_standard_normal(), -0.4659373705408328);
  EXPECT_EQ(taipan_np_random_randint(0, 4294967297LL), 1133316631);
  EXPECT_EQ(taipan_np_random_normal(0.0, 1.0), -0.7889230286257386);
}

TEST(NumpyRandomTest, SeedClearsTheGaussCache) {
  // python3 -c "import numpy as np; np.random.seed(7); np.random.standard_normal();
  //   np.random.seed(7); print(np.random.standard_normal(), np.random.standard_normal())"
  taipan_np_random_seed(7);
  taipan_np_random_standard_normal();
  taipan_np_random_seed(7);
  EXPECT_EQ(taipan_np_random_standard_normal(), 1.690525703800356);
  EXPECT_EQ(taipan_np_random_standard_normal(), -0.4659373705408328);
}

TEST(NumpyRandomTest, ShuffleMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    std::vector<int64_t> Values(10);
    std::iota(Values.begin(), Values.end(), 10);
    taipan_np_random_shuffle(Values.data(), 10, sizeof(int64_t), sizeof(int64_t));
    EXPECT_EQ(Values, ShuffleValues[S]) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, PermutationMatchesNumpy) {
  for (size_t S = 0; S < Seeds.size(); ++S) {
    taipan_np_random_seed(Seeds[S]);
    std::vector<int64_t> Values(12);
    std::iota(Values.begin(), Values.end(), 0);
    taipan_np_random_shuffle(Values.data(), 12, sizeof(int64_t), sizeof(int64_t));
    EXPECT_EQ(Values, PermutationValues[S]) << "seed " << Seeds[S];
  }
}

TEST(NumpyRandomTest, ShuffleHonoursStrideAndItemSize) {
  // Every other int32 of a buffer: the permutation must equal the contiguous one, and the
  // items in between must stay put.
  taipan_np_random_seed(0);
  std::vector<int64_t> Reference(10);
  std::iota(Reference.begin(), Reference.end(), 10);
  taipan_np_random_shuffle(Reference.data(), 10, sizeof(int64_t), sizeof(int64_t));

  taipan_np_random_seed(0);
  std::vector<int32_t> Strided(20, -1);
  for (int I = 0; I < 10; ++I)
    Strided[2 * I] = 10 + I;
  taipan_np_random_shuffle(Strided.data(), 10, 2 * sizeof(int32_t), sizeof(int32_t));
  for (int I = 0; I < 10; ++I) {
    EXPECT_EQ(Strided[2 * I], Reference[I]);
    EXPECT_EQ(Strided[2 * I + 1], -1);
  }

  // A negative stride walks the array backwards, as a reversed NumPy view does.
  taipan_np_random_seed(0);
  std::vector<int64_t> Reversed(10);
  std::iota(Reversed.rbegin(), Reversed.rend(), 10);
  taipan_np_random_shuffle(Reversed.data() + 9, 10, -static_cast<int64_t>(sizeof(int64_t)),
                           sizeof(int64_t));
  for (int I = 0; I < 10; ++I)
    EXPECT_EQ(Reversed[9 - I], Reference[I]);
}

TEST(NumpyRandomTest, IntervalStaysInRange) {
  taipan_np_random_seed(3);
  EXPECT_EQ(taipan_np_random_interval(0), 0);
  for (int64_t Max : {1LL, 2LL, 7LL, 1000LL, 4294967295LL, 4294967296LL, 1LL << 50}) {
    for (int I = 0; I < 200; ++I) {
      int64_t Value = taipan_np_random_interval(Max);
      EXPECT_GE(Value, 0);
      EXPECT_LE(Value, Max);
    }
  }
}

TEST(NumpyRandomTest, IndependentOfTheRandomModule) {
  taipan_np_random_seed(42);
  taipan_random_seed(1);
  taipan_random_random();
  EXPECT_EQ(taipan_np_random_sample(), SampleValues[2][0]);
}

TEST(NumpyRandomTest, ThreadsHaveTheirOwnState) {
  taipan_np_random_seed(1);
  double Other = 0.0;
  std::thread Worker([&] {
    // Unseeded here: drawing must work, and seeding must not leak into the main thread.
    double Unseeded = taipan_np_random_sample();
    EXPECT_GE(Unseeded, 0.0);
    EXPECT_LT(Unseeded, 1.0);
    taipan_np_random_seed(42);
    Other = taipan_np_random_sample();
  });
  Worker.join();
  EXPECT_EQ(Other, SampleValues[2][0]);
  EXPECT_EQ(taipan_np_random_sample(), SampleValues[1][0]);
}

} // namespace
