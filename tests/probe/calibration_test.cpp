// Calibration file: JSON round trip, reader helpers, malformed input, text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "probe/calibration.h"
#include "probe/output.h"

using namespace numaperf::probe;

namespace {
Calibration sample() {
  Calibration c;
  c.date = "2024-05-01T10:00:00Z";
  c.host = "bigbox";
  c.tool = "numaperf 0.1.0";
  Topology t = HwlocTopology::xml(std::string(PROBE_TOPOLOGY_DIR) + "/four_nodes_cpuless_asym.xml").model();
  c.topology = summarize(t);
  std::vector<unsigned> rows = t.cpuNodes(), cols = t.memoryNodes();
  for (NodeMatrix* m : {&c.idleLatencyNs, &c.loadedSpreadNs, &c.loadedOverloadNs, &c.readGBps, &c.writeGBps, &c.mixedGBps})
    m->reset(rows, cols);
  for (unsigned r : rows)
    for (unsigned m : cols) {
      c.idleLatencyNs.set(r, m, r == m ? 80.5 : 120.0 + r + m);
      c.readGBps.set(r, m, r == m ? 40.0 : 20.25);
    }
  c.loadedSpreadNs.set(0, 1, 210.5);  // the rest stays null
  c.notes.push_back("node 3 has no allowed CPUs: column only");
  return c;
}

std::string tempPath() { return "/tmp/numaperf-calibration-test-" + std::to_string(getpid()) + ".json"; }
}  // namespace

TEST(Calibration, RoundTripThroughAFile) {
  Calibration c = sample();
  std::string path = tempPath();
  writeCalibration(path, c);
  Calibration r = readCalibration(path);
  std::remove(path.c_str());
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.host, "bigbox");
  EXPECT_EQ(r.date, c.date);
  EXPECT_EQ(r.tool, c.tool);
  EXPECT_EQ(r.topology.nodes.size(), 4u);
  EXPECT_EQ(r.topology.nodes[3].pus, "");
  EXPECT_EQ(r.topology.nodes[1].pus, "6-9");
  EXPECT_EQ(r.topology.allowedPus, "0-9,12-17");
  EXPECT_EQ(r.topology.distances, c.topology.distances);
  EXPECT_EQ(r.topology.caches.size(), c.topology.caches.size());
  EXPECT_EQ(r.idleLatencyNs.cpuNodes, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(r.idleLatencyNs.memNodes, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(r.idleLatencyNs.values, c.idleLatencyNs.values);
  EXPECT_EQ(r.readGBps.values, c.readGBps.values);
  EXPECT_EQ(r.loadedSpreadNs.at(0, 1), 210.5);
  EXPECT_FALSE(r.loadedSpreadNs.at(0, 2).has_value());
  EXPECT_FALSE(r.writeGBps.at(0, 0).has_value());
  EXPECT_EQ(r.notes, c.notes);
  EXPECT_EQ(toJson(r), toJson(c));
}

TEST(Calibration, ReaderHelpers) {
  Calibration c = sample();
  EXPECT_EQ(c.latencyNs(1, 3), 124.0);
  EXPECT_EQ(c.remoteExtraNs(1, 3), 124.0 - 80.5);
  EXPECT_FALSE(c.remoteExtraNs(3, 0).has_value());  // node 3 has no CPUs
  EXPECT_DOUBLE_EQ(*c.meanLocalNs(), 80.5);
  ASSERT_TRUE(c.meanRemoteNs().has_value());
  nlohmann::json j = toJson(c);
  EXPECT_DOUBLE_EQ(j["summary"]["local_latency_ns"].get<double>(), 80.5);
}

TEST(Calibration, OneNodeHasNoRemote) {
  Calibration c;
  c.idleLatencyNs.reset({0}, {0});
  c.idleLatencyNs.set(0, 0, 90);
  EXPECT_FALSE(c.meanRemoteNs().has_value());
  nlohmann::json j = toJson(c);
  EXPECT_TRUE(j["summary"]["remote_latency_ns"].is_null());
  EXPECT_TRUE(j["summary"]["remote_extra_ns"].is_null());
  Calibration r = calibrationFromJson(j);
  EXPECT_EQ(r.latencyNs(0, 0), 90.0);
}

TEST(Calibration, RejectsMalformedDocuments) {
  nlohmann::json good = toJson(sample());
  EXPECT_NO_THROW(calibrationFromJson(good));
  auto bad = good;
  bad["format"] = "something-else";
  EXPECT_THROW(calibrationFromJson(bad), CalibrationError);
  bad = good;
  bad["version"] = 2;
  EXPECT_THROW(calibrationFromJson(bad), CalibrationError);
  bad = good;
  bad["latency_ns"]["idle"][0].erase(0);
  EXPECT_THROW(calibrationFromJson(bad), CalibrationError);
  bad = good;
  bad["latency_ns"]["idle"][1][1] = "fast";
  EXPECT_THROW(calibrationFromJson(bad), CalibrationError);
  bad = good;
  bad.erase("cpu_nodes");
  EXPECT_THROW(calibrationFromJson(bad), CalibrationError);
  EXPECT_THROW(readCalibration("/nonexistent/calibration.json"), CalibrationError);
  std::string path = tempPath();
  { std::ofstream(path) << "{ not json"; }
  EXPECT_THROW(readCalibration(path), CalibrationError);
  std::remove(path.c_str());
}

TEST(Calibration, WriteFailsCleanly) {
  EXPECT_THROW(writeCalibration("/nonexistent-dir/x.json", sample()), CalibrationError);
}

TEST(Output, MatrixTableMarksNotApplicable) {
  Calibration c = sample();
  std::string s = formatMatrix("idle latency (ns)", c.idleLatencyNs, 1);
  EXPECT_NE(s.find("node 3"), std::string::npos);
  EXPECT_NE(s.find("80.5"), std::string::npos);
  std::string spread = formatMatrix("x", c.loadedSpreadNs, 1);
  EXPECT_NE(spread.find("210.5"), std::string::npos);
  EXPECT_NE(spread.find("n/a"), std::string::npos);
}

TEST(Output, OneNodeSaysNotApplicableOnce) {
  Calibration c;
  c.host = "h";
  for (NodeMatrix* m : {&c.idleLatencyNs, &c.loadedSpreadNs, &c.loadedOverloadNs, &c.readGBps, &c.writeGBps, &c.mixedGBps})
    m->reset({0}, {0});
  c.idleLatencyNs.set(0, 0, 90);
  c.notes.push_back("one NUMA node: remote entries are not applicable");
  std::string s = formatCalibration(c);
  size_t first = s.find("not applicable");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(s.find("not applicable", first + 1), std::string::npos);
  EXPECT_NE(s.find("remote n/a"), std::string::npos);
}

TEST(Output, FormatBytes) {
  EXPECT_EQ(formatBytes(48 * 1024), "48 KiB");
  EXPECT_EQ(formatBytes(2 << 20), "2 MiB");
  EXPECT_EQ(formatBytes(110100480), "105 MiB");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
}
