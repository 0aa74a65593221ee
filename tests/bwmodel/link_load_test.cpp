#include <gtest/gtest.h>

#include "bwmodel/error.h"
#include "bwmodel/link_load.h"

using namespace numaperf::bwmodel;
namespace probe = numaperf::probe;

namespace {
Signature worked() {
  SignatureInput in;
  in.staticFraction = 0.2;
  in.localFraction = 0.35;
  in.perThreadFraction = 0.3;
  in.staticSocket = 1;
  return completeSignature(in, "");
}

probe::Calibration calibration(double local, double remote) {
  probe::Calibration c;
  c.readGBps.reset({0, 1}, {0, 1});
  c.writeGBps.reset({0, 1}, {0, 1});
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned j = 0; j < 2; ++j) {
      c.readGBps.set(i, j, i == j ? local : remote);
      c.writeGBps.set(i, j, (i == j ? local : remote) / 2);
    }
  return c;
}
}  // namespace

TEST(LinkLoad, WorkedExampleLoads) {
  Placement p{3, 1};
  Matrix m = trafficMatrix(worked(), p);
  LoadPrediction l = predictLoad(m, m, p, abstractMachine(2), 10, 0, nullptr);
  ASSERT_EQ(l.links.size(), 4u);
  EXPECT_NEAR(l.links[0].readGBps, 3 * 10 * 0.65, 1e-9);  // 19.5
  EXPECT_NEAR(l.links[1].readGBps, 3 * 10 * 0.35, 1e-9);  // 10.5
  EXPECT_NEAR(l.links[2].readGBps, 1 * 10 * 0.3, 1e-9);
  EXPECT_NEAR(l.links[3].readGBps, 1 * 10 * 0.7, 1e-9);
  EXPECT_NEAR(l.banks[0].readGBps, 22.5, 1e-9);
  EXPECT_NEAR(l.banks[1].readGBps, 17.5, 1e-9);
  EXPECT_FALSE(l.links[0].utilisation.has_value());
}

TEST(LinkLoad, SaturationFromCalibration) {
  Placement p{3, 1};
  Matrix m = trafficMatrix(worked(), p);
  probe::Calibration c = calibration(40, 10);
  // reads 10 GB/s per thread: link 0->1 carries 10.5 > 10 remote: saturated;
  // 0->0 19.5 of 40 is not.
  LoadPrediction l = predictLoad(m, m, p, abstractMachine(2), 10, 0, &c);
  EXPECT_FALSE(l.links[0].saturated);
  EXPECT_NEAR(*l.links[0].utilisation, 19.5 / 40, 1e-9);
  EXPECT_TRUE(l.links[1].saturated);
  EXPECT_FALSE(l.links[2].saturated);  // 3 of 10
  EXPECT_NEAR(*l.banks[0].utilisation, 22.5 / 40, 1e-9);
  // Writes count against the write capacity (half): 8 read + 2 write per
  // thread on 0->0: 15.6/40 + 3.9/20 = 0.585.
  LoadPrediction w = predictLoad(m, m, p, abstractMachine(2), 8, 2, &c);
  EXPECT_NEAR(*w.links[0].utilisation, 15.6 / 40 + 3.9 / 20, 1e-9);
}

TEST(LinkLoad, CalibrationMustCoverSockets) {
  Placement p{1, 1, 1};
  Matrix m = trafficMatrix(worked(), p);
  probe::Calibration c = calibration(40, 10);
  EXPECT_THROW(predictLoad(m, m, p, abstractMachine(3), 1, 0, &c), BwmodelError);
}
