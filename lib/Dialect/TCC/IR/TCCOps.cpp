//===- TCCOps.cpp - tcc op verifiers, type inference, folders ---*- C++ -*-===//
//
// Shape rules live in inferReturnTypes: the verifier of every inferred op
// compares the declared result type against them, builders use them to omit
// result types, and the same messages reach the user either way.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;

//===----------------------------------------------------------------------===//
// Shared shape helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::tcc::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

static std::string dimStr(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + dimStr(d);
  return s.empty() ? "scalar" : s;
}

FailureOr<SmallVector<int64_t>>
mlir::tcc::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                           ArrayRef<StringRef> names, std::string *error) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Index of the operand that fixed a static size > 1 for this dim.
    int owner = -1;
    bool sawDynamic = false;
    for (auto [k, s] : llvm::enumerate(shapes)) {
      if (i + s.size() < rank)
        continue;
      int64_t d = s[i + s.size() - rank];
      if (ShapedType::isDynamic(d)) {
        sawDynamic = true;
        continue;
      }
      if (d == 1)
        continue;
      if (owner >= 0 && result[i] != d) {
        if (error) {
          ArrayRef<int64_t> o = shapes[owner];
          *error = llvm::formatv(
              "operands are not broadcast-compatible: {0} has size {1} at dim "
              "{2}, {3} has size {4} at dim {5}",
              names[owner], result[i], i + o.size() - rank, names[k], d,
              i + s.size() - rank);
        }
        return failure();
      }
      owner = k;
      result[i] = d;
    }
    if (owner < 0 && sawDynamic)
      result[i] = ShapedType::kDynamic;
  }
  return result;
}

int64_t mlir::tcc::windowOutputSize(int64_t in, int64_t padBefore,
                                    int64_t padAfter, int64_t kernel,
                                    int64_t stride, int64_t dilation) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t span = dilation * (kernel - 1) + 1;
  int64_t padded = in + padBefore + padAfter;
  if (padded < span)
    return 0;
  return (padded - span) / stride + 1;
}

/// Emits "'tcc.x' op <msg>" at `loc` when there is one (builders pass none).
static LogicalResult fail(std::optional<Location> loc, StringRef opName,
                          const Twine &msg) {
  return emitOptionalError(loc, "'", opName, "' op ", msg.str());
}

/// Declared and inferred result types agree when element types match and
/// every dim is equal or dynamic on one side (a declared type may refine).
static bool areCompatibleTensorTypes(TypeRange l, TypeRange r) {
  if (l.size() != r.size())
    return false;
  for (auto [a, b] : llvm::zip(l, r)) {
    auto ta = dyn_cast<RankedTensorType>(a);
    auto tb = dyn_cast<RankedTensorType>(b);
    if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
        failed(verifyCompatibleShape(ta.getShape(), tb.getShape())))
      return false;
  }
  return true;
}

static RankedTensorType rankedOrNull(Value v) {
  return v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
}

#define TCC_COMPATIBLE_RETURN_TYPES(OP)                                        \
  bool OP::isCompatibleReturnTypes(TypeRange l, TypeRange r) {                 \
    return areCompatibleTensorTypes(l, r);                                     \
  }

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

/// Result type of a broadcasting op over `operands` with `elementType`.
static LogicalResult
inferBroadcast(std::optional<Location> loc, StringRef opName,
               ArrayRef<Value> operands, ArrayRef<StringRef> names,
               Type elementType, SmallVectorImpl<Type> &inferred) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (auto [v, name] : llvm::zip(operands, names)) {
    auto t = rankedOrNull(v);
    if (!t)
      return fail(loc, opName, Twine(name) + " must be a ranked tensor");
    shapes.push_back(t.getShape());
  }
  std::string error;
  auto shape = broadcastShapes(shapes, names, &error);
  if (failed(shape))
    return fail(loc, opName, error);
  inferred.push_back(RankedTensorType::get(*shape, elementType));
  return success();
}

static LogicalResult inferBinary(std::optional<Location> loc, StringRef opName,
                                 Value lhs, Value rhs,
                                 SmallVectorImpl<Type> &inferred) {
  auto lt = rankedOrNull(lhs), rt = rankedOrNull(rhs);
  if (!lt || !rt)
    return fail(loc, opName, "expects ranked tensor operands");
  if (lt.getElementType() != rt.getElementType())
    return fail(loc, opName,
                llvm::formatv("expects lhs and rhs to have the same element "
                              "type, got {0} and {1}",
                              lt.getElementType(), rt.getElementType())
                    .str());
  return inferBroadcast(loc, opName, {lhs, rhs}, {"lhs", "rhs"},
                        lt.getElementType(), inferred);
}

#define TCC_BINARY_INFER(OP)                                                   \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> l, \
                                     Adaptor a, SmallVectorImpl<Type> &t) {    \
    return inferBinary(l, getOperationName(), a.getLhs(), a.getRhs(), t);      \
  }                                                                            \
  TCC_COMPATIBLE_RETURN_TYPES(OP)

TCC_BINARY_INFER(AddOp)
TCC_BINARY_INFER(SubOp)
TCC_BINARY_INFER(MulOp)
TCC_BINARY_INFER(DivOp)
TCC_BINARY_INFER(MaximumOp)
TCC_BINARY_INFER(MinimumOp)
TCC_BINARY_INFER(PowOp)
TCC_BINARY_INFER(RemOp)
TCC_BINARY_INFER(BitwiseAndOp)
TCC_BINARY_INFER(BitwiseOrOp)
TCC_BINARY_INFER(BitwiseXorOp)
TCC_BINARY_INFER(ShiftLeftOp)
TCC_BINARY_INFER(ShiftRightOp)

bool mlir::tcc::movesOnlyUnitDims(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> perm) {
  int64_t previous = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1)
      continue;
    if (p < previous)
      return false;
    previous = p;
  }
  return true;
}

bool mlir::tcc::isBinaryElementwise(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, RemOp, MaximumOp, MinimumOp, PowOp,
             BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, ShiftLeftOp,
             ShiftRightOp>(op);
}

static LogicalResult verifyNotBool(Operation *op, Type elementType) {
  if (elementType.isInteger(1))
    return op->emitOpError("does not accept i1 operands");
  return success();
}

LogicalResult AddOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult SubOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult MulOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult DivOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult RemOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult MaximumOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult MinimumOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
// The operand types already say "integer"; i1 is logical and/or/xor.
LogicalResult BitwiseAndOp::verify() { return success(); }
LogicalResult BitwiseOrOp::verify() { return success(); }
LogicalResult BitwiseXorOp::verify() { return success(); }
LogicalResult ShiftLeftOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult ShiftRightOp::verify() {
  return verifyNotBool(*this, getType().getElementType());
}
LogicalResult PowOp::verify() {
  if (!isa<FloatType>(getType().getElementType()))
    return emitOpError("expects floating-point operands, got ")
           << getType().getElementType();
  return success();
}

/// True when `attr` is a splat of `value` (floats or integers).
static bool isSplatOf(Attribute attr, double value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type et = splat.getElementType();
  if (isa<FloatType>(et))
    return splat.getSplatValue<APFloat>().convertToDouble() == value;
  if (et.isUnsignedInteger())
    return value >= 0 &&
           splat.getSplatValue<APInt>().getZExtValue() == (uint64_t)value;
  if (et.isInteger() && !et.isInteger(1))
    return splat.getSplatValue<APInt>().getSExtValue() == (int64_t)value;
  return false;
}

/// Folds `op` when both operands are constants of the result's exact type
/// (no broadcasting) and not too large to duplicate.
template <typename FloatFn, typename IntFn>
static OpFoldResult foldBinaryConstants(Operation *op,
                                        ArrayRef<Attribute> operands,
                                        FloatFn floatFn, IntFn intFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || type.getNumElements() > 4096)
    return {};
  for (Value v : op->getOperands())
    if (v.getType() != type)
      return {};
  if (isa<FloatType>(type.getElementType()))
    return constFoldBinaryOp<FloatAttr>(operands, floatFn);
  if (type.getElementType().isInteger() && !type.getElementType().isInteger(1))
    return constFoldBinaryOp<IntegerAttr>(operands, intFn);
  return {};
}

