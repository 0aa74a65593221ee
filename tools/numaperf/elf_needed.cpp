#include "elf_needed.h"

#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fstream>

namespace numaperf::cli {

namespace {

bool readAt(std::ifstream& in, uint64_t offset, void* out, size_t size) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(out), static_cast<std::streamsize>(size));
  return static_cast<size_t>(in.gcount()) == size;
}

}  // namespace

bool readElfInfo(const std::string& path, ElfInfo* info, std::string* error) {
  *info = ElfInfo();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  Elf64_Ehdr eh{};
  if (!readAt(in, 0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 4096)
    return true;  // not an ELF object we understand
  std::vector<Elf64_Phdr> phdrs(eh.e_phnum);
  if (eh.e_phnum > 0 && !readAt(in, eh.e_phoff, phdrs.data(), phdrs.size() * sizeof(Elf64_Phdr)))
    return true;
  const Elf64_Phdr* dynamic = nullptr;
  for (const Elf64_Phdr& p : phdrs)
    if (p.p_type == PT_DYNAMIC) dynamic = &p;
  info->kind = ElfKind::kStatic;
  if (dynamic == nullptr) return true;
  info->kind = ElfKind::kDynamic;
  // Dynamic entries, then the string table's file offset via PT_LOAD.
  size_t count = std::min<uint64_t>(dynamic->p_filesz / sizeof(Elf64_Dyn), 1 << 16);
  std::vector<Elf64_Dyn> dyn(count);
  if (!readAt(in, dynamic->p_offset, dyn.data(), count * sizeof(Elf64_Dyn))) return true;
  uint64_t strtab_addr = 0, strsz = 0;
  for (const Elf64_Dyn& d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_STRTAB) strtab_addr = d.d_un.d_ptr;
    if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
  }
  uint64_t strtab_off = 0;
  bool found = false;
  for (const Elf64_Phdr& p : phdrs) {
    if (p.p_type == PT_LOAD && strtab_addr >= p.p_vaddr && strtab_addr < p.p_vaddr + p.p_filesz) {
      strtab_off = strtab_addr - p.p_vaddr + p.p_offset;
      found = true;
      break;
    }
  }
  if (!found || strsz == 0 || strsz > (64u << 20)) return true;
  std::string strtab(strsz, '\0');
  if (!readAt(in, strtab_off, strtab.data(), strsz)) return true;
  for (const Elf64_Dyn& d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED && d.d_un.d_val < strsz)
      info->needed.emplace_back(strtab.c_str() + d.d_un.d_val);
  }
  return true;
}

bool needsRuntime(const ElfInfo& info) {
  for (const std::string& n : info.needed) {
    size_t slash = n.find_last_of('/');
    std::string base = slash == std::string::npos ? n : n.substr(slash + 1);
    if (base == "libnumaperf.so" || base.rfind("libnumaperf.so.", 0) == 0) return true;
  }
  return false;
}

}  // namespace numaperf::cli
