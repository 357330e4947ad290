//===- FlashAttention.cu - fused attention kernels for tccAttention -------===//
//
// out = softmax(q kᵀ * scale) v for f16/bf16 q, k, v, one kernel: the
// scores never reach memory (FlashAttention-2's loop). A block takes 64
// queries of one (batch, head); each of its 4 warps 16 of them. The block
// stages 64 keys of k and v at a time in shared memory, double-buffered:
// cp.async fetches the next 64 while the warps compute on these (16-byte
// form; the element form loads synchronously). A warp computes its 16 x 64
// scores with mma.sync (m16n8k16, f32 accumulation), keeps a
// running row max and sum, rounds the unnormalized probabilities to the
// input type (registers: the scores' accumulator layout is the next
// product's operand layout) and accumulates p v, v's fragments read
// transposed by ldmatrix.trans. The sum divides at the end. Layouts are the PTX ISA's for mma.m16n8k16 (groupID = lane / 4,
// lane % 4 in the group).
//
// Built by nvcc into a fatbin that lib/Runtime/FlashAttention.cpp embeds
// and loads through the driver API (no CUDA runtime). One entry point per
// element type, head dim and access width (16-byte vectors when every row
// is aligned, else element by element).
//
//===----------------------------------------------------------------------===//

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "FlashAttentionParams.h"

using tcc::attention::Operand;
using tcc::attention::Params;

namespace {

constexpr int kBlockQ = 64; // queries per block
constexpr int kBlockK = 64; // keys per step
constexpr int kWarps = 4;
constexpr int kPad = 8;     // elements after each shared row: no bank conflicts

/// mma.sync m16n8k16 with f32 accumulation for T (bf16 or f16), and
/// two floats rounded to T, packed as one operand register.
template <typename T> struct Mma {
  static __device__ void run(float *c, const uint32_t *a, uint32_t b0,
                             uint32_t b1) {
    if constexpr (std::is_same_v<T, __nv_bfloat16>)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0),
                     "r"(b1));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0),
                     "r"(b1));
  }
  static __device__ uint32_t pack(float lo, float hi) {
    uint32_t out;
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
      out = *reinterpret_cast<uint32_t *>(&v);
    } else {
      __half2 v = __floats2half2_rn(lo, hi);
      out = *reinterpret_cast<uint32_t *>(&v);
    }
    return out;
  }
};

/// Eight consecutive elements of `row` from column `col` (zeros past
/// `valid` rows are the caller's).
template <bool Vec>
__device__ void load8(const uint16_t *row, uint16_t (&out)[8]) {
  if constexpr (Vec) {
    uint4 v = *reinterpret_cast<const uint4 *>(row);
    *reinterpret_cast<uint4 *>(out) = v;
  } else {
#pragma unroll
    for (int e = 0; e < 8; ++e)
      out[e] = row[e];
  }
}

