//===- ConvToLibrary.cpp - convolutions to cuDNN ---------------------------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
// The convolution leaves its group: the library computes it (with the
// bias, a residual add and ReLU that follow it, when they do) into a new
// buffer, and the rest of the group reads that buffer as a new input. A
// group left with nothing to compute disappears.
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"
#include "tcc/Target/Target.h"

#include "LibraryGroups.h"

#ifdef TCC_HAVE_DNNL
#include "tcc/Runtime/ConvCall.h"
#include "tcc/Runtime/HostLibrary.h"

#include <array>
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_CONVTOLIBRARYPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A convolution the library computes, and the epilogue it takes along.
struct LibraryConv {
  Conv2dOp conv;
  AddOp residualAdd;       // conv (+ bias) + residual, or null
  BlockArgument residual;  // the residual's block argument, if any
  ReluOp relu;             // or null
  Value result;            // the last value the library computes
};

/// The group's convolution, if it reads the group's inputs directly and
/// is one the target's library computes (cuDNN: f32, f16, bf16; oneDNN:
/// f32; symmetric padding), with the epilogue it can take:
/// `relu?(conv + residual?)`.
std::optional<LibraryConv> libraryConv(fusion::GroupOp group, bool host) {
  Conv2dOp conv;
  for (Operation &op : group.getBodyBlock()) {
    if (auto c = dyn_cast<Conv2dOp>(op)) {
      if (conv)
        return std::nullopt;
      conv = c;
    }
  }
  if (!conv)
    return std::nullopt;
  Type element = conv.getType().getElementType();
  if (host ? !element.isF32()
           : !isa<Float32Type, Float16Type, BFloat16Type>(element))
    return std::nullopt;
  if (!isGroupArgument(conv.getX(), group) ||
      !isGroupArgument(conv.getWeight(), group) ||
      (conv.getBias() && !isGroupArgument(conv.getBias(), group)))
    return std::nullopt;
  SmallVector<int64_t, 4> padding = conv.getPaddingOrDefault();
  if (padding[0] != padding[2] || padding[1] != padding[3])
    return std::nullopt; // cuDNN pads both sides alike

  LibraryConv lc{conv, nullptr, nullptr, nullptr, conv.getResult()};
  if ((lc.residualAdd = residualAddOf(lc.result, group, lc.residual)))
    lc.result = lc.residualAdd.getResult();
  if (auto relu = dyn_cast_or_null<ReluOp>(onlyUser(lc.result))) {
    lc.relu = relu;
    lc.result = relu.getResult();
  }
  return lc;
}

