// The frame walk and its chains (core/stack_capture.h), on fake stacks: an
// array of words where each frame holds the address of the next frame up
// and a return address. A chain noted on one stack must match another stack
// only if a walk of that stack finds the same return addresses: the
// allocation fast path relies on it to give a block the same site as the
// full path would.
#include "core/stack_capture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace numaperf;

namespace {

constexpr uint32_t kDepth = 16;

// A stack of `frames` frames, `spacing` words apart, return addresses
// 0x1000 + i (outside the runtime's code).
struct FakeStack {
  std::vector<uintptr_t> words;
  explicit FakeStack(int frames, int spacing = 4) : words(size_t(frames * spacing + 8), 0) {
    for (int i = 0; i < frames; ++i) {
      words[size_t(i * spacing)] = reinterpret_cast<uintptr_t>(&words[size_t((i + 1) * spacing)]);
      words[size_t(i * spacing + 1)] = 0x1000 + uintptr_t(i);
    }
  }
  const uintptr_t *bottom() const { return words.data(); }
  uintptr_t high() const { return reinterpret_cast<uintptr_t>(words.data() + words.size()); }
  uintptr_t &savedFrame(int i, int spacing = 4) { return words[size_t(i * spacing)]; }
  uintptr_t &returnAddress(int i, int spacing = 4) { return words[size_t(i * spacing + 1)]; }
};

// `stack_low`: where the thread's own stack starts (default: the fake
// stack's bottom, so the walk is on it).
std::vector<uintptr_t> walk(const FakeStack &s, uint32_t depth = kDepth, FrameChain *chain = nullptr,
                            uintptr_t stack_low = 0) {
  uintptr_t frames[64];
  if (stack_low == 0) stack_low = reinterpret_cast<uintptr_t>(s.bottom());
  uint32_t n = walkFrames(s.bottom(), stack_low, s.high(), depth, frames, chain);
  return std::vector<uintptr_t>(frames, frames + n);
}

}  // namespace

TEST(StackCapture, WalksUntilTheStackEndsAndNotesTheChain) {
  initStackCapture();
  FakeStack s(6);
  FrameChain chain;
  std::vector<uintptr_t> frames = walk(s, kDepth, &chain);
  // The last frame's saved frame points at zeroed words: a null return address.
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(frames[0], 0x1000u);
  EXPECT_EQ(frames[5], 0x1005u);
  EXPECT_EQ(chain.len, 6u);
  EXPECT_TRUE(chain.ends_on_null);
  EXPECT_TRUE(sameFrameChain(chain, s.bottom()));
}

TEST(StackCapture, AChainDiffersWhereverTheStackDoes) {
  initStackCapture();
  FakeStack s(6);
  FrameChain chain;
  walk(s, kDepth, &chain);
  s.returnAddress(3) = 0x2000;  // another caller three frames up
  EXPECT_FALSE(sameFrameChain(chain, s.bottom()));
  s.returnAddress(3) = 0x1003;
  EXPECT_TRUE(sameFrameChain(chain, s.bottom()));
  s.returnAddress(6) = 0x3000;  // the stack goes on where it had ended
  EXPECT_FALSE(sameFrameChain(chain, s.bottom()));
  s.returnAddress(6) = 0;
  FakeStack moved(6);  // the same return addresses at other addresses
  EXPECT_FALSE(sameFrameChain(chain, moved.bottom()));
  EXPECT_EQ(walk(moved), walk(s));  // (a chain is stricter than the stack)
}