/// x op c -> x when c is the identity and no broadcasting happens.
static OpFoldResult foldIdentityRhs(Operation *op, Attribute rhs,
                                    double identity) {
  Value lhs = op->getOperand(0);
  if (lhs.getType() == op->getResult(0).getType() && isSplatOf(rhs, identity))
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityRhs(*this, adaptor.getRhs(), 0.0))
    return r;
  if (getRhs().getType() == getType() && isSplatOf(adaptor.getLhs(), 0.0))
    return getRhs();
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityRhs(*this, adaptor.getRhs(), 0.0))
    return r;
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityRhs(*this, adaptor.getRhs(), 1.0))
    return r;
  if (getRhs().getType() == getType() && isSplatOf(adaptor.getLhs(), 1.0))
    return getRhs();
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentityRhs(*this, adaptor.getRhs(), 1.0))
    return r;
  // Integer division by zero must stay a runtime matter; only fold floats.
  if (!isa<FloatType>(getType().getElementType()))
    return {};
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a / b; },
      [](const APInt &a, const APInt &) { return a; });
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); },
      [&](const APInt &a, const APInt &b) {
        return (isUnsigned ? a.uge(b) : a.sge(b)) ? a : b;
      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldBinaryConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); },
      [&](const APInt &a, const APInt &b) {
        return (isUnsigned ? a.ule(b) : a.sle(b)) ? a : b;
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  return foldIdentityRhs(*this, adaptor.getRhs(), 1.0);
}

namespace {
/// x ** 2 -> x * x and x ** 3 -> x * x * x (GPT-2's GELU cubes its
/// input): multiplications vectorize, powf is a libm call per element.
struct PowBySmallInteger : OpRewritePattern<PowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PowOp op,
                                PatternRewriter &rewriter) const override {
    Attribute exponent;
    Value x = op.getLhs();
    if (x.getType() != op.getType() ||
        !matchPattern(op.getRhs(), m_Constant(&exponent)))
      return failure();
    bool cube = isSplatOf(exponent, 3.0);
    if (!cube && !isSplatOf(exponent, 2.0))
      return failure();
    Value square = MulOp::create(rewriter, op.getLoc(), op.getType(), x, x);
    rewriter.replaceOp(op, cube ? MulOp::create(rewriter, op.getLoc(),
                                                op.getType(), square, x)
                                      .getResult()
                                : square);
    return success();
  }
};
} // namespace

void PowOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<PowBySmallInteger>(context);
}

//===----------------------------------------------------------------------===//
// CmpOp, SelectOp
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc, Adaptor a,
                                      SmallVectorImpl<Type> &inferred) {
  auto lt = rankedOrNull(a.getLhs()), rt = rankedOrNull(a.getRhs());
  if (!lt || !rt)
    return fail(loc, getOperationName(), "expects ranked tensor operands");
  if (lt.getElementType() != rt.getElementType())
    return fail(loc, getOperationName(),
                llvm::formatv("expects lhs and rhs to have the same element "
                              "type, got {0} and {1}",
                              lt.getElementType(), rt.getElementType())
                    .str());
  return inferBroadcast(loc, getOperationName(), {a.getLhs(), a.getRhs()},
                        {"lhs", "rhs"}, IntegerType::get(ctx, 1), inferred);
}
TCC_COMPATIBLE_RETURN_TYPES(CmpOp)

LogicalResult CmpOp::verify() {
  static constexpr StringLiteral kPredicates[] = {"eq", "ne", "lt",
                                                  "le", "gt", "ge"};
  if (!llvm::is_contained(kPredicates, getPredicate()))
    return emitOpError("expects predicate to be one of eq, ne, lt, le, gt, "
                       "ge, got '")
           << getPredicate() << "'";
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor a,
                                         SmallVectorImpl<Type> &inferred) {
  auto tt = rankedOrNull(a.getOnTrue()), ft = rankedOrNull(a.getOnFalse());
  if (!tt || !ft || !rankedOrNull(a.getCond()))
    return fail(loc, getOperationName(), "expects ranked tensor operands");
  if (tt.getElementType() != ft.getElementType())
    return fail(loc, getOperationName(),
                llvm::formatv("expects on_true and on_false to have the same "
                              "element type, got {0} and {1}",
                              tt.getElementType(), ft.getElementType())
                    .str());
  return inferBroadcast(loc, getOperationName(),
                        {a.getCond(), a.getOnTrue(), a.getOnFalse()},
                        {"cond", "on_true", "on_false"}, tt.getElementType(),
                        inferred);
}
TCC_COMPATIBLE_RETURN_TYPES(SelectOp)

LogicalResult SelectOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

#define TCC_UNARY_INFER(OP)                                                    \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> l, \
                                     Adaptor a, SmallVectorImpl<Type> &t) {    \
    auto type = rankedOrNull(a.getX());                                        \
    if (!type)                                                                 \
      return fail(l, getOperationName(), "expects a ranked tensor operand");   \
    t.push_back(type);                                                         \
    return success();                                                          \
  }                                                                            \
  TCC_COMPATIBLE_RETURN_TYPES(OP)

TCC_UNARY_INFER(NegOp)
TCC_UNARY_INFER(BitwiseNotOp)
TCC_UNARY_INFER(ExpOp)
TCC_UNARY_INFER(LogOp)
TCC_UNARY_INFER(SqrtOp)
TCC_UNARY_INFER(RsqrtOp)
TCC_UNARY_INFER(AbsOp)
TCC_UNARY_INFER(TanhOp)
TCC_UNARY_INFER(SigmoidOp)
TCC_UNARY_INFER(ReluOp)
TCC_UNARY_INFER(SiluOp)
TCC_UNARY_INFER(ErfOp)
TCC_UNARY_INFER(SinOp)
TCC_UNARY_INFER(CosOp)
TCC_UNARY_INFER(TanOp)
TCC_UNARY_INFER(AsinOp)
TCC_UNARY_INFER(AcosOp)
TCC_UNARY_INFER(AtanOp)
TCC_UNARY_INFER(SinhOp)
TCC_UNARY_INFER(CoshOp)
TCC_UNARY_INFER(AsinhOp)
TCC_UNARY_INFER(AcoshOp)
TCC_UNARY_INFER(AtanhOp)
TCC_UNARY_INFER(FloorOp)
TCC_UNARY_INFER(CeilOp)
TCC_UNARY_INFER(RoundOp)
TCC_UNARY_INFER(GeluOp)
TCC_UNARY_INFER(SoftmaxOp)
TCC_UNARY_INFER(LogSoftmaxOp)

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getX().getDefiningOp<NegOp>())
    return inner.getX();
  if (!isa<FloatType>(getType().getElementType()))
    return constFoldUnaryOp<IntegerAttr>(adaptor.getOperands(),
                                         [](const APInt &a) { return -a; });
  return constFoldUnaryOp<FloatAttr>(adaptor.getOperands(),
                                     [](const APFloat &a) { return -a; });
}

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("expects approximate to be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult CastOp::verify() {
  if (failed(verifyCompatibleShape(getX().getType(), getType())))
    return emitOpError("expects the result shape to equal the operand "
                       "shape, got ")
           << getX().getType() << " and " << getType();
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

/// Normalized, sorted, unique reduction axes; empty `axes` means all dims.
static FailureOr<SmallVector<int64_t>>
normalizeAxes(std::optional<Location> loc, StringRef opName,
              ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i)
      result.push_back(i);
    return result;
  }
  for (int64_t a : axes) {
    auto n = normalizeAxis(a, rank);
    if (!n) {
      (void)fail(loc, opName,
                 llvm::formatv("axis {0} is out of range for rank {1}", a,
                               rank)
                     .str());
      return failure();
    }
    if (llvm::is_contained(result, *n)) {
      (void)fail(loc, opName,
                 llvm::formatv("axis {0} appears more than once", a).str());
      return failure();
    }
    result.push_back(*n);
  }
  llvm::sort(result);
  return result;
}

static LogicalResult inferReduce(std::optional<Location> loc, StringRef opName,
                                 Value x, ArrayRef<int64_t> axes,
                                 bool keepDims,
                                 SmallVectorImpl<Type> &inferred) {
  auto type = rankedOrNull(x);
  if (!type)
    return fail(loc, opName, "expects a ranked tensor operand");
  auto normalized = normalizeAxes(loc, opName, axes, type.getRank());
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!llvm::is_contained(*normalized, i))
      shape.push_back(type.getDimSize(i));
    else if (keepDims)
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

#define TCC_REDUCE_INFER(OP)                                                   \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> l, \
                                     Adaptor a, SmallVectorImpl<Type> &t) {    \
    return inferReduce(l, getOperationName(), a.getX(), a.getAxes(),           \
                       a.getKeepDims(), t);                                    \
  }                                                                            \
  TCC_COMPATIBLE_RETURN_TYPES(OP)                                              \
  LogicalResult OP::verify() { return success(); }

TCC_REDUCE_INFER(ReduceSumOp)
TCC_REDUCE_INFER(ReduceMeanOp)
TCC_REDUCE_INFER(ReduceMaxOp)
TCC_REDUCE_INFER(ReduceMinOp)
TCC_REDUCE_INFER(ReduceProdOp)

