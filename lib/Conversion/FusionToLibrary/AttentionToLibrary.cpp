//===- AttentionToLibrary.cpp - attention groups to the fused kernel ------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
// An operand of the attention is followed back through the transposes in
// its group, through `copy` groups that only transpose and through
// reshapes that only add or drop unit dims, to the value that holds its
// data (a slice of the fused QKV projection). The kernel then reads that
// buffer through a view whose strides the walk composed: no copies.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace mlir::tcc {
#define GEN_PASS_DEF_ATTENTIONTOLIBRARYPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Logical dim i of an operand is dim `dims[i]` of `source` (-1: a unit dim
/// that `source` does not have). `source`'s dims not named are unit dims.
struct View {
  Value source;
  SmallVector<int64_t> dims;
  SmallVector<Operation *> absorbed; // ops the view replaces, use order
};

/// Through `y = transpose(x, perm)`: y's dim d is x's dim perm[d].
void throughTranspose(View &view, TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPermutation();
  for (int64_t &d : view.dims)
    if (d >= 0)
      d = perm[d];
  view.source = t.getX();
}

/// Through a reshape that only adds or drops static unit dims: the other
/// dims, in order, must be the same (equal static sizes, or both dynamic).
bool throughUnitReshape(View &view, ReshapeOp r) {
  auto x = cast<RankedTensorType>(r.getX().getType());
  auto y = cast<RankedTensorType>(r.getType());
  SmallVector<int64_t> xDims, yDims;
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (x.getDimSize(d) != 1)
      xDims.push_back(d);
  for (int64_t d = 0; d < y.getRank(); ++d)
    if (y.getDimSize(d) != 1)
      yDims.push_back(d);
  if (xDims.size() != yDims.size())
    return false;
  // Two dynamic dims on each side could split their product differently.
  if (llvm::count_if(xDims, [&](int64_t d) { return x.isDynamicDim(d); }) > 1)
    return false;
  SmallVector<int64_t> yToX(y.getRank(), -1);
  for (auto [xd, yd] : llvm::zip(xDims, yDims)) {
    if (x.getDimSize(xd) != y.getDimSize(yd))
      return false;
    yToX[yd] = xd;
  }
  for (int64_t &d : view.dims)
    if (d >= 0)
      d = yToX[d];
  view.source = r.getX();
  return true;
}

/// The transpose a `copy` group holds and nothing else, if that is all.
TransposeOp onlyTranspose(fusion::GroupOp group) {
  Block &body = group.getBodyBlock();
  if (group.getKind() != "copy" || group->getNumResults() != 1 ||
      body.getOperations().size() != 2)
    return nullptr;
  auto t = dyn_cast<TransposeOp>(body.front());
  if (!t || t.getX() != body.getArgument(0) ||
      body.getTerminator()->getOperand(0) != t.getResult())
    return nullptr;
  return t;
}

/// Follows the attention operand `value` (inside `group`) back to its data.
View operandView(Value value, fusion::GroupOp group) {
  View view;
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  for (int64_t d = 0; d < rank; ++d)
    view.dims.push_back(d);
  view.source = value;
  // Inside the group: transposes of its block arguments.
  while (auto t = view.source.getDefiningOp<TransposeOp>())
    throughTranspose(view, t);
  auto arg = dyn_cast<BlockArgument>(view.source);
  assert(arg && arg.getOwner() == &group.getBodyBlock() &&
         "checked by the caller");
  view.source = group.getInputs()[arg.getArgNumber()];
  // Outside: unit reshapes and transposing copy groups that only this
  // attention uses.
  while (view.source.hasOneUse()) {
    Operation *def = view.source.getDefiningOp();
    if (auto r = dyn_cast_or_null<ReshapeOp>(def)) {
      View next = view;
      if (!throughUnitReshape(next, r))
        break;
      view = next;
    } else if (auto copy = dyn_cast_or_null<fusion::GroupOp>(def)) {
      TransposeOp t = onlyTranspose(copy);
      if (!t)
        break;
      throughTranspose(view, t);
      view.source = copy.getInputs()[0];
    } else {
      break;
    }
    view.absorbed.push_back(def);
  }
  return view;
}

