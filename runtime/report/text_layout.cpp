#include "report/text_layout.h"

namespace numaperf::report {

namespace {

bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offset where the column `col` starts (or text.size()).
size_t byteOffsetOfColumn(const std::string& text, size_t col) {
  size_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (isContinuation(text[i])) continue;
    if (seen == col) return i;
    ++seen;
  }
  return text.size();
}

const char kEllipsis[] = "...";
constexpr size_t kEllipsisWidth = 3;

}  // namespace

size_t displayWidth(const std::string& text) {
  size_t n = 0;
  for (char c : text)
    if (!isContinuation(c)) ++n;
  return n;
}

std::string truncateRight(const std::string& text, size_t width) {
  if (displayWidth(text) <= width) return text;
  if (width <= kEllipsisWidth) return std::string(kEllipsis, width);
  std::string out = text.substr(0, byteOffsetOfColumn(text, width - kEllipsisWidth));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + kEllipsis;
}

std::string shortenLeft(const std::string& path, size_t width) {
  const size_t w = displayWidth(path);
  if (w <= width) return path;
  if (width <= kEllipsisWidth) return std::string(kEllipsis, width);
  // Keep the last (width - 3) columns, then move forward to a '/' if one is
  // there so the kept tail starts at a path component.
  std::string tail = path.substr(byteOffsetOfColumn(path, w - (width - kEllipsisWidth)));
  // Give up at most a few columns (and a third of the tail) for that; a very long component is cut.
  constexpr size_t kMaxSkip = 16;
  size_t slash = tail.find('/');
  if (slash != std::string::npos && slash > 0 && slash <= kMaxSkip &&
      slash * 3 <= tail.size() && slash + 1 < tail.size())
    tail = tail.substr(slash);
  return kEllipsis + tail;
}

std::string fitPath(const std::string& before, const std::string& path,
                    const std::string& after, size_t width) {
  std::string line = before + path + after;
  if (displayWidth(line) <= width) return line;
  const size_t fixed = displayWidth(before) + displayWidth(after);
  const size_t slash = path.rfind('/');
  const std::string last = slash == std::string::npos ? path : path.substr(slash);
  const size_t min_path = std::min(displayWidth(path), kEllipsisWidth + displayWidth(last));
  if (fixed + min_path <= width) return before + shortenLeft(path, width - fixed) + after;
  return truncateRight(before + shortenLeft(path, min_path) + after, width);
}

std::vector<std::string> wrapText(const std::string& text, size_t width,
                                  const std::string& first_prefix,
                                  const std::string& next_prefix) {
  std::vector<std::string> lines;
  std::string line = first_prefix;
  size_t line_width = displayWidth(first_prefix);
  bool line_has_word = false;
  const size_t next_width = displayWidth(next_prefix);

  auto flush = [&]() {
    lines.push_back(line);
    line = next_prefix;
    line_width = next_width;
    line_has_word = false;
  };

  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    if (i >= text.size()) break;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t') ++j;
    std::string word = text.substr(i, j - i);
    i = j;
    size_t ww = displayWidth(word);
    size_t needed = ww + (line_has_word ? 1 : 0);
    if (line_width + needed > width && line_has_word) {
      flush();
      needed = ww;
    }
    // A word longer than a whole line is split.
    while (line_width + needed > width && ww > 0) {
      size_t room = width > line_width + (line_has_word ? 1 : 0)
                        ? width - line_width - (line_has_word ? 1 : 0)
                        : 0;
      if (room == 0) {
        if (!line_has_word && line_width >= width) break;  // prefix fills the line
        flush();
        needed = ww;
        continue;
      }
      size_t cut = byteOffsetOfColumn(word, room);
      if (line_has_word) line += ' ';
      line += word.substr(0, cut);
      line_has_word = true;
      word = word.substr(cut);
      ww = displayWidth(word);
      flush();
      needed = ww;
    }
    if (ww == 0) continue;
    if (line_has_word) line += ' ';
    line += word;
    line_width += needed;
    line_has_word = true;
  }
  if (line_has_word || lines.empty()) lines.push_back(line);
  return lines;
}

std::string quoteCommand(const std::vector<std::string>& command) {
  std::string s;
  for (const std::string& arg : command) {
    if (!s.empty()) s += ' ';
    bool quote = arg.empty() || arg.find_first_of(" \t\"'") != std::string::npos;
    s += quote ? "'" + arg + "'" : arg;
  }
  return s.empty() ? std::string("(unknown)") : s;
}

}  // namespace numaperf::report
