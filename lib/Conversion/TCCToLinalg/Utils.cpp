//===- Utils.cpp - helpers shared by the tcc-to-linalg patterns -*- C++ -*-===//
#include "Utils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

bool lowering::isUnsignedElement(Type t) {
  return getElementTypeOrSelf(t).isUnsignedInteger();
}

RankedTensorType lowering::convertedType(const TypeConverter &converter,
                                         Type t) {
  return cast<RankedTensorType>(converter.convertType(t));
}

Value lowering::dimValue(OpBuilder &b, Location loc, Value v, int64_t d) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.isDynamicDim(d))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
  return tensor::DimOp::create(b, loc, v, d);
}

SmallVector<Value> lowering::dimValues(OpBuilder &b, Location loc, Value v) {
  SmallVector<Value> dims;
  for (int64_t d = 0, e = cast<RankedTensorType>(v.getType()).getRank(); d < e;
       ++d)
    dims.push_back(dimValue(b, loc, v, d));
  return dims;
}

LogicalResult lowering::reifiedResultDims(OpBuilder &b, Operation *op,
                                          SmallVectorImpl<Value> &dims) {
  ReifiedRankedShapedTypeDims shapes;
  if (failed(reifyResultShapes(b, op, shapes)))
    return failure();
  for (OpFoldResult d : shapes.front())
    dims.push_back(getValueOrCreateConstantIndexOp(b, op->getLoc(), d));
  return success();
}

Value lowering::emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                          ArrayRef<Value> dims) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d)) {
      dynamic.push_back(dims[d]);
      continue;
    }
    // A static result dim computed from dynamic operands: the declared type
    // is a promise the operands must keep at runtime.
    if (d < (int64_t)dims.size() && dims[d])
      assertEqual(b, loc, dims[d],
                  arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)),
                  "tcc: a dim differs from the static size in the op's "
                  "result type (dim " +
                      Twine(d) + ")");
  }
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dynamic);
}

Value lowering::filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                           ArrayRef<Value> dims, Value value) {
  Value empty = emptyTensor(b, loc, type, dims);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value lowering::scalarConstant(OpBuilder &b, Location loc, Type type,
                               double value, bool isUnsigned) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, value));
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, (int64_t)value);
  auto it = cast<IntegerType>(type);
  int64_t v;
  if (isUnsigned && std::isinf(value))
    v = value > 0 ? -1 : 0; // All ones is 2^N - 1.
  else if (value == std::numeric_limits<double>::infinity())
    v = it.getWidth() == 1 ? 1 : llvm::maxIntN(it.getWidth());
  else if (value == -std::numeric_limits<double>::infinity())
    v = it.getWidth() == 1 ? 0 : llvm::minIntN(it.getWidth());
  else
    v = (int64_t)value;
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, v));
}

Type lowering::computeType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value lowering::toCompute(OpBuilder &b, Location loc, Value scalar) {
  Type ct = computeType(scalar.getType());
  if (ct == scalar.getType())
    return scalar;
  return arith::ExtFOp::create(b, loc, ct, scalar);
}

Value lowering::convertScalar(OpBuilder &b, Location loc, Value scalar,
                            Type target, bool srcUnsigned, bool dstUnsigned) {
  Type source = scalar.getType();
  bool sf = isa<FloatType>(source), tf = isa<FloatType>(target);
  if (source == target || target.isInteger(1) || (sf && tf) ||
      (!srcUnsigned && !dstUnsigned))
    return convertScalar(b, loc, scalar, target);
  if (tf) // unsigned -> float
    return arith::UIToFPOp::create(b, loc, target, scalar);
  if (sf) {
    // float -> unsigned truncates toward zero; below 64 bits through i64
    // (the reference's wrap-around for out-of-range values).
    if (target.getIntOrFloatBitWidth() == 64)
      return arith::FPToUIOp::create(b, loc, target, scalar);
    Value wide = arith::FPToSIOp::create(b, loc, b.getI64Type(), scalar);
    return arith::TruncIOp::create(b, loc, target, wide);
  }
  unsigned sw = source.getIntOrFloatBitWidth(),
           tw = target.getIntOrFloatBitWidth();
  if (sw < tw && srcUnsigned)
    return arith::ExtUIOp::create(b, loc, target, scalar);
  return convertScalar(b, loc, scalar, target);
}