/// Whether every op in the group is the attention, a transpose or the
/// yield, and the attention is one the kernel computes.
AttentionOp libraryAttention(fusion::GroupOp group) {
  if (group.getKind() != "attention" || group->getNumResults() != 1)
    return nullptr;
  AttentionOp attention;
  for (Operation &op : group.getBodyBlock()) {
    if (auto a = dyn_cast<AttentionOp>(op)) {
      if (attention)
        return nullptr;
      attention = a;
    } else if (!isa<TransposeOp, fusion::YieldOp>(op)) {
      return nullptr;
    }
  }
  if (!attention || attention.getMask())
    return nullptr;
  auto q = attention.getQ().getType();
  Type element = q.getElementType();
  if (!isa<BFloat16Type, Float16Type, Float32Type>(element) ||
      (q.getRank() != 3 && q.getRank() != 4))
    return nullptr;
  int64_t dim = q.getDimSize(q.getRank() - 1);
  if ((dim != 64 && dim != 128) || (element.isF32() && dim != 64))
    return nullptr;
  for (Value v : {attention.getK(), attention.getV(), attention.getResult()}) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() != element || t.getDimSize(t.getRank() - 1) != dim)
      return nullptr;
  }
  // The operands: transposes of the block arguments; the result:
  // transposes up to the yield.
  for (Value v : {attention.getQ(), attention.getK(), attention.getV()}) {
    while (auto t = v.getDefiningOp<TransposeOp>())
      v = t.getX();
    if (!isa<BlockArgument>(v))
      return nullptr;
  }
  Value result = attention.getResult();
  while (result.hasOneUse() && isa<TransposeOp>(*result.getUsers().begin()))
    result = result.getUsers().begin()->getResult(0);
  if (!result.hasOneUse() || !isa<fusion::YieldOp>(*result.getUsers().begin()))
    return nullptr;
  return attention;
}

