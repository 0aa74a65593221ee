// The paper's matrices, checked against hand calculations.
#include <gtest/gtest.h>

#include "bwmodel/error.h"
#include "signature_helpers.h"
#include "bwmodel/matrices.h"

using namespace numaperf::bwmodel;

namespace {

void expectMatrix(const Matrix& got, const Matrix& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].size(), want[i].size());
    for (size_t j = 0; j < want[i].size(); ++j) EXPECT_NEAR(got[i][j], want[i][j], 1e-12) << "cell " << i << "," << j;
  }
}

}  // namespace

// Paper, Figure 5: static socket 2 (1 here), static 0.2, local 0.35,
// per-thread 0.3, interleaved 0.15; 3 threads on the first socket, 1 on the
// second.
TEST(Matrices, PaperWorkedExample) {
  Placement p{3, 1};
  expectMatrix(staticMatrix(2, 1), {{0, 1}, {0, 1}});
  expectMatrix(localMatrix(2), {{1, 0}, {0, 1}});
  expectMatrix(perThreadMatrix(p), {{0.75, 0.25}, {0.75, 0.25}});
  expectMatrix(interleavedMatrix(p), {{0.5, 0.5}, {0.5, 0.5}});
  Signature s = sig(0.2, 0.35, 0.3, 1);
  EXPECT_NEAR(s.interleavedFraction, 0.15, 1e-12);
  // row 0: 0.35 + 0.3*0.75 + 0.15*0.5 = 0.65 | 0.2 + 0.3*0.25 + 0.15*0.5 = 0.35
  // row 1: 0.3*0.75 + 0.15*0.5 = 0.3        | 0.2 + 0.35 + 0.075 + 0.075 = 0.7
  expectMatrix(trafficMatrix(s, p), {{0.65, 0.35}, {0.3, 0.7}});
}

// 4 sockets, socket 2 unused: static 0.1 on socket 2, local 0.4,
// per-thread 0.2, interleaved 0.3 over the 3 used sockets (0.1 each).
TEST(Matrices, FourSocketsOneUnused) {
  Placement p{2, 1, 0, 1};
  expectMatrix(perThreadMatrix(p), {{0.5, 0.25, 0, 0.25}, {0.5, 0.25, 0, 0.25}, {0.5, 0.25, 0, 0.25}, {0.5, 0.25, 0, 0.25}});
  const double t = 1.0 / 3;
  expectMatrix(interleavedMatrix(p), {{t, t, 0, t}, {t, t, 0, t}, {0, 0, 0, 0}, {t, t, 0, t}});
  expectMatrix(trafficMatrix(sig(0.1, 0.4, 0.2, 2), p), {{0.6, 0.15, 0.1, 0.15},
                                                         {0.2, 0.55, 0.1, 0.15},
                                                         {0.1, 0.05, 0.5, 0.05},  // no threads: sums to 0.7
                                                         {0.2, 0.15, 0.1, 0.55}});
}

TEST(Matrices, EightSockets) {
  Placement p(8, 1);
  Matrix m = trafficMatrix(sig(0, 0.5, 0.5, 0), p);  // interleaved 0
  for (size_t i = 0; i < 8; ++i)
    for (size_t j = 0; j < 8; ++j) EXPECT_NEAR(m[i][j], i == j ? 0.5625 : 0.0625, 1e-12);
  Matrix inter = trafficMatrix(sig(0, 0, 0, 0), p);  // all interleaved
  for (const auto& row : inter)
    for (double v : row) EXPECT_NEAR(v, 0.125, 1e-12);
  // 8 sockets, threads 4,0,0,0,0,0,0,4, static 0.5 on socket 3, rest
  // interleaved over sockets 0 and 7.
  Matrix half = trafficMatrix(sig(0.5, 0, 0, 3), {4, 0, 0, 0, 0, 0, 0, 4});
  expectMatrix({half[0], half[7]}, {{0.25, 0, 0, 0.5, 0, 0, 0, 0.25}, {0.25, 0, 0, 0.5, 0, 0, 0, 0.25}});
}

TEST(Matrices, AllStatic) {
  expectMatrix(trafficMatrix(sig(1, 0, 0, 1), {3, 1}), {{0, 1}, {0, 1}});
}

TEST(Matrices, AllLocal) {
  expectMatrix(trafficMatrix(sig(0, 1, 0, 0), {3, 1}), {{1, 0}, {0, 1}});
  expectMatrix(trafficMatrix(sig(0, 1, 0, 0), {1, 1, 1, 1}), localMatrix(4));
}

TEST(Matrices, AllPerThreadFollowsThreads) {
  expectMatrix(trafficMatrix(sig(0, 0, 1, 0), {3, 1}), {{0.75, 0.25}, {0.75, 0.25}});
}

TEST(Matrices, OneSocket) {
  expectMatrix(trafficMatrix(sig(0.2, 0.35, 0.3, 0), {4}), {{1}});
  expectMatrix(trafficMatrix(sig(0, 0, 0, 0), {1}), {{1}});
}

TEST(Matrices, ThreadsOnOneOfTwoSockets) {
  // Interleaving spans the used socket only; static data stays remote.
  expectMatrix(trafficMatrix(sig(0.2, 0.35, 0.3, 1), {4, 0}), {{0.8, 0.2}, {0.3, 0.55}});
}

TEST(Matrices, UsedRowsSumToOne) {
  Placement p{5, 0, 2, 7};
  Matrix m = trafficMatrix(sig(0.15, 0.25, 0.35, 3), p);
  for (size_t i = 0; i < p.size(); ++i) {
    if (!p[i]) continue;
    double sum = 0;
    for (double v : m[i]) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TEST(Matrices, StaticSocketOutsidePlacement) {
  EXPECT_THROW(trafficMatrix(sig(0.2, 0, 0, 2), {3, 1}), BwmodelError);
}
