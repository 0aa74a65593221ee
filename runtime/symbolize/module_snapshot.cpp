#include "symbolize/module_snapshot.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <climits>
#include <cstring>

namespace numaperf::symbolize {

bool ModuleInfo::contains(uint64_t pc) const {
  for (const AddressRange& r : ranges)
    if (pc >= r.start && pc < r.end) return true;
  return false;
}

namespace {

std::string selfExePath() {
  char buf[PATH_MAX + 1];
  ssize_t n = readlink("/proc/self/exe", buf, PATH_MAX);
  if (n <= 0) return std::string();
  return std::string(buf, static_cast<size_t>(n));
}

size_t align4(size_t n) { return (n + 3) & ~size_t{3}; }

// Reads the GNU build-id from the PT_NOTE segments mapped in memory.
std::string buildIdOf(const dl_phdr_info* info) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) nh;
      std::memcpy(&nh, p, sizeof nh);
      size_t desc_off = sizeof nh + align4(nh.n_namesz);
      size_t total = desc_off + align4(nh.n_descsz);
      if (total > left) break;
      if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
          std::memcmp(p + sizeof nh, "GNU", 4) == 0) {
        std::string hex;
        hex.reserve(nh.n_descsz * 2);
        for (size_t k = 0; k < nh.n_descsz; ++k) {
          hex += kHex[p[desc_off + k] >> 4];
          hex += kHex[p[desc_off + k] & 15];
        }
        return hex;
      }
      p += total;
      left -= total;
    }
  }
  return std::string();
}

void collectOne(dl_phdr_info* info, std::vector<ModuleInfo>* out) {
  ModuleInfo m;
  m.load_bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    uint64_t start = info->dlpi_addr + ph.p_vaddr;
    m.ranges.push_back({start, start + ph.p_memsz});
  }
  if (m.ranges.empty()) return;
  const bool first = out->empty();
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') {
    // The main executable is reported first with an empty name. Other
    // nameless entries (should not happen) are dropped.
    if (!first) return;
    m.path = selfExePath();
    m.is_main = true;
  } else {
    m.path = info->dlpi_name;
  }
  m.build_id = buildIdOf(info);
  out->push_back(std::move(m));
}

struct CollectState {
  std::vector<ModuleInfo>* out;
  bool failed;
};

// No exception may unwind through dl_iterate_phdr (it holds the loader lock).
int collect(dl_phdr_info* info, size_t, void* data) {
  auto* state = static_cast<CollectState*>(data);
  try {
    collectOne(info, state->out);
    return 0;
  } catch (...) {
    state->failed = true;
    return 1;
  }
}

}  // namespace

std::vector<ModuleInfo> snapshotModules() {
  std::vector<ModuleInfo> modules;
  try {
    modules.reserve(64);
  } catch (...) {
    return modules;
  }
  CollectState state{&modules, false};
  dl_iterate_phdr(collect, &state);
  if (state.failed) modules.clear();
  return modules;
}

bool isSystemModule(const std::string& path) {
  for (const char* dir : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})
    if (path.compare(0, std::strlen(dir), dir) == 0) return true;
  return false;
}

const ModuleInfo* findModule(const std::vector<ModuleInfo>& modules, uint64_t pc) {
  for (const ModuleInfo& m : modules)
    if (m.contains(pc)) return &m;
  return nullptr;
}

}  // namespace numaperf::symbolize
