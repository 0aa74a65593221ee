#include "symbolize/demangle.h"

#include <gtest/gtest.h>

using numaperf::symbolize::demangle;

TEST(Demangle, CppMethod) {
  EXPECT_EQ(demangle("_ZN5probe6Widget6methodEi"), "probe::Widget::method(int)");
  EXPECT_EQ(demangle("_ZNK3foo3Bar3getEv"), "foo::Bar::get() const");
}

TEST(Demangle, PlainNamesUnchanged) {
  EXPECT_EQ(demangle("main"), "main");
  EXPECT_EQ(demangle("i"), "i");  // would demangle to "int" as a type
  EXPECT_EQ(demangle(""), "");
}

TEST(Demangle, InvalidUnchanged) {
  EXPECT_EQ(demangle("_Z"), "_Z");
  EXPECT_EQ(demangle("_ZN3foo"), "_ZN3foo");
}
