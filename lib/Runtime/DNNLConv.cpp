//===- DNNLConv.cpp - tcc_lib.conv2d on the host, through oneDNN -*- C++ -*-===//
//
// `tccHostConv(null, desc)`: what the cpu pipeline's code calls for each
// host library convolution (the fields of `desc` are in include/tcc/
// Runtime/ConvCall.h, shared with the cuDNN runtime).
//
// Each distinct convolution (sizes, strides of every operand, epilogue) is
// a oneDNN primitive made once and kept: later calls only execute it. The
// activations are given to oneDNN as they lie (their strides: NCHW or
// channels-last NHWC); the weight is declared `any`, so oneDNN picks its
// blocked format and the weight is reordered into it. A weight that is a
// module constant (the op's `constant_weight`) is reordered once and the
// copy kept (DNNLCommon.h); any other weight is reordered on every call.
// The epilogue is oneDNN's: the bias as the convolution's, the residual as
// a binary-add post-op, ReLU as an eltwise post-op. The scratchpad is the
// calling thread's buffer, grown on demand and reused.
//
// A convolution oneDNN cannot make is a message and abort(), as a failed
// runtime check (cf.assert) in compiled code is.
//
//===----------------------------------------------------------------------===//

#include "DNNLCommon.h"

#include "tcc/Runtime/ConvCall.h"
#include "tcc/Runtime/HostLibrary.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace call = tcc_conv;
using dnnl::memory;
using namespace tcc::dnnl_runtime;

namespace {

[[noreturn]] void fail(const std::string &why) {
  tcc::dnnl_runtime::fail("convolution", why);
}

/// What makes two convolutions the same primitive: every field but the
/// addresses.
using Key = std::array<int64_t, call::kFields>;

Key keyOf(const int64_t *f) {
  Key key;
  for (int i = 0; i < call::kFields; ++i)
    key[i] = f[i];
  for (int base : {call::kX, call::kWeight, call::kResidual, call::kOut})
    key[base + call::kAddress] = 0;
  // Only whether there is a bias and a residual.
  key[call::kBias] = f[call::kBias] != 0;
  // The bias's stride matters only where there is a bias of several.
  key[call::kBiasStride] = f[call::kBias] && f[call::kOutChannels] > 1
                               ? f[call::kBiasStride]
                               : 0;
  key[call::kScratch] = key[call::kScratchBytes] = 0;
  key[call::kResidual + call::kAddress] = f[call::kResidual] != 0;
  return key;
}

memory::dims stridesAt(const int64_t *f, int base) {
  return {f[base + call::kNStride], f[base + call::kCStride],
          f[base + call::kHStride], f[base + call::kWStride]};
}

/// A convolution's primitive and the memory descriptors it runs with.
struct Plan {
  dnnl::convolution_forward primitive;
  memory::desc x, userWeight, weight, bias, residual, out, scratchpad;
  dnnl::reorder weightReorder; // user -> weight, when they differ
};

Plan makePlan(const int64_t *f) {
  const memory::data_type f32 = memory::data_type::f32;
  int64_t n = f[call::kBatch], c = f[call::kInChannels];
  int64_t h = f[call::kInHeight], w = f[call::kInWidth];
  int64_t o = f[call::kOutChannels], kh = f[call::kKernelHeight],
          kw = f[call::kKernelWidth];
  int64_t oh = f[call::kOutHeight], ow = f[call::kOutWidth];
  int64_t g = f[call::kGroups];
  Plan plan;
  plan.x = memory::desc({n, c, h, w}, f32, stridesAt(f, call::kX));
  plan.out = memory::desc({n, o, oh, ow}, f32, stridesAt(f, call::kOut));
  memory::dims ws = stridesAt(f, call::kWeight);
  if (g == 1) {
    plan.userWeight = memory::desc({o, c, kh, kw}, f32, ws);
    plan.weight = memory::desc({o, c, kh, kw}, f32, memory::format_tag::any);
  } else {
    // Grouped: [G, O/G, C/G, KH, KW], the group stride O/G output channels.
    memory::dims dims = {g, o / g, c / g, kh, kw};
    plan.userWeight =
        memory::desc(dims, f32, {ws[0] * (o / g), ws[0], ws[1], ws[2], ws[3]});
    plan.weight = memory::desc(dims, f32, memory::format_tag::any);
  }
  if (f[call::kBias])
    plan.bias = memory::desc({o}, f32, {o > 1 ? f[call::kBiasStride] : 1});

  // Right padding: what makes oneDNN's output size the one given.
  int64_t sh = f[call::kStrideH], sw = f[call::kStrideW];
  int64_t dh = f[call::kDilationH], dw = f[call::kDilationW];
  int64_t ph = f[call::kPadH], pw = f[call::kPadW];
  int64_t prh = (oh - 1) * sh + (kh - 1) * dh + 1 - h - ph;
  int64_t prw = (ow - 1) * sw + (kw - 1) * dw + 1 - w - pw;

  dnnl::post_ops ops;
  if (f[call::kResidual]) {
    plan.residual = memory::desc({n, o, oh, ow}, f32,
                                 stridesAt(f, call::kResidual));
    ops.append_binary(dnnl::algorithm::binary_add, plan.residual);
  }
  if (f[call::kActivation] == call::kReLU)
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

  try {
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference,
        dnnl::algorithm::convolution_direct, plan.x, plan.weight, plan.bias,
        plan.out, {sh, sw}, {dh - 1, dw - 1}, {ph, pw}, {prh, prw});
    dnnl::convolution_forward::primitive_desc pd(desc, attr, cpuEngine());
    plan.primitive = dnnl::convolution_forward(pd);
    plan.weight = pd.weights_desc();
    plan.scratchpad = pd.scratchpad_desc();
    if (plan.weight != plan.userWeight)
      plan.weightReorder = dnnl::reorder(
          dnnl::reorder::primitive_desc(cpuEngine(), plan.userWeight,
                                        cpuEngine(), plan.weight));
  } catch (const dnnl::error &e) {
    throw std::runtime_error(
        std::string("cannot make the convolution: ") + e.what() + " (" +
        std::to_string(n) + "x" + std::to_string(c) + "x" + std::to_string(h) +
        "x" + std::to_string(w) + " by " + std::to_string(o) + "x" +
        std::to_string(c / g) + "x" + std::to_string(kh) + "x" +
        std::to_string(kw) + ")");
  }
  return plan;
}

