//===- ParallelRegions.h - Compiled parallel loops on GNU OpenMP --*- C++ -*-===//
//
// The compiled code's parallel tile loops are OpenMP regions (MLIR's omp
// dialect), which LLVM lowers to libomp's entry points (__kmpc_*). A
// process with PyTorch also has GNU OpenMP (libgomp), which PyTorch and
// oneDNN use: two thread pools on the same cores, each spinning while the
// other works (mobilenet_v3_small at CI size: 7.7 ms a call beside
// PyTorch, 0.46 ms alone). These entry points run the regions through
// GOMP_parallel instead, which libgomp and libomp both implement: the
// regions join whichever pool the process's OpenMP calls already use.
//
// A region is split into as many virtual threads as the machine has
// cores; the pool's threads take them by ticket, so the split is right
// whatever the team size (PyTorch's thread count, a nested region's one
// thread). Each region holds one worksharing loop (tcc's lowering makes
// no other), so the loop's closing barrier is the region's join.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_PARALLELREGIONS_H
#define TCC_RUNTIME_PARALLELREGIONS_H

#include <cstdint>

extern "C" {
/// libomp's microtask: (global thread id, bound thread id, captures...).
typedef void (*tcc_kmpc_micro)(int32_t *, int32_t *, ...);

int32_t tcc_kmpc_global_thread_num(void *loc);
void tcc_kmpc_fork_call(void *loc, int32_t argc, tcc_kmpc_micro fn, ...);
void tcc_kmpc_fork_call_if(void *loc, int32_t argc, tcc_kmpc_micro fn,
                           int32_t cond, void *args);
void tcc_kmpc_for_static_init_4(void *loc, int32_t gtid, int32_t sched,
                                int32_t *last, int32_t *lower, int32_t *upper,
                                int32_t *stride, int32_t incr, int32_t chunk);
void tcc_kmpc_for_static_init_4u(void *loc, int32_t gtid, int32_t sched,
                                 int32_t *last, uint32_t *lower,
                                 uint32_t *upper, int32_t *stride,
                                 int32_t incr, int32_t chunk);
void tcc_kmpc_for_static_init_8(void *loc, int32_t gtid, int32_t sched,
                                int32_t *last, int64_t *lower, int64_t *upper,
                                int64_t *stride, int64_t incr, int64_t chunk);
void tcc_kmpc_for_static_init_8u(void *loc, int32_t gtid, int32_t sched,
                                 int32_t *last, uint64_t *lower,
                                 uint64_t *upper, int64_t *stride,
                                 int64_t incr, int64_t chunk);
void tcc_kmpc_for_static_fini(void *loc, int32_t gtid);
void tcc_kmpc_barrier(void *loc, int32_t gtid);
}

namespace tcc::runtime {
/// The libomp entry points the compiled code calls, with the functions
/// above that stand in for them (the JIT's symbol table, the AOT
/// library's renaming).
struct ParallelRegionEntry {
  const char *kmpcName;
  const char *tccName;
  void *address;
};
const ParallelRegionEntry *parallelRegionEntries(int &count);
} // namespace tcc::runtime

#endif // TCC_RUNTIME_PARALLELREGIONS_H
