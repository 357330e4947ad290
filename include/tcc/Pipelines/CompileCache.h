//===- CompileCache.h - compiled code kept across processes -----*- C++ -*-===//
//
// What the JIT (CPUExecutable) and the library writer (lib/AOT) produce for
// a module, kept on disk under a key that hashes everything the code
// depends on: the module (as bytecode, weights included), the pipeline and
// its options, the host CPU, and the build of tcc that compiles it. A new
// process compiling the same module with the same options loads the code
// instead of running the pipeline and LLVM.
//
// The directory is $TCC_CACHE_DIR, else $XDG_CACHE_HOME/tcc/compile, else
// ~/.cache/tcc/compile; TCC_CACHE_DIR=off turns the cache off. Entries are
// written to a temporary file and renamed into place (two processes that
// compile the same module at once both succeed; readers never see a partial
// entry), carry a checksum that a read verifies (a corrupt entry is removed
// and rebuilt), and the least recently used go when the directory passes
// $TCC_CACHE_MAX_MB (default 4096). TCC_CACHE_LOG=1 prints a line per
// hit, miss and store on stderr.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_PIPELINES_COMPILECACHE_H
#define TCC_PIPELINES_COMPILECACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <memory>
#include <string>

namespace mlir::tcc {

class CompileCache {
public:
  /// The process's cache, configured from the environment when first used.
  static CompileCache &get();

  /// A cache in `directory` (tests; "" is off).
  explicit CompileCache(std::string directory, uint64_t maxBytes);

  bool enabled() const { return !directory.empty(); }
  llvm::StringRef getDirectory() const { return directory; }

  /// The key of compiling `module` with `pipeline` (what the code depends
  /// on besides the module: the pipeline's name and printed options).
  static std::string key(ModuleOp module, llvm::StringRef pipeline);

  /// Entry `name` (a key plus a suffix naming the part: ".o", ".so") if it
  /// is present and intact; a corrupt one is removed. Touches it (LRU).
  std::unique_ptr<llvm::MemoryBuffer> lookup(llvm::StringRef name);

  /// Stores `bytes` as entry `name` (atomically), then trims the directory
  /// to its bound. Failing to store is not an error: the caller has its
  /// code; `false` says the cache did not keep it.
  bool store(llvm::StringRef name, llvm::StringRef bytes);

  /// Removes every entry (what `rm -r` of the directory does, entries only).
  void clear();

  /// Counts since the process started: lookups that found an intact entry,
  /// lookups that did not, entries stored.
  struct Stats {
    int64_t hits = 0, misses = 0, stores = 0;
  };
  Stats getStats() const { return {hits, misses, stores}; }

private:
  std::string directory;
  uint64_t maxBytes;
  std::atomic<int64_t> hits{0}, misses{0}, stores{0};
  void trim();
};

} // namespace mlir::tcc

#endif // TCC_PIPELINES_COMPILECACHE_H