static LogicalResult verifyAxisInRange(Operation *op, int64_t axis,
                                       int64_t rank) {
  if (!normalizeAxis(axis, rank))
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxisInRange(*this, getAxis(), getX().getType().getRank());
}
LogicalResult LogSoftmaxOp::verify() {
  return verifyAxisInRange(*this, getAxis(), getX().getType().getRank());
}

/// Checks that `param` (weight, bias, ...) has shape `expected` and the
/// element type of x.
static LogicalResult verifyParam(Operation *op, StringRef name, Value param,
                                 ArrayRef<int64_t> expected, Type elementType) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getElementType() != elementType)
    return op->emitOpError("expects ")
           << name << " to have element type " << elementType << ", got "
           << type.getElementType();
  if (failed(verifyCompatibleShape(type.getShape(), expected)))
    return op->emitOpError("expects ")
           << name << " of shape " << shapeStr(expected) << ", got "
           << shapeStr(type.getShape());
  return success();
}

static LogicalResult verifyNorm(Operation *op, Value x, int64_t axis,
                                ArrayRef<std::pair<StringRef, Value>> params,
                                float epsilon) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getRank() == 0)
    return op->emitOpError("expects x of rank >= 1");
  auto n = normalizeAxis(axis, type.getRank());
  if (!n)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << type.getRank();
  if (!(epsilon >= 0.0f))
    return op->emitOpError("expects a non-negative epsilon, got ") << epsilon;
  for (auto [name, v] : params)
    if (failed(verifyParam(op, name, v, type.getShape().drop_front(*n),
                           type.getElementType())))
      return failure();
  return success();
}

TCC_UNARY_INFER(LayerNormOp)
TCC_UNARY_INFER(RmsNormOp)
TCC_UNARY_INFER(BatchNormOp)

LogicalResult LayerNormOp::verify() {
  return verifyNorm(*this, getX(), getAxis(),
                    {{"weight", getWeight()}, {"bias", getBias()}},
                    getEpsilon().convertToFloat());
}

LogicalResult RmsNormOp::verify() {
  return verifyNorm(*this, getX(), getAxis(), {{"weight", getWeight()}},
                    getEpsilon().convertToFloat());
}

