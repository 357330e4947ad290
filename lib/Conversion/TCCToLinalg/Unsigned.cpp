//===- Unsigned.cpp - unsigned element types made signless ------*- C++ -*-===//
//
// The first step of convert-tcc-to-linalg where a function has unsigned
// element types (ui8 .. ui64). arith and linalg take signless integers only,
// so every value becomes signless here and the ops whose integer semantics
// depend on signedness are rewritten from their tcc types:
// - ordered ops (maximum, minimum, cmp, reduce_max/min, max_pool2d, the max
//   and min scatters, sort, topk) run on the signed type with the sign bit
//   flipped on the way in and out: x ^ 0x80.. maps the unsigned order onto
//   the signed one, for every width;
// - div, rem, shift_right and casts from or to unsigned types become
//   linalg.generics with divui, remui, shrui, uitofp, fptoui, extui;
// - abs and relu of an unsigned tensor are the tensor itself.
// Everything else keeps its op with signless types (the bits are the same).
// The signless tcc ops then lower like any other. StableHLO's
// RemoveSignTypeConverter and IREE's strip-signedness do the same at their
// boundaries.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

bool isUnsignedType(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    t = shaped.getElementType();
  return t.isUnsignedInteger();
}

bool hasUnsignedOperand(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isUnsignedType);
}

/// ui<N> -> i<N>, on scalars and inside ranked tensors.
class SignlessTypeConverter : public TypeConverter {
public:
  SignlessTypeConverter() {
    addConversion([](Type t) { return t; });
    addConversion([](IntegerType t) -> Type {
      return t.isUnsigned() ? IntegerType::get(t.getContext(), t.getWidth())
                            : t;
    });
    addConversion([this](RankedTensorType t) -> Type {
      return t.clone(convertType(t.getElementType()));
    });
    auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

/// An op legal here: no unsigned type in its operands, results, block
/// arguments or (for functions) signature.
bool isSignless(const TypeConverter &converter, Operation *op) {
  if (!converter.isLegal(op))
    return false;
  if (auto func = dyn_cast<func::FuncOp>(op))
    if (!converter.isSignatureLegal(func.getFunctionType()))
      return false;
  for (Region &region : op->getRegions())
    if (!converter.isLegal(&region))
      return false;
  return true;
}

/// Any other op without regions: the same op on the converted values.
struct RetypeOp : ConversionPattern {
  RetypeOp(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<ConstantOp>(op))
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs(), op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// fusion.group: the same group with converted results and block arguments.
struct RetypeGroup : OpConversionPattern<fusion::GroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(fusion::GroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    OperationState state(op.getLoc(), op->getName(), adaptor.getOperands(),
                         types, op->getAttrs());
    state.addRegion();
    Operation *group = rewriter.create(state);
    rewriter.inlineRegionBefore(op.getBody(), group->getRegion(0),
                                group->getRegion(0).end());
    if (failed(rewriter.convertRegionTypes(&group->getRegion(0),
                                           *getTypeConverter())))
      return failure();
    rewriter.replaceOp(op, group->getResults());
    return success();
  }
};

/// A ui constant: the same bits as a signless one.
struct RetypeConstant : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type || type == op.getType())
      return failure();
    Attribute value;
    if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      value = dense.bitcast(type.getElementType());
    else if (auto blob = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
      value = DenseResourceElementsAttr::get(type, blob.getRawHandle());
    else
      return rewriter.notifyMatchFailure(op, "unknown constant attribute");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, type,
                                            cast<ElementsAttr>(value));
    return success();
  }
};

bool isSignMask(Value v) {
  APInt bits;
  auto type = cast<RankedTensorType>(v.getType());
  return type.getRank() == 0 && matchPattern(v, m_ConstantInt(&bits)) &&
         bits.isSignMask();
}

/// x ^ 0b10..0: the unsigned order of x is the signed order of the result.
/// A flip of a flip (max feeding reduce_max) is the value itself.
Value flipSignBit(OpBuilder &b, Location loc, Value x) {
  if (auto inner = x.getDefiningOp<BitwiseXorOp>())
    if (isSignMask(inner.getRhs()) && inner.getLhs().getType() == x.getType())
      return inner.getLhs();
  auto type = cast<RankedTensorType>(x.getType());
  auto element = cast<IntegerType>(type.getElementType());
  auto scalarType = RankedTensorType::get({}, element);
  APInt bit = APInt::getSignMask(element.getWidth());
  Value mask = ConstantOp::create(b, loc, DenseElementsAttr::get(scalarType, bit));
  return BitwiseXorOp::create(b, loc, type, x, mask);
}

