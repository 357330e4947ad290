//===- ParallelRegionsTest.cpp - The libomp entry points on GOMP ----------===//
//
// A microtask as LLVM's OpenMP lowering writes one (static worksharing
// over [0, n - 1]), run through tcc's fork: every iteration once, for
// loops shorter and longer than the team, serial or forked.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/ParallelRegions.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace {

struct Loop {
  uint64_t n;
  std::vector<std::atomic<int>> *hits;
};

void microtask(int32_t *gtid, int32_t *, Loop *loop) {
  if (loop->n == 0)
    return;
  // LLVM's outlined code asks for its thread number, as libomp's gives it.
  int32_t tid = tcc_kmpc_global_thread_num(nullptr);
  EXPECT_EQ(tid, *gtid);
  int32_t last = 0;
  uint64_t lower = 0, upper = loop->n - 1;
  int64_t stride = 1;
  tcc_kmpc_for_static_init_8u(nullptr, tid, 34, &last, &lower, &upper,
                              &stride, 1, 0);
  // The lowering's loop: upper - lower + 1 iterations from lower.
  for (uint64_t i = 0, trips = upper - lower + 1; i < trips; ++i)
    (*loop->hits)[lower + i].fetch_add(1);
  tcc_kmpc_for_static_fini(nullptr, *gtid);
  tcc_kmpc_barrier(nullptr, *gtid);
}

TEST(ParallelRegions, EveryIterationOnce) {
  for (uint64_t n : {0, 1, 2, 3, 7, 64, 1001}) {
    for (int cond : {0, 1}) {
      std::vector<std::atomic<int>> hits(n);
      Loop loop{n, &hits};
      if (cond)
        tcc_kmpc_fork_call(nullptr, 1,
                           reinterpret_cast<tcc_kmpc_micro>(&microtask),
                           &loop);
      else
        tcc_kmpc_fork_call_if(nullptr, 1,
                              reinterpret_cast<tcc_kmpc_micro>(&microtask),
                              0, &loop);
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
    }
  }
}

TEST(ParallelRegions, ChunkedScheduleCoversTheLoop) {
  // sched 33, chunk 3 over [0, 9]: chunk starts tid*3, stepping by
  // teams*3; single virtual thread here (a serial region).
  struct Chunked {
    std::vector<int> seen;
  } c;
  auto task = [](int32_t *gtid, int32_t *, Chunked *c) {
    int32_t last = 0, lower = 0, upper = 9, stride = 0;
    tcc_kmpc_for_static_init_4(nullptr, *gtid, 33, &last, &lower, &upper,
                               &stride, 1, 3);
    for (int32_t start = lower; start <= 9; start += stride)
      for (int32_t i = start; i <= std::min(start + 2, 9); ++i)
        c->seen.push_back(i);
  };
  void (*fn)(int32_t *, int32_t *, Chunked *) = task;
  tcc_kmpc_fork_call_if(nullptr, 1, reinterpret_cast<tcc_kmpc_micro>(fn), 0,
                        &c);
  ASSERT_EQ(c.seen.size(), 10u);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(c.seen[i], i);
}

} // namespace