struct AttentionToLibraryPass
    : tcc::impl::AttentionToLibraryPassBase<AttentionToLibraryPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<fusion::GroupOp, AttentionOp>> work;
    getOperation().walk([&](fusion::GroupOp group) {
      if (AttentionOp a = libraryAttention(group))
        work.push_back({group, a});
    });
    for (auto [group, attention] : work)
      rewrite(group, attention);
  }

  void rewrite(fusion::GroupOp group, AttentionOp attention) {
    IRRewriter b(group);
    b.setInsertionPoint(group);
    Location loc = attention.getLoc();
    int64_t rank = attention.getQ().getType().getRank();

    // Each operand: its data as a buffer, the view's sizes and strides.
    struct Operand {
      SmallVector<Value> sizes, strides; // logical dims
      SmallVector<int64_t> staticSizes;  // kDynamic where unknown
      Value base, offset;
    };
    auto buffer = [&](const View &view) {
      auto t = cast<RankedTensorType>(view.source.getType());
      auto layout = StridedLayoutAttr::get(
          b.getContext(), ShapedType::kDynamic,
          SmallVector<int64_t>(t.getRank(), ShapedType::kDynamic));
      auto type = MemRefType::get(t.getShape(), t.getElementType(), layout);
      auto toBuffer = bufferization::ToBufferOp::create(b, loc, type,
                                                        view.source,
                                                        /*read_only=*/true);
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, toBuffer);
      Operand o;
      o.base = meta.getBaseBuffer();
      o.offset = meta.getOffset();
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      for (int64_t d : view.dims) {
        o.sizes.push_back(d < 0 ? one : meta.getSizes()[d]);
        o.strides.push_back(d < 0 ? zero : meta.getStrides()[d]);
        o.staticSizes.push_back(d < 0 ? 1 : t.getDimSize(d));
      }
      return o;
    };
    View views[3] = {operandView(attention.getQ(), group),
                     operandView(attention.getK(), group),
                     operandView(attention.getV(), group)};
    // A source dim the view skips must be a unit dim (static: a reshape
    // said so; the walk only drops static unit dims).
    Operand q = buffer(views[0]), k = buffer(views[1]), v = buffer(views[2]);

    // Sizes the verifier could not compare are compared at run time.
    auto assertEqual = [&](const Operand &x, const Operand &y, int64_t d,
                           StringRef what) {
      if (!ShapedType::isDynamic(x.staticSizes[d]) &&
          !ShapedType::isDynamic(y.staticSizes[d]))
        return;
      Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       x.sizes[d], y.sizes[d]);
      cf::AssertOp::create(b, loc, eq,
                           ("tcc.attention: " + what + " differ").str());
    };
    for (int64_t d = 0; d < rank - 2; ++d) {
      assertEqual(q, k, d, "q and k leading dims");
      assertEqual(q, v, d, "q and v leading dims");
    }
    assertEqual(k, v, rank - 2, "k and v sequence lengths");

    // The output: the group's result, dense; the attention writes it
    // through the inverse of the transposes between them.
    auto resultType = cast<RankedTensorType>(group->getResult(0).getType());
    SmallVector<int64_t> outDims; // attention dim d is result dim outDims[d]
    for (int64_t d = 0; d < rank; ++d)
      outDims.push_back(d);
    for (Operation *user = *attention->getUsers().begin();
         isa<TransposeOp>(user); user = *user->getUsers().begin()) {
      ArrayRef<int64_t> perm = cast<TransposeOp>(user).getPermutation();
      SmallVector<int64_t> inverse(rank);
      for (int64_t i = 0; i < rank; ++i)
        inverse[perm[i]] = i;
      for (int64_t &d : outDims)
        d = inverse[d];
    }
    SmallVector<Value> logical(q.sizes.begin(), q.sizes.end());
    SmallVector<Value> resultSizes(rank), dynamic;
    for (int64_t d = 0; d < rank; ++d)
      resultSizes[outDims[d]] = logical[d];
    for (int64_t d = 0; d < rank; ++d)
      if (resultType.isDynamicDim(d))
        dynamic.push_back(resultSizes[d]);
    auto allocType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value alloc = memref::AllocOp::create(b, loc, allocType, dynamic);
    // Row-major strides of the result.
    SmallVector<OpFoldResult> resultStrides(rank);
    OpFoldResult stride = b.getIndexAttr(1);
    for (int64_t d = rank - 1; d >= 0; --d) {
      resultStrides[d] = stride;
      Value s = getValueOrCreateConstantIndexOp(b, loc, stride);
      stride = arith::MulIOp::create(b, loc, s, resultSizes[d]).getResult();
    }
    // A [.., rows, dim] view of `base`: dynamic strides, the static dim.
    int64_t dim = attention.getQ().getType().getDimSize(rank - 1);
    auto view = [&](Value base, Value offset, ArrayRef<Value> sizes,
                    ArrayRef<Value> strides) -> Value {
      auto layout = StridedLayoutAttr::get(
          b.getContext(), ShapedType::kDynamic,
          SmallVector<int64_t>(rank, ShapedType::kDynamic));
      SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
      shape.back() = dim;
      auto type =
          MemRefType::get(shape, resultType.getElementType(), layout);
      SmallVector<OpFoldResult> s(sizes.begin(), sizes.end());
      s.back() = b.getIndexAttr(dim);
      return memref::ReinterpretCastOp::create(
          b, loc, type, base, offset, s,
          SmallVector<OpFoldResult>(strides.begin(), strides.end()));
    };
    SmallVector<Value> outStrides;
    for (int64_t d = 0; d < rank; ++d)
      outStrides.push_back(getValueOrCreateConstantIndexOp(
          b, loc, resultStrides[outDims[d]]));
    Value outView = view(alloc, arith::ConstantIndexOp::create(b, loc, 0),
                         logical, outStrides);

    double scale = attention.getScale()
                       ? attention.getScale()->convertToDouble()
                       : 1.0 / std::sqrt(double(dim));
    Value qv = view(q.base, q.offset, q.sizes, q.strides);
    Value kv = view(k.base, k.offset, k.sizes, k.strides);
    Value vv = view(v.base, v.offset, v.sizes, v.strides);
    tcc_lib::AttentionOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                                 qv, kv, vv, outView,
                                 b.getF32FloatAttr(float(scale)),
                                 b.getBoolAttr(attention.getIsCausal()));
    auto result = bufferization::ToTensorOp::create(
        b, loc, resultType, alloc, /*restrict=*/true, /*writable=*/true);
    // The group's size expressions (--symbolic-shapes) stay with its value:
    // a reshape of it still lowers to a view.
    if (Attribute shape = group->getAttr(kShapeAttr))
      result->setAttr(kShapeAttr, shape);
    b.replaceOp(group, result.getResult());
    // The copies and reshapes the views replaced.
    for (const View &v : views)
      for (Operation *op : v.absorbed)
        if (op->use_empty())
          b.eraseOp(op);
  }
};

} // namespace