TEST(StackCapture, ChainsEndWhereTheWalkEnds) {
  initStackCapture();
  // At the depth limit: what lies above does not matter.
  FakeStack s(10);
  FrameChain chain;
  EXPECT_EQ(walk(s, 4, &chain).size(), 4u);
  EXPECT_EQ(chain.len, 4u);
  s.returnAddress(7) = 0x2000;
  EXPECT_TRUE(sameFrameChain(chain, s.bottom()));
  // A saved frame that does not move up the stack.
  FakeStack loop(5);
  loop.savedFrame(2) = reinterpret_cast<uintptr_t>(&loop.words[4]);
  walk(loop, kDepth, &chain);
  EXPECT_EQ(chain.len, 3u);
  EXPECT_FALSE(chain.ends_on_null);
  EXPECT_TRUE(sameFrameChain(chain, loop.bottom()));
  loop.savedFrame(2) = reinterpret_cast<uintptr_t>(&loop.words[12]);
  EXPECT_FALSE(sameFrameChain(chain, loop.bottom()));
  // A frame out of the stack's bounds.
  FakeStack out(5);
  out.savedFrame(1) = out.high() + 64;
  EXPECT_EQ(walk(out, kDepth, &chain).size(), 2u);
  EXPECT_TRUE(sameFrameChain(chain, out.bottom()));
}

TEST(StackCapture, RuntimeFramesAreSkippedButStayInTheChain) {
  initStackCapture();
  FakeStack s(5);
  s.returnAddress(1) = reinterpret_cast<uintptr_t>(&captureStack) + 1;  // inside libnumaperf
  FrameChain chain;
  std::vector<uintptr_t> frames = walk(s, kDepth, &chain);
  EXPECT_EQ(frames, (std::vector<uintptr_t>{0x1000, 0x1002, 0x1003, 0x1004}));
  EXPECT_EQ(chain.len, 5u);
}

TEST(StackCapture, TooLongAChainIsNotNoted) {
  initStackCapture();
  FakeStack s(int(FrameChain::kMax) + 3);
  FrameChain chain;
  EXPECT_EQ(walk(s, 64, &chain).size(), FrameChain::kMax + 3);
  EXPECT_GT(chain.len, FrameChain::kMax);
  EXPECT_FALSE(sameFrameChain(chain, s.bottom()));
}

// A walk from a frame below the thread's own stack (a coroutine's stack,
// say) finds the frames but notes no chain: comparing a chain reads its
// frames without checking them, which only the thread's stack allows.
TEST(StackCapture, AWalkOffTheThreadsStackNotesNoChain) {
  initStackCapture();
  FakeStack s(5);
  FrameChain chain;
  const uintptr_t above = reinterpret_cast<uintptr_t>(s.bottom()) + 8;
  EXPECT_EQ(walk(s, kDepth, &chain, above).size(), 5u);
  EXPECT_GT(chain.len, FrameChain::kMax);
  EXPECT_FALSE(sameFrameChain(chain, s.bottom()));
  walk(s, kDepth, &chain);
  EXPECT_TRUE(sameFrameChain(chain, s.bottom()));
}

// The property the fast path needs, on random changes to a stack after its
// chain was noted: whenever the chain still matches, a walk finds the same
// return addresses.
TEST(StackCapture, AMatchingChainMeansTheSameStack) {
  initStackCapture();
  std::mt19937_64 rng(17);
  int matched = 0, differed = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    FakeStack s(1 + int(rng() % 12));
    const uint32_t depth = 1 + uint32_t(rng() % kDepth);
    FrameChain chain;
    const std::vector<uintptr_t> noted = walk(s, depth, &chain);
    uintptr_t &word = s.words[size_t(rng() % s.words.size())];
    switch (rng() % 4) {
      case 0: word = 0x1000 + rng() % 16; break;  // another return address, or the same
      case 1: word = reinterpret_cast<uintptr_t>(&s.words[size_t(rng() % s.words.size())]); break;
      case 2: word = 0; break;
      default: word = s.high() + 8 * (rng() % 4); break;  // out of the stack
    }
    const bool same = sameFrameChain(chain, s.bottom());
    if (same) {
      EXPECT_EQ(walk(s, depth), noted) << "trial " << trial;
      ++matched;
    } else {
      ++differed;
    }
  }
  EXPECT_GT(matched, 500);
  EXPECT_GT(differed, 500);
}
