#include "elf_needed.h"

#include <gtest/gtest.h>

using namespace numaperf::cli;

TEST(ElfNeeded, ReadsDtNeededOfADynamicExecutable) {
  ElfInfo info;
  std::string err;
  ASSERT_TRUE(readElfInfo("/proc/self/exe", &info, &err)) << err;
  EXPECT_EQ(info.kind, ElfKind::kDynamic);
  bool libc = false;
  for (const auto& n : info.needed) libc |= n.rfind("libc.so", 0) == 0;
  EXPECT_TRUE(libc);
  EXPECT_FALSE(needsRuntime(info));
}

TEST(ElfNeeded, RecognisesTheRuntimeByBaseName) {
  ElfInfo info;
  info.needed = {"libc.so.6", "/opt/numaperf/lib/libnumaperf.so"};
  EXPECT_TRUE(needsRuntime(info));
  info.needed = {"libnumaperf.so.1"};
  EXPECT_TRUE(needsRuntime(info));
  info.needed = {"libnumaperf_other.so"};
  EXPECT_FALSE(needsRuntime(info));
}

TEST(ElfNeeded, ScriptsAndMissingFiles) {
  ElfInfo info;
  std::string err;
  ASSERT_TRUE(readElfInfo("/etc/passwd", &info, &err));
  EXPECT_EQ(info.kind, ElfKind::kNotElf);
  EXPECT_FALSE(readElfInfo("/nonexistent", &info, &err));
  // The runtime itself is a dynamic ELF object.
  ASSERT_TRUE(readElfInfo(CLI_TEST_RUNTIME_PATH, &info, &err)) << err;
  EXPECT_EQ(info.kind, ElfKind::kDynamic);
}
