// The profile's bandwidth signature as model input (bwmodel/profile_signature.h).
#include "bwmodel/profile_signature.h"

#include <gtest/gtest.h>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {
namespace {

report::SignatureShares kind(double accesses, double st, double local, double perThread, double inter) {
  report::SignatureShares k;
  k.accesses = accesses;
  k.static_share = st;
  k.local = local;
  k.per_thread = perThread;
  k.interleaved = inter;
  return k;
}

TEST(ProfileSignature, ThreadsFillThePlacementInOrderOrRoundRobin) {
  Placement p{3, 1};
  EXPECT_EQ(socketOfThread(0, p, false), 0u);
  EXPECT_EQ(socketOfThread(2, p, false), 0u);
  EXPECT_EQ(socketOfThread(3, p, false), 1u);
  EXPECT_EQ(socketOfThread(4, p, false), 0u);  // slot 4 mod 4
  EXPECT_EQ(socketOfThread(1, p, true), 1u);   // dealt 0, 1, 0, 0
  EXPECT_EQ(socketOfThread(3, p, true), 0u);
}

TEST(ProfileSignature, RoundRobinAndPackedRespectPUs) {
  Machine m;
  m.sockets = {Socket{0, 2u}, Socket{1, 4u}};
  EXPECT_EQ(roundRobinPlacement(5, m), (Placement{2, 3}));
  EXPECT_EQ(packedPlacement(5, m), (Placement{2, 3}));
  EXPECT_EQ(packedPlacement(2, m), (Placement{2, 0}));
  EXPECT_EQ(roundRobinPlacement(2, m), (Placement{1, 1}));
  EXPECT_THROW(packedPlacement(7, m), BwmodelError);
}

TEST(ProfileSignature, StaticSocketIsTheTopTouchersSocket) {
  report::BandwidthSignature sig;
  sig.read = kind(100, 0.6, 0.4, 0, 0);
  sig.static_threads = {{3u, 40, 0}, {0u, 20, 0}};
  Signature s = modelSignature(programWeights(sig).read, Placement{2, 2}, false);
  EXPECT_DOUBLE_EQ(s.staticFraction, 0.6);
  EXPECT_DOUBLE_EQ(s.interleavedFraction, 0);
  EXPECT_EQ(s.staticSocket, 1u);  // thread 3: slot 3 of [0, 0, 1, 1]
}

TEST(ProfileSignature, MovingAnObjectChangesOnlyItsShare) {
  report::BandwidthSignature sig;
  sig.read = kind(100, 0.5, 0.5, 0, 0);
  sig.write = kind(50, 0, 1, 0, 0);
  sig.static_threads = {{0u, 50, 0}};
  report::ObjectSignature obj;
  obj.read = kind(30, 1, 0, 0, 0);
  obj.static_threads = {{0u, 30, 0}};
  ClassWeights w = moveObject(programWeights(sig), objectWeights(obj), TrafficClass::Interleaved);
  EXPECT_DOUBLE_EQ(w.read.staticW, 20);
  EXPECT_DOUBLE_EQ(w.read.interleavedW, 30);
  EXPECT_DOUBLE_EQ(w.read.localW, 50);
  EXPECT_DOUBLE_EQ(w.write.localW, 50);
  EXPECT_DOUBLE_EQ(w.total(), 150);
  ASSERT_EQ(w.read.staticByThread.size(), 1u);
  EXPECT_DOUBLE_EQ(w.read.staticByThread[0].second, 20);
}

TEST(ProfileSignature, KindWithoutAccessesIsLocal) {
  Signature s = modelSignature(KindWeights{}, Placement{1, 1}, false);
  EXPECT_DOUBLE_EQ(s.localFraction, 1);
  EXPECT_DOUBLE_EQ(s.interleavedFraction, 0);
}

}  // namespace
}  // namespace numaperf::bwmodel
