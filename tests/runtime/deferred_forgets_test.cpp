// Pages a thread freed blocks on while private to it (core/deferred_forgets.h):
// a page is forgotten when another takes its slot in the thread's table, and
// not while it keeps coming back.
#include "core/deferred_forgets.h"
#include "core/shadow_memory.h"
#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <thread>

using namespace numaperf;

TEST(DeferredForgets, APageIsForgottenWhenAnotherTakesItsSlot) {
  ASSERT_TRUE(shadowMemory().init());
  constexpr uintptr_t kSpan = uintptr_t(kDeferredForgets) * kPageSize;
  alignas(4096) static char arena[kDeferredForgets * 4096 + 2 * 4096];
  const auto base = reinterpret_cast<uintptr_t>(arena);
  const uintptr_t a = base, b = base + kSpan, c = base + 4096;  // a and b share a slot
  ShadowMemory &shadow = shadowMemory();
  std::thread([&] {
    ThreadState *t = threadRegistry().registerCurrentThread(nullptr, 0);
    ASSERT_NE(t, nullptr);
    for (uintptr_t page : {a, b, c}) shadow.entryFor(page)->owner.store(t->owner_tag);
    shadow.noteClaim();
    deferPageForget(*t, a);
    deferPageForget(*t, c);
    deferPageForget(*t, a);  // a block freed there again: nothing to do yet
    EXPECT_EQ(shadow.entryFor(a)->owner.load(), t->owner_tag);
    deferPageForget(*t, b);  // takes a's slot: a is forgotten
    EXPECT_EQ(shadow.entryFor(a)->owner.load(), 0u);
    EXPECT_EQ(shadow.entryFor(b)->owner.load(), t->owner_tag);
    EXPECT_EQ(shadow.entryFor(c)->owner.load(), t->owner_tag);
    forgetDeferredPages(*t);
    EXPECT_EQ(shadow.entryFor(b)->owner.load(), 0u);
    EXPECT_EQ(shadow.entryFor(c)->owner.load(), 0u);
    // The table is empty now: a page claimed again stays claimed.
    shadow.entryFor(b)->owner.store(t->owner_tag);
    forgetDeferredPages(*t);
    EXPECT_EQ(shadow.entryFor(b)->owner.load(), t->owner_tag);
    shadow.entryFor(b)->owner.store(0);
    threadRegistry().markCurrentThreadExited();
  }).join();
}

// At the end of the process the report follows and no thread takes the
// arena over: the deferred pages keep their first toucher (and counts).
TEST(DeferredForgets, NotAtTheEndOfTheProcess) {
  ASSERT_TRUE(shadowMemory().init());
  alignas(4096) static char arena[4096];
  const auto page = reinterpret_cast<uintptr_t>(arena);
  ShadowMemory &shadow = shadowMemory();
  std::thread([&] {
    ThreadState *t = threadRegistry().registerCurrentThread(nullptr, 0);
    ASSERT_NE(t, nullptr);
    shadow.entryFor(page)->owner.store(t->owner_tag);
    shadow.noteClaim();
    deferPageForget(*t, page);
    threadRegistry().markCurrentThreadExited(/*process_end=*/true);
    EXPECT_EQ(shadow.entryFor(page)->owner.load(), t->owner_tag);
    shadow.entryFor(page)->owner.store(0);
  }).join();
}
