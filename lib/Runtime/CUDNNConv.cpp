//===- CUDNNConv.cpp - tcc_lib.conv2d on cuDNN ------------------*- C++ -*-===//
//
// `tccConv(stream, desc)`: what the host code calls for each
// tcc_lib.conv2d (the fields of `desc` are in include/tcc/Runtime/
// ConvCall.h).
//
// cuDNN is loaded with dlopen on the first convolution (TCC_CUDNN names
// the file, else libcudnn.so.9 from the loader's path), so a library
// without convolutions needs only the driver. A convolution's descriptors
// and algorithm are kept per shape, strides and alignment: later calls and
// CUDA-graph captures only launch. On a shape's first call outside a
// capture cuDNN times its algorithms on the call's own buffers and the
// fastest is kept (TCC_CONV_AUTOTUNE=0: the heuristic's first).
//
// The epilogue: relu(conv + bias + residual) in one cuDNN call where cuDNN
// fuses it (cudnnConvolutionBiasActivationForward takes a bias and ReLU);
// otherwise the residual is copied into the output first and the product
// accumulated onto it (beta = 1), then the bias and the activation are
// applied in place. f32 convolutions use FMA math (no TF32), f16/bf16
// tensor cores, accumulation in f32 for both.
//
// This is cuDNN's legacy (descriptor) API, deprecated in cuDNN 9 in favour
// of the graph API but present and what the fused epilogue above needs.
//
//===----------------------------------------------------------------------===//

#include "CUDARuntimeInternal.h"
#include "tcc/Runtime/ConvCall.h"

#include <cudnn.h>
#include <dlfcn.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

using namespace tcc::cuda;
namespace call = tcc_conv;

