//===- FlashAttention.cpp - tcc_lib.attention's runtime ---------*- C++ -*-===//
//
// `tccAttention(stream, desc)`: what the host code calls for each
// tcc_lib.attention (the fields of `desc` are in
// include/tcc/Runtime/AttentionCall.h). It checks the call against what
// the kernels of FlashAttention.cu take, picks one (element type, head
// dim, vector or element accesses; f32 has one, on the CUDA cores) and
// launches it on the stream, so
// CUDA-graph capture records it with the rest of the call.
//
// The kernels are a fatbin (sm_80, sm_90 and PTX) embedded at build time
// and loaded through the driver on the first call.
//
//===----------------------------------------------------------------------===//

#include "CUDARuntimeInternal.h"
#include "FlashAttentionParams.h"
#include "tcc/Runtime/AttentionCall.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "FlashAttentionFatbin.h" // tcc_flash_attention_fatbin (bin2c)

using namespace tcc::cuda;
namespace call = tcc_attention;

namespace {

constexpr int kThreads = 128, kBlockQ = 64, kBlockK = 64, kPad = 8;
constexpr int kF32BlockQ = 32; // queries per block of the f32 kernel

/// q's tile, and k's and v's twice (double-buffered), in 16-bit elements.
size_t sharedBytes(int64_t headDim) {
  return size_t(2) * (headDim + kPad) * (kBlockQ + 4 * kBlockK);
}

std::mutex mutex;

/// The kernel for `name`, its module loaded on first use and its shared
/// memory limit raised to what it takes; null with the error recorded.
CUfunction kernel(const std::string &name, size_t shared) {
  static CUmodule module = nullptr;
  static std::map<std::string, CUfunction> functions;
  std::lock_guard<std::mutex> lock(mutex);
  if (!module &&
      !check(cuModuleLoadData(&module, tcc_flash_attention_fatbin),
             "cuModuleLoadData", "tcc's attention kernels"))
    return nullptr;
  auto it = functions.find(name);
  if (it != functions.end())
    return it->second;
  CUfunction f = nullptr;
  if (!check(cuModuleGetFunction(&f, module, name.c_str()),
             "cuModuleGetFunction", name))
    return nullptr;
  if (!check(cuFuncSetAttribute(
                 f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                 int(shared)),
             "cuFuncSetAttribute", name))
    return nullptr;
  functions.emplace(name, f);
  return f;
}

} // namespace

extern "C" void tccAttention(CUstream stream, const int64_t *f) {
  if (!stream || escapesCapture(stream))
    return;
  int64_t batch = f[call::kBatch], heads = f[call::kHeads];
  int64_t queries = f[call::kQueries], keys = f[call::kKeys];
  int64_t dim = f[call::kHeadDim];
  if (batch == 0 || heads == 0 || queries == 0)
    return;
  auto fail = [](const std::string &why) {
    record("tcc attention kernel: " + why);
  };
  bool f32 = f[call::kElementType] == call::kF32;
  if (dim != 64 && dim != 128)
    return fail("head dim " + std::to_string(dim) + " (64 or 128 only)");
  if (f32 && dim != 64)
    return fail("f32 head dim " + std::to_string(dim) + " (64 only)");
  int64_t blockQ = f32 ? kF32BlockQ : kBlockQ;
  int64_t qBlocks = (queries + blockQ - 1) / blockQ;
  if (queries > INT32_MAX || keys > INT32_MAX || heads > INT32_MAX ||
      batch > INT32_MAX || qBlocks * heads * batch > INT32_MAX)
    return fail("sizes " + std::to_string(batch) + " x " +
                std::to_string(heads) + " x " + std::to_string(queries) +
                " x " + std::to_string(keys) + " exceed the kernel's grid");

  // Vector accesses need every row of every operand 16-byte aligned.
  bool vec = true;
  auto operand = [&](int base, const char *name,
                     tcc::attention::Operand &out) {
    if (f[base + call::kColStride] != 1) {
      fail(std::string("operand ") + name + " has column stride " +
           std::to_string(f[base + call::kColStride]) + " (must be 1)");
      return false;
    }
    out.data = reinterpret_cast<const uint16_t *>(f[base + call::kAddress]);
    out.batchStride = f[base + call::kBatchStride];
    out.headStride = f[base + call::kHeadStride];
    out.rowStride = f[base + call::kRowStride];
    for (int64_t v : {f[base + call::kAddress], 2 * out.batchStride,
                      2 * out.headStride, 2 * out.rowStride})
      vec &= v % 16 == 0;
    return true;
  };
  tcc::attention::Params p{};
  if (!operand(call::kQ, "q", p.q) || !operand(call::kK, "k", p.k) ||
      !operand(call::kV, "v", p.v) || !operand(call::kOut, "out", p.out))
    return;
  p.batch = int32_t(batch);
  p.heads = int32_t(heads);
  p.queries = int32_t(queries);
  p.keys = int32_t(keys);
  float scale;
  uint32_t bits = uint32_t(f[call::kScaleBits]);
  std::memcpy(&scale, &bits, sizeof(scale));
  p.scaleLog2 = scale * float(M_LOG2E);
  p.causal = int32_t(f[call::kCausal] != 0);

  // f32: one kernel, element accesses and static shared memory.
  std::string name =
      f32 ? std::string("tcc_attention_f32_d64")
          : std::string("tcc_attention_") +
                (f[call::kElementType] == call::kF16 ? "f16" : "bf16") +
                "_d" + std::to_string(dim) + (vec ? "_vec" : "_scalar");
  size_t shared = f32 ? 0 : sharedBytes(dim);
  CUfunction function = kernel(name, shared);
  if (!function)
    return;
  void *params[] = {&p};
  check(cuLaunchKernel(function, unsigned(qBlocks * heads * batch), 1, 1,
                       kThreads, 1, 1, unsigned(shared), stream, params,
                       nullptr),
        "cuLaunchKernel", "kernel " + name);
}