/// 16 bytes global -> shared without registers (zeros when !valid).
__device__ void copyAsync(uint16_t *dst, const uint16_t *src, bool valid) {
  uint32_t to = uint32_t(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to),
               "l"(src), "r"(valid ? 16 : 0));
}
__device__ void commitAsync() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ void waitAsync() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/// Four 8 x 8 b16 tiles, transposed (ldmatrix.x4.trans); `row` is this
/// lane's row address.
__device__ void loadTransposed(uint32_t (&r)[4], const uint16_t *row) {
  uint32_t at = uint32_t(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
               "{%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(at));
}

__device__ uint32_t shared32(const uint16_t *p) {
  return *reinterpret_cast<const uint32_t *>(p);
}

template <typename T, int D, bool Vec>
__device__ void attention(const Params &p) {
  constexpr int kStride = D + kPad; // every staged row: 16-byte aligned
  constexpr int kTile = kBlockK * kStride;
  extern __shared__ __align__(16) uint16_t smem[];
  uint16_t *qs = smem;                    // [kBlockQ][D + pad]
  uint16_t *kv = qs + kBlockQ * kStride;  // 2 x {k, v}: [kBlockK][D + pad]

  const int qBlocks = (p.queries + kBlockQ - 1) / kBlockQ;
  int64_t linear = blockIdx.x;
  const int qBlock = int(linear % qBlocks);
  linear /= qBlocks;
  const int head = int(linear % p.heads);
  const int batch = int(linear / p.heads);
  const int q0 = qBlock * kBlockQ;

  const uint16_t *q = p.q.data + batch * p.q.batchStride + head * p.q.headStride;
  const uint16_t *k = p.k.data + batch * p.k.batchStride + head * p.k.headStride;
  const uint16_t *v = p.v.data + batch * p.v.batchStride + head * p.v.headStride;
  uint16_t *out = const_cast<uint16_t *>(p.out.data) +
                  batch * p.out.batchStride + head * p.out.headStride;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int g = lane / 4, t = lane % 4; // groupID, thread in group
  constexpr int kChunks = D / 8;        // 8-element chunks of a row

  // Queries to shared memory, then to this warp's A fragments.
  for (int i = tid; i < kBlockQ * kChunks; i += kWarps * 32) {
    int r = i / kChunks, c = (i % kChunks) * 8;
    uint16_t x[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (q0 + r < p.queries)
      load8<Vec>(q + int64_t(q0 + r) * p.q.rowStride + c, x);
    *reinterpret_cast<uint4 *>(qs + r * kStride + c) =
        *reinterpret_cast<uint4 *>(x);
  }
  __syncthreads();
  uint32_t qa[D / 16][4];
  {
    const uint16_t *rows = qs + (warp * 16 + g) * kStride;
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {
      qa[kk][0] = shared32(rows + kk * 16 + 2 * t);
      qa[kk][1] = shared32(rows + 8 * kStride + kk * 16 + 2 * t);
      qa[kk][2] = shared32(rows + kk * 16 + 8 + 2 * t);
      qa[kk][3] = shared32(rows + 8 * kStride + kk * 16 + 8 + 2 * t);
    }
  }

  float o[D / 8][4];
#pragma unroll
  for (int d = 0; d < D / 8; ++d)
    o[d][0] = o[d][1] = o[d][2] = o[d][3] = 0.f;
  float rowMax[2] = {-INFINITY, -INFINITY};
  float rowSum[2] = {0.f, 0.f}; // this thread's part; the quad's at the end
  const int myRow[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};

  int keyEnd = p.keys;
  if (p.causal)
    keyEnd = min(keyEnd, q0 + kBlockQ);
  const int steps = (keyEnd + kBlockK - 1) / kBlockK;
  // Stages keys [k0, k0 + 64) of k and v into buffer `buf`.
  auto stage = [&](int k0, int buf) {
    uint16_t *kt = kv + buf * 2 * kTile, *vt = kt + kTile;
    for (int i = tid; i < kBlockK * kChunks; i += kWarps * 32) {
      int r = i / kChunks, c = (i % kChunks) * 8;
      bool valid = k0 + r < p.keys;
      const uint16_t *kr = k + int64_t(valid ? k0 + r : 0) * p.k.rowStride + c;
      const uint16_t *vr = v + int64_t(valid ? k0 + r : 0) * p.v.rowStride + c;
      if constexpr (Vec) {
        copyAsync(kt + r * kStride + c, kr, valid);
        copyAsync(vt + r * kStride + c, vr, valid);
      } else {
        uint16_t x[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        uint16_t y[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        if (valid) {
          load8<false>(kr, x);
          load8<false>(vr, y);
        }
        *reinterpret_cast<uint4 *>(kt + r * kStride + c) =
            *reinterpret_cast<uint4 *>(x);
        *reinterpret_cast<uint4 *>(vt + r * kStride + c) =
            *reinterpret_cast<uint4 *>(y);
      }
    }
    commitAsync();
  };
  if (steps > 0)
    stage(0, 0);
  for (int step = 0; step < steps; ++step) {
    const int k0 = step * kBlockK;
    if (step + 1 < steps) {
      stage(k0 + kBlockK, (step + 1) & 1);
      waitAsync<1>(); // this step's tile has landed, the next is in flight
    } else {
      waitAsync<0>();
    }
    __syncthreads();
    const uint16_t *ks = kv + (step & 1) * 2 * kTile, *vs = ks + kTile;

    // s = q kᵀ: 8 tiles of 8 keys.
    float s[kBlockK / 8][4];
#pragma unroll
    for (int n = 0; n < kBlockK / 8; ++n) {
      s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
      const uint16_t *key = ks + (n * 8 + g) * kStride;
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk)
        Mma<T>::run(s[n], qa[kk], shared32(key + kk * 16 + 2 * t),
                    shared32(key + kk * 16 + 8 + 2 * t));
    }

    // Scale and mask; the block's row maxima.
    float blockMax[2] = {-INFINITY, -INFINITY};
#pragma unroll
    for (int n = 0; n < kBlockK / 8; ++n)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        int key = k0 + n * 8 + 2 * t + (e & 1);
        int row = myRow[e / 2];
        bool masked = key >= p.keys || (p.causal && key > row);
        float x = masked ? -INFINITY : s[n][e] * p.scaleLog2;
        s[n][e] = x;
        blockMax[e / 2] = fmaxf(blockMax[e / 2], x);
      }
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      blockMax[r] = fmaxf(blockMax[r], __shfl_xor_sync(0xffffffff, blockMax[r], 1));
      blockMax[r] = fmaxf(blockMax[r], __shfl_xor_sync(0xffffffff, blockMax[r], 2));
    }
    float base[2], alpha[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float m = fmaxf(rowMax[r], blockMax[r]);
      // A row with every key masked so far: exponents relative to 0.
      base[r] = m == -INFINITY ? 0.f : m;
      alpha[r] = exp2f(rowMax[r] - base[r]);
      rowMax[r] = m;
      rowSum[r] *= alpha[r];
    }
#pragma unroll
    for (int d = 0; d < D / 8; ++d) {
      o[d][0] *= alpha[0];
      o[d][1] *= alpha[0];
      o[d][2] *= alpha[1];
      o[d][3] *= alpha[1];
    }

    // p = exp2(s - max), rounded to T as the next product's A fragments.
    uint32_t pa[kBlockK / 16][4];
#pragma unroll
    for (int n = 0; n < kBlockK / 8; ++n) {
      float e0 = exp2f(s[n][0] - base[0]), e1 = exp2f(s[n][1] - base[0]);
      float e2 = exp2f(s[n][2] - base[1]), e3 = exp2f(s[n][3] - base[1]);
      rowSum[0] += e0 + e1;
      rowSum[1] += e2 + e3;
      pa[n / 2][(n % 2) * 2 + 0] = Mma<T>::pack(e0, e1);
      pa[n / 2][(n % 2) * 2 + 1] = Mma<T>::pack(e2, e3);
    }

    // o += p v. B[key][d] = v[key][d]: ldmatrix.trans gives a thread the
    // pairs (keys 2t, 2t + 1; dim g) of four 8 x 8 tiles: keys +0 and +8
    // of dims d and d + 1. Lane l addresses row l % 8 of tile l / 8.
#pragma unroll
    for (int kc = 0; kc < kBlockK / 16; ++kc)
#pragma unroll
      for (int d = 0; d < D / 8; d += 2) {
        const uint16_t *row = vs +
                              (kc * 16 + ((lane / 8) % 2) * 8 + lane % 8) *
                                  kStride +
                              (d + lane / 16) * 8;
        uint32_t b[4];
        loadTransposed(b, row);
        Mma<T>::run(o[d], pa[kc], b[0], b[1]);
        Mma<T>::run(o[d + 1], pa[kc], b[2], b[3]);
      }
    __syncthreads(); // every warp is done with this buffer before it refills
  }

#pragma unroll
  for (int r = 0; r < 2; ++r) {
    rowSum[r] += __shfl_xor_sync(0xffffffff, rowSum[r], 1);
    rowSum[r] += __shfl_xor_sync(0xffffffff, rowSum[r], 2);
  }
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    if (myRow[r] >= p.queries)
      continue;
    // A row with no key at all (causal with more keys masked than exist)
    // has sum 0: zeros, not NaNs.
    float inv = rowSum[r] > 0.f ? 1.f / rowSum[r] : 0.f;
    uint16_t *dst = out + int64_t(myRow[r]) * p.out.rowStride;
#pragma unroll
    for (int d = 0; d < D / 8; ++d) {
      uint32_t packed = Mma<T>::pack(o[d][2 * r] * inv, o[d][2 * r + 1] * inv);
      uint16_t *at = dst + d * 8 + 2 * t;
      if constexpr (Vec) {
        *reinterpret_cast<uint32_t *>(at) = packed;
      } else {
        at[0] = uint16_t(packed & 0xffff);
        at[1] = uint16_t(packed >> 16);
      }
    }
  }
}

