//===- CachingAllocator.h - malloc/free for compiled code -------*- C++ -*-===//
//
// Compiled code allocates its results and its arena on every call. Fresh
// blocks of more than a few MiB come from mmap, so every call would fault in
// and zero its pages again (on a 256 MiB result that costs more than the
// kernel). The JIT binds the compiled code's malloc/free to these: large
// blocks go back to a per-size cache when freed and are handed out again,
// as PyTorch's caching allocators do; small ones go straight to malloc.
//
// Every block carries a small header, so tccFree must only see pointers from
// tccMalloc (the compiled code's memrefs and the results the executable
// hands back). Thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_CACHINGALLOCATOR_H
#define TCC_RUNTIME_CACHINGALLOCATOR_H

#include <cstddef>
#include <cstdint>

namespace tcc::runtime {

/// Blocks at least this large are cached when freed.
constexpr size_t kCachedBlockBytes = size_t(1) << 20;
/// At most this many freed bytes are kept; beyond it blocks are released.
constexpr size_t kMaxCachedBytes = size_t(4) << 30;

extern "C" void *tccMalloc(size_t bytes);
extern "C" void tccFree(void *ptr);
/// calloc and realloc over the same blocks: LLVM may turn the compiled
/// code's malloc + memset into calloc, and the JIT binds all four.
extern "C" void *tccCalloc(size_t count, size_t size);
extern "C" void *tccRealloc(void *ptr, size_t bytes);

/// Blocks handed out by tccMalloc/tccCalloc/tccRealloc since the process
/// started (cached or fresh): tests count the compiled code's heap
/// allocations per call with it.
uint64_t allocationCount();

/// Releases every cached block (tests, or a caller short of memory).
void releaseCachedBlocks();
/// Bytes currently held in the cache (freed, not yet reused).
size_t cachedBytes();

} // namespace tcc::runtime

#endif // TCC_RUNTIME_CACHINGALLOCATOR_H