PlanCache<Key, Plan> plans;


/// A convolution over zero input channels (oneDNN wants at least one):
/// the sum is empty, out = activation(bias + residual).
void emptySum(const int64_t *f) {
  auto at = [&](int base, int64_t n, int64_t c, int64_t y, int64_t x) {
    return reinterpret_cast<float *>(static_cast<intptr_t>(f[base])) +
           n * f[base + call::kNStride] + c * f[base + call::kCStride] +
           y * f[base + call::kHStride] + x * f[base + call::kWStride];
  };
  const float *bias = reinterpret_cast<const float *>(
      static_cast<intptr_t>(f[call::kBias]));
  for (int64_t n = 0; n < f[call::kBatch]; ++n)
    for (int64_t o = 0; o < f[call::kOutChannels]; ++o)
      for (int64_t y = 0; y < f[call::kOutHeight]; ++y)
        for (int64_t x = 0; x < f[call::kOutWidth]; ++x) {
          float v = bias ? bias[o * f[call::kBiasStride]] : 0.0f;
          if (f[call::kResidual])
            v += *at(call::kResidual, n, o, y, x);
          if (f[call::kActivation] == call::kReLU && !(v > 0.0f))
            v = v != v ? v : 0.0f; // ReLU keeps a NaN, as max(x, 0) does
          *at(call::kOut, n, o, y, x) = v;
        }
}

} // namespace

extern "C" void tccHostConv(void * /*stream*/, const int64_t *f) {
  if (f[call::kElementType] != call::kF32)
    fail("only f32 convolutions run on the host library");
  int64_t n = f[call::kBatch], o = f[call::kOutChannels];
  if (n == 0 || o == 0 || f[call::kOutHeight] == 0 ||
      f[call::kOutWidth] == 0)
    return;
  if (f[call::kInChannels] == 0)
    return emptySum(f);

  Key key = keyOf(f);
  std::shared_ptr<const Plan> plan =
      plans.getOrFail(key, [&] { return makePlan(f); }, "convolution");

  dnnl::engine &engine = cpuEngine();
  dnnl::stream &stream = threadStream();
  memory weight = packedWeight(stream, plan->userWeight, plan->weight,
                               plan->weightReorder,
                               f[call::kConstantWeight] != 0,
                               f[call::kWeight], "convolution");

  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, memory(plan->x, engine, at(f[call::kX]))},
      {DNNL_ARG_WEIGHTS, weight},
      {DNNL_ARG_DST, memory(plan->out, engine, at(f[call::kOut]))},
      {DNNL_ARG_SCRATCHPAD,
       scratchpadMemory(plan->scratchpad, f[call::kScratch],
                        f[call::kScratchBytes])}};
  if (f[call::kBias])
    args.emplace(DNNL_ARG_BIAS, memory(plan->bias, engine, at(f[call::kBias])));
  if (f[call::kResidual])
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                 memory(plan->residual, engine, at(f[call::kResidual])));
  execute(plan->primitive, stream, args, "convolution");
}

extern "C" int64_t tccHostConvScratchpadBytes(const int64_t *f) {
  for (int field : {call::kBatch, call::kInChannels, call::kOutChannels,
                    call::kOutHeight, call::kOutWidth})
    if (f[field] == 0)
      return 0; // computed without oneDNN
  return plans.scratchpadBytes(keyOf(f), [&] { return makePlan(f); });
}