LogicalResult BatchNormOp::verify() {
  auto type = getX().getType();
  if (type.getRank() < 2)
    return emitOpError("expects x of rank >= 2 (N, C, ...), got rank ")
           << type.getRank();
  if (!(getEpsilon().convertToFloat() >= 0.0f))
    return emitOpError("expects a non-negative epsilon");
  int64_t axis = getAxis();
  if (axis < 1 || axis >= type.getRank())
    return emitOpError("expects the channel axis in [1, ")
           << type.getRank() << "), got " << axis;
  int64_t c = type.getDimSize(axis);
  for (auto [name, v] : {std::pair<StringRef, Value>{"scale", getScale()},
                         {"bias", getBias()},
                         {"mean", getMean()},
                         {"var", getVar()}})
    if (failed(verifyParam(*this, name, v, {c}, type.getElementType())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp, LinearOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor ad,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto a = rankedOrNull(ad.getA()), b = rankedOrNull(ad.getB());
  if (!a || !b)
    return fail(loc, name, "expects ranked tensor operands");
  if (a.getRank() < 2 || b.getRank() < 2)
    return fail(loc, name,
                llvm::formatv("expects operands of rank >= 2, got {0} and {1}",
                              a.getRank(), b.getRank())
                    .str());
  if (a.getElementType() != b.getElementType())
    return fail(loc, name,
                llvm::formatv("expects a and b to have the same element type, "
                              "got {0} and {1}",
                              a.getElementType(), b.getElementType())
                    .str());
  int64_t ka = a.getShape().back(), kb = b.getShape()[b.getRank() - 2];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return fail(loc, name,
                llvm::formatv("contracting dims differ: a has {0} columns "
                              "(dim {1}), b has {2} rows (dim {3})",
                              ka, a.getRank() - 1, kb, b.getRank() - 2)
                    .str());
  std::string error;
  auto batch = broadcastShapes({a.getShape().drop_back(2),
                                b.getShape().drop_back(2)},
                               {"a's batch dims", "b's batch dims"}, &error);
  if (failed(batch))
    return fail(loc, name, error);
  SmallVector<int64_t> shape = *batch;
  shape.push_back(a.getShape()[a.getRank() - 2]);
  shape.push_back(b.getShape().back());
  inferred.push_back(RankedTensorType::get(shape, a.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(MatmulOp)
LogicalResult MatmulOp::verify() { return success(); }

LogicalResult LinearOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor ad,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = rankedOrNull(ad.getX()), w = rankedOrNull(ad.getWeight());
  if (!x || !w)
    return fail(loc, name, "expects ranked tensor operands");
  if (x.getRank() < 1 || w.getRank() != 2)
    return fail(loc, name,
                llvm::formatv("expects x of rank >= 1 and weight of rank 2, "
                              "got {0} and {1}",
                              x.getRank(), w.getRank())
                    .str());
  int64_t in = x.getShape().back(), win = w.getDimSize(1);
  if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(win) && in != win)
    return fail(loc, name,
                llvm::formatv("x has {0} input features (last dim) but weight "
                              "has {1} (dim 1)",
                              in, win)
                    .str());
  SmallVector<int64_t> shape(x.getShape().drop_back());
  shape.push_back(w.getDimSize(0));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(LinearOp)

LogicalResult LinearOp::verify() {
  Type et = getX().getType().getElementType();
  if (getWeight().getType().getElementType() != et)
    return emitOpError("expects weight to have element type ")
           << et << ", got " << getWeight().getType().getElementType();
  if (Value bias = getBias())
    return verifyParam(*this, "bias", bias,
                       {getWeight().getType().getDimSize(0)}, et);
  return success();
}

//===----------------------------------------------------------------------===//
// LSTMOp
//===----------------------------------------------------------------------===//

/// Dims must agree where both are static.
static bool dimsAgree(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// Result types of a recurrence over x [T, B, I] from states [B, H]: y
/// [T, B, H], then `states` results [B, H]. H is w_hh's dim 1.
static LogicalResult inferRecurrence(std::optional<Location> loc,
                                     StringRef name, Value xv, Value wihv,
                                     Value whhv, Value h0v, unsigned states,
                                     StringRef form,
                                     SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(xv), wih = rankedOrNull(wihv),
       whh = rankedOrNull(whhv), h0 = rankedOrNull(h0v);
  if (!x || !wih || !whh || !h0)
    return fail(loc, name, "expects ranked tensor operands");
  if (x.getRank() != 3 || wih.getRank() != 2 || whh.getRank() != 2 ||
      h0.getRank() != 2)
    return fail(loc, name, ("expects " + form).str());
  int64_t hidden = whh.getDimSize(1);
  if (ShapedType::isDynamic(hidden))
    return fail(loc, name, "expects a static hidden size (w_hh dim 1)");
  int64_t batch = x.getDimSize(1);
  if (ShapedType::isDynamic(batch))
    batch = h0.getDimSize(0);
  Type et = x.getElementType();
  inferred.push_back(
      RankedTensorType::get({x.getDimSize(0), batch, hidden}, et));
  for (unsigned i = 0; i < states; ++i)
    inferred.push_back(RankedTensorType::get({batch, hidden}, et));
  return success();
}

/// An operand of a recurrence and the shape it must have.
struct RecurrenceOperand {
  StringRef name;
  Value value;
  SmallVector<int64_t> shape;
};
/// Checks x [T, B, I], a static H (w_hh dim 1), and every operand that
/// `shapes(gates * H, I, B)` lists against its shape (static dims only).
static LogicalResult verifyRecurrence(
    Operation *op, Value xv, Value whhv, int64_t gates, StringRef form,
    function_ref<SmallVector<RecurrenceOperand>(int64_t, int64_t, int64_t)>
        shapes) {
  auto x = cast<RankedTensorType>(xv.getType());
  auto whh = cast<RankedTensorType>(whhv.getType());
  if (x.getRank() != 3 || whh.getRank() != 2)
    return op->emitOpError("expects ") << form;
  if (whh.isDynamicDim(1))
    return op->emitOpError("expects a static hidden size (w_hh dim 1)");
  int64_t hidden = whh.getDimSize(1);
  Type et = x.getElementType();
  for (const RecurrenceOperand &o :
       shapes(gates * hidden, x.getDimSize(2), x.getDimSize(1))) {
    auto t = cast<RankedTensorType>(o.value.getType());
    if (t.getRank() != (int64_t)o.shape.size())
      return op->emitOpError("expects ") << form;
    if (t.getElementType() != et)
      return op->emitOpError("expects ")
             << o.name << " of element type " << et << ", got "
             << t.getElementType();
    for (auto [d, size] : llvm::enumerate(o.shape))
      if (!dimsAgree(t.getDimSize(d), size))
        return op->emitOpError("expects ")
               << o.name << " dim " << d << " to be " << size << ", got "
               << t.getDimSize(d);
  }
  return success();
}

static constexpr StringLiteral kLSTMForm =
    "x [T, B, I], w_ih [4H, I], w_hh [4H, H], bias [4H], h0 and c0 [B, H]";
static constexpr StringLiteral kGRUForm =
    "x [T, B, I], w_ih [3H, I], w_hh [3H, H], b_ih and b_hh [3H], h0 [B, H]";
static constexpr StringLiteral kRNNForm =
    "x [T, B, I], w_ih [H, I], w_hh [H, H], bias [H], h0 [B, H]";

LogicalResult LSTMOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor ad,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRecurrence(loc, getOperationName(), ad.getX(), ad.getWIh(),
                         ad.getWHh(), ad.getH0(), 2, kLSTMForm, inferred);
}
TCC_COMPATIBLE_RETURN_TYPES(LSTMOp)

LogicalResult LSTMOp::verify() {
  int64_t hidden = getWHh().getType().getRank() == 2
                       ? getWHh().getType().getDimSize(1)
                       : 0;
  return verifyRecurrence(
      *this, getX(), getWHh(), 4, kLSTMForm,
      [&](int64_t gh, int64_t input, int64_t batch)
          -> SmallVector<RecurrenceOperand> {
        return {{"w_ih", getWIh(), {gh, input}},
                {"w_hh", getWHh(), {gh, hidden}},
                {"bias", getBias(), {gh}},
                {"h0", getH0(), {batch, hidden}},
                {"c0", getC0(), {batch, hidden}}};
      });
}

LogicalResult GRUOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc, Adaptor ad,
                                      SmallVectorImpl<Type> &inferred) {
  return inferRecurrence(loc, getOperationName(), ad.getX(), ad.getWIh(),
                         ad.getWHh(), ad.getH0(), 1, kGRUForm, inferred);
}
TCC_COMPATIBLE_RETURN_TYPES(GRUOp)

LogicalResult GRUOp::verify() {
  int64_t hidden = getWHh().getType().getRank() == 2
                       ? getWHh().getType().getDimSize(1)
                       : 0;
  return verifyRecurrence(
      *this, getX(), getWHh(), 3, kGRUForm,
      [&](int64_t gh, int64_t input, int64_t batch)
          -> SmallVector<RecurrenceOperand> {
        return {{"w_ih", getWIh(), {gh, input}},
                {"w_hh", getWHh(), {gh, hidden}},
                {"b_ih", getBIh(), {gh}},
                {"b_hh", getBHh(), {gh}},
                {"h0", getH0(), {batch, hidden}}};
      });
}

LogicalResult RNNOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc, Adaptor ad,
                                      SmallVectorImpl<Type> &inferred) {
  return inferRecurrence(loc, getOperationName(), ad.getX(), ad.getWIh(),
                         ad.getWHh(), ad.getH0(), 1, kRNNForm, inferred);
}
TCC_COMPATIBLE_RETURN_TYPES(RNNOp)

LogicalResult RNNOp::verify() {
  if (getNonlinearity() != "tanh" && getNonlinearity() != "relu")
    return emitOpError("expects nonlinearity \"tanh\" or \"relu\", got \"")
           << getNonlinearity() << "\"";
  int64_t hidden = getWHh().getType().getRank() == 2
                       ? getWHh().getType().getDimSize(1)
                       : 0;
  return verifyRecurrence(
      *this, getX(), getWHh(), 1, kRNNForm,
      [&](int64_t gh, int64_t input, int64_t batch)
          -> SmallVector<RecurrenceOperand> {
        return {{"w_ih", getWIh(), {gh, input}},
                {"w_hh", getWHh(), {gh, hidden}},
                {"bias", getBias(), {gh}},
                {"h0", getH0(), {batch, hidden}}};
      });
}

//===----------------------------------------------------------------------===//
// Conv2dOp, pooling
//===----------------------------------------------------------------------===//

/// Expands [ph, pw] to [top, left, bottom, right].
static SmallVector<int64_t, 4> expandPadding(ArrayRef<int64_t> p) {
  if (p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  return SmallVector<int64_t, 4>(p);
}

static LogicalResult checkPair(std::optional<Location> loc, StringRef opName,
                               StringRef attr, std::optional<ArrayRef<int64_t>> v,
                               int64_t minimum) {
  if (!v)
    return success();
  if (v->size() != 2)
    return fail(loc, opName,
                llvm::formatv("expects {0} to have 2 values, got {1}", attr,
                              v->size())
                    .str());
  for (int64_t x : *v)
    if (x < minimum)
      return fail(loc, opName,
                  llvm::formatv("expects {0} values >= {1}, got {2}", attr,
                                minimum, x)
                      .str());
  return success();
}

static LogicalResult checkPadding(std::optional<Location> loc,
                                  StringRef opName,
                                  std::optional<ArrayRef<int64_t>> p) {
  if (!p)
    return success();
  if (p->size() != 2 && p->size() != 4)
    return fail(loc, opName,
                llvm::formatv("expects padding to have 2 or 4 values (top, "
                              "left, bottom, right), got {0}",
                              p->size())
                    .str());
  for (int64_t x : *p)
    if (x < 0)
      return fail(loc, opName,
                  llvm::formatv("expects padding values >= 0, got {0}", x)
                      .str());
  return success();
}

LogicalResult Conv2dOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor ad,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = rankedOrNull(ad.getX()), w = rankedOrNull(ad.getWeight());
  if (!x || !w)
    return fail(loc, name, "expects ranked tensor operands");
  if (!isWindowLayout(ad.getLayout()))
    return fail(loc, name,
                "expects layout NCHW or NHWC, got '" + ad.getLayout().str() +
                    "'");
  bool channelsLast = ad.getLayout() == "NHWC";
  LayoutDims d = layoutDims(channelsLast);
  if (x.getRank() != 4 || w.getRank() != 4)
    return fail(loc, name,
                llvm::formatv("expects x ({0}) and weight ({1}) of rank 4, "
                              "got {2} and {3}",
                              channelsLast ? "NHWC" : "NCHW",
                              channelsLast ? "OHWI" : "OIHW", x.getRank(),
                              w.getRank())
                    .str());
  if (failed(checkPair(loc, name, "strides", ad.getStrides(), 1)) ||
      failed(checkPair(loc, name, "dilations", ad.getDilations(), 1)) ||
      failed(checkPadding(loc, name, ad.getPadding())))
    return failure();
  int64_t groups = ad.getGroups();
  if (groups < 1)
    return fail(loc, name,
                llvm::formatv("expects groups >= 1, got {0}", groups).str());
  int64_t c = x.getDimSize(d.c), wc = w.getDimSize(d.c), o = w.getDimSize(0);
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(wc) &&
      c != wc * groups)
    return fail(loc, name,
                llvm::formatv("x has {0} channels but weight expects {1} "
                              "(dim 1 = {2} times groups = {3})",
                              c, wc * groups, wc, groups)
                    .str());
  if (!ShapedType::isDynamic(o) && o % groups != 0)
    return fail(loc, name,
                llvm::formatv("output channels {0} are not divisible by "
                              "groups {1}",
                              o, groups)
                    .str());
  // Copies: the defaults are temporaries.
  SmallVector<int64_t, 2> strides(
      ad.getStrides().value_or(ArrayRef<int64_t>{1, 1}));
  SmallVector<int64_t, 2> dilations(
      ad.getDilations().value_or(ArrayRef<int64_t>{1, 1}));
  auto pad = expandPadding(ad.getPadding().value_or(ArrayRef<int64_t>{0, 0}));
  SmallVector<int64_t, 4> shape(4);
  shape[d.n] = x.getDimSize(d.n);
  shape[d.c] = o;
  for (int i = 0; i < 2; ++i) {
    int64_t k = w.getDimSize(d.spatial(i));
    if (ShapedType::isDynamic(k)) {
      shape[d.spatial(i)] = ShapedType::kDynamic;
      continue;
    }
    int64_t out = windowOutputSize(x.getDimSize(d.spatial(i)), pad[i],
                                   pad[i + 2], k, strides[i], dilations[i]);
    if (out == 0)
      return fail(loc, name,
                  llvm::formatv("the dilated kernel ({0}) is larger than the "
                                "padded input along dim {1}",
                                dilations[i] * (k - 1) + 1, d.spatial(i))
                      .str());
    shape[d.spatial(i)] = out;
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(Conv2dOp)

LogicalResult Conv2dOp::verify() {
  Type et = getX().getType().getElementType();
  if (getWeight().getType().getElementType() != et)
    return emitOpError("expects weight to have element type ") << et;
  if (Value bias = getBias())
    return verifyParam(*this, "bias", bias,
                       {getWeight().getType().getDimSize(0)}, et);
  return success();
}

SmallVector<int64_t, 2> Conv2dOp::getStridesOrDefault() {
  return SmallVector<int64_t, 2>(getStrides().value_or(ArrayRef<int64_t>{1, 1}));
}
SmallVector<int64_t, 4> Conv2dOp::getPaddingOrDefault() {
  return expandPadding(getPadding().value_or(ArrayRef<int64_t>{0, 0}));
}
SmallVector<int64_t, 2> Conv2dOp::getDilationsOrDefault() {
  return SmallVector<int64_t, 2>(
      getDilations().value_or(ArrayRef<int64_t>{1, 1}));
}

template <typename PoolAdaptor>
static LogicalResult inferPool(std::optional<Location> loc, StringRef name,
                               PoolAdaptor ad,
                               SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(ad.getX());
  if (!isWindowLayout(ad.getLayout()))
    return fail(loc, name,
                "expects layout NCHW or NHWC, got '" + ad.getLayout().str() +
                    "'");
  LayoutDims d = layoutDims(ad.getLayout() == "NHWC");
  if (!x || x.getRank() != 4)
    return fail(loc, name,
                "expects x of rank 4 (" + ad.getLayout().str() + ")");
  if (failed(checkPair(loc, name, "kernel_size", ad.getKernelSize(), 1)) ||
      failed(checkPair(loc, name, "strides", ad.getStrides(), 1)) ||
      failed(checkPadding(loc, name, ad.getPadding())))
    return failure();
  ArrayRef<int64_t> k = ad.getKernelSize();
  auto strides = ad.getStrides().value_or(k);
  auto pad = expandPadding(ad.getPadding().value_or(ArrayRef<int64_t>{0, 0}));
  for (int i = 0; i < 2; ++i)
    if (pad[i] >= k[i] || pad[i + 2] >= k[i])
      return fail(loc, name,
                  llvm::formatv("padding {0} must be smaller than the kernel "
                                "size {1}",
                                std::max(pad[i], pad[i + 2]), k[i])
                      .str());
  SmallVector<int64_t, 4> shape(x.getShape());
  for (int i = 0; i < 2; ++i) {
    int64_t out = windowOutputSize(x.getDimSize(d.spatial(i)), pad[i],
                                   pad[i + 2], k[i], strides[i], 1);
    if (out == 0)
      return fail(loc, name,
                  llvm::formatv("the window ({0}) is larger than the padded "
                                "input along dim {1}",
                                k[i], d.spatial(i))
                      .str());
    shape[d.spatial(i)] = out;
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

#define TCC_POOL(OP)                                                           \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> l, \
                                     Adaptor a, SmallVectorImpl<Type> &t) {    \
    return inferPool(l, getOperationName(), a, t);                             \
  }                                                                            \
  TCC_COMPATIBLE_RETURN_TYPES(OP)                                              \
  LogicalResult OP::verify() { return success(); }                             \
  SmallVector<int64_t, 2> OP::getStridesOrDefault() {                          \
    return SmallVector<int64_t, 2>(getStrides().value_or(getKernelSize()));    \
  }                                                                            \
  SmallVector<int64_t, 4> OP::getPaddingOrDefault() {                          \
    return expandPadding(getPadding().value_or(ArrayRef<int64_t>{0, 0}));      \
  }

TCC_POOL(MaxPool2dOp)
TCC_POOL(AvgPool2dOp)

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor ad,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto q = rankedOrNull(ad.getQ()), k = rankedOrNull(ad.getK()),
       v = rankedOrNull(ad.getV());
  if (!q || !k || !v)
    return fail(loc, name, "expects ranked tensor operands");
  int64_t rank = q.getRank();
  if (rank < 2 || k.getRank() != rank || v.getRank() != rank)
    return fail(loc, name,
                llvm::formatv("expects q, k, v of equal rank >= 2, got {0}, "
                              "{1}, {2}",
                              q.getRank(), k.getRank(), v.getRank())
                    .str());
  if (k.getElementType() != q.getElementType() ||
      v.getElementType() != q.getElementType())
    return fail(loc, name, "expects q, k, v to have the same element type");
  auto lead = [](RankedTensorType t) { return t.getShape().drop_back(2); };
  if (failed(verifyCompatibleShape(lead(q), lead(k))) ||
      failed(verifyCompatibleShape(lead(q), lead(v))))
    return fail(loc, name,
                llvm::formatv("expects equal leading dims, got q {0}, k {1}, "
                              "v {2}",
                              shapeStr(q.getShape()), shapeStr(k.getShape()),
                              shapeStr(v.getShape()))
                    .str());
  auto compatible = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (!compatible(q.getShape().back(), k.getShape().back()))
    return fail(loc, name,
                llvm::formatv("q and k head dims differ: {0} vs {1}",
                              q.getShape().back(), k.getShape().back())
                    .str());
  if (!compatible(k.getDimSize(rank - 2), v.getDimSize(rank - 2)))
    return fail(loc, name,
                llvm::formatv("k and v sequence lengths differ: {0} vs {1}",
                              k.getDimSize(rank - 2), v.getDimSize(rank - 2))
                    .str());
  if (Value mask = ad.getMask()) {
    auto m = rankedOrNull(mask);
    if (!m)
      return fail(loc, name, "expects a ranked mask");
    if (!m.getElementType().isInteger(1) &&
        m.getElementType() != q.getElementType())
      return fail(loc, name, "expects an i1 mask or a mask of q's element type");
    SmallVector<int64_t> scores(lead(q));
    scores.push_back(q.getDimSize(rank - 2));
    scores.push_back(k.getDimSize(rank - 2));
    std::string error;
    auto b = broadcastShapes({scores, m.getShape()}, {"scores", "mask"},
                             &error);
    if (failed(b) || failed(verifyCompatibleShape(*b, scores)))
      return fail(loc, name,
                  llvm::formatv("mask of shape {0} does not broadcast to the "
                                "scores' shape {1}",
                                shapeStr(m.getShape()), shapeStr(scores))
                      .str());
  }
  SmallVector<int64_t> shape(q.getShape().drop_back());
  shape.push_back(v.getShape().back());
  inferred.push_back(RankedTensorType::get(shape, q.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(AttentionOp)
LogicalResult AttentionOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

static bool isPermutation(ArrayRef<int64_t> perm) {
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)perm.size() || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor ad,
                                            SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(ad.getX());
  if (!x)
    return fail(loc, getOperationName(), "expects a ranked tensor operand");
  ArrayRef<int64_t> perm = ad.getPermutation();
  if ((int64_t)perm.size() != x.getRank() || !isPermutation(perm))
    return fail(loc, getOperationName(),
                llvm::formatv("expects permutation to be a permutation of "
                              "[0, {0}), got [{1}]",
                              x.getRank(), llvm::make_range(perm.begin(),
                                                            perm.end()))
                    .str());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.getDimSize(p));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(TransposeOp)
LogicalResult TransposeOp::verify() { return success(); }

/// The constant `value` ([in] shape) transposed by `perm` into `type`, for
/// dense and dense_resource elements of whole bytes: a weight's relayout
/// done once at compile time ("frozen"). Null when not foldable.
static Attribute transposeConstant(Attribute value, ArrayRef<int64_t> perm,
                                   RankedTensorType type) {
  auto in = dyn_cast_or_null<ElementsAttr>(value);
  if (!in || !type.hasStaticShape() ||
      type.getNumElements() > (int64_t(1) << 26))
    return {};
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  ArrayRef<char> bytes;
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    bytes = dense.getRawData();
  else if (resource && resource.getRawHandle().getBlob())
    bytes = resource.getRawHandle().getBlob()->getData();
  int64_t width = element.getIntOrFloatBitWidth() / 8;
  if (int64_t(bytes.size()) != type.getNumElements() * width)
    return {};
  // Row-major strides of the input; out[i] = in[sum idx_d * stride[perm[d]]].
  auto inShape = cast<ShapedType>(in.getType()).getShape();
  int64_t rank = inShape.size();
  SmallVector<int64_t> stride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * inShape[d + 1];
  std::vector<char> out(bytes.size());
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      src += idx[d] * stride[perm[d]];
    std::memcpy(out.data() + i * width, bytes.data() + src * width, width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < type.getDimSize(d))
        break;
      idx[d] = 0;
    }
  }
  if (resource)
    return DenseResourceElementsAttr::get(
        type, resource.getRawHandle().getKey().str() + "_t",
        HeapAsmResourceBlob::allocateAndCopyWithAlign(ArrayRef<char>(out),
                                                      width));
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(out));
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())) &&
      getX().getType() == getType())
    return getX();
  return transposeConstant(adaptor.getX(), perm, getType());
}

