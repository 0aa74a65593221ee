// A snapshot of the ELF objects mapped into the current process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numaperf::symbolize {

struct AddressRange {
  uint64_t start = 0;  // first byte (run-time address)
  uint64_t end = 0;    // one past the last byte
};

struct ModuleInfo {
  std::string path;        // file path; the main executable via /proc/self/exe
  uint64_t load_bias = 0;  // dlpi_addr: run-time address minus ELF vaddr
  std::vector<AddressRange> ranges;  // PT_LOAD segments, run-time addresses
  std::string build_id;    // GNU build-id as lowercase hex; empty if none
  bool is_main = false;    // the main executable
  bool contains(uint64_t pc) const;
};

// Lists every loaded object (dl_iterate_phdr), main executable first.
// Objects without PT_LOAD segments are skipped; the vDSO is kept with its
// loader name (it has no file, so it symbolizes to module + offset only).
// Never throws; returns an empty vector on allocation failure.
std::vector<ModuleInfo> snapshotModules();

// Whether the file lies where the system's libraries do (/lib, /lib64,
// /usr/lib, /usr/lib64): libc, libstdc++ and the other distribution
// packages, not the program being profiled.
bool isSystemModule(const std::string& path);

// The module whose PT_LOAD ranges contain pc, or nullptr.
const ModuleInfo* findModule(const std::vector<ModuleInfo>& modules, uint64_t pc);

}  // namespace numaperf::symbolize
