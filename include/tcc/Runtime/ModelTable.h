/*===- ModelTable.h - entry table inside tcc-compile's libraries --*- C -*-===*
 *
 * tcc-compile generates a C file defining these symbols for the compiled
 * module; ModelRuntime.cpp implements tcc_model.h on top of them. The
 * generated file includes this header, so both sides agree on the layout.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_RUNTIME_MODELTABLE_H
#define TCC_RUNTIME_MODELTABLE_H

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

extern const tcc_entry_desc tcc_entries_[];
extern const int32_t tcc_entry_count_;
extern const char tcc_manifest_[];

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_MODELTABLE_H */