static Value shiftOutOfRange(OpBuilder &b, Location loc, Value n) {
  unsigned w = n.getType().getIntOrFloatBitWidth();
  // Negative amounts are huge unsigned ones.
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n,
                               scalarConstant(b, loc, n.getType(), w));
}

Value lowering::shiftLeft(OpBuilder &b, Location loc, Value x, Value n) {
  Value shifted = arith::ShLIOp::create(b, loc, x, n);
  return arith::SelectOp::create(b, loc, shiftOutOfRange(b, loc, n),
                                 scalarConstant(b, loc, x.getType(), 0),
                                 shifted);
}

Value lowering::shiftRight(OpBuilder &b, Location loc, Value x, Value n,
                         bool isUnsigned) {
  Value out = shiftOutOfRange(b, loc, n);
  if (isUnsigned)
    return arith::SelectOp::create(
        b, loc, out, scalarConstant(b, loc, x.getType(), 0),
        arith::ShRUIOp::create(b, loc, x, n));
  // Out of range: the sign, as a shift by width - 1 gives it.
  unsigned w = x.getType().getIntOrFloatBitWidth();
  Value amount = arith::SelectOp::create(
      b, loc, out, scalarConstant(b, loc, n.getType(), w - 1), n);
  return arith::ShRSIOp::create(b, loc, x, amount);
}

Value lowering::convertScalar(OpBuilder &b, Location loc, Value scalar,
                            Type target) {
  Type source = scalar.getType();
  if (source == target)
    return scalar;
  auto sf = dyn_cast<FloatType>(source), tf = dyn_cast<FloatType>(target);
  if (sf && tf) {
    if (sf.getWidth() < tf.getWidth())
      return arith::ExtFOp::create(b, loc, target, scalar);
    // f16 <-> bf16 have the same width: go through f32.
    if (sf.getWidth() == tf.getWidth()) {
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
      return arith::TruncFOp::create(b, loc, target, wide);
    }
    return arith::TruncFOp::create(b, loc, target, scalar);
  }
  if (target.isInteger(1)) {
    Value zero = scalarConstant(b, loc, source, 0);
    if (sf)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, scalar,
                                   zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, scalar,
                                 zero);
  }
  if (sf) // float -> int truncates toward zero
    return arith::FPToSIOp::create(b, loc, target, scalar);
  if (tf) {
    if (source.isInteger(1))
      return arith::UIToFPOp::create(b, loc, target, scalar);
    return arith::SIToFPOp::create(b, loc, target, scalar);
  }
  unsigned sw = source.getIntOrFloatBitWidth(),
           tw = target.getIntOrFloatBitWidth();
  if (sw < tw)
    return source.isInteger(1)
               ? arith::ExtUIOp::create(b, loc, target, scalar).getResult()
               : arith::ExtSIOp::create(b, loc, target, scalar).getResult();
  return arith::TruncIOp::create(b, loc, target, scalar);
}

void lowering::assertEqual(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         const Twine &message) {
  std::optional<int64_t> l = getConstantIntValue(lhs),
                         r = getConstantIntValue(rhs);
  if (l && r && *l == *r)
    return;
  if (lhs == rhs)
    return;
  Value eq =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  cf::AssertOp::create(b, loc, eq, message.str());
}

void lowering::assertSameDim(OpBuilder &b, Location loc, Value x, int64_t dx,
                             Value y, int64_t dy, const Twine &message) {
  auto tx = cast<RankedTensorType>(x.getType());
  auto ty = cast<RankedTensorType>(y.getType());
  if (!tx.isDynamicDim(dx) && !ty.isDynamicDim(dy))
    return; // The verifier has compared them.
  assertEqual(b, loc, dimValue(b, loc, x, dx), dimValue(b, loc, y, dy),
              message);
}

