#include <gtest/gtest.h>

#include "counters/error.h"
#include "counters/event_names.h"
#include "counters/sysfs_pmu.h"

using namespace numaperf::counters;

namespace {

const Pmu& pmu(const std::vector<Pmu>& all, const std::string& name) {
  for (const auto& p : all)
    if (p.name == name) return p;
  throw std::runtime_error("no " + name);
}

std::string errorOf(const std::string& name, const std::vector<Pmu>& pmus) {
  try {
    resolveEvent(name, pmus);
  } catch (const CountersError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// A copied sysfs tree of an Intel server with two memory-controller PMUs.
TEST(Sysfs, IntelImcDiscovered) {
  auto all = discoverPmus(COUNTERS_TESTDATA "/sysfs-intel-imc");
  ASSERT_EQ(all.size(), 4u);
  const Pmu& imc = pmu(all, "uncore_imc_1");
  EXPECT_EQ(imc.type, 14u);
  EXPECT_EQ(imc.kind, PmuKind::MemoryController);
  EXPECT_EQ(imc.cpus, (std::vector<int>{0, 28}));
  ASSERT_EQ(imc.events.size(), 3u);  // .scale and .unit files are attributes, not events
  EXPECT_EQ(pmu(all, "cpu").kind, PmuKind::Core);
  EXPECT_EQ(pmu(all, "software").kind, PmuKind::Software);

  EventSpec e = resolveEvent("uncore_imc_0/cas_count_read/", all);
  EXPECT_EQ(e.type, 13u);
  EXPECT_EQ(e.config, 0x0304u);
  EXPECT_DOUBLE_EQ(e.scale, 6.103515625e-5);  // 64 bytes in MiB
  EXPECT_EQ(e.unit, "MiB");
  EXPECT_EQ(e.cpus, (std::vector<int>{0, 28}));
  EXPECT_EQ(resolveEvent("uncore_imc_1/event=0x04,umask=0x0c/", all).config, 0x0c04u);
}

// AMD: the data fabric's event field is split over two bit ranges.
TEST(Sysfs, AmdDataFabricDiscovered) {
  auto all = discoverPmus(COUNTERS_TESTDATA "/sysfs-amd-df");
  const Pmu& df = pmu(all, "amd_df");
  EXPECT_EQ(df.kind, PmuKind::DataFabric);
  EXPECT_EQ(df.cpus, (std::vector<int>{0, 64}));
  EventSpec e = resolveEvent("amd_df/event=0x1c7,umask=0x38/", all);
  // event 0x1c7: bits 0-7 = 0xc7, the next bits (0x1) go to config bits 32..
  EXPECT_EQ(e.config, 0xc7u | (0x38u << 8) | (uint64_t{1} << 32));
  // umask 0x1ff: 0xff in bits 8-15, the ninth bit in bit 24
  EXPECT_EQ(resolveEvent("amd_df/umask=0x1ff/", all).config, (0xffu << 8) | (1u << 24));
  EXPECT_EQ(pmu(all, "amd_umc_0").kind, PmuKind::MemoryController);
  EXPECT_EQ(resolveEvent("amd_umc_0/umc_cas_cmd.rd/", all).config, 0x10au);
}

TEST(Sysfs, FailureMessages) {
  auto all = discoverPmus(COUNTERS_TESTDATA "/sysfs-intel-imc");
  EXPECT_EQ(errorOf("uncore_imc_9/cas_count_read/", all), "unknown event uncore_imc_9/cas_count_read/: no PMU uncore_imc_9 on this host");
  EXPECT_EQ(errorOf("uncore_imc_0/cas_count_all/", all), "unknown event uncore_imc_0/cas_count_all/: PMU uncore_imc_0 has no event cas_count_all");
  EXPECT_EQ(errorOf("uncore_imc_0/thresh=3/", all), "PMU uncore_imc_0 has no format field \"thresh\"");
  if (haveLibpfm()) {
    EXPECT_NE(errorOf("no_such_event_xyz", all).find("unknown event no_such_event_xyz: libpfm4"), std::string::npos);
    EXPECT_EQ(resolveEvent("task-clock", all).software, true);
  }
  EXPECT_TRUE(discoverPmus("/nonexistent").empty());
  EXPECT_EQ(parseCpuList("0-2,8"), (std::vector<int>{0, 1, 2, 8}));
}
