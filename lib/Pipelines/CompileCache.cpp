//===- CompileCache.cpp - compiled code kept across processes ---*- C++ -*-===//
//
// See include/tcc/Pipelines/CompileCache.h. An entry is a header (magic,
// payload size, xxh3-128 of the payload) and the payload.
//
//===----------------------------------------------------------------------===//

#include "tcc/Pipelines/CompileCache.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>
#include <utime.h>
#include <vector>

using namespace mlir;
using namespace mlir::tcc;

namespace {

constexpr char kMagic[8] = {'T', 'C', 'C', 'C', 'A', 'C', 'H', '1'};
struct Header {
  char magic[8];
  uint64_t size;
  uint64_t hashLow, hashHigh;
};

std::string hex(llvm::XXH128_hash_t h) {
  char text[33];
  std::snprintf(text, sizeof(text), "%016llx%016llx",
                (unsigned long long)h.high64, (unsigned long long)h.low64);
  return text;
}

/// The build of tcc this code runs in: the size and time of the binary
/// holding it (a tool, or libTCCCAPI.so under Python), so that a rebuilt
/// tcc never reads code an older one generated.
const std::string &buildIdentity() {
  static const std::string identity = [] {
    std::string id = "tcc-" TCC_VERSION_STRING;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&buildIdentity), &info) &&
        info.dli_fname) {
      llvm::sys::fs::file_status status;
      if (!llvm::sys::fs::status(info.dli_fname, status))
        id += " " + std::string(info.dli_fname) + " " +
              std::to_string(status.getSize()) + " " +
              std::to_string(
                  status.getLastModificationTime().time_since_epoch().count());
    }
    return id;
  }();
  return identity;
}

std::string defaultDirectory() {
  if (const char *dir = std::getenv("TCC_CACHE_DIR"))
    return (llvm::StringRef(dir) == "off" || llvm::StringRef(dir) == "0")
               ? std::string()
               : std::string(dir);
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    path = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    return {};
  llvm::sys::path::append(path, "tcc", "compile");
  return std::string(path);
}

uint64_t defaultMaxBytes() {
  uint64_t mb = 4096;
  if (const char *v = std::getenv("TCC_CACHE_MAX_MB"))
    mb = std::strtoull(v, nullptr, 10);
  return mb << 20;
}

/// TCC_CACHE_LOG=1: a line on stderr per hit, miss and store.
bool logging() {
  static const bool on = [] {
    const char *v = std::getenv("TCC_CACHE_LOG");
    return v && *v && llvm::StringRef(v) != "0";
  }();
  return on;
}

void log(llvm::StringRef what, llvm::StringRef name) {
  if (logging())
    llvm::errs() << "tcc-cache: " << what << " " << name << "\n";
}

bool isEntry(llvm::StringRef file) {
  return !file.contains(".tmp.") && file.starts_with("tcc-");
}

} // namespace

CompileCache &CompileCache::get() {
  static CompileCache cache(defaultDirectory(), defaultMaxBytes());
  return cache;
}

CompileCache::CompileCache(std::string directory, uint64_t maxBytes)
    : directory(std::move(directory)), maxBytes(maxBytes) {}

std::string CompileCache::key(ModuleOp module, llvm::StringRef pipeline) {
  // Bytecode: weights (dense resources) as raw bytes, not hex text.
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(module, os)))
    bytecode.clear();
  os.flush();
  std::string context = buildIdentity() + "\n" +
                        llvm::sys::getHostCPUName().str() + "\n" +
                        pipeline.str();
  return "tcc-" +
         hex(llvm::xxh3_128bits(llvm::arrayRefFromStringRef(context))) +
         hex(llvm::xxh3_128bits(llvm::arrayRefFromStringRef(bytecode)));
}

std::unique_ptr<llvm::MemoryBuffer>
CompileCache::lookup(llvm::StringRef name) {
  if (!enabled())
    return nullptr;
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, name);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    ++misses;
    log("miss", name);
    return nullptr;
  }
  llvm::StringRef bytes = (*file)->getBuffer();
  Header header;
  bool intact = bytes.size() >= sizeof(Header);
  if (intact) {
    std::memcpy(&header, bytes.data(), sizeof(Header));
    llvm::StringRef payload = bytes.drop_front(sizeof(Header));
    llvm::XXH128_hash_t h =
        llvm::xxh3_128bits(llvm::arrayRefFromStringRef(payload));
    intact = std::memcmp(header.magic, kMagic, sizeof(kMagic)) == 0 &&
             header.size == payload.size() && header.hashLow == h.low64 &&
             header.hashHigh == h.high64;
    if (intact) {
      ::utime(path.c_str(), nullptr); // Recently used.
      ++hits;
      log("hit", name);
      return llvm::MemoryBuffer::getMemBufferCopy(payload, name);
    }
  }
  // Truncated or damaged (a crash mid-write cannot leave one: entries are
  // renamed into place; a disk error can): rebuilt by the caller.
  llvm::sys::fs::remove(path);
  ++misses;
  log("corrupt", name);
  return nullptr;
}

bool CompileCache::store(llvm::StringRef name, llvm::StringRef bytes) {
  if (!enabled() || llvm::sys::fs::create_directories(directory))
    return false;
  llvm::SmallString<256> path(directory), temp;
  llvm::sys::path::append(path, name);
  temp = path;
  temp += ".tmp." + std::to_string(::getpid()) + "." +
          std::to_string(llvm::sys::Process::GetRandomNumber());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_None);
    if (ec)
      return false;
    Header header;
    std::memcpy(header.magic, kMagic, sizeof(kMagic));
    llvm::XXH128_hash_t h =
        llvm::xxh3_128bits(llvm::arrayRefFromStringRef(bytes));
    header.size = bytes.size();
    header.hashLow = h.low64;
    header.hashHigh = h.high64;
    os.write(reinterpret_cast<const char *>(&header), sizeof(header));
    os << bytes;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return false;
    }
  }
  // Atomic: a concurrent reader sees the old entry or the new, whole.
  if (llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return false;
  }
  ++stores;
  log("store", name);
  trim();
  return true;
}

void CompileCache::trim() {
  struct Entry {
    std::string path;
    uint64_t size;
    int64_t time;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef file = llvm::sys::path::filename(it->path());
    llvm::sys::fs::file_status status;
    if (!isEntry(file) || llvm::sys::fs::status(it->path(), status))
      continue;
    entries.push_back(
        {it->path(), status.getSize(),
         (int64_t)status.getLastModificationTime().time_since_epoch().count()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return;
  // Oldest first, down to 90 % of the bound (not one entry per store).
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    return a.time < b.time;
  });
  for (const Entry &e : entries) {
    if (total <= maxBytes / 10 * 9)
      break;
    if (!llvm::sys::fs::remove(e.path))
      total -= e.size;
  }
}

void CompileCache::clear() {
  if (!enabled())
    return;
  std::error_code ec;
  std::vector<std::string> paths;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec))
    if (isEntry(llvm::sys::path::filename(it->path())))
      paths.push_back(it->path());
  for (const std::string &p : paths)
    llvm::sys::fs::remove(p);
}