/// An ordered op on unsigned values: the same op (attributes kept) on the
/// sign-flipped `flipped` operands, its `flippedResults` flipped back.
struct OrderThroughSignBit : ConversionPattern {
  OrderThroughSignBit(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef opName, ArrayRef<unsigned> flipped,
                      ArrayRef<unsigned> flippedResults)
      : ConversionPattern(converter, opName, /*benefit=*/2, ctx),
        flipped(flipped), flippedResults(flippedResults) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isUnsignedType(op->getOperand(flipped.front()).getType()))
      return failure();
    // Scatters are ordered only when they take the max or min.
    if (auto reduction = op->getAttrOfType<StringAttr>("reduction"))
      if (reduction.getValue() != "max" && reduction.getValue() != "min")
        return failure();
    Location loc = op->getLoc();
    SmallVector<Value> ins(operands);
    for (unsigned i : flipped)
      ins[i] = flipSignBit(rewriter, loc, ins[i]);
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(loc, op->getName(), ins, types, op->getAttrs());
    SmallVector<Value> results(rewriter.create(state)->getResults());
    for (unsigned i : flippedResults)
      results[i] = flipSignBit(rewriter, loc, results[i]);
    rewriter.replaceOp(op, results);
    return success();
  }
  SmallVector<unsigned> flipped, flippedResults;
};

/// abs and relu of an unsigned tensor.
template <typename OpTy> struct UnsignedIdentity : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isUnsignedType(op.getX().getType()))
      return failure();
    Value x = adaptor.getX();
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, x.getType() == type
                               ? x
                               : castChecked(rewriter, op.getLoc(), x, type));
    return success();
  }
};

/// div, rem and shift_right of unsigned integers: one generic.
template <typename OpTy>
struct UnsignedArithmetic : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isUnsignedType(op.getLhs().getType()))
      return failure();
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    Value r = buildElementwise(
        rewriter, op.getLoc(), type, adaptor.getOperands(),
        op->getName().getStringRef(),
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          if constexpr (std::is_same_v<OpTy, DivOp>)
            return arith::DivUIOp::create(b, l, a[0], a[1]);
          else if constexpr (std::is_same_v<OpTy, RemOp>)
            return arith::RemUIOp::create(b, l, a[0], a[1]);
          else
            return shiftRight(b, l, a[0], a[1], /*isUnsigned=*/true);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// A cast from or to an unsigned type.
struct UnsignedCast : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool srcUnsigned = isUnsignedType(op.getX().getType());
    bool dstUnsigned = isUnsignedType(op.getType());
    if (!srcUnsigned && !dstUnsigned)
      return failure();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value r = buildElementwise(
        rewriter, op.getLoc(), type, adaptor.getOperands(), "tcc.cast",
        [&](OpBuilder &b, Location l, ValueRange a) {
          return convertScalar(b, l, a[0], type.getElementType(), srcUnsigned,
                               dstUnsigned);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

bool mlir::tcc::hasUnsignedTypes(Operation *root) {
  WalkResult r = root->walk([](Operation *op) {
    auto anyUnsigned = [](TypeRange types) {
      return llvm::any_of(types, isUnsignedType);
    };
    if (anyUnsigned(op->getOperandTypes()) || anyUnsigned(op->getResultTypes()))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (anyUnsigned(block.getArgumentTypes()))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

LogicalResult mlir::tcc::convertUnsignedToSignless(Operation *root) {
  MLIRContext *ctx = root->getContext();
  SignlessTypeConverter converter;
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) { return isSignless(converter, op); });
  RewritePatternSet patterns(ctx);
  patterns.add<RetypeOp>(converter, ctx);
  patterns.add<RetypeGroup, RetypeConstant, UnsignedIdentity<AbsOp>,
               UnsignedIdentity<ReluOp>, UnsignedArithmetic<DivOp>,
               UnsignedArithmetic<RemOp>, UnsignedArithmetic<ShiftRightOp>,
               UnsignedCast>(converter, ctx, /*benefit=*/2);
  auto ordered = [&](StringRef name, ArrayRef<unsigned> in,
                     ArrayRef<unsigned> out) {
    patterns.add<OrderThroughSignBit>(converter, ctx, name, in, out);
  };
  ordered(MaximumOp::getOperationName(), {0, 1}, {0});
  ordered(MinimumOp::getOperationName(), {0, 1}, {0});
  ordered(CmpOp::getOperationName(), {0, 1}, {});
  ordered(ReduceMaxOp::getOperationName(), {0}, {0});
  ordered(ReduceMinOp::getOperationName(), {0}, {0});
  ordered(MaxPool2dOp::getOperationName(), {0}, {0});
  ordered(ScatterElementsOp::getOperationName(), {0, 2}, {0});
  ordered(ScatterNDOp::getOperationName(), {0, 2}, {0});
  ordered(SortOp::getOperationName(), {0}, {0});
  ordered(TopKOp::getOperationName(), {0}, {0});
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(root, target, std::move(patterns));
}
