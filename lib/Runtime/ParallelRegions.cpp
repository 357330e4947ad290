//===- ParallelRegions.cpp - Compiled parallel loops on GNU OpenMP --------===//
//
// See ParallelRegions.h. The team size of a region is fixed before it
// forks (the virtual threads), so nothing here asks the OpenMP runtime
// for thread numbers: libgomp and libomp name those functions with
// different symbol versions, and a lookup could pair one runtime's
// GOMP_parallel with the other's omp_get_thread_num.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/ParallelRegions.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdlib>
#include <thread>
#include <type_traits>

extern "C" void GOMP_parallel(void (*fn)(void *), void *data,
                              unsigned numThreads, unsigned flags);
// The GNU ABI's version, which both runtimes define: libomp's default
// version of the name ("VERSION") exists in libomp only, and would bind
// to it even where libgomp came first.
__asm__(".symver GOMP_parallel,GOMP_parallel@GOMP_4.0");

namespace {

constexpr int kMaxCaptures = 8;

/// The virtual thread a microtask runs as (the outlined code asks
/// __kmpc_global_thread_num for it), and their count.
thread_local int32_t teamSize = 1;
thread_local int32_t virtualThread = 0;

int32_t virtualThreads() {
  static const int32_t n = [] {
    if (const char *env = std::getenv("OMP_NUM_THREADS"))
      if (int v = std::atoi(env); v > 0)
        return v;
    return std::max(1, int(std::thread::hardware_concurrency()));
  }();
  return n;
}

struct Region {
  tcc_kmpc_micro fn;
  int32_t argc;
  void *args[kMaxCaptures];
  int32_t threads;
  std::atomic<int32_t> next{0};
};

void invoke(Region &r, int32_t tid) {
  int32_t gtid = tid, btid = tid;
  int32_t saved = virtualThread;
  virtualThread = tid;
  void **a = r.args;
  switch (r.argc) {
  case 0: r.fn(&gtid, &btid); break;
  case 1: r.fn(&gtid, &btid, a[0]); break;
  case 2: r.fn(&gtid, &btid, a[0], a[1]); break;
  case 3: r.fn(&gtid, &btid, a[0], a[1], a[2]); break;
  case 4: r.fn(&gtid, &btid, a[0], a[1], a[2], a[3]); break;
  case 5: r.fn(&gtid, &btid, a[0], a[1], a[2], a[3], a[4]); break;
  case 6: r.fn(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5]); break;
  case 7: r.fn(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
  default:
    r.fn(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
  }
  virtualThread = saved;
}

/// What each thread of the pool runs: virtual threads until none is left.
void takeTickets(void *data) {
  auto &r = *static_cast<Region *>(data);
  int32_t saved = teamSize;
  teamSize = r.threads;
  for (int32_t t; (t = r.next.fetch_add(1)) < r.threads;)
    invoke(r, t);
  teamSize = saved;
}

void run(Region &r, bool parallel) {
  if (!parallel || r.threads == 1) {
    r.threads = 1;
    int32_t saved = teamSize;
    teamSize = 1;
    invoke(r, 0);
    teamSize = saved;
    return;
  }
  GOMP_parallel(takeTickets, &r, unsigned(r.threads), 0);
}

/// libomp's static schedule for virtual thread `tid` of `teamSize`:
/// balanced blocks (sched 34), or round-robin chunks (33, chunk > 0).
template <typename T, typename S>
void staticInit(int32_t tid, int32_t sched, int32_t *last, T *lower,
                T *upper, S *stride, S incr, S chunk) {
  using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  int64_t nth = teamSize;
  if (incr == 0)
    incr = 1;
  // Trip count of [lower, upper] (inclusive) in steps of incr.
  uint64_t trips = 0;
  if (incr > 0 && !(*upper < *lower))
    trips = uint64_t(Wide(*upper) - Wide(*lower)) / uint64_t(incr) + 1;
  else if (incr < 0 && !(*upper > *lower))
    trips = uint64_t(Wide(*lower) - Wide(*upper)) / uint64_t(-incr) + 1;
  if (trips == 0) {
    *last = 0;
    *stride = incr;
    return;
  }
  if (sched == 33 && chunk > 0) {
    // Chunk tid, tid + nth, ...: the loop steps by stride.
    *lower = T(Wide(*lower) + Wide(int64_t(tid) * chunk * incr));
    *upper = T(Wide(*lower) + Wide((chunk - 1) * incr));
    *stride = S(nth * chunk * incr);
    uint64_t lastChunk = (trips - 1) / uint64_t(chunk);
    *last = int32_t(lastChunk % uint64_t(nth) == uint64_t(tid));
    return;
  }
  uint64_t small = trips / uint64_t(nth), extra = trips % uint64_t(nth);
  uint64_t begin = uint64_t(tid) * small + std::min<uint64_t>(tid, extra);
  uint64_t count = small + (uint64_t(tid) < extra ? 1 : 0);
  T first = *lower;
  *stride = S(int64_t(trips) * int64_t(incr));
  if (count == 0) {
    // No iterations, as libomp says it: lower one step past upper (the
    // loop runs upper - lower + 1 = 0 times).
    *last = 0;
    *lower = T(Wide(*upper) + Wide(incr));
    return;
  }
  *lower = T(Wide(first) + Wide(int64_t(begin) * int64_t(incr)));
  *upper = T(Wide(*lower) + Wide(int64_t(count - 1) * int64_t(incr)));
  *last = int32_t(begin + count == trips);
}

} // namespace

extern "C" {

int32_t tcc_kmpc_global_thread_num(void *) { return virtualThread; }

void tcc_kmpc_fork_call(void *, int32_t argc, tcc_kmpc_micro fn, ...) {
  Region r;
  r.fn = fn;
  r.argc = std::min(argc, kMaxCaptures);
  va_list ap;
  va_start(ap, fn);
  for (int32_t i = 0; i < r.argc; ++i)
    r.args[i] = va_arg(ap, void *);
  va_end(ap);
  r.threads = virtualThreads();
  run(r, true);
}

void tcc_kmpc_fork_call_if(void *, int32_t argc, tcc_kmpc_micro fn,
                           int32_t cond, void *args) {
  Region r;
  r.fn = fn;
  r.argc = std::min(argc, 1);
  r.args[0] = args;
  r.threads = virtualThreads();
  run(r, cond != 0);
}

void tcc_kmpc_for_static_init_4(void *, int32_t gtid, int32_t sched,
                                int32_t *last, int32_t *lower, int32_t *upper,
                                int32_t *stride, int32_t incr, int32_t chunk) {
  staticInit(gtid, sched, last, lower, upper, stride, incr, chunk);
}
void tcc_kmpc_for_static_init_4u(void *, int32_t gtid, int32_t sched,
                                 int32_t *last, uint32_t *lower,
                                 uint32_t *upper, int32_t *stride,
                                 int32_t incr, int32_t chunk) {
  staticInit(gtid, sched, last, lower, upper, stride, incr, chunk);
}
void tcc_kmpc_for_static_init_8(void *, int32_t gtid, int32_t sched,
                                int32_t *last, int64_t *lower, int64_t *upper,
                                int64_t *stride, int64_t incr, int64_t chunk) {
  staticInit(gtid, sched, last, lower, upper, stride, incr, chunk);
}
void tcc_kmpc_for_static_init_8u(void *, int32_t gtid, int32_t sched,
                                 int32_t *last, uint64_t *lower,
                                 uint64_t *upper, int64_t *stride,
                                 int64_t incr, int64_t chunk) {
  staticInit(gtid, sched, last, lower, upper, stride, incr, chunk);
}
void tcc_kmpc_for_static_fini(void *, int32_t) {}
// The region's only loop ends it; the join (GOMP_parallel's return) is
// the barrier.
void tcc_kmpc_barrier(void *, int32_t) {}

} // extern "C"

namespace tcc::runtime {
const ParallelRegionEntry *parallelRegionEntries(int &count) {
#define TCC_ENTRY(name)                                                        \
  {"__kmpc_" #name, "tcc_kmpc_" #name, reinterpret_cast<void *>(&tcc_kmpc_##name)}
  static const ParallelRegionEntry entries[] = {
      TCC_ENTRY(global_thread_num),     TCC_ENTRY(fork_call),
      TCC_ENTRY(fork_call_if),          TCC_ENTRY(for_static_init_4),
      TCC_ENTRY(for_static_init_4u),    TCC_ENTRY(for_static_init_8),
      TCC_ENTRY(for_static_init_8u),    TCC_ENTRY(for_static_fini),
      TCC_ENTRY(barrier)};
#undef TCC_ENTRY
  count = sizeof(entries) / sizeof(entries[0]);
  return entries;
}
} // namespace tcc::runtime
