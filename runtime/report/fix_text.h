// Fix codes (Issue::fix) as imperative sentences for the text report.
#pragma once

#include <string>

namespace numaperf::report {

// "page_interleave" -> "Interleave the object's pages across nodes (...)".
// Unknown codes are returned as-is; an empty code gives an empty string.
std::string fixSentence(const std::string& code);

// An issue kind for people: "false_sharing" -> "false sharing".
std::string kindText(const std::string& kind);

}  // namespace numaperf::report
