#include "symbolize/symbolizer.h"

#include "symbolize/demangle.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace numaperf::symbolize {

namespace {

// Separate debug info, looked up locally only: /usr/lib/debug/.build-id/
// by build-id, else the .gnu_debuglink name next to the file, in its .debug/
// subdirectory and under /usr/lib/debug. Unlike dwfl_standard_find_debuginfo
// this never asks a debuginfod server (DEBUGINFOD_URLS), which could stall
// the profiled program's exit on network access.
int openCandidate(const std::string& path, char** debuginfo_file_name) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0 && debuginfo_file_name != nullptr) *debuginfo_file_name = ::strdup(path.c_str());
  return fd;
}

int localFindDebuginfo(Dwfl_Module* mod, void**, const char*, GElf_Addr, const char* file_name,
                       const char* debuglink_file, GElf_Word, char** debuginfo_file_name) {
  try {
    const unsigned char* bits = nullptr;
    GElf_Addr vaddr = 0;
    int len = dwfl_module_build_id(mod, &bits, &vaddr);
    if (len > 1) {
      static const char kHex[] = "0123456789abcdef";
      std::string path = "/usr/lib/debug/.build-id/";
      for (int i = 0; i < len; ++i) {
        path += kHex[bits[i] >> 4];
        path += kHex[bits[i] & 15];
        if (i == 0) path += '/';
      }
      path += ".debug";
      int fd = openCandidate(path, debuginfo_file_name);
      if (fd >= 0) return fd;
      return -1;  // with a build-id, an unverified debuglink could mismatch
    }
    if (debuglink_file == nullptr || file_name == nullptr) return -1;
    std::string file(file_name);
    std::string dir = file.substr(0, file.rfind('/') + 1);
    for (const std::string& candidate :
         {dir + debuglink_file, dir + ".debug/" + debuglink_file,
          "/usr/lib/debug" + dir + debuglink_file}) {
      if (candidate == file) continue;
      int fd = openCandidate(candidate, debuginfo_file_name);
      if (fd >= 0) return fd;
    }
  } catch (...) {
  }
  return -1;
}

// Callbacks are constant-initialized: no global constructor.
char* g_debuginfo_path = nullptr;
const Dwfl_Callbacks kLocalCallbacks = {
    dwfl_build_id_find_elf,
    localFindDebuginfo,
    dwfl_offline_section_address,
    &g_debuginfo_path,
};
const Dwfl_Callbacks kStandardCallbacks = {
    dwfl_build_id_find_elf,
    dwfl_standard_find_debuginfo,
    dwfl_offline_section_address,
    &g_debuginfo_path,
};

const char* dieAttrString(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  if (dwarf_attr_integrate(die, name, &attr) == nullptr) return nullptr;
  return dwarf_formstring(&attr);
}

// Name from the ELF symbol table (demangled), empty if none.
// The symbol's name, demangled. The uninstrumented twin of an instrumented
// function (`f.numaperf.off`, docs/switching.md) is named as the function
// itself: code run with profiling off (an allocation, say) must be
// attributed exactly as with profiling on.
std::string symbolName(Dwfl_Module* mod, Dwarf_Addr addr) {
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* name = dwfl_module_addrinfo(mod, addr, &offset, &sym, nullptr, nullptr, nullptr);
  if (name == nullptr) return std::string();
  static const char kTwin[] = ".numaperf.off";
  const size_t n = std::strlen(name), k = sizeof kTwin - 1;
  if (n > k && std::strcmp(name + n - k, kTwin) == 0) return demangle(std::string(name, n - k));
  return demangle(name);
}

// The compile unit containing addr. dwfl_module_addrdie relies on
// .debug_aranges, which clang does not emit by default; without it, scan the
// units' own address ranges.
Dwarf_Die* compileUnitFor(Dwfl_Module* mod, Dwarf_Addr addr, Dwarf_Addr* bias) {
  if (Dwarf_Die* cu = dwfl_module_addrdie(mod, addr, bias)) return cu;
  Dwarf_Die* cu = nullptr;
  while ((cu = dwfl_module_nextcu(mod, cu, bias)) != nullptr)
    if (dwarf_haspc(cu, addr - *bias) > 0) return cu;
  return nullptr;
}