/// f32 on the CUDA cores (no TF32: results as the generic path's up to
/// summation order). A block of 128 threads takes 32 queries of one
/// (batch, head) against 64-key tiles of k and v staged in shared memory
/// (rows padded to 65 floats: no bank conflicts). Thread (r, c) = (tid /
/// 16, tid % 16) holds the scores and outputs of queries 4r..4r+3 at keys
/// (and dims) c, c + 16, c + 32, c + 48; a query's 16 threads are one
/// half-warp, so its row max and sum are 4 shuffles. The probabilities go
/// to k's tile (k is no longer needed) for the product with v.
constexpr int kF32BlockQ = 32, kF32Stride = 65;

__device__ void attentionF32(const Params &p) {
  __shared__ float qs[kF32BlockQ][kF32Stride];
  __shared__ float ks[kBlockK][kF32Stride]; // k, then the probabilities
  __shared__ float vs[kBlockK][kF32Stride];
  const int qBlocks = (p.queries + kF32BlockQ - 1) / kF32BlockQ;
  int64_t linear = blockIdx.x;
  const int qBlock = int(linear % qBlocks);
  linear /= qBlocks;
  const int head = int(linear % p.heads);
  const int batch = int(linear / p.heads);
  const int q0 = qBlock * kF32BlockQ;
  auto base = [&](const Operand &o) {
    return reinterpret_cast<const float *>(o.data) + batch * o.batchStride +
           head * o.headStride;
  };
  const float *q = base(p.q), *k = base(p.k), *v = base(p.v);
  float *out = const_cast<float *>(base(p.out));
  const int tid = threadIdx.x, r = tid / 16, c = tid % 16;

  for (int i = tid; i < kF32BlockQ * 64; i += 128) {
    int row = i / 64, d = i % 64;
    qs[row][d] = q0 + row < p.queries ? q[int64_t(q0 + row) * p.q.rowStride + d]
                                      : 0.f;
  }
  float o[4][4] = {}, m[4], l[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    m[i] = -INFINITY, l[i] = 0.f;
  int keyEnd = p.keys;
  if (p.causal)
    keyEnd = min(keyEnd, q0 + kF32BlockQ);
  for (int k0 = 0; k0 < keyEnd; k0 += kBlockK) {
    __syncthreads(); // q staged; the last tile's probabilities and v used
    for (int i = tid; i < kBlockK * 64; i += 128) {
      int row = i / 64, d = i % 64;
      bool in = k0 + row < p.keys;
      ks[row][d] = in ? k[int64_t(k0 + row) * p.k.rowStride + d] : 0.f;
      vs[row][d] = in ? v[int64_t(k0 + row) * p.v.rowStride + d] : 0.f;
    }
    __syncthreads();
    float s[4][4] = {};
#pragma unroll 8
    for (int d = 0; d < 64; ++d) {
      float qv[4], kv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        qv[i] = qs[4 * r + i][d];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        kv[j] = ks[c + 16 * j][d];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          s[i][j] = fmaf(qv[i], kv[j], s[i][j]);
    }
    // Online softmax, per query row (exp2 of scores scaled by log2 e).
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int row = q0 + 4 * r + i;
      float mx = -INFINITY;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        int key = k0 + c + 16 * j;
        bool masked = key >= p.keys || (p.causal && key > row);
        s[i][j] = masked ? -INFINITY : s[i][j] * p.scaleLog2;
        mx = fmaxf(mx, s[i][j]);
      }
#pragma unroll
      for (int x = 8; x >= 1; x /= 2)
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, x));
      float mNew = fmaxf(m[i], mx);
      // A row with every key so far masked keeps m = -inf and adds 0.
      float alpha = mNew == -INFINITY ? 1.f : exp2f(m[i] - mNew);
      float sum = 0.f;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        s[i][j] = mNew == -INFINITY ? 0.f : exp2f(s[i][j] - mNew);
        sum += s[i][j];
      }