Value lowering::ownCopy(OpBuilder &b, Location loc, Value v) {
  return bufferization::AllocTensorOp::create(
             b, loc, cast<RankedTensorType>(v.getType()), ValueRange{}, v)
      .getResult();
}

Value lowering::castChecked(OpBuilder &b, Location loc, Value v,
                            RankedTensorType type) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from == type)
    return v;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!type.isDynamicDim(d) && from.isDynamicDim(d))
      assertEqual(b, loc, tensor::DimOp::create(b, loc, v, d),
                  arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)),
                  "tcc: a dim differs from the static size in the op's "
                  "result type (dim " +
                      Twine(d) + ")");
  return tensor::CastOp::create(b, loc, type, v);
}

SmallVector<Value> lowering::broadcastDims(OpBuilder &b, Location loc,
                                         RankedTensorType resultType,
                                         ValueRange operands,
                                         StringRef opName) {
  int64_t rank = resultType.getRank();
  SmallVector<Value> dims;
  for (int64_t i = 0; i < rank; ++i) {
    Value chosen;
    int64_t staticSize = resultType.getDimSize(i);
    // A `?` result dim over static operands (a less static declared type)
    // still has the operands' size.
    if (ShapedType::isDynamic(staticSize))
      for (Value v : operands) {
        auto t = cast<RankedTensorType>(v.getType());
        int64_t d = i - (rank - t.getRank());
        if (d >= 0 && !t.isDynamicDim(d) && t.getDimSize(d) != 1)
          staticSize = t.getDimSize(d);
      }
    if (!ShapedType::isDynamic(staticSize))
      chosen = arith::ConstantIndexOp::create(b, loc, staticSize);
    for (Value v : operands) {
      auto t = cast<RankedTensorType>(v.getType());
      int64_t d = i - (rank - t.getRank());
      if (d < 0 || !t.isDynamicDim(d))
        continue;
      Value size = tensor::DimOp::create(b, loc, v, d);
      if (!chosen) {
        chosen = size;
        continue;
      }
      assertEqual(b, loc, size, chosen,
                  opName + ": dynamic dims disagree at runtime (dim " +
                      Twine(i) + ")");
    }
    if (!chosen) // Every operand has static size 1 here.
      chosen = arith::ConstantIndexOp::create(b, loc, 1);
    dims.push_back(chosen);
  }
  return dims;
}

AffineMap lowering::broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                               RankedTensorType resultType) {
  int64_t rank = resultType.getRank(), lead = rank - operandType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operandType.getRank(); ++d) {
    bool stretched =
        operandType.getDimSize(d) == 1 && resultType.getDimSize(lead + d) != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(lead + d, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value lowering::buildMapped(OpBuilder &b, Location loc,
                          RankedTensorType resultType,
                          ArrayRef<Value> resultDims, ValueRange inputs,
                          ArrayRef<AffineMap> inputMaps, ScalarBodyFn body,
                          bool bodyUnsigned, bool resultUnsigned) {
  MLIRContext *ctx = b.getContext();
  Value init = emptyTensor(b, loc, resultType, resultDims);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> computeArgs;
        for (Value a : args.drop_back())
          computeArgs.push_back(toCompute(nb, nloc, a));
        Value r = body(nb, nloc, computeArgs);
        r = convertScalar(nb, nloc, r, resultType.getElementType(),
                          bodyUnsigned, resultUnsigned);
        linalg::YieldOp::create(nb, nloc, r);
      });
  return generic.getResult(0);
}