// Name of the innermost function (inlined or not) containing the address,
// demangled and qualified when the DWARF has a linkage name. Functions with
// internal linkage (anonymous namespaces, static) often lack one; for those
// the symbol table's mangled name gives the qualified form, as long as the
// address is not inside an inlined call (the symbol would name the caller).
// Falls back to the symbol table when the DWARF has no scope for addr.
std::string functionName(Dwfl_Module* mod, Dwarf_Addr addr) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = compileUnitFor(mod, addr, &bias);
  if (cu == nullptr) return symbolName(mod, addr);
  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes(cu, addr - bias, &scopes);
  std::string result;
  bool found = false;
  for (int i = 0; i < n; ++i) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) continue;
    found = true;
    const char* linkage = dieAttrString(&scopes[i], DW_AT_linkage_name);
    if (linkage == nullptr) linkage = dieAttrString(&scopes[i], DW_AT_MIPS_linkage_name);
    if (linkage != nullptr) {
      result = demangle(linkage);
    } else {
      const char* name = dieAttrString(&scopes[i], DW_AT_name);
      if (name != nullptr) result = name;
      if (tag == DW_TAG_subprogram) {
        std::string sym = symbolName(mod, addr);
        // Prefer the symbol when it is the same function, just qualified.
        if (!sym.empty() && (result.empty() || sym.find(result) != std::string::npos))
          result = sym;
      }
    }
    break;
  }
  std::free(scopes);
  if (!found) return symbolName(mod, addr);
  return result;
}

}  // namespace

Symbolizer::Symbolizer(std::vector<ModuleInfo> modules, SymbolizerOptions options)
    : modules_(std::move(modules)), options_(options) {
  dwfl_ = dwfl_begin(options.allow_debuginfod ? &kStandardCallbacks : &kLocalCallbacks);
  if (dwfl_ == nullptr) return;
  dwfl_report_begin(dwfl_);
  for (const ModuleInfo& m : modules_) {
    if (m.path.empty() || m.path[0] != '/') continue;  // vDSO and the like
    // add_p_vaddr=true: base is the load bias (dlpi_addr), which is 0 for
    // non-PIE executables and the mapping base for PIE / shared objects.
    Dwfl_Module* mod = dwfl_report_elf(dwfl_, m.path.c_str(), m.path.c_str(), -1,
                                       m.load_bias, true);
    if (mod != nullptr) ++reported_;
  }
  dwfl_report_end(dwfl_, nullptr, nullptr);
}

Symbolizer::~Symbolizer() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

report::Frame Symbolizer::symbolize(uint64_t pc, bool is_return_address) {
  try {
    auto key = std::make_pair(pc, is_return_address);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    report::Frame frame = lookup(pc, is_return_address);
    cache_.emplace(key, frame);
    return frame;
  } catch (...) {
    report::Frame frame;
    frame.pc = pc;
    return frame;
  }
}

namespace {

// Name of a function scope: demangled linkage name, else its plain name.
std::string scopeName(Dwfl_Module* mod, Dwarf_Addr addr, Dwarf_Die* scope) {
  const char* linkage = dieAttrString(scope, DW_AT_linkage_name);
  if (linkage == nullptr) linkage = dieAttrString(scope, DW_AT_MIPS_linkage_name);
  if (linkage != nullptr) return demangle(linkage);
  if (dwarf_tag(scope) == DW_TAG_subprogram) {
    std::string sym = symbolName(mod, addr);  // the out-of-line function itself
    if (!sym.empty()) return sym;
  }
  const char* name = dieAttrString(scope, DW_AT_name);
  return name != nullptr ? name : "";
}

bool dieAttrUnsigned(Dwarf_Die* die, unsigned int name, Dwarf_Word* out) {
  Dwarf_Attribute attr;
  return dwarf_attr(die, name, &attr) != nullptr && dwarf_formudata(&attr, out) == 0;
}

}  // namespace

std::vector<report::Frame> Symbolizer::symbolizeInlined(uint64_t pc, bool is_return_address) {
  auto key = std::make_pair(pc, is_return_address);
  auto it = inlined_cache_.find(key);
  if (it != inlined_cache_.end()) return it->second;
  std::vector<report::Frame> frames = lookupInlined(pc, is_return_address);
  try {
    inlined_cache_.emplace(key, frames);
  } catch (...) {
  }
  return frames;
}

