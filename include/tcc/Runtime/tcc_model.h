/*===- tcc_model.h - C ABI of libraries built by tcc-compile -------*- C -*-===*
 *
 * `tcc-compile model.mlir -o libmodel.so` builds a shared library that
 * exports the functions below. It needs no MLIR at run time: only libc, the
 * OpenMP runtime (libomp) for parallel loops, and the CUDA libraries a GPU
 * build calls. Each public function of the module is an entry, called by
 * name with tensors in and tensors out:
 *
 *   tcc_tensor in[2] = {{x, TCC_F32, 2, {8, 256}}, {w, TCC_F32, 1, {256}}};
 *   tcc_tensor out[1];
 *   if (tcc_run("policy", in, 2, out, 1) != 0)
 *     fprintf(stderr, "%s\n", tcc_last_error());
 *   ... use out[0].data, out[0].shape ...
 *   tcc_release(&out[0]);
 *
 * Tensors are dense and row-major. Inputs stay owned by the caller and are
 * only read; results are allocated by the library, 64-byte aligned, and
 * given back with tcc_release. Before any compiled code runs, tcc_run
 * checks the number of tensors, their element types and ranks, and the
 * compiled entry checks every size against the function's shape
 * constraints: a mismatch returns non-zero with a message naming the input,
 * the dim and the requirement, and nothing is read or written.
 *
 * `tcc_manifest()` returns the JSON that tcc-compile also writes beside the
 * library (libNAME.json): entries, their inputs and results with dtypes and
 * symbolic shapes, the size symbols and their constraints, the target.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_RUNTIME_TCC_MODEL_H
#define TCC_RUNTIME_TCC_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types (the same order as tcc::runtime::DType). */
typedef enum tcc_dtype {
  TCC_F32 = 0,
  TCC_F64 = 1,
  TCC_F16 = 2,
  TCC_BF16 = 3,
  TCC_I1 = 4, /* one byte per element, 0 or 1 */
  TCC_I8 = 5,
  TCC_I32 = 6,
  TCC_I64 = 7,
  TCC_I16 = 8,
  TCC_U8 = 9,
  TCC_U16 = 10,
  TCC_U32 = 11,
  TCC_U64 = 12,
  TCC_NUM_DTYPES = 13 /* not a dtype: one past the last code */
} tcc_dtype;

#define TCC_MAX_RANK 8

typedef struct tcc_tensor {
  void *data;      /* row-major, contiguous */
  int32_t dtype;   /* a tcc_dtype */
  int32_t rank;    /* at most TCC_MAX_RANK */
  int64_t shape[TCC_MAX_RANK];
  void *owner;     /* results: what tcc_release frees; inputs: ignored */
} tcc_tensor;

/* Runs entry `name` on `num_inputs` inputs and fills `num_results`
 * results. Returns 0 on success; otherwise non-zero (1: no such entry, 2: a
 * count, dtype or rank mismatch, 3: a size constraint failed, 4: out of
 * memory, 7: the library's weights file, libNAME.weights beside it, is
 * missing or from another build), with the message in tcc_last_error(). Thread-safe for distinct
 * results; calls may run concurrently. */
int tcc_run(const char *name, const tcc_tensor *inputs, int num_inputs,
            tcc_tensor *results, int num_results);

/* tcc_run on the caller's CUDA stream (libraries built with --target=cuda;
 * `stream` is a CUstream, e.g. torch.cuda.current_stream().cuda_stream, or
 * null for the legacy default stream): the call's copies and kernels are
 * queued on `stream` after the work already there, so the caller need not
 * synchronize before the call; it returns when the results are ready.
 * Return codes as tcc_run's, plus 6: the library is not a cuda library. */
int tcc_run_on_stream(const char *name, const tcc_tensor *inputs,
                      int num_inputs, tcc_tensor *results, int num_results,
                      void *stream);

/* CUDA graphs (libraries built with --target=cuda): the reduce-overhead
 * mode. tcc_graph_create runs entry `name` once as tcc_run does, capturing
 * every kernel launch and device copy of the call into a CUDA graph, and
 * fills `results` with the graph's result buffers. tcc_graph_launch then
 * replays the whole call with one driver call, without the host code: it
 * reads the same input buffers (write new values into them in between)
 * and writes the same result buffers, so the shapes and the input
 * pointers are those given at creation. Results belong to the graph: do
 * not tcc_release them; they are valid until tcc_graph_destroy. Return
 * codes as tcc_run's, plus 6: the library is not a cuda library, or the
 * call cannot be a graph (a result aliases an input or another result, or
 * the capture failed), with the message in tcc_last_error(). */
typedef struct tcc_graph tcc_graph;
int tcc_graph_create(const char *name, const tcc_tensor *inputs,
                     int num_inputs, tcc_tensor *results, int num_results,
                     tcc_graph **graph);
int tcc_graph_launch(tcc_graph *graph);
/* Queues a replay on the caller's `stream` (a CUstream; null: the legacy
 * default stream) and returns without waiting: the results are ready when
 * the stream's work up to here is (cuStreamSynchronize, or later work on
 * the same stream). Codes as tcc_graph_launch's. */
int tcc_graph_launch_on_stream(tcc_graph *graph, void *stream);
void tcc_graph_destroy(tcc_graph *graph);

/* Frees a result of tcc_run (no-op on a zeroed tensor). */
void tcc_release(tcc_tensor *result);

/* The message of the calling thread's last failed tcc_run ("" if none). */
const char *tcc_last_error(void);

/* The library's manifest as JSON text (static storage). */
const char *tcc_manifest(void);

/* Number of entries, and the name of entry i (static storage). */
int tcc_num_entries(void);
const char *tcc_entry_name(int i);

/* How many inputs and results entry `name` has: 0, or 1 if there is no
 * such entry. Dtypes, ranks and symbolic shapes are in the manifest. */
int tcc_entry_arity(const char *name, int *num_inputs, int *num_results);

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_TCC_MODEL_H */
