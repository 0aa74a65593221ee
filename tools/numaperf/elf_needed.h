// Does an executable already load the numaperf runtime (built with the
// wrapper)? Read from its ELF dynamic section (DT_NEEDED), without loading it.
#pragma once

#include <string>
#include <vector>

namespace numaperf::cli {

enum class ElfKind { kNotElf, kStatic, kDynamic };

struct ElfInfo {
  ElfKind kind = ElfKind::kNotElf;
  std::vector<std::string> needed;  // DT_NEEDED entries, in order
};

// False (with *error) when the file cannot be read. A file that is not a
// 64-bit ELF object gives kind kNotElf.
bool readElfInfo(const std::string& path, ElfInfo* info, std::string* error);

// True when one DT_NEEDED entry names libnumaperf.so (any directory).
bool needsRuntime(const ElfInfo& info);

}  // namespace numaperf::cli
