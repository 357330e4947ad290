//===- CachingAllocatorTest.cpp - the compiled code's malloc/free ---------===//

#include "tcc/Runtime/CachingAllocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace tcc::runtime;

namespace {

TEST(CachingAllocator, LargeBlocksAreReused) {
  releaseCachedBlocks();
  size_t bytes = 8 * kCachedBlockBytes;
  void *a = tccMalloc(bytes);
  ASSERT_NE(a, nullptr);
  std::memset(a, 1, bytes);
  tccFree(a);
  EXPECT_EQ(cachedBytes(), bytes);
  // Same size, and a slightly smaller one: the cached block comes back.
  void *b = tccMalloc(bytes - 1000);
  EXPECT_EQ(b, a);
  EXPECT_EQ(cachedBytes(), 0u);
  tccFree(b);
  releaseCachedBlocks();
  EXPECT_EQ(cachedBytes(), 0u);
}

// Large payloads start on a page (so kernels' stores do not 4K-alias the
// loads of inputs that sit a little past a page start); small ones on a
// cache line. Reused blocks keep their alignment, realloc keeps the data.
TEST(CachingAllocator, Alignment) {
  releaseCachedBlocks();
  for (size_t bytes : {kCachedBlockBytes, 3 * kCachedBlockBytes + 17}) {
    auto *p = static_cast<unsigned char *>(tccMalloc(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u) << bytes;
    p[0] = 1;
    p[bytes - 1] = 2;
    tccFree(p);
    void *again = tccMalloc(bytes);
    EXPECT_EQ(again, p);
    tccFree(again);
  }
  for (size_t bytes : {size_t(1), size_t(100), kCachedBlockBytes - 1}) {
    void *p = tccMalloc(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    tccFree(p);
  }
  auto *small = static_cast<unsigned char *>(tccMalloc(1000));
  std::memset(small, 7, 1000);
  auto *grown =
      static_cast<unsigned char *>(tccRealloc(small, 2 * kCachedBlockBytes));
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(grown) % 4096, 0u);
  EXPECT_EQ(grown[0], 7);
  EXPECT_EQ(grown[999], 7);
  tccFree(grown);
  releaseCachedBlocks();
}

TEST(CachingAllocator, MuchSmallerRequestsDoNotTakeLargeBlocks) {
  releaseCachedBlocks();
  void *big = tccMalloc(64 * kCachedBlockBytes);
  tccFree(big);
  void *small = tccMalloc(2 * kCachedBlockBytes);
  EXPECT_NE(small, big); // would waste 31/32 of the block
  EXPECT_EQ(cachedBytes(), 64 * kCachedBlockBytes);
  tccFree(small);
  releaseCachedBlocks();
}

TEST(CachingAllocator, SmallBlocksAreNotCached) {
  releaseCachedBlocks();
  void *p = tccMalloc(100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
  tccFree(p);
  EXPECT_EQ(cachedBytes(), 0u);
  tccFree(nullptr);
}

TEST(CachingAllocator, ConcurrentUse) {
  releaseCachedBlocks();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 200; ++i) {
        size_t bytes = (1 + (i + t) % 3) * kCachedBlockBytes;
        auto *p = static_cast<unsigned char *>(tccMalloc(bytes));
        p[0] = p[bytes - 1] = static_cast<unsigned char>(i);
        tccFree(p);
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_LE(cachedBytes(), kMaxCachedBytes);
  releaseCachedBlocks();
}

} // namespace

namespace {
TEST(CachingAllocator, CallocZeroesReusedBlocks) {
  releaseCachedBlocks();
  size_t bytes = 2 * kCachedBlockBytes;
  auto *a = static_cast<unsigned char *>(tccMalloc(bytes));
  std::memset(a, 0xab, bytes);
  tccFree(a);
  auto *b = static_cast<unsigned char *>(tccCalloc(bytes / 4, 4));
  EXPECT_EQ(b, a); // the cached block, zeroed
  for (size_t i = 0; i < bytes; i += 4096)
    ASSERT_EQ(b[i], 0);
  tccFree(b);
  releaseCachedBlocks();
}

TEST(CachingAllocator, ReallocKeepsContents) {
  auto *p = static_cast<int *>(tccMalloc(4 * sizeof(int)));
  for (int i = 0; i < 4; ++i)
    p[i] = i + 1;
  auto *q = static_cast<int *>(tccRealloc(p, 1 << 21));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(q[i], i + 1);
  tccFree(q);
  releaseCachedBlocks();
}
} // namespace

// Blocks start on cache lines, fresh or cached: the compiled code's full-
// width vector loads and non-temporal stores never straddle two.
TEST(CachingAllocator, CacheLineAligned) {
  for (size_t bytes : {size_t(1), size_t(100), size_t(1) << 24}) {
    void *p = tccMalloc(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    tccFree(p);
    p = tccMalloc(bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    tccFree(p);
  }
}
