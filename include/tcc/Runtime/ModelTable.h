/*===- ModelTable.h - entry table inside tcc-compile's libraries --*- C -*-===*
 *
 * tcc-compile generates a C file defining these symbols for the compiled
 * module; ModelRuntime.cpp implements tcc_model.h on top of them. The
 * generated file includes this header, so both sides agree on the layout.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_RUNTIME_MODELTABLE_H
#define TCC_RUNTIME_MODELTABLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcc_entry_desc {
  const char *name;
  /* Calls `_mlir_ciface_<name>`: `results` receives the guard status (0:
   * all hold, k: guard k - 1 failed) and the result descriptors, `args`
   * points at one memref descriptor per input. */
  void (*call)(int64_t *results, void **args);
  int32_t num_inputs, num_results;
  const int32_t *input_dtypes, *input_ranks;
  const int32_t *result_dtypes, *result_ranks;
  /* What each size guard requires ("input 0 (x) dim 1 == 768 (D)"). */
  int32_t num_guards;
  const char *const *guards;
} tcc_entry_desc;

/* Where results live and how to free and copy them: host memory (cpu
 * builds: the caching allocator) or device memory (cuda builds). `error`
 * returns (and clears) a pending device error, or null. */
typedef struct tcc_memory_ops {
  int32_t device; /* 0: host memory, 1: CUDA device memory */
  void (*release)(void *ptr);
  void *(*alloc)(size_t bytes);
  int (*copy)(void *dst, const void *src, size_t bytes); /* 0: done */
  const char *(*error)(void);
  /* CUDA graphs (cuda builds; null otherwise): see CUDARuntime.h. */
  void (*begin_capture)(void);
  void *(*end_capture)(void);
  int (*graph_launch)(void *graph);
  void (*graph_destroy)(void *graph);
  /* The caller's stream (cuda builds; null otherwise). */
  void (*set_stream)(void *stream, int set);
  int (*graph_launch_on)(void *graph, void *stream);
} tcc_memory_ops;

extern const tcc_memory_ops tcc_memory_;
extern const tcc_entry_desc tcc_entries_[];
extern const int32_t tcc_entry_count_;
extern const char tcc_manifest_[];

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_MODELTABLE_H */
