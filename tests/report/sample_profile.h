// A representative profile shared by the report tests.
#pragma once

#include "report/profile_model.h"

inline numaperf::report::Profile sampleProfile() {
  using namespace numaperf::report;
  Profile p;
  p.program.command = {"./lulesh", "-s", "30", "two words"};
  p.program.pid = 4242;
  p.program.wall_ms = 1234.5;
  p.program.threads = 8;
  p.program.total_accesses = 123456789;
  p.program.access_data = true;
  p.thresholds = {{"remote_access", 1500}, {"false_sharing", 1.0}, {"duplicatable", 5000}};

  Issue heap;
  heap.kind = "remote_access";
  heap.score = 4496.04;
  heap.normalized_score = 123.44;
  heap.threshold = 1500;
  heap.object.kind = "heap";
  heap.object.size = 8388608;
  heap.object.instances = 3;
  heap.object.site = {"/src/lulesh/lulesh.cc", 2105, "Domain::AllocateNodal(int)"};
  heap.object.stack = {
      {0x55d0c0a01234, "/src/lulesh/build/lulesh", 0x1234,
       {"/src/lulesh/lulesh.cc", 2105, "Domain::AllocateNodal(int)"}},
      {0x55d0c0a05678, "/src/lulesh/build/lulesh", 0x5678,
       {"/src/lulesh/lulesh-init.cc", 311, "Domain::Domain(int, int, int)"}},
      {0x55d0c0a09abc, "/src/lulesh/build/lulesh", 0x9abc, {"/src/lulesh/lulesh.cc", 2700, "main"}},
      {0x7f0000001000, "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x27249, {"", 0, "__libc_start_main"}},
      {0x7f0000002000, "", 0, {"", 0, ""}},
  };
  heap.fix = "page_interleave";
  heap.evidence = {{"remote_accesses", 5549000},
                   {"local_accesses", 120000},
                   {"nodes", {0, 1}},
                   {"pages", nlohmann::json::array({{{"page", 1}, {"threads", {1, 2}}},
                                                    {{"page", 2}, {"threads", {3}}}})},
                   {"dominant", {{"thread", 1}, {"share", 0.75}}}};
  p.issues.push_back(heap);

  Issue global;
  global.kind = "false_sharing";
  global.score = 12.5;
  global.normalized_score = 0.25;
  global.threshold = 1;
  global.object.kind = "global";
  global.object.name = "counters";
  global.object.size = 64;
  global.object.instances = 1;
  global.object.site = {"/src/app/counters.c", 12, ""};
  global.fix = "padding";
  global.evidence = {{"lines", 1}, {"writers", 4}};
  p.issues.push_back(global);

  Issue odd;
  odd.kind = "thread_migration";
  odd.score = 150;
  odd.normalized_score = 1.5;
  odd.threshold = 100;
  odd.object.kind = "";  // a thread issue: no object
  odd.fix = "rebalance_stages_somehow";
  p.issues.push_back(odd);

  p.notes = {"sampling: 1 in 101 accesses feeds page counters",
             "the machine has a single NUMA node; scores predict behaviour on a multi-node machine"};
  return p;
}
