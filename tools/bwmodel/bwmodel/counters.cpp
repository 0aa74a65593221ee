#include "bwmodel/counters.h"

#include <dirent.h>

namespace numaperf::bwmodel {

std::string memoryCountersUnavailableReason(const std::string& root) {
  DIR* d = opendir(root.c_str());
  if (!d) return "no perf event sources (" + root + " is missing)";
  bool found = false;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.rfind("uncore_imc", 0) == 0 || n.rfind("amd_df", 0) == 0 || n.rfind("arm_cmn", 0) == 0) found = true;
  }
  closedir(d);
  if (!found) return "no memory-controller PMU (uncore_imc, amd_df or arm_cmn) in " + root;
  return "";
}

}  // namespace numaperf::bwmodel
