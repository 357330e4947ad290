//===- CachingAllocator.cpp - malloc/free for compiled code -----*- C++ -*-===//

#include "tcc/Runtime/CachingAllocator.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace tcc::runtime;

namespace {
/// Precedes every block's payload. Payloads are 64-byte aligned: compiled
/// code's vector loads and non-temporal stores then never straddle two
/// cache lines.
struct alignas(64) Header {
  uint64_t magic;
  size_t bytes;
  void *base; // what aligned_alloc returned: what std::free takes
};

/// Large payloads start on a page. A kernel that loads x[i] and then stores
/// y[i] stalls when y's address modulo 4 KiB is a little above x's: the
/// core takes the next loads for readers of the store it has not yet
/// written ("4K aliasing"). With y 64 bytes past x, a streaming bias + GELU
/// over 16384 x 4096 f32 took 23.6 ms instead of 13.1. Inputs from malloc,
/// numpy or PyTorch sit at or a little past a page start, so a payload at
/// the page start is at or a little *below* them: harmless.
constexpr size_t kPageBytes = 4096;
constexpr uint64_t kMagic = 0x7463632d626c6f63; // "tcc-bloc"
std::atomic<uint64_t> allocations{0};

struct Cache {
  std::mutex mutex;
  std::multimap<size_t, Header *> free; // by payload size
  size_t freeBytes = 0;
};
Cache &cache() {
  static Cache *c = new Cache; // never destroyed: frees may come at exit
  return *c;
}
} // namespace

uint64_t tcc::runtime::allocationCount() {
  return allocations.load(std::memory_order_relaxed);
}

extern "C" void *tcc::runtime::tccMalloc(size_t bytes) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (bytes >= kCachedBlockBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    // The smallest cached block that fits, if it wastes at most a quarter.
    auto it = c.free.lower_bound(bytes);
    if (it != c.free.end() && it->first - bytes <= it->first / 4) {
      Header *h = it->second;
      c.freeBytes -= it->first;
      c.free.erase(it);
      return h + 1;
    }
  }
  // The header takes the 64 bytes before the payload: a whole page before
  // a large one. aligned_alloc wants a multiple of the alignment.
  size_t align = bytes >= kCachedBlockBytes ? kPageBytes : alignof(Header);
  size_t total = (align + bytes + align - 1) & ~(align - 1);
  if (total < bytes)
    return nullptr; // overflow
  auto *base = static_cast<char *>(std::aligned_alloc(align, total));
  if (!base)
    return nullptr;
  auto *h = reinterpret_cast<Header *>(base + align) - 1;
  h->magic = kMagic;
  h->bytes = bytes;
  h->base = base;
  return h + 1;
}

extern "C" void tcc::runtime::tccFree(void *ptr) {
  if (!ptr)
    return;
  Header *h = static_cast<Header *>(ptr) - 1;
  if (h->magic != kMagic)
    std::abort(); // not ours: freeing it would corrupt the heap
  if (h->bytes >= kCachedBlockBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.freeBytes + h->bytes <= kMaxCachedBytes) {
      c.free.emplace(h->bytes, h);
      c.freeBytes += h->bytes;
      return;
    }
  }
  std::free(h->base);
}

extern "C" void *tcc::runtime::tccCalloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return nullptr;
  void *p = tccMalloc(count * size);
  if (p)
    std::memset(p, 0, count * size); // a cached block holds old data
  return p;
}

extern "C" void *tcc::runtime::tccRealloc(void *ptr, size_t bytes) {
  if (!ptr)
    return tccMalloc(bytes);
  Header *h = static_cast<Header *>(ptr) - 1;
  if (h->magic != kMagic)
    std::abort();
  void *fresh = tccMalloc(bytes);
  if (!fresh)
    return nullptr;
  std::memcpy(fresh, ptr, std::min(bytes, h->bytes));
  tccFree(ptr);
  return fresh;
}

void tcc::runtime::releaseCachedBlocks() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto &[bytes, h] : c.free)
    std::free(h->base);
  c.free.clear();
  c.freeBytes = 0;
}

size_t tcc::runtime::cachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.freeBytes;
}
