//===- DNNLGemm.cpp - tcc_lib.gemm on the host, through oneDNN -*- C++ -*-===//
//
// `tccHostGemm(null, desc)`: what the cpu pipeline's code calls for each
// host library matrix product (tcc-linear-to-library; the fields of `desc`
// are in include/tcc/Runtime/GemmCall.h, shared with the cuBLASLt runtime).
//
//   d[i, m, n] = epilogue(sum_k a[i, m, k] b[i, k, n] + c[i, m, n] + bias[n])
//
// Each distinct product (sizes, strides, epilogue) is a oneDNN matmul made
// once and kept. Operands are given as they lie (their strides); a batched
// product whose batches follow each other in memory (a [B, S, K] input of a
// linear) is one [B*S, K] product, so the weight is packed once for all of
// it. A constant weight (the op's `constant_b`) is declared `any`: oneDNN
// picks its blocked format, and the weight is reordered into it once and
// kept (DNNLCommon.h); any other weight is read where it is, in its own
// strides (a reorder per call would cost more than it saves). The bias is
// the matmul's, the residual `c` a binary-add post-op (a sum post-op when c
// is d), the activation an eltwise post-op.
//
//===----------------------------------------------------------------------===//

#include "DNNLCommon.h"

#include "tcc/Runtime/GemmCall.h"
#include "tcc/Runtime/HostLibrary.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace call = tcc_gemm;
using dnnl::memory;
using namespace tcc::dnnl_runtime;

namespace {

[[noreturn]] void fail(const std::string &why) {
  tcc::dnnl_runtime::fail("matrix product", why);
}

/// The product's shape after folding a batch that lies contiguously into
/// the rows: every operand's strides and the sizes oneDNN sees.
struct Shape {
  int64_t batch, m, n, k;
  bool batched; // 3-D memory descriptors
};

/// Whether `base`'s batches follow each other: batch stride = rows * row
/// stride (or there is one batch).
bool rowsContinue(const int64_t *f, int base, int64_t batch, int64_t rows) {
  return batch == 1 ||
         f[base + call::kBatchStride] == rows * f[base + call::kRowStride];
}

Shape shapeOf(const int64_t *f) {
  Shape s{f[call::kBatch], f[call::kM], f[call::kN], f[call::kK], true};
  bool bShared = f[call::kB + call::kBatchStride] == 0;
  bool fold = s.batch == 1 ||
              (bShared && rowsContinue(f, call::kA, s.batch, s.m) &&
               rowsContinue(f, call::kD, s.batch, s.m) &&
               (!f[call::kC] || rowsContinue(f, call::kC, s.batch, s.m)));
  if (fold) {
    s.m *= s.batch;
    s.batch = 1;
    s.batched = false;
  }
  return s;
}

/// What makes two products the same primitive: every field but the
/// addresses, with what the runtime derives from them.
using Key = std::array<int64_t, call::kFields>;

Key keyOf(const int64_t *f) {
  Key key;
  for (int i = 0; i < call::kFields; ++i)
    key[i] = f[i];
  for (int base : {call::kA, call::kB, call::kC, call::kD})
    key[base + call::kAddress] = 0;
  // Whether there is a c, and whether it is d.
  key[call::kC + call::kAddress] =
      !f[call::kC] ? 0 : f[call::kC] == f[call::kD] ? 2 : 1;
  key[call::kBias] = f[call::kBias] != 0;
  // The bias's stride matters only where there is a bias of several.
  key[call::kBiasStride] =
      f[call::kBias] && f[call::kN] > 1 ? f[call::kBiasStride] : 0;
  key[call::kScratch] = key[call::kScratchBytes] = 0;
  return key;
}

/// A memory descriptor of `dims` with `strides`, where a dim of size 1 (whose
/// stride the caller may give as anything) gets the stride of a dense one:
/// oneDNN refuses overlapping strides.
memory::desc stridedDesc(memory::dims dims, memory::dims strides) {
  int64_t span = 1;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != 1)
      span = std::max(span, dims[i] * strides[i]);
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] == 1)
      strides[i] = span;
  return memory::desc(dims, memory::data_type::f32, strides);
}

/// `base`'s memory descriptor: [rows, cols] or [batch, rows, cols] (a
/// `shared` operand: [1, rows, cols]).
memory::desc operandDesc(const int64_t *f, int base, const Shape &s,
                         int64_t rows, int64_t cols, bool shared = false) {
  int64_t rs = f[base + call::kRowStride], cs = f[base + call::kColStride];
  if (!s.batched)
    return stridedDesc({rows, cols}, {rs, cs});
  if (shared)
    return stridedDesc({1, rows, cols}, {0, rs, cs});
  return stridedDesc({s.batch, rows, cols},
                     {f[base + call::kBatchStride], rs, cs});
}

struct Plan {
  Shape shape;
  dnnl::matmul primitive;
  memory::desc a, userB, b, bias, c, d, scratchpad;
  dnnl::reorder bReorder; // userB -> b, when they differ
  bool accumulate = false; // c is d
};