#pragma unroll
      for (int x = 8; x >= 1; x /= 2)
        sum += __shfl_xor_sync(0xffffffff, sum, x);
      l[i] = l[i] * alpha + sum;
      m[i] = mNew;
#pragma unroll
      for (int j = 0; j < 4; ++j)
        o[i][j] *= alpha;
    }
    __syncthreads(); // every thread's scores are in registers: k is free
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        ks[4 * r + i][c + 16 * j] = s[i][j];
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kBlockK; ++kk) {
      float pv[4], vv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        pv[i] = ks[4 * r + i][kk];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        vv[j] = vs[kk][c + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          o[i][j] = fmaf(pv[i], vv[j], o[i][j]);
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int row = q0 + 4 * r + i;
    if (row >= p.queries)
      continue;
    // No key at all (causal with more keys masked than exist): zeros.
    float inv = l[i] > 0.f ? 1.f / l[i] : 0.f;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      out[int64_t(row) * p.out.rowStride + c + 16 * j] = o[i][j] * inv;
  }
}

} // namespace

extern "C" __global__ void __launch_bounds__(128)
    tcc_attention_f32_d64(Params p) {
  attentionF32(p);
}

// Entry points: tcc_attention_<type>_d<D>_<vec|scalar>, 128 threads,
// blocks = ceil(queries / 64) * heads * batch, dynamic shared memory
// 5 * 64 * (D + 8) * 2 bytes (q, and k and v twice).
// BLOCKS: blocks per SM that shared memory allows (228 KiB: 4 at D = 64,
// 2 at D = 128), so registers are budgeted for them.
#define TCC_ATTENTION_ENTRY(TYPE, NAME, D, BLOCKS)                             \
  extern "C" __global__ void __launch_bounds__(128, BLOCKS)                    \
      tcc_attention_##NAME##_d##D##_vec(Params p) {                            \
    attention<TYPE, D, true>(p);                                               \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(128, BLOCKS)                    \
      tcc_attention_##NAME##_d##D##_scalar(Params p) {                         \
    attention<TYPE, D, false>(p);                                              \
  }

TCC_ATTENTION_ENTRY(__nv_bfloat16, bf16, 64, 4)
TCC_ATTENTION_ENTRY(__nv_bfloat16, bf16, 128, 2)
TCC_ATTENTION_ENTRY(__half, f16, 64, 4)
TCC_ATTENTION_ENTRY(__half, f16, 128, 2)
