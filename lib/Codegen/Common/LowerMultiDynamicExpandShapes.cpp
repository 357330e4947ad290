//===- LowerMultiDynamicExpandShapes.cpp - expand_shape with open groups --===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERMULTIDYNAMICEXPANDSHAPESPASS
#include "tcc/Codegen/Common/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Whether some reassociation group of `op` has two or more dynamic sizes.
bool hasMultiDynamicGroup(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  for (ReassociationIndices group : op.getReassociationIndices())
    if (llvm::count_if(group, [&](int64_t d) {
          return type.isDynamicDim(d);
        }) > 1)
      return true;
  return false;
}

void lower(memref::ExpandShapeOp op) {
  IRRewriter b(op);
  Location loc = op.getLoc();
  MemRefType srcType = op.getSrcType();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, op.getSrc());
  // Static strides and offset of the source's type where it has them (the
  // result type's layout expects them as constants).
  auto [srcStrides, srcOffset] = srcType.getStridesAndOffset();
  auto staticOr = [&](int64_t v, Value dynamic) -> OpFoldResult {
    return ShapedType::isDynamic(v) ? OpFoldResult(dynamic)
                                    : OpFoldResult(b.getIndexAttr(v));
  };
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(sizes.size());
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  for (auto [srcDim, group] : llvm::enumerate(op.getReassociationIndices())) {
    OpFoldResult stride =
        staticOr(srcStrides[srcDim], meta.getStrides()[srcDim]);
    for (int64_t i = group.size() - 1; i >= 0; --i) {
      strides[group[i]] = stride;
      if (i > 0)
        stride = affine::makeComposedFoldedAffineApply(
            b, loc, s0 * s1, {stride, sizes[group[i]]});
    }
  }
  OpFoldResult offset = staticOr(srcOffset, meta.getOffset());
  b.replaceOpWithNewOp<memref::ReinterpretCastOp>(
      op, op.getResultType(), meta.getBaseBuffer(), offset, sizes, strides);
}

struct LowerMultiDynamicExpandShapesPass
    : tcc::impl::LowerMultiDynamicExpandShapesPassBase<
          LowerMultiDynamicExpandShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation().walk([&](memref::ExpandShapeOp op) {
      if (hasMultiDynamicGroup(op))
        ops.push_back(op);
    });
    for (memref::ExpandShapeOp op : ops)
      lower(op);
  }
};

} // namespace