bool Symbolizer::wantsSourceLines(const ModuleInfo* module) const {
  return options_.system_source_lines || module == nullptr || module->is_main ||
         !isSystemModule(module->path);
}

std::vector<report::Frame> Symbolizer::lookupInlined(uint64_t pc, bool is_return_address) {
  std::vector<report::Frame> frames;
  try {
    frames.push_back(symbolize(pc, is_return_address));
    if (dwfl_ == nullptr || pc == 0 || !wantsSourceLines(findModule(modules_, pc))) return frames;
    ++inlined_lookups_;
    const Dwarf_Addr addr = is_return_address ? pc - 1 : pc;
    Dwfl_Module* mod = dwfl_addrmodule(dwfl_, addr);
    if (mod == nullptr) return frames;
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = compileUnitFor(mod, addr, &bias);
    if (cu == nullptr) return frames;
    // dwarf_getscopes lists the abstract scopes of an inlined function after
    // it; dwarf_getscopes_die on the innermost one gives the concrete nesting
    // (inlined call inside inlined call inside the real function).
    Dwarf_Die* found = nullptr;
    int found_count = dwarf_getscopes(cu, addr - bias, &found);
    Dwarf_Die* scopes = nullptr;
    int n = found_count > 0 ? dwarf_getscopes_die(&found[0], &scopes) : 0;
    std::free(found);
    Dwarf_Files* files = nullptr;
    size_t file_count = 0;
    if (dwarf_getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
    // Each inlined scope was called from a line of the scope around it.
    for (int i = 0; i < n; ++i) {
      if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
      report::Frame caller = frames.front();
      caller.location = report::SourceLocation();
      Dwarf_Word value = 0;
      if (files != nullptr && dieAttrUnsigned(&scopes[i], DW_AT_call_file, &value)) {
        const char* file = dwarf_filesrc(files, value, nullptr, nullptr);
        if (file != nullptr) caller.location.file = file;
      }
      if (dieAttrUnsigned(&scopes[i], DW_AT_call_line, &value))
        caller.location.line = static_cast<uint32_t>(value);
      for (int j = i + 1; j < n; ++j) {
        int tag = dwarf_tag(&scopes[j]);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
          caller.location.function = scopeName(mod, addr, &scopes[j]);
          break;
        }
      }
      frames.push_back(std::move(caller));
    }
    std::free(scopes);
  } catch (...) {
  }
  return frames;
}

report::Frame Symbolizer::lookup(uint64_t pc, bool is_return_address) {
  report::Frame frame;
  frame.pc = pc;
  const ModuleInfo* info = findModule(modules_, pc);
  if (info != nullptr) {
    frame.module = info->path;
    frame.module_offset = pc - info->load_bias;
  }
  if (dwfl_ == nullptr || pc == 0) return frame;
  const Dwarf_Addr addr = (is_return_address && pc > 0) ? pc - 1 : pc;
  Dwfl_Module* mod = dwfl_addrmodule(dwfl_, addr);
  if (mod == nullptr) return frame;
  if (!wantsSourceLines(info)) {
    frame.location.function = symbolName(mod, addr);
    return frame;
  }

  if (Dwfl_Line* line = dwfl_module_getsrc(mod, addr)) {
    int lineno = 0;
    const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
    if (file != nullptr && lineno > 0) {
      frame.location.file = file;
      frame.location.line = static_cast<uint32_t>(lineno);
    }
  } else {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = compileUnitFor(mod, addr, &bias);
    Dwarf_Line* cu_line = cu != nullptr ? dwarf_getsrc_die(cu, addr - bias) : nullptr;
    int lineno = 0;
    const char* file = cu_line != nullptr ? dwarf_linesrc(cu_line, nullptr, nullptr) : nullptr;
    if (file != nullptr && dwarf_lineno(cu_line, &lineno) == 0 && lineno > 0) {
      frame.location.file = file;
      frame.location.line = static_cast<uint32_t>(lineno);
    }
  }
  frame.location.function = functionName(mod, addr);
  return frame;
}

}  // namespace numaperf::symbolize