namespace {

/// The cuDNN entry points tcc uses, resolved from the loaded library.
struct Cudnn {
#define TCC_CUDNN_FUNCTIONS(X)                                                 \
  X(cudnnCreate)                                                               \
  X(cudnnSetStream)                                                            \
  X(cudnnGetErrorString)                                                       \
  X(cudnnCreateTensorDescriptor)                                               \
  X(cudnnSetTensorNdDescriptor)                                                \
  X(cudnnCreateFilterDescriptor)                                               \
  X(cudnnSetFilter4dDescriptor)                                                \
  X(cudnnCreateConvolutionDescriptor)                                          \
  X(cudnnSetConvolution2dDescriptor)                                           \
  X(cudnnSetConvolutionGroupCount)                                             \
  X(cudnnSetConvolutionMathType)                                               \
  X(cudnnCreateActivationDescriptor)                                           \
  X(cudnnSetActivationDescriptor)                                              \
  X(cudnnGetConvolutionForwardAlgorithm_v7)                                    \
  X(cudnnFindConvolutionForwardAlgorithmEx)                                    \
  X(cudnnConvolutionForward)                                                   \
  X(cudnnConvolutionBiasActivationForward)                                     \
  X(cudnnAddTensor)                                                            \
  X(cudnnActivationForward)
#define TCC_DECLARE(name) decltype(&::name) name = nullptr;
  TCC_CUDNN_FUNCTIONS(TCC_DECLARE)
#undef TCC_DECLARE
  cudnnHandle_t handle = nullptr;
  CUdeviceptr workspace = 0;
  std::string error; // why it could not be loaded
};

constexpr size_t kWorkspaceBytes = size_t(64) << 20;
constexpr int kCandidates = 8; // algorithms asked of the heuristic

/// cuDNN, loaded and initialized once; null (with the reason recorded) if
/// that failed.
Cudnn *library() {
  static Cudnn dnn;
  static bool loaded = [] {
    void *so = openVendorLibrary("TCC_CUDNN", {"libcudnn.so.9", "libcudnn.so"},
                                 "cuDNN", dnn.error);
    if (!so)
      return false;
#define TCC_RESOLVE(name)                                                      \
  dnn.name = reinterpret_cast<decltype(dnn.name)>(dlsym(so, #name));           \
  if (!dnn.name) {                                                             \
    dnn.error = "cuDNN has no " #name;                                         \
    return false;                                                              \
  }
    TCC_CUDNN_FUNCTIONS(TCC_RESOLVE)
#undef TCC_RESOLVE
    if (cudnnStatus_t s = dnn.cudnnCreate(&dnn.handle);
        s != CUDNN_STATUS_SUCCESS) {
      dnn.error =
          std::string("cudnnCreate failed: ") + dnn.cudnnGetErrorString(s);
      return false;
    }
    // Not from the caching allocator: graphs keep pointing at it.
    if (!check(cuMemAlloc(&dnn.workspace, kWorkspaceBytes), "cuMemAlloc",
               "cuDNN workspace"))
      return false;
    return true;
  }();
  if (!loaded) {
    if (!dnn.error.empty())
      record(dnn.error);
    return nullptr;
  }
  return &dnn;
}

bool ok(Cudnn &dnn, cudnnStatus_t s, const char *what) {
  if (s == CUDNN_STATUS_SUCCESS)
    return true;
  record(std::string("cuDNN: ") + what + " failed: " +
         dnn.cudnnGetErrorString(s));
  return false;
}

/// A convolution's descriptors and algorithm, made once per key.
struct Plan {
  cudnnTensorDescriptor_t x = nullptr, out = nullptr, residual = nullptr,
                          bias = nullptr;
  cudnnFilterDescriptor_t weight = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t relu = nullptr;
  cudnnConvolutionFwdAlgo_t algo{};
  size_t workspace = 0;
  bool fused = false; // cudnnConvolutionBiasActivationForward took it
  bool valid = false;
};

std::mutex planMutex;
std::map<std::array<int64_t, 40>, Plan> plans; // guarded by planMutex

/// A 4-D tensor descriptor of the operand at `base`, NCHW sizes `dims`.
bool tensor(Cudnn &dnn, cudnnTensorDescriptor_t &out, cudnnDataType_t type,
            const int64_t *f, int base, const std::array<int64_t, 4> &dims,
            const char *name) {
  int d[4], s[4];
  for (int i = 0; i < 4; ++i) {
    d[i] = int(dims[i]);
    s[i] = int(f[base + call::kNStride + i]);
  }
  std::string what = std::string("describing ") + name;
  return ok(dnn, dnn.cudnnCreateTensorDescriptor(&out), what.c_str()) &&
         ok(dnn, dnn.cudnnSetTensorNdDescriptor(out, type, 4, d, s),
            what.c_str());
}

Plan makePlan(Cudnn &dnn, const int64_t *f, cudnnDataType_t type,
              cudnnTensorFormat_t weightFormat) {
  Plan p;
  int64_t n = f[call::kBatch], c = f[call::kInChannels];
  int64_t o = f[call::kOutChannels], groups = f[call::kGroups];
  std::array<int64_t, 4> xDims = {n, c, f[call::kInHeight],
                                  f[call::kInWidth]};
  std::array<int64_t, 4> outDims = {n, o, f[call::kOutHeight],
                                    f[call::kOutWidth]};
  bool half = type != CUDNN_DATA_FLOAT;
  if (!tensor(dnn, p.x, type, f, call::kX, xDims, "x") ||
      !tensor(dnn, p.out, type, f, call::kOut, outDims, "the output") ||
      (f[call::kResidual + call::kAddress] &&
       !tensor(dnn, p.residual, type, f, call::kResidual, outDims,
               "the residual")))
    return p;
  if (f[call::kBias]) {
    int d[4] = {1, int(o), 1, 1}, s[4] = {int(o), 1, 1, 1};
    if (!ok(dnn, dnn.cudnnCreateTensorDescriptor(&p.bias),
            "describing the bias") ||
        !ok(dnn, dnn.cudnnSetTensorNdDescriptor(p.bias, type, 4, d, s),
            "describing the bias"))
      return p;
  }
  if (!ok(dnn, dnn.cudnnCreateFilterDescriptor(&p.weight),
          "describing the weight") ||
      !ok(dnn,
          dnn.cudnnSetFilter4dDescriptor(
              p.weight, type, weightFormat, int(o), int(c / groups),
              int(f[call::kKernelHeight]), int(f[call::kKernelWidth])),
          "describing the weight") ||
      !ok(dnn, dnn.cudnnCreateConvolutionDescriptor(&p.conv),
          "cudnnCreateConvolutionDescriptor") ||
      !ok(dnn,
          dnn.cudnnSetConvolution2dDescriptor(
              p.conv, int(f[call::kPadH]), int(f[call::kPadW]),
              int(f[call::kStrideH]), int(f[call::kStrideW]),
              int(f[call::kDilationH]), int(f[call::kDilationW]),
              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
          "describing the convolution") ||
      !ok(dnn, dnn.cudnnSetConvolutionGroupCount(p.conv, int(groups)),
          "setting the group count") ||
      // f32: no TF32, like PyTorch's matmuls and tcc's products.
      !ok(dnn,
          dnn.cudnnSetConvolutionMathType(
              p.conv, half ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH),
          "setting the math type") ||
      !ok(dnn, dnn.cudnnCreateActivationDescriptor(&p.relu),
          "cudnnCreateActivationDescriptor") ||
      !ok(dnn,
          dnn.cudnnSetActivationDescriptor(p.relu, CUDNN_ACTIVATION_RELU,
                                           CUDNN_NOT_PROPAGATE_NAN, 0.0),
          "describing ReLU"))
    return p;

  cudnnConvolutionFwdAlgoPerf_t results[kCandidates]{};
  int found = 0;
  if (!ok(dnn,
          dnn.cudnnGetConvolutionForwardAlgorithm_v7(
              dnn.handle, p.x, p.weight, p.conv, p.out, kCandidates, &found,
              results),
          "cudnnGetConvolutionForwardAlgorithm_v7"))
    return p;
  for (int i = 0; i < found; ++i) {
    if (results[i].status != CUDNN_STATUS_SUCCESS ||
        results[i].memory > kWorkspaceBytes)
      continue;
    p.algo = results[i].algo;
    p.workspace = results[i].memory;
    p.valid = true;
    break;
  }
  if (!p.valid)
    record("cuDNN has no algorithm for this convolution (" +
           std::to_string(n) + " x " + std::to_string(c) + " -> " +
           std::to_string(o) + " channels, " +
           std::to_string(f[call::kKernelHeight]) + "x" +
           std::to_string(f[call::kKernelWidth]) + " kernel) within " +
           std::to_string(kWorkspaceBytes >> 20) + " MiB of workspace");
  // The fused epilogue takes a bias and ReLU (identity only with one
  // algorithm): tried on the first run.
  p.fused = f[call::kBias] && f[call::kActivation] == call::kReLU;
  return p;
}

/// cuDNN times its algorithms on this call's buffers (writing `out`) and
/// the fastest that fits the workspace is kept. Not while the stream is
/// captured, not when the residual is the output (the trials would
/// overwrite it).
void tune(Cudnn &dnn, Plan &plan, CUstream stream, const void *x,
          const void *w, void *out, bool outIsResidual) {
  static const bool enabled = [] {
    const char *env = std::getenv("TCC_CONV_AUTOTUNE");
    return !env || std::string(env) != "0";
  }();
  if (!enabled || outIsResidual || isCapturing(stream))
    return;
  cudnnConvolutionFwdAlgoPerf_t results[kCandidates]{};
  int found = 0;
  if (dnn.cudnnFindConvolutionForwardAlgorithmEx(
          dnn.handle, plan.x, x, plan.weight, w, plan.conv, plan.out, out,
          kCandidates, &found, results,
          reinterpret_cast<void *>(dnn.workspace),
          kWorkspaceBytes) != CUDNN_STATUS_SUCCESS)
    return; // keep the heuristic's choice
  for (int i = 0; i < found; ++i)
    if (results[i].status == CUDNN_STATUS_SUCCESS &&
        results[i].memory <= kWorkspaceBytes) {
      plan.algo = results[i].algo;
      plan.workspace = results[i].memory;
      return;
    }
}

} // namespace

extern "C" void tccConv(CUstream stream, const int64_t *f) {
  if (!stream || escapesCapture(stream))
    return;
  int64_t n = f[call::kBatch], o = f[call::kOutChannels];
  int64_t oh = f[call::kOutHeight], ow = f[call::kOutWidth];
  if (n == 0 || o == 0 || oh == 0 || ow == 0)
    return;
  auto fail = [](const std::string &why) {
    record("tcc convolution (cuDNN): " + why);
  };
  for (int field : {call::kBatch, call::kInChannels, call::kInHeight,
                    call::kInWidth, call::kOutChannels, call::kOutHeight,
                    call::kOutWidth})
    if (f[field] > INT32_MAX)
      return fail("a size of " + std::to_string(f[field]) +
                  " exceeds cuDNN's 32-bit sizes");
  for (int base : {call::kX, call::kWeight, call::kResidual, call::kOut})
    for (int i = 0; i < 4; ++i)
      if (f[base + call::kNStride + i] > INT32_MAX ||
          f[base + call::kNStride + i] < 0)
        return fail("a stride of " +
                    std::to_string(f[base + call::kNStride + i]) +
                    " is outside cuDNN's 32-bit strides");

  if (f[call::kBias] && o > 1 && f[call::kBiasStride] != 1)
    return fail("the bias has stride " + std::to_string(f[call::kBiasStride]) +
                " (must be 1)");
  // The weight: packed OIHW, or packed channels-last (O, H, W, I).
  int64_t ci = f[call::kInChannels] / f[call::kGroups];
  int64_t kh = f[call::kKernelHeight], kw = f[call::kKernelWidth];
  const int64_t *ws = f + call::kWeight + call::kNStride;
  cudnnTensorFormat_t weightFormat;
  auto strides = [&](int64_t a, int64_t b, int64_t c, int64_t d) {
    // Strides of unit dims do not matter.
    return (o == 1 || ws[0] == a) && (ci == 1 || ws[1] == b) &&
           (kh == 1 || ws[2] == c) && (kw == 1 || ws[3] == d);
  };
  if (strides(ci * kh * kw, kh * kw, kw, 1))
    weightFormat = CUDNN_TENSOR_NCHW;
  else if (strides(kh * kw * ci, 1, kw * ci, ci))
    weightFormat = CUDNN_TENSOR_NHWC;
  else
    return fail("the weight's strides [" + std::to_string(ws[0]) + ", " +
                std::to_string(ws[1]) + ", " + std::to_string(ws[2]) + ", " +
                std::to_string(ws[3]) +
                "] are neither packed OIHW nor packed OHWI");

  Cudnn *dnn = library();
  if (!dnn)
    return;
  cudnnDataType_t type = f[call::kElementType] == call::kF16 ? CUDNN_DATA_HALF
                         : f[call::kElementType] == call::kBF16
                             ? CUDNN_DATA_BFLOAT16
                             : CUDNN_DATA_FLOAT;
  bool hasResidual = f[call::kResidual + call::kAddress] != 0;
  std::array<int64_t, 40> key{};
  int64_t align = 256;
  for (int base : {call::kX, call::kWeight, call::kResidual, call::kOut})
    if (f[base + call::kAddress])
      align = std::min(align, pointerAlignment(f[base + call::kAddress]));
  if (f[call::kBias])
    align = std::min(align, pointerAlignment(f[call::kBias]));
  int i = 0;
  for (int field = call::kElementType; field <= call::kGroups; ++field)
    key[i++] = f[field];
  for (int base : {call::kX, call::kWeight, call::kResidual, call::kOut})
    for (int s = 0; s < 4; ++s)
      key[i++] = f[base + call::kNStride + s];
  key[i++] = f[call::kBias] != 0;
  key[i++] = hasResidual;
  key[i++] = int64_t(weightFormat);
  key[i++] = align;

  auto ptr = [&](int base) {
    return reinterpret_cast<void *>(f[base + call::kAddress]);
  };
  void *x = ptr(call::kX), *w = ptr(call::kWeight), *out = ptr(call::kOut);
  void *residual = ptr(call::kResidual);
  void *bias = reinterpret_cast<void *>(f[call::kBias]);
  void *workspace = reinterpret_cast<void *>(dnn->workspace);

  std::lock_guard<std::mutex> lock(planMutex);
  if (!ok(*dnn, dnn->cudnnSetStream(dnn->handle, stream), "cudnnSetStream"))
    return;
  auto it = plans.find(key);
  bool fresh = it == plans.end();
  if (fresh)
    it = plans.emplace(key, makePlan(*dnn, f, type, weightFormat)).first;
  Plan &plan = it->second;
  if (!plan.valid)
    return; // makePlan recorded why
  if (fresh)
    tune(*dnn, plan, stream, x, w, out, residual == out);

  float one = 1.0f, zero = 0.0f;
  if (plan.fused) {
    // out = relu(conv + residual + bias); without a residual z is out,
    // scaled by 0.
    cudnnStatus_t s = dnn->cudnnConvolutionBiasActivationForward(
        dnn->handle, &one, plan.x, x, plan.weight, w, plan.conv, plan.algo,
        workspace, plan.workspace, hasResidual ? &one : &zero,
        hasResidual ? plan.residual : plan.out, hasResidual ? residual : out,
        plan.bias, bias, plan.relu, plan.out, out);
    if (s == CUDNN_STATUS_SUCCESS)
      return;
    if (s != CUDNN_STATUS_NOT_SUPPORTED && s != CUDNN_STATUS_BAD_PARAM) {
      ok(*dnn, s, "cudnnConvolutionBiasActivationForward");
      return;
    }
    plan.fused = false; // not for this configuration: the steps below
  }
  // The residual first (the product accumulates onto it), then the bias
  // and the activation in place.
  if (hasResidual && residual != out &&
      !ok(*dnn,
          dnn->cudnnAddTensor(dnn->handle, &one, plan.residual, residual,
                              &zero, plan.out, out),
          "copying the residual"))
    return;
  if (!ok(*dnn,
          dnn->cudnnConvolutionForward(
              dnn->handle, &one, plan.x, x, plan.weight, w, plan.conv,
              plan.algo, workspace, plan.workspace,
              hasResidual ? &one : &zero, plan.out, out),
          "cudnnConvolutionForward"))
    return;
  if (bias && !ok(*dnn,
                  dnn->cudnnAddTensor(dnn->handle, &one, plan.bias, bias,
                                      &one, plan.out, out),
                  "adding the bias"))
    return;
  if (f[call::kActivation] == call::kReLU)
    ok(*dnn,
       dnn->cudnnActivationForward(dnn->handle, plan.relu, &one, plan.out,
                                   out, &zero, plan.out, out),
       "applying ReLU");
}