/// The scratchpad oneDNN asks for `conv` (0 without oneDNN), at the sizes
/// its types give, an open batch taken as 1, and with every operand dense
/// in its layout: what the call will most likely be (a call that needs
/// more uses the runtime's own buffer). 0 when a size but the batch is
/// open.
int64_t hostScratchBytes(Conv2dOp conv, bool residual, bool relu,
                         bool constantWeight) {
#ifdef TCC_HAVE_DNNL
  namespace call = tcc_conv;
  bool channelsLast = conv.isChannelsLast();
  LayoutDims L = layoutDims(channelsLast);
  auto x = cast<RankedTensorType>(conv.getX().getType());
  auto w = cast<RankedTensorType>(conv.getWeight().getType());
  auto y = cast<RankedTensorType>(conv.getType());
  int64_t n = x.isDynamicDim(L.n) ? 1 : x.getDimSize(L.n);
  int64_t c = x.getDimSize(L.c), h = x.getDimSize(L.h);
  int64_t wd = x.getDimSize(L.w), o = y.getDimSize(L.c);
  int64_t oh = y.getDimSize(L.h), ow = y.getDimSize(L.w);
  int64_t kh = w.getDimSize(L.h), kw = w.getDimSize(L.w);
  int64_t cg = w.getDimSize(L.c);
  for (int64_t v : {c, h, wd, o, oh, ow, kh, kw, cg})
    if (ShapedType::isDynamic(v))
      return 0;
  std::array<int64_t, call::kFields> f{};
  // Dense strides of dims N, C, H, W of an [n, c, h, w] tensor in the
  // layout (a weight: n = O, c = C / groups).
  auto dense = [&](int base, int64_t dc, int64_t dh, int64_t dw) {
    f[base + call::kAddress] = 1 + base; // present; the address is not read
    f[base + call::kNStride] = dc * dh * dw;
    f[base + call::kCStride] = channelsLast ? 1 : dh * dw;
    f[base + call::kHStride] = channelsLast ? dw * dc : dw;
    f[base + call::kWStride] = channelsLast ? dc : 1;
  };
  SmallVector<int64_t, 2> strides = conv.getStridesOrDefault();
  SmallVector<int64_t, 4> padding = conv.getPaddingOrDefault();
  SmallVector<int64_t, 2> dilations = conv.getDilationsOrDefault();
  f[call::kElementType] = call::kF32;
  f[call::kActivation] = relu ? call::kReLU : call::kNone;
  f[call::kBatch] = n;
  f[call::kInChannels] = c;
  f[call::kInHeight] = h;
  f[call::kInWidth] = wd;
  f[call::kOutChannels] = o;
  f[call::kKernelHeight] = kh;
  f[call::kKernelWidth] = kw;
  f[call::kOutHeight] = oh;
  f[call::kOutWidth] = ow;
  f[call::kPadH] = padding[0];
  f[call::kPadW] = padding[1];
  f[call::kStrideH] = strides[0];
  f[call::kStrideW] = strides[1];
  f[call::kDilationH] = dilations[0];
  f[call::kDilationW] = dilations[1];
  f[call::kGroups] = conv.getGroups();
  f[call::kBias] = conv.getBias() ? 1 : 0;
  f[call::kBiasStride] = conv.getBias() ? 1 : 0;
  dense(call::kX, c, h, wd);
  dense(call::kWeight, cg, kh, kw);
  dense(call::kOut, o, oh, ow);
  if (residual)
    dense(call::kResidual, o, oh, ow);
  f[call::kConstantWeight] = constantWeight;
  return tccHostConvScratchpadBytes(f.data());
#else
  (void)conv, (void)residual, (void)relu, (void)constantWeight;
  return 0;
#endif
}

