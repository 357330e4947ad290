//===- CUBLASLtGemm.cpp - tcc_lib.gemm on cuBLASLt --------------*- C++ -*-===//
//
// `tccGemm(stream, desc)`: what tcc-gpu-library-calls makes of each
// tcc_lib.gemm (the fields of `desc` are in include/tcc/Runtime/GemmCall.h).
//
// cuBLASLt is loaded with dlopen on the first product (TCC_CUBLASLT names
// the file, else libcublasLt.so.13 or .12 from the loader's path), so a
// library without products needs only the driver. A product's descriptors
// and the algorithm the heuristic picks are kept per shape, strides and
// pointer alignment: later calls and CUDA-graph captures only launch. The
// workspace is allocated once, outside the caching allocator, so graphs
// may keep pointing at it.
//
// cuBLASLt is column-major: the row-major d = a x b is computed as
// d^T = b^T x a^T, each operand's layout (and transpose flag) read off its
// strides. Errors are kept like the driver's (tcc_run returns them).
//
//===----------------------------------------------------------------------===//

#include "CUDARuntimeInternal.h"
#include "tcc/Runtime/GemmCall.h"

#include <cublasLt.h>
#include <dlfcn.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace tcc::cuda;
namespace gemm = tcc_gemm;

namespace {

/// The cuBLASLt entry points tcc uses, resolved from the loaded library.
struct CublasLt {
#define TCC_CUBLASLT_FUNCTIONS(X)                                              \
  X(cublasLtCreate)                                                            \
  X(cublasLtGetStatusString)                                                   \
  X(cublasLtMatmulDescCreate)                                                  \
  X(cublasLtMatmulDescSetAttribute)                                            \
  X(cublasLtMatrixLayoutCreate)                                                \
  X(cublasLtMatrixLayoutSetAttribute)                                          \
  X(cublasLtMatmulPreferenceCreate)                                            \
  X(cublasLtMatmulPreferenceSetAttribute)                                      \
  X(cublasLtMatmulPreferenceDestroy)                                           \
  X(cublasLtMatmulAlgoGetHeuristic)                                            \
  X(cublasLtMatmul)
#define TCC_DECLARE(name) decltype(&::name) name = nullptr;
  TCC_CUBLASLT_FUNCTIONS(TCC_DECLARE)
#undef TCC_DECLARE
  cublasLtHandle_t handle = nullptr;
  CUdeviceptr workspace = 0;
  std::string error; // why it could not be loaded
};

constexpr size_t kWorkspaceBytes = size_t(32) << 20;
constexpr int kCandidates = 8; // algorithms asked of the heuristic

/// cuBLASLt, loaded and initialized once; null (with the reason recorded)
/// if that failed.
CublasLt *library() {
  static CublasLt lt;
  static bool loaded = [] {
    void *so = openVendorLibrary(
        "TCC_CUBLASLT",
        {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"},
        "cuBLASLt", lt.error);
    if (!so)
      return false;
#define TCC_RESOLVE(name)                                                      \
  lt.name = reinterpret_cast<decltype(lt.name)>(dlsym(so, #name));             \
  if (!lt.name) {                                                              \
    lt.error = "cuBLASLt has no " #name;                                       \
    return false;                                                              \
  }
    TCC_CUBLASLT_FUNCTIONS(TCC_RESOLVE)
#undef TCC_RESOLVE
    if (cublasStatus_t s = lt.cublasLtCreate(&lt.handle);
        s != CUBLAS_STATUS_SUCCESS) {
      lt.error = std::string("cublasLtCreate failed: ") +
                 lt.cublasLtGetStatusString(s);
      return false;
    }
    // Not from the caching allocator: graphs keep pointing at it.
    if (!check(cuMemAlloc(&lt.workspace, kWorkspaceBytes), "cuMemAlloc",
               "cuBLASLt workspace"))
      return false;
    return true;
  }();
  if (!loaded) {
    if (!lt.error.empty())
      record(lt.error);
    return nullptr;
  }
  return &lt;
}

/// One operand as cuBLASLt sees it: column-major rows x cols with a leading
/// dimension, and whether the product takes its transpose.
struct Layout {
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
  bool transposed = false;
};

/// `x` is logically r x c with strides (rs, cs); cuBLASLt wants x^T as a
/// column-major operand (d^T = b^T a^T). Row-major x (unit column stride)
/// is x^T column-major as it lies; column-major x (unit row stride) is x
/// itself, transposed by the product.
bool transposedLayout(int64_t r, int64_t c, int64_t rs, int64_t cs,
                      Layout &out) {
  if ((cs == 1 || c == 1) && (r == 1 || rs >= c)) {
    out = {uint64_t(c), uint64_t(r), r == 1 ? std::max<int64_t>(c, 1) : rs,
           false};
    return true;
  }
  if ((rs == 1 || r == 1) && (c == 1 || cs >= r)) {
    out = {uint64_t(r), uint64_t(c), c == 1 ? std::max<int64_t>(r, 1) : cs,
           true};
    return true;
  }
  return false;
}

/// A product's descriptors and algorithm, made once per key.
struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  std::vector<cublasLtMatmulAlgo_t> candidates; // the heuristic's, best first
  bool valid = false;
};

std::mutex planMutex;
std::map<std::array<int64_t, 24>, Plan> plans; // guarded by planMutex

bool ok(CublasLt &lt, cublasStatus_t s, const char *what) {
  if (s == CUBLAS_STATUS_SUCCESS)
    return true;
  record(std::string("cuBLASLt: ") + what + " failed: " +
         lt.cublasLtGetStatusString(s));
  return false;
}

Plan makePlan(CublasLt &lt, const int64_t *f, const Layout &la,
              const Layout &lb, const Layout &ld, const Layout &lc,
              cudaDataType inputType, cudaDataType type) {
  Plan p;
  int64_t batch = f[gemm::kBatch];
  // cuBLASLt's A is our b^T, its B our a^T.
  cublasOperation_t opA = lb.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opB = la.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (!ok(lt,
          lt.cublasLtMatmulDescCreate(&p.desc, CUBLAS_COMPUTE_32F,
                                      CUDA_R_32F),
          "cublasLtMatmulDescCreate") ||
      !ok(lt,
          lt.cublasLtMatmulDescSetAttribute(
              p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof(opA)),
          "setting TRANSA") ||
      !ok(lt,
          lt.cublasLtMatmulDescSetAttribute(
              p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof(opB)),
          "setting TRANSB"))
    return p;
  bool bias = f[gemm::kBias] != 0;
  bool relu = f[gemm::kEpilogue] == gemm::kReLU;
  cublasLtEpilogue_t epilogue =
      bias ? (relu ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS)
           : (relu ? CUBLASLT_EPILOGUE_RELU : CUBLASLT_EPILOGUE_DEFAULT);
  if (!ok(lt,
          lt.cublasLtMatmulDescSetAttribute(
              p.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
              sizeof(epilogue)),
          "setting the epilogue"))
    return p;
  if (bias) {
    int64_t zero = 0; // one bias for every batch
    if (!ok(lt,
            lt.cublasLtMatmulDescSetAttribute(
                p.desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &zero,
                sizeof(zero)),
            "setting the bias batch stride"))
      return p;
  }
  auto layout = [&](cublasLtMatrixLayout_t &out, const Layout &l,
                    int64_t batchStride, const char *name,
                    cudaDataType elements) {
    if (!ok(lt,
            lt.cublasLtMatrixLayoutCreate(&out, elements, l.rows, l.cols,
                                          l.ld),
            name))
      return false;
    if (batch == 1)
      return true;
    int32_t count = static_cast<int32_t>(batch);
    return ok(lt,
              lt.cublasLtMatrixLayoutSetAttribute(
                  out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                  sizeof(count)),
              name) &&
           ok(lt,
              lt.cublasLtMatrixLayoutSetAttribute(
                  out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                  &batchStride, sizeof(batchStride)),
              name);
  };
  if (!layout(p.a, lb, f[gemm::kB + gemm::kBatchStride], "layout of b",
              inputType) ||
      !layout(p.b, la, f[gemm::kA + gemm::kBatchStride], "layout of a",
              inputType) ||
      !layout(p.c, lc,
              f[gemm::kC + gemm::kAddress]
                  ? f[gemm::kC + gemm::kBatchStride]
                  : f[gemm::kD + gemm::kBatchStride],
              "layout of c", type) ||
      !layout(p.d, ld, f[gemm::kD + gemm::kBatchStride], "layout of d",
              type))
    return p;

  cublasLtMatmulPreference_t pref = nullptr;
  if (!ok(lt, lt.cublasLtMatmulPreferenceCreate(&pref),
          "cublasLtMatmulPreferenceCreate"))
    return p;
  size_t workspace = kWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t results[kCandidates]{};
  int found = 0;
  bool good =
      ok(lt,
         lt.cublasLtMatmulPreferenceSetAttribute(
             pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
             sizeof(workspace)),
         "setting the workspace size") &&
      ok(lt,
         lt.cublasLtMatmulAlgoGetHeuristic(lt.handle, p.desc, p.a, p.b, p.c,
                                           p.d, pref, kCandidates, results,
                                           &found),
         "cublasLtMatmulAlgoGetHeuristic");
  lt.cublasLtMatmulPreferenceDestroy(pref);
  if (!good)
    return p;
  if (found == 0) {
    record("cuBLASLt has no algorithm for a " + std::to_string(f[gemm::kM]) +
           " x " + std::to_string(f[gemm::kN]) + " x " +
           std::to_string(f[gemm::kK]) + " product with these layouts");
    return p;
  }
  for (int i = 0; i < found; ++i)
    if (results[i].state == CUBLAS_STATUS_SUCCESS)
      p.candidates.push_back(results[i].algo);
  if (p.candidates.empty()) {
    record("cuBLASLt's algorithms for this product all failed to set up");
    return p;
  }
  p.algo = p.candidates.front();
  p.valid = true;
  return p;
}

/// Picks the fastest of the plan's candidates on this call's operands
/// (each run kRuns times, timed by events on `stream`): the heuristic's
/// first choice is often not the fastest for f32 (the issue's
/// max-autotune, per shape, once). Not while the stream is captured (no
/// timing inside a graph) and not when c is d (the trial runs would
/// accumulate into it); TCC_GEMM_AUTOTUNE=0 turns it off.
void tune(CublasLt &lt, Plan &plan, CUstream stream, const void *a,
          const void *b, const void *c, void *d, const float *alpha,
          const float *beta, bool accumulates) {
  static const bool enabled = [] {
    const char *env = std::getenv("TCC_GEMM_AUTOTUNE");
    return !env || std::string(env) != "0";
  }();
  if (!enabled || plan.candidates.size() < 2 || accumulates ||
      isCapturing(stream))
    return;
  constexpr int kRuns = 3;
  CUevent start = nullptr, stop = nullptr;
  if (cuEventCreate(&start, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
      cuEventCreate(&stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
    return;
  float best = 0;
  for (const cublasLtMatmulAlgo_t &algo : plan.candidates) {
    bool good = cuEventRecord(start, stream) == CUDA_SUCCESS;
    for (int r = 0; r < kRuns && good; ++r)
      good = lt.cublasLtMatmul(lt.handle, plan.desc, alpha, a, plan.a, b,
                               plan.b, beta, c, plan.c, d, plan.d, &algo,
                               reinterpret_cast<void *>(lt.workspace),
                               kWorkspaceBytes,
                               stream) == CUBLAS_STATUS_SUCCESS;
    float ms = 0;
    if (!good || cuEventRecord(stop, stream) != CUDA_SUCCESS ||
        cuEventSynchronize(stop) != CUDA_SUCCESS ||
        cuEventElapsedTime(&ms, start, stop) != CUDA_SUCCESS)
      continue;
    if (best == 0 || ms < best) {
      best = ms;
      plan.algo = algo;
    }
  }
  cuEventDestroy(start);
  cuEventDestroy(stop);
}

} // namespace

extern "C" void tccGemm(CUstream stream, const int64_t *f) {
  if (!stream || escapesCapture(stream))
    return;
  CublasLt *lt = library();
  if (!lt)
    return;
  int64_t m = f[gemm::kM], n = f[gemm::kN], k = f[gemm::kK];
  int64_t batch = f[gemm::kBatch];
  if (m == 0 || n == 0 || batch == 0)
    return;
  auto operand = [&](int base, int64_t r, int64_t c, const char *name,
                     bool rowMajorOnly, Layout &out) {
    int64_t rs = f[base + gemm::kRowStride], cs = f[base + gemm::kColStride];
    if (transposedLayout(r, c, rs, cs, out) &&
        (!rowMajorOnly || !out.transposed))
      return true;
    record(std::string("cuBLASLt product: operand ") + name + " (" +
           std::to_string(r) + " x " + std::to_string(c) + ", strides " +
           std::to_string(rs) + ", " + std::to_string(cs) +
           ") has no unit stride " +
           (rowMajorOnly ? "along its columns" : "along either dim"));
    return false;
  };
  Layout la, lb, lc, ld;
  bool hasC = f[gemm::kC + gemm::kAddress] != 0;
  if (!operand(gemm::kA, m, k, "a", false, la) ||
      !operand(gemm::kB, k, n, "b", false, lb) ||
      !operand(gemm::kD, m, n, "d", true, ld) ||
      (hasC && !operand(gemm::kC, m, n, "c", true, lc)))
    return;
  if (!hasC)
    lc = ld;
  auto dataType = [](int64_t code) {
    return code == gemm::kF16    ? CUDA_R_16F
           : code == gemm::kBF16 ? CUDA_R_16BF
                                 : CUDA_R_32F;
  };
  cudaDataType type = dataType(f[gemm::kElementType]);
  cudaDataType inputType = dataType(f[gemm::kInputType]);

  // k == 0: cuBLASLt still writes beta * c (+ bias) into d.
  std::array<int64_t, 24> key{};
  int64_t align = 256;
  for (int base : {gemm::kA, gemm::kB, gemm::kC, gemm::kD})
    if (f[base + gemm::kAddress])
      align = std::min(align, pointerAlignment(f[base + gemm::kAddress]));
  if (f[gemm::kBias])
    align = std::min(align, pointerAlignment(f[gemm::kBias]));
  int i = 0;
  for (int64_t v : {f[gemm::kElementType], f[gemm::kInputType],
                    f[gemm::kEpilogue], batch, m, n, k,
                    la.ld, int64_t(la.transposed), lb.ld,
                    int64_t(lb.transposed), lc.ld, ld.ld,
                    f[gemm::kA + gemm::kBatchStride],
                    f[gemm::kB + gemm::kBatchStride],
                    hasC ? f[gemm::kC + gemm::kBatchStride] : int64_t(-1),
                    f[gemm::kD + gemm::kBatchStride],
                    int64_t(f[gemm::kBias] != 0), align})
    key[i++] = v;

  // Held to the launch: the cached descriptor takes this call's bias.
  std::lock_guard<std::mutex> lock(planMutex);
  auto it = plans.find(key);
  bool fresh = it == plans.end();
  if (fresh)
    it = plans.emplace(key, makePlan(*lt, f, la, lb, ld, lc, inputType, type))
             .first;
  Plan &plan = it->second;
  if (!plan.valid)
    return; // makePlan recorded why
  if (f[gemm::kBias]) {
    auto bias = reinterpret_cast<const void *>(f[gemm::kBias]);
    if (!ok(*lt,
            lt->cublasLtMatmulDescSetAttribute(
                plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                sizeof(bias)),
            "setting the bias"))
      return;
  }
  float alpha = 1.0f, beta = hasC ? 1.0f : 0.0f;
  auto ptr = [&](int base) {
    return reinterpret_cast<void *>(f[base + gemm::kAddress]);
  };
  void *d = ptr(gemm::kD);
  const void *c = hasC ? ptr(gemm::kC) : d;
  if (fresh)
    tune(*lt, plan, stream, ptr(gemm::kB), ptr(gemm::kA), c, d, &alpha, &beta,
         /*accumulates=*/hasC && c == d);
  ok(*lt,
     lt->cublasLtMatmul(lt->handle, plan.desc, &alpha, ptr(gemm::kB),
                        plan.a, ptr(gemm::kA), plan.b, &beta,
                        c, plan.c, d, plan.d,
                        &plan.algo, reinterpret_cast<void *>(lt->workspace),
                        kWorkspaceBytes, stream),
     "cublasLtMatmul");
}
