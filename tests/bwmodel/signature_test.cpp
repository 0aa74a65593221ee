#include <gtest/gtest.h>

#include "bwmodel/error.h"
#include "bwmodel/signature.h"

using namespace numaperf::bwmodel;

TEST(Signature, RemainderIsInterleaved) {
  SignatureInput in;
  in.staticFraction = 0.2;
  in.localFraction = 0.35;
  in.perThreadFraction = 0.3;
  Signature s = completeSignature(in, "");
  EXPECT_NEAR(s.interleavedFraction, 0.15, 1e-12);
  EXPECT_EQ(s.staticSocket, 0u);
}

TEST(Signature, NothingGivenIsAllInterleaved) {
  Signature s = completeSignature({}, "");
  EXPECT_EQ(s.interleavedFraction, 1.0);
}

TEST(Signature, AllFourMustSumToOne) {
  SignatureInput in;
  in.staticFraction = 0.25;
  in.localFraction = 0.25;
  in.perThreadFraction = 0.25;
  in.interleavedFraction = 0.25;
  EXPECT_NO_THROW(completeSignature(in, ""));
  in.interleavedFraction = 0.2;
  EXPECT_THROW(completeSignature(in, ""), BwmodelError);
}

TEST(Signature, RangeAndSum) {
  SignatureInput in;
  in.localFraction = -0.1;
  EXPECT_THROW(completeSignature(in, ""), BwmodelError);
  in.localFraction = 1.5;
  EXPECT_THROW(completeSignature(in, ""), BwmodelError);
  in.localFraction = 0.6;
  in.staticFraction = 0.6;
  try {
    completeSignature(in, "write");
    FAIL();
  } catch (const BwmodelError& e) {
    EXPECT_NE(std::string(e.what()).find("write"), std::string::npos);
  }
  in.staticFraction = 0.4;  // exactly 1: interleaved 0
  EXPECT_EQ(completeSignature(in, "").interleavedFraction, 0.0);
}