Plan makePlan(const int64_t *f) {
  const memory::data_type f32 = memory::data_type::f32;
  Plan plan;
  Shape &s = plan.shape;
  s = shapeOf(f);
  bool bShared = f[call::kB + call::kBatchStride] == 0;
  plan.a = operandDesc(f, call::kA, s, s.m, s.k);
  plan.userB = operandDesc(f, call::kB, s, s.k, s.n, bShared);
  plan.d = operandDesc(f, call::kD, s, s.m, s.n);
  bool constantB = f[call::kConstantB] != 0;
  plan.b = constantB ? memory::desc(plan.userB.dims(), f32,
                                    memory::format_tag::any)
                     : plan.userB;
  if (f[call::kBias]) {
    int64_t stride = f[call::kBiasStride];
    plan.bias = s.batched ? stridedDesc({1, 1, s.n}, {0, 0, stride})
                          : stridedDesc({1, s.n}, {0, stride});
  }

  dnnl::post_ops ops;
  if (f[call::kC]) {
    // c == d: the product accumulates into d (oneDNN's sum post-op);
    // otherwise c is a second source.
    plan.c = operandDesc(f, call::kC, s, s.m, s.n);
    plan.accumulate = f[call::kC] == f[call::kD] && plan.c == plan.d;
    if (plan.accumulate)
      ops.append_sum(1.0f);
    else
      ops.append_binary(dnnl::algorithm::binary_add, plan.c);
  }
  switch (f[call::kEpilogue]) {
  case call::kNone:
    break;
  case call::kReLU:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    break;
  case call::kGELU:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
    break;
  case call::kGELUTanh:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_tanh, 0.0f, 0.0f);
    break;
  default:
    throw std::runtime_error("unknown epilogue " +
                             std::to_string(f[call::kEpilogue]));
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

  try {
    dnnl::matmul::desc desc(plan.a, plan.b, plan.bias, plan.d);
    dnnl::matmul::primitive_desc pd(desc, attr, cpuEngine());
    plan.primitive = dnnl::matmul(pd);
    plan.b = pd.weights_desc();
    plan.scratchpad = pd.scratchpad_desc();
    if (plan.b != plan.userB)
      plan.bReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
          cpuEngine(), plan.userB, cpuEngine(), plan.b));
  } catch (const dnnl::error &e) {
    throw std::runtime_error(
        std::string("cannot make the product: ") + e.what() + " (batch " +
        std::to_string(s.batch) + ", " + std::to_string(s.m) + "x" +
        std::to_string(s.k) + " by " + std::to_string(s.k) + "x" +
        std::to_string(s.n) + ")");
  }
  return plan;
}

PlanCache<Key, Plan> plans;


/// A product over an empty sum (K = 0; oneDNN wants K >= 1):
/// d = epilogue(c + bias).
void emptySum(const int64_t *f) {
  auto element = [&](int base, int64_t i, int64_t m, int64_t n) {
    return static_cast<float *>(at(f[base])) +
           i * f[base + call::kBatchStride] + m * f[base + call::kRowStride] +
           n * f[base + call::kColStride];
  };
  const float *bias = static_cast<const float *>(at(f[call::kBias]));
  for (int64_t i = 0; i < f[call::kBatch]; ++i)
    for (int64_t m = 0; m < f[call::kM]; ++m)
      for (int64_t n = 0; n < f[call::kN]; ++n) {
        float v = bias ? bias[n * f[call::kBiasStride]] : 0.0f;
        if (f[call::kC])
          v += *element(call::kC, i, m, n);
        switch (f[call::kEpilogue]) {
        case call::kReLU:
          if (!(v > 0.0f))
            v = v != v ? v : 0.0f; // ReLU keeps a NaN, as max(x, 0) does
          break;
        case call::kGELU:
          v = 0.5f * v * (1.0f + std::erf(v * 0.70710678118654752f));
          break;
        case call::kGELUTanh:
          v = 0.5f * v *
              (1.0f + std::tanh(0.79788456080286536f *
                                (v + 0.044715f * v * v * v)));
          break;
        default:
          break;
        }
        *element(call::kD, i, m, n) = v;
      }
}

} // namespace

extern "C" void tccHostGemm(void * /*stream*/, const int64_t *f) {
  if (f[call::kElementType] != call::kF32 ||
      f[call::kInputType] != call::kF32)
    fail("only f32 products run on the host library");
  if (f[call::kBatch] == 0 || f[call::kM] == 0 || f[call::kN] == 0)
    return;
  if (f[call::kK] == 0)
    return emptySum(f);

  Key key = keyOf(f);
  std::shared_ptr<const Plan> plan =
      plans.getOrFail(key, [&] { return makePlan(f); }, "matrix product");

  dnnl::engine &engine = cpuEngine();
  dnnl::stream &stream = threadStream();
  memory b = packedWeight(stream, plan->userB, plan->b, plan->bReorder,
                          f[call::kConstantB] != 0, f[call::kB],
                          "matrix product");
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, memory(plan->a, engine, at(f[call::kA]))},
      {DNNL_ARG_WEIGHTS, b},
      {DNNL_ARG_DST, memory(plan->d, engine, at(f[call::kD]))},
      {DNNL_ARG_SCRATCHPAD,
       scratchpadMemory(plan->scratchpad, f[call::kScratch],
                        f[call::kScratchBytes])}};
  if (f[call::kBias])
    args.emplace(DNNL_ARG_BIAS, memory(plan->bias, engine, at(f[call::kBias])));
  if (f[call::kC] && !plan->accumulate)
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                 memory(plan->c, engine, at(f[call::kC])));
  execute(plan->primitive, stream, args, "matrix product");
}

extern "C" int64_t tccHostGemmScratchpadBytes(const int64_t *f) {
  for (int field : {call::kBatch, call::kM, call::kN, call::kK})
    if (f[field] == 0)
      return 0; // computed without oneDNN
  return plans.scratchpadBytes(keyOf(f), [&] { return makePlan(f); });
}
