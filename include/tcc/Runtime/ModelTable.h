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

/* The weights file beside a library whose weights tcc-compile moved out
 * (lib/AOT/ExternalWeights.cpp): libNAME.so -> libNAME.weights, a header
 * of TCC_WEIGHTS_HEADER_BYTES (a page: the data stays page-aligned when
 * mapped), then the data. The library maps it when it is loaded and
 * checks the magic, the id and the size. */
#define TCC_WEIGHTS_MAGIC "TCCWGT01"
#define TCC_WEIGHTS_HEADER_BYTES 4096
typedef struct tcc_weights_header {
  char magic[8];
  uint64_t id;    /* a hash of the layout and contents */
  uint64_t bytes; /* of data after the header */
} tcc_weights_header;

/* In the generated table: the id and size the library expects (id 0: the
 * weights are inside). */
extern const uint64_t tcc_weights_id_;
extern const uint64_t tcc_weights_bytes_;
/* In the runtime: where the data is mapped, read by the compiled code. */
extern const void *tcc_weights_base_;

extern const tcc_memory_ops tcc_memory_;
extern const tcc_entry_desc tcc_entries_[];
extern const int32_t tcc_entry_count_;
extern const char tcc_manifest_[];

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_MODELTABLE_H */