namespace {
/// transpose(transpose(x, p1), p2) -> transpose(x, p1∘p2), or x when the
/// composition is the identity.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    ArrayRef<int64_t> p1 = inner.getPermutation(), p2 = op.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t p : p2)
      composed.push_back(p1[p]);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())) &&
        inner.getX().getType() == op.getType()) {
      rewriter.replaceOp(op, inner.getX());
      return success();
    }
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), inner.getX(),
                                             composed);
    return success();
  }
};

/// A transpose that moves only unit dims ([N, C, 1, 1] -> [N, 1, 1, C])
/// leaves every element where it was: a reshape, which lowers to a view
/// rather than a copy element by element.
struct UnitDimTransposeToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto in = dyn_cast<RankedTensorType>(op.getX().getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!in || !out || !movesOnlyUnitDims(in.getShape(), op.getPermutation()))
      return failure();
    // The reshape infers at most one dynamic dim, from a nonzero count.
    if (out.getNumDynamicDims() > 1 || llvm::is_contained(out.getShape(), 0))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, out, op.getX(), Value());
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes, UnitDimTransposeToReshape>(context);
}

//===----------------------------------------------------------------------===//
// ReshapeOp, BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getX().getType();
  auto out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("expects the result element type ")
           << out.getElementType() << " to equal the operand's "
           << in.getElementType();
  int64_t dynamicOut = out.getNumDynamicDims();
  if (Value shape = getShape()) {
    auto st = cast<RankedTensorType>(shape.getType());
    if (!st.isDynamicDim(0) && st.getDimSize(0) != out.getRank())
      return emitOpError("expects the shape operand to have ")
             << out.getRank() << " entries (the result rank), got "
             << st.getDimSize(0);
  } else if (dynamicOut > 1) {
    return emitOpError("needs a shape operand when the result has more than "
                       "one dynamic dim (")
           << dynamicOut << " here)";
  }
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("expects the same number of elements, got ")
           << in.getNumElements() << " (" << shapeStr(in.getShape())
           << ") and " << out.getNumElements() << " ("
           << shapeStr(out.getShape()) << ")";
  // With one inferred dim, the static part of the result must divide the
  // input's static element count when the input is static.
  if (in.hasStaticShape() && dynamicOut == 1 && !getShape()) {
    int64_t known = 1;
    for (int64_t d : out.getShape())
      if (!ShapedType::isDynamic(d))
        known *= d;
    if (known == 0 || in.getNumElements() % known != 0)
      return emitOpError("cannot infer the dynamic result dim: ")
             << in.getNumElements() << " elements are not divisible by "
             << known;
  }
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType() && getType().hasStaticShape())
    return getX();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