struct ConvToLibraryPass
    : tcc::impl::ConvToLibraryPassBase<ConvToLibraryPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), target, error);
    if (failed(resolved)) {
      getOperation().emitError("tcc-conv-to-library: ") << error;
      return signalPassFailure();
    }
    onCPU = resolved->isCPU();
    SmallVector<std::pair<fusion::GroupOp, LibraryConv>> work;
    getOperation().walk([&](fusion::GroupOp group) {
      if (std::optional<LibraryConv> lc = libraryConv(group, onCPU))
        work.push_back({group, *lc});
    });
    for (auto &[group, lc] : work)
      rewrite(group, lc);
  }

  void rewrite(fusion::GroupOp group, LibraryConv &lc) {
    IRRewriter b(group);
    b.setInsertionPoint(group);
    Location loc = lc.conv.getLoc();

    auto read = [&](Value arg) -> Value {
      return arg ? readGroupInput(b, loc, group, cast<BlockArgument>(arg))
                 : Value();
    };
    Value x = read(lc.conv.getX()), w = read(lc.conv.getWeight());
    Value bias = read(lc.conv.getBias()), residual = read(lc.residual);
    // The library call takes NCHW-ordered views: a channels-last operand
    // is a transposed view of its NHWC (or OHWI) buffer, its strides say
    // how it lies.
    bool channelsLast = lc.conv.isChannelsLast();
    auto logical = [&](Value buffer) -> Value {
      if (!buffer || !channelsLast)
        return buffer;
      AffineMap toNCHW = AffineMap::getPermutationMap(
          ArrayRef<unsigned>{0, 3, 1, 2}, b.getContext());
      return memref::TransposeOp::create(b, loc, buffer,
                                         AffineMapAttr::get(toNCHW));
    };
    x = logical(x);
    w = logical(w);
    residual = logical(residual);

    SmallVector<int64_t, 2> strides = lc.conv.getStridesOrDefault();
    SmallVector<int64_t, 4> padding = lc.conv.getPaddingOrDefault();
    SmallVector<int64_t, 2> dilations = lc.conv.getDilationsOrDefault();

    // The output's sizes: N from x, O from the weight, H and W from the
    // convolution's arithmetic.
    auto resultType = cast<RankedTensorType>(lc.result.getType());
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto dim = [&](Value buffer, int64_t d) -> Value {
      int64_t size = cast<MemRefType>(buffer.getType()).getDimSize(d);
      if (!ShapedType::isDynamic(size))
        return index(size);
      return memref::DimOp::create(b, loc, buffer, d);
    };
    // Dim d (NCHW order) of the output.
    LayoutDims layout = layoutDims(channelsLast);
    auto outputDim = [&](int64_t d) -> int64_t {
      return d == 0 ? layout.n : d == 1 ? layout.c : layout.spatial(d - 2);
    };
    auto computeOutputSize = [&](int64_t d) -> Value {
      if (!resultType.isDynamicDim(outputDim(d)))
        return index(resultType.getDimSize(outputDim(d)));
      if (d == 0)
        return dim(x, 0);
      if (d == 1)
        return dim(w, 0);
      int64_t i = d - 2;
      // (in + 2 pad - dilation (k - 1) - 1) / stride + 1
      Value in = dim(x, d), k = dim(w, d);
      Value span = arith::MulIOp::create(
          b, loc, index(dilations[i]),
          arith::SubIOp::create(b, loc, k, index(1)));
      Value num = arith::SubIOp::create(
          b, loc, arith::AddIOp::create(b, loc, in, index(2 * padding[i])),
          arith::AddIOp::create(b, loc, span, index(1)));
      return arith::AddIOp::create(
          b, loc, arith::DivSIOp::create(b, loc, num, index(strides[i])),
          index(1));
    };
    // Dim d of the output, as a value, made once.
    SmallVector<Value, 4> outputSizes(4);
    auto outputSize = [&](int64_t d) -> Value {
      if (!outputSizes[d])
        outputSizes[d] = computeOutputSize(d);
      return outputSizes[d];
    };
    // The buffer's dynamic sizes, in its own (physical) dim order.
    SmallVector<Value> dynamic;
    for (int64_t p = 0; p < 4; ++p)
      if (resultType.isDynamicDim(p))
        for (int64_t d = 0; d < 4; ++d)
          if (outputDim(d) == p)
            dynamic.push_back(outputSize(d));
    // What the types leave open and the generated lowering checks (x and
    // w are NCHW-ordered views here).
    assertDimsAgree(
        b, loc, x, 1, w, 1,
        "tcc.conv2d: input channels differ from weight's at runtime",
        lc.conv.getGroups());
    if (bias)
      assertDimsAgree(b, loc, bias, 0, w, 0,
                      "tcc.conv2d: bias size differs from the output channels");
    // A residual whose dims the types leave open must match the output's.
    if (residual) {
      auto rt = cast<MemRefType>(residual.getType());
      for (int64_t d = 0; d < 4; ++d) {
        if (!rt.isDynamicDim(d) && !resultType.isDynamicDim(outputDim(d)))
          continue;
        Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         dim(residual, d), outputSize(d));
        cf::AssertOp::create(
            b, loc, eq,
            "tcc.conv2d: the residual's shape differs from the output's");
      }
    }
    auto allocType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value out = memref::AllocOp::create(b, loc, allocType, dynamic);
    bool constantWeight = isConstantGroupInput(group, lc.conv.getWeight());
    Value scratch;
    if (onCPU)
      scratch = allocateLibraryScratch(
          b, loc,
          hostScratchBytes(lc.conv, residual != nullptr, lc.relu != nullptr,
                           constantWeight));
    tcc_lib::ConvOp::create(
        b, loc, /*asyncToken=*/Type(), ValueRange(), x, w, bias, residual,
        logical(out), scratch, b.getDenseI64ArrayAttr(strides),
        b.getDenseI64ArrayAttr({padding[0], padding[1]}),
        b.getDenseI64ArrayAttr(dilations), lc.conv.getGroups(),
        b.getStringAttr(lc.relu ? "relu" : "none"),
        /*constant_weight=*/constantWeight);
    Value computed = bufferization::ToTensorOp::create(
        b, loc, resultType, out, /*restrict=*/true, /*writable=*/true);

    computeOutsideGroup(b, group, lc.result,
                        {lc.relu.getOperation(),
                         lc.residualAdd.getOperation(),
                         lc.conv.getOperation()},
                        computed,
                        cast<memref::AllocOp>(out.getDefiningOp()));
  }

  /// The target is a CPU (oneDNN, host buffers), not a GPU (cuDNN).
  bool onCPU = false;
};

} // namespace
