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
/// Precedes every block. Blocks are 64-byte aligned and so is the
/// payload after the 64-byte header: compiled code's vector loads and
/// non-temporal stores then never straddle two cache lines.
struct alignas(64) Header {
  uint64_t magic;
  size_t bytes;
};
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
  // aligned_alloc wants a multiple of the alignment.
  size_t total = (sizeof(Header) + bytes + alignof(Header) - 1) &
                 ~(alignof(Header) - 1);
  if (total < bytes)
    return nullptr; // overflow
  auto *h = static_cast<Header *>(std::aligned_alloc(alignof(Header), total));
  if (!h)
    return nullptr;
  h->magic = kMagic;
  h->bytes = bytes;
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
  std::free(h);
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
    std::free(h);
  c.free.clear();
  c.freeBytes = 0;
}

size_t tcc::runtime::cachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.freeBytes;
}
