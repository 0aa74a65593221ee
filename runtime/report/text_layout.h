// Column layout helpers for the text report: display width of UTF-8 text,
// truncation, left-shortening of paths and word wrapping.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace numaperf::report {

// Columns taken by text (UTF-8 code points; every code point counts one).
size_t displayWidth(const std::string& text);

// Cuts text to at most width columns, ending in "..." when cut.
std::string truncateRight(const std::string& text, size_t width);

// Shortens a path to at most width columns by replacing its beginning with
// "...": "/very/long/dir/file.cc" -> ".../dir/file.cc". Cuts on a '/' when
// one is near the cut point so that the tail starts at a path component.
std::string shortenLeft(const std::string& path, size_t width);

// before + path + after in at most width columns: the path is shortened from
// the left first (down to its last component); if that is not enough the
// whole line is truncated on the right.
std::string fitPath(const std::string& before, const std::string& path,
                    const std::string& after, size_t width);

// Word-wraps text: the first line starts with first_prefix, the others with
// next_prefix; no line exceeds width columns (words longer than a line are
// split). Always returns at least one line.
std::vector<std::string> wrapText(const std::string& text, size_t width,
                                  const std::string& first_prefix,
                                  const std::string& next_prefix);

// A command line for display: arguments joined by spaces, those with spaces
// or quotes single-quoted; "(unknown)" when empty.
std::string quoteCommand(const std::vector<std::string>& command);

}  // namespace numaperf::report