Value lowering::buildElementwise(OpBuilder &b, Location loc,
                               RankedTensorType resultType, ValueRange operands,
                               StringRef opName, ScalarBodyFn body,
                               bool bodyUnsigned, bool resultUnsigned) {
  SmallVector<Value> dims = broadcastDims(b, loc, resultType, operands, opName);
  SmallVector<AffineMap> maps;
  for (Value v : operands)
    maps.push_back(broadcastMap(b.getContext(),
                                cast<RankedTensorType>(v.getType()),
                                resultType));
  return buildMapped(b, loc, resultType, dims, operands, maps, body,
                     bodyUnsigned, resultUnsigned);
}

AffineMap lowering::reducedMap(MLIRContext *ctx, int64_t rank,
                             ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value lowering::buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    Type accType, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    function_ref<Value(OpBuilder &, Location, Value)> prologue,
    bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d))
      continue;
    shape.push_back(inType.getDimSize(d));
    dims.push_back(dimValue(b, loc, input, d));
  }
  auto accTensor = RankedTensorType::get(shape, accType);
  Value acc = filledTensor(b, loc, accTensor, dims,
                           scalarConstant(b, loc, accType, init, isUnsigned));
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 reducedMap(ctx, rank, axes)};
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d)
    iterators.push_back(llvm::is_contained(axes, d)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, accTensor, input, acc, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = convertScalar(nb, nloc, args[0], accType, isUnsigned,
                                isUnsigned);
        if (prologue)
          x = prologue(nb, nloc, x);
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, x, args[1]));
      });
  return generic.getResult(0);
}

Value lowering::elementCount(OpBuilder &b, Location loc, Value v,
                           ArrayRef<int64_t> axes, Type type) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : axes)
    count = arith::MulIOp::create(b, loc, count, dimValue(b, loc, v, d));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::SIToFPOp::create(b, loc, type, asInt);
}

/// Checks every index once: each must be in [-dim, dim) (a runtime error
/// otherwise, before anything is read).
void lowering::assertIndicesInRange(OpBuilder &rewriter, Location loc, Value indices,
                          Value dim, StringRef message) {
  MLIRContext *ctx = rewriter.getContext();
  auto it = cast<RankedTensorType>(indices.getType());
  int64_t ir = it.getRank();
  Type idxElem = it.getElementType();
  Value dimInt = arith::IndexCastOp::create(rewriter, loc, idxElem, dim);
  auto boolType = RankedTensorType::get({}, rewriter.getI1Type());
  Value init = filledTensor(rewriter, loc, boolType, {},
                            scalarConstant(rewriter, loc, rewriter.getI1Type(),
                                           1.0));
  SmallVector<utils::IteratorType> iters(ir, utils::IteratorType::reduction);
  auto check = linalg::GenericOp::create(
      rewriter, loc, boolType, indices, init,
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(ir, ctx),
                          AffineMap::get(ir, 0, {}, ctx)},
      iters, [&](OpBuilder &b, Location l, ValueRange a) {
        Value neg = arith::SubIOp::create(
            b, l, arith::ConstantIntOp::create(b, l, idxElem, 0), dimInt);
        Value geLo =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, a[0], neg);
        Value ltHi = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                           a[0], dimInt);
        Value in = arith::AndIOp::create(b, l, geLo, ltHi);
        linalg::YieldOp::create(
            b, l, arith::AndIOp::create(b, l, in, a[1]).getResult());
      });
  Value allIn =
      tensor::ExtractOp::create(rewriter, loc, check.getResult(0), ValueRange{});
  cf::AssertOp::create(rewriter, loc, allIn, message);
}

/// An index read from a tensor as an in-range `index`: negative ones wrap;
/// clamped as well, so no access leaves the buffer even if the range
/// assert is compiled out.
Value lowering::wrappedIndex(OpBuilder &b, Location l, Value raw, Value dim) {
  Value idx = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value isNeg =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, zero);
  idx = arith::SelectOp::create(b, l, isNeg,
                                arith::AddIOp::create(b, l, idx, dim), idx);
  Value maxIdx =
      arith::SubIOp::create(b, l, dim, arith::ConstantIndexOp::create(b, l, 1));
  return arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, idx, maxIdx),
                                zero);
}