namespace {
/// reshape(reshape(x)) -> reshape(x): only the final shape matters.
struct FoldReshapeChain : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getX(),
                                           op.getShape());
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldReshapeChain>(context);
}

LogicalResult BroadcastToOp::verify() {
  auto in = getX().getType();
  auto out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("expects the result element type to equal the "
                       "operand's");
  if (in.getRank() > out.getRank())
    return emitOpError("cannot broadcast rank ")
           << in.getRank() << " to the lower rank " << out.getRank();
  int64_t lead = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t d = in.getDimSize(i), r = out.getDimSize(lead + i);
    if (ShapedType::isDynamic(d) || ShapedType::isDynamic(r) || d == 1 ||
        d == r)
      continue;
    return emitOpError("cannot broadcast operand dim ")
           << i << " of size " << d << " to result dim " << lead + i
           << " of size " << r;
  }
  if (Value shape = getShape()) {
    auto st = cast<RankedTensorType>(shape.getType());
    if (!st.isDynamicDim(0) && st.getDimSize(0) != out.getRank())
      return emitOpError("expects the shape operand to have ")
             << out.getRank() << " entries, got " << st.getDimSize(0);
  } else {
    for (int64_t i = 0; i < lead; ++i)
      if (out.isDynamicDim(i))
        return emitOpError("needs a shape operand for the new dynamic dim ")
               << i;
  }
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  // Equal types: every dim maps to itself (a dynamic one must equal its
  // target at runtime), so the op is the identity.
  if (getX().getType() == getType() && !getShape())
    return getX();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getX()))
    if (getType().hasStaticShape())
      return SplatElementsAttr::get(getType(),
                                    splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// ConcatOp, SliceOp, GatherOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor ad,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  ValueRange inputs = ad.getInputs();
  if (inputs.empty())
    return fail(loc, name, "expects at least one input");
  auto first = rankedOrNull(inputs[0]);
  if (!first)
    return fail(loc, name, "expects ranked tensor inputs");
  auto axis = normalizeAxis(ad.getAxis(), first.getRank());
  if (!axis)
    return fail(loc, name,
                llvm::formatv("axis {0} is out of range for rank {1}",
                              ad.getAxis(), first.getRank())
                    .str());
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    auto t = rankedOrNull(v);
    if (!t || t.getRank() != first.getRank() ||
        t.getElementType() != first.getElementType())
      return fail(loc, name,
                  llvm::formatv("input {0} must have the rank and element "
                                "type of input 0",
                                i + 1)
                      .str());
    for (int64_t d = 0; d < t.getRank(); ++d) {
      int64_t a = shape[d], b = t.getDimSize(d);
      if (d == *axis) {
        shape[d] = (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
                       ? ShapedType::kDynamic
                       : a + b;
        continue;
      }
      if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
        return fail(loc, name,
                    llvm::formatv("input {0} has size {1} at dim {2}, input 0 "
                                  "has {3}",
                                  i + 1, b, d, a)
                        .str());
      if (ShapedType::isDynamic(a))
        shape[d] = b;
    }
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(ConcatOp)
LogicalResult ConcatOp::verify() { return success(); }

/// Clamped Python slice bounds on a static dim: {start, size}.
static std::pair<int64_t, int64_t> sliceRange(int64_t dim, int64_t start,
                                              int64_t end, int64_t step) {
  auto clampIdx = [&](int64_t v) {
    if (v < 0)
      v = v < -dim ? 0 : v + dim;
    return std::min(v, dim);
  };
  int64_t s = clampIdx(start), e = clampIdx(end);
  int64_t size = e > s ? (e - s + step - 1) / step : 0;
  return {s, size};
}

/// `slice`'s {start, size} along `axis` when it takes every element of
/// the other dims, one step at a time along `axis` (a static dim there).
static std::optional<std::pair<int64_t, int64_t>>
sliceRangeAlong(SliceOp slice, int64_t axis) {
  RankedTensorType type = slice.getX().getType();
  SmallVector<int64_t> steps = slice.getStepsOrDefault();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (steps[d] != 1)
      return std::nullopt;
    if (d == axis)
      continue;
    int64_t dim = type.getDimSize(d), end = slice.getEnds()[d];
    bool toTheEnd = end == std::numeric_limits<int64_t>::max() ||
                    (!ShapedType::isDynamic(dim) && end >= dim);
    if (slice.getStarts()[d] != 0 || !toTheEnd)
      return std::nullopt;
  }
  int64_t dim = type.getDimSize(axis);
  if (ShapedType::isDynamic(dim))
    return std::nullopt;
  return sliceRange(dim, slice.getStarts()[axis], slice.getEnds()[axis], 1);
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  // Consecutive slices of one value that cover it along the axis: the value
  // (an exporter's gate reordering undone by the importer's).
  int64_t rank = getType().getRank();
  int64_t along = getAxis() < 0 ? getAxis() + rank : getAxis();
  if (auto first = getInputs()[0].getDefiningOp<SliceOp>();
      first && first.getX().getType() == getType()) {
    int64_t next = 0;
    for (Value input : getInputs()) {
      auto slice = input.getDefiningOp<SliceOp>();
      std::optional<std::pair<int64_t, int64_t>> range =
          slice && slice.getX() == first.getX() ? sliceRangeAlong(slice, along)
                                                : std::nullopt;
      if (!range || range->first != next)
        break;
      next += range->second;
    }
    if (next == getType().getDimSize(along))
      return first.getX();
  }
  // Constants (packed weights of a horizontal merge): one constant. Elements
  // are copied in row-major order, a block of each input per outer index.
  auto type = cast<RankedTensorType>(getType());
  if (!type.hasStaticShape() || type.getNumElements() > (int64_t(1) << 24))
    return {};
  SmallVector<DenseElementsAttr> parts;
  for (Attribute a : adaptor.getInputs()) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(a);
    if (!dense)
      return {};
    parts.push_back(dense);
  }
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0)
    axis += type.getRank();
  if (axis < 0 || axis >= type.getRank())
    return {};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  SmallVector<Attribute> values;
  values.reserve(type.getNumElements());
  SmallVector<SmallVector<Attribute>> expanded;
  for (DenseElementsAttr p : parts)
    expanded.emplace_back(p.getValues<Attribute>().begin(),
                          p.getValues<Attribute>().end());
  for (int64_t o = 0; o < outer; ++o)
    for (auto [p, elems] : llvm::zip(parts, expanded)) {
      int64_t block = cast<ShapedType>(p.getType()).getDimSize(axis) * inner;
      for (int64_t i = 0; i < block; ++i)
        values.push_back(p.isSplat() ? elems.front() : elems[o * block + i]);
    }
  return DenseElementsAttr::get(type, values);
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor ad,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = rankedOrNull(ad.getX());
  if (!x)
    return fail(loc, name, "expects a ranked tensor operand");
  size_t rank = x.getRank();
  ArrayRef<int64_t> starts = ad.getStarts(), ends = ad.getEnds();
  SmallVector<int64_t> steps(rank, 1);
  if (auto s = ad.getSteps())
    steps.assign(s->begin(), s->end());
  if (starts.size() != rank || ends.size() != rank || steps.size() != rank)
    return fail(loc, name,
                llvm::formatv("expects starts, ends and steps with one entry "
                              "per dim ({0}), got {1}, {2}, {3}",
                              rank, starts.size(), ends.size(), steps.size())
                    .str());
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i) {
    if (steps[i] <= 0)
      return fail(loc, name,
                  llvm::formatv("expects positive steps, got {0} at dim {1}",
                                steps[i], i)
                      .str());
    int64_t d = x.getDimSize(i);
    shape.push_back(ShapedType::isDynamic(d)
                        ? ShapedType::kDynamic
                        : sliceRange(d, starts[i], ends[i], steps[i]).second);
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(SliceOp)
LogicalResult SliceOp::verify() { return success(); }

SmallVector<int64_t> SliceOp::getStepsOrDefault() {
  if (auto s = getSteps())
    return SmallVector<int64_t>(*s);
  return SmallVector<int64_t>(getX().getType().getRank(), 1);
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  // A slice of a concatenation that is one of its inputs: that input.
  if (auto concat = getX().getDefiningOp<ConcatOp>()) {
    int64_t rank = getType().getRank();
    int64_t axis = concat.getAxis() < 0 ? concat.getAxis() + rank
                                        : concat.getAxis();
    if (std::optional<std::pair<int64_t, int64_t>> range =
            sliceRangeAlong(*this, axis)) {
      int64_t offset = 0;
      for (Value input : concat.getInputs()) {
        int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(axis);
        if (ShapedType::isDynamic(size))
          break;
        if (offset == range->first && size == range->second &&
            input.getType() == getType())
          return input;
        offset += size;
      }
    }
  }
  auto type = getX().getType();
  if (!type.hasStaticShape() || type != getType())
    return {};
  for (auto [s, step] : llvm::zip(getStarts(), getStepsOrDefault()))
    if (s != 0 || step != 1)
      return {};
  return getX();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor ad,
                                         SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(ad.getX()), idx = rankedOrNull(ad.getIndices());
  if (!x || !idx)
    return fail(loc, getOperationName(), "expects ranked tensor operands");
  auto axis = normalizeAxis(ad.getAxis(), x.getRank());
  if (!axis)
    return fail(loc, getOperationName(),
                llvm::formatv("axis {0} is out of range for rank {1}",
                              ad.getAxis(), x.getRank())
                    .str());
  SmallVector<int64_t> shape(x.getShape().take_front(*axis));
  llvm::append_range(shape, idx.getShape());
  llvm::append_range(shape, x.getShape().drop_front(*axis + 1));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(GatherOp)
LogicalResult GatherOp::verify() { return success(); }

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor ad,
    SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(ad.getX()), idx = rankedOrNull(ad.getIndices());
  if (!x || !idx)
    return fail(loc, getOperationName(), "expects ranked tensor operands");
  if (x.getRank() != idx.getRank())
    return fail(loc, getOperationName(),
                llvm::formatv("expects indices of x's rank {0}, got rank {1}",
                              x.getRank(), idx.getRank())
                    .str());
  auto axis = normalizeAxis(ad.getAxis(), x.getRank());
  if (!axis)
    return fail(loc, getOperationName(),
                llvm::formatv("axis {0} is out of range for rank {1}",
                              ad.getAxis(), x.getRank())
                    .str());
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (d != *axis && !x.isDynamicDim(d) && !idx.isDynamicDim(d) &&
        idx.getDimSize(d) > x.getDimSize(d))
      return fail(loc, getOperationName(),
                  llvm::formatv("indices dim {0} ({1}) exceeds x's ({2})", d,
                                idx.getDimSize(d), x.getDimSize(d))
                      .str());
  inferred.push_back(RankedTensorType::get(idx.getShape(), x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(GatherElementsOp)

//===----------------------------------------------------------------------===//
// GridSampleOp
//===----------------------------------------------------------------------===//

LogicalResult GridSampleOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor ad,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = rankedOrNull(ad.getX()), grid = rankedOrNull(ad.getGrid());
  if (!x || !grid)
    return fail(loc, name, "expects ranked tensor operands");
  if (x.getRank() != 4 || grid.getRank() != 4)
    return fail(loc, name,
                llvm::formatv("expects x [N, C, H, W] and grid [N, Ho, Wo, "
                              "2], got x {0} and grid {1}",
                              shapeStr(x.getShape()), shapeStr(grid.getShape()))
                    .str());
  int64_t n = x.getDimSize(0);
  if (ShapedType::isDynamic(n))
    n = grid.getDimSize(0);
  inferred.push_back(RankedTensorType::get(
      {n, x.getDimSize(1), grid.getDimSize(1), grid.getDimSize(2)},
      x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(GridSampleOp)

LogicalResult GridSampleOp::verify() {
  auto x = getX().getType(), grid = getGrid().getType();
  if (!llvm::is_contained({"bilinear", "nearest", "bicubic"}, getMode()))
    return emitOpError("expects mode \"bilinear\", \"nearest\" or "
                       "\"bicubic\", got \"")
           << getMode() << "\"";
  if (!llvm::is_contained({"zeros", "border", "reflection"}, getPaddingMode()))
    return emitOpError("expects padding_mode \"zeros\", \"border\" or "
                       "\"reflection\", got \"")
           << getPaddingMode() << "\"";
  if (grid.getElementType() != x.getElementType())
    return emitOpError("expects a grid of x's element type ")
           << x.getElementType() << ", got " << grid.getElementType();
  if (!grid.isDynamicDim(3) && grid.getDimSize(3) != 2)
    return emitOpError("expects grid [N, Ho, Wo, 2] (x, y pairs), got "
                       "last dim ")
           << grid.getDimSize(3);
  if (!x.isDynamicDim(0) && !grid.isDynamicDim(0) &&
      x.getDimSize(0) != grid.getDimSize(0))
    return emitOpError("expects x and grid of one batch size, got ")
           << x.getDimSize(0) << " and " << grid.getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterElementsOp, ScatterNDOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyScatterCommon(Operation *op, RankedTensorType x,
                                         RankedTensorType updates,
                                         StringRef reduction) {
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return op->emitOpError("expects reduction \"none\", \"add\", \"mul\", "
                           "\"max\" or \"min\", got \"")
           << reduction << "\"";
  if (x.getElementType() != updates.getElementType())
    return op->emitOpError("expects updates of x's element type ")
           << x.getElementType() << ", got " << updates.getElementType();
  return success();
}

TCC_UNARY_INFER(ScatterElementsOp)
LogicalResult ScatterElementsOp::verify() {
  auto x = getX().getType(), idx = getIndices().getType(),
       upd = getUpdates().getType();
  if (failed(verifyScatterCommon(*this, x, upd, getReduction())) ||
      failed(verifyAxisInRange(*this, getAxis(), x.getRank())))
    return failure();
  if (idx.getRank() != x.getRank() || upd.getRank() != x.getRank())
    return emitOpError("expects indices and updates of x's rank ")
           << x.getRank() << ", got ranks " << idx.getRank() << " and "
           << upd.getRank();
  int64_t axis = *normalizeAxis(getAxis(), x.getRank());
  for (int64_t d = 0; d < x.getRank(); ++d) {
    int64_t i = idx.getDimSize(d), u = upd.getDimSize(d), n = x.getDimSize(d);
    if (!ShapedType::isDynamic(i) && !ShapedType::isDynamic(u) && i > u)
      return emitOpError("indices dim ")
             << d << " (" << i << ") exceeds the updates' (" << u << ")";
    if (d != axis && !ShapedType::isDynamic(i) && !ShapedType::isDynamic(n) &&
        i > n)
      return emitOpError("indices dim ")
             << d << " (" << i << ") exceeds x's (" << n << ")";
  }
  return success();
}

TCC_UNARY_INFER(ScatterNDOp)
LogicalResult ScatterNDOp::verify() {
  auto x = getX().getType(), idx = getIndices().getType(),
       upd = getUpdates().getType();
  if (failed(verifyScatterCommon(*this, x, upd, getReduction())))
    return failure();
  if (idx.getRank() < 1)
    return emitOpError("expects indices of rank 1 or more ([..., k])");
  int64_t k = idx.getDimSize(idx.getRank() - 1);
  if (ShapedType::isDynamic(k))
    return emitOpError("expects a static last dim of indices (the index "
                       "tuple's length k)");
  if (k < 1 || k > x.getRank())
    return emitOpError("expects index tuples of 1 to x's rank ")
           << x.getRank() << " entries, got " << k;
  // updates: indices.shape[:-1] + x.shape[k:].
  SmallVector<int64_t> want(idx.getShape().drop_back());
  llvm::append_range(want, x.getShape().drop_front(k));
  if ((int64_t)want.size() != upd.getRank())
    return emitOpError("expects updates of rank ")
           << want.size() << " (indices.shape[:-1] + x.shape[" << k
           << ":]), got " << upd.getRank();
  for (auto [d, pair] : llvm::enumerate(llvm::zip(want, upd.getShape())))
    if (!ShapedType::isDynamic(std::get<0>(pair)) &&
        !ShapedType::isDynamic(std::get<1>(pair)) &&
        std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("expects updates dim ")
             << d << " of size " << std::get<0>(pair) << ", got "
             << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// IotaOp, CumsumOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  auto type = getType();
  if (Value shape = getShape()) {
    auto st = cast<RankedTensorType>(shape.getType());
    if (!st.isDynamicDim(0) && st.getDimSize(0) != 1)
      return emitOpError("expects a shape operand of 1 entry, got ")
             << st.getDimSize(0);
  } else if (type.isDynamicDim(0)) {
    return emitOpError("needs a shape operand for its dynamic length");
  }
  return success();
}

TCC_UNARY_INFER(CumsumOp)
LogicalResult CumsumOp::verify() {
  if (getX().getType().getRank() == 0)
    return emitOpError("expects an operand of rank 1 or more");
  return verifyAxisInRange(*this, getAxis(), getX().getType().getRank());
}

//===----------------------------------------------------------------------===//
// SortOp
//===----------------------------------------------------------------------===//

LogicalResult SortOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> l, Adaptor a,
                                       SmallVectorImpl<Type> &t) {
  auto type = rankedOrNull(a.getX());
  if (!type)
    return fail(l, getOperationName(), "expects a ranked tensor operand");
  t.push_back(type);
  t.push_back(type.clone(IntegerType::get(ctx, 64)));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(SortOp)

LogicalResult SortOp::verify() {
  if (getX().getType().getRank() == 0)
    return emitOpError("expects an operand of rank 1 or more");
  return verifyAxisInRange(*this, getAxis(), getX().getType().getRank());
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> l, Adaptor a,
                                       SmallVectorImpl<Type> &t) {
  StringRef name = getOperationName();
  auto type = rankedOrNull(a.getX());
  if (!type)
    return fail(l, name, "expects a ranked tensor operand");
  std::optional<int64_t> axis = normalizeAxis(a.getAxis(), type.getRank());
  if (!axis || type.getRank() == 0)
    return fail(l, name,
                llvm::formatv("axis {0} is out of range for rank {1}",
                              a.getAxis(), type.getRank())
                    .str());
  int64_t k = a.getK(), n = type.getDimSize(*axis);
  if (k < 0 || (!ShapedType::isDynamic(n) && k > n))
    return fail(l, name,
                llvm::formatv("k = {0} is outside [0, {1}]", k, n).str());
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k;
  t.push_back(type.clone(shape));
  t.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(TopKOp)

LogicalResult TopKOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// MaskSelectOp, NonzeroOp
//===----------------------------------------------------------------------===//

// Result dim 0 is inferred as `?`: a count known only once the op has run.

LogicalResult MaskSelectOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor ad,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = rankedOrNull(ad.getX()), mask = rankedOrNull(ad.getMask());
  if (!x || !mask)
    return fail(loc, name, "expects ranked tensor operands");
  if (mask.getRank() > x.getRank())
    return fail(loc, name,
                llvm::formatv("expects mask of rank at most x's rank {0}, "
                              "got rank {1} (mask {2}, x {3})",
                              x.getRank(), mask.getRank(),
                              shapeStr(mask.getShape()), shapeStr(x.getShape()))
                    .str());
  for (int64_t d = 0; d < mask.getRank(); ++d) {
    int64_t m = mask.getDimSize(d), v = x.getDimSize(d);
    if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(v) && m != v)
      return fail(loc, name,
                  llvm::formatv("expects mask dim {0} (size {1}) to equal x "
                                "dim {0} (size {2}): the mask has x's shape "
                                "or that of its leading dims, it does not "
                                "broadcast (mask {3}, x {4})",
                                d, m, v, shapeStr(mask.getShape()),
                                shapeStr(x.getShape()))
                      .str());
  }
  SmallVector<int64_t> shape = {ShapedType::kDynamic};
  llvm::append_range(shape, x.getShape().drop_front(mask.getRank()));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(MaskSelectOp)

LogicalResult NonzeroOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          Adaptor ad,
                                          SmallVectorImpl<Type> &inferred) {
  auto x = rankedOrNull(ad.getX());
  if (!x)
    return fail(loc, getOperationName(), "expects a ranked tensor operand");
  inferred.push_back(RankedTensorType::get({ShapedType::kDynamic, x.getRank()},
                                           IntegerType::get(ctx, 64)));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(NonzeroOp)

LogicalResult NmsOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc, Adaptor ad,
                                      SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto boxes = rankedOrNull(ad.getBoxes()), scores = rankedOrNull(ad.getScores());
  if (!boxes || !scores)
    return fail(loc, name, "expects ranked tensor operands");
  if (boxes.getRank() != 3 || scores.getRank() != 3)
    return fail(loc, name,
                llvm::formatv("expects boxes [B, N, 4] and scores [B, C, N], "
                              "got {0} and {1}",
                              shapeStr(boxes.getShape()),
                              shapeStr(scores.getShape()))
                    .str());
  auto differ = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  };
  if (differ(boxes.getDimSize(2), 4))
    return fail(loc, name,
                llvm::formatv("expects 4 coordinates per box, got {0}",
                              boxes.getDimSize(2))
                    .str());
  if (differ(boxes.getDimSize(0), scores.getDimSize(0)) ||
      differ(boxes.getDimSize(1), scores.getDimSize(2)))
    return fail(loc, name,
                llvm::formatv("expects scores [B, C, N] for boxes [B, N, 4], "
                              "got {0} for {1}",
                              shapeStr(scores.getShape()),
                              shapeStr(boxes.getShape()))
                    .str());
  if (boxes.getElementType() != scores.getElementType())
    return fail(loc, name,
                llvm::formatv("expects boxes and scores of one element type, "
                              "got {0} and {1}",
                              boxes.getElementType(), scores.getElementType())
                    .str());
  if (auto max = ad.getMaxOutputPerClass(); max && int64_t(*max) < 0)
    return fail(loc, name,
                llvm::formatv("expects max_output_per_class >= 0, got {0}",
                              int64_t(*max))
                    .str());
  inferred.push_back(
      RankedTensorType::get({ShapedType::kDynamic, 3}, IntegerType::get(ctx, 64)));
  return success();
}
TCC_COMPATIBLE_RETURN_TYPES(NmsOp)

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange, DictionaryAttr,
    OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  auto value = properties.as<Properties *>()->value;
  if (!value)
    return failure();
  inferred.push_back(cast<ElementsAttr>(value).getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

#define GET_OP_CLASSES
#include "tcc/Dialect/TCC/IR/TCCOps.cpp.inc"
