//===- Elementwise.cpp - tcc elementwise ops to linalg.generic --*- C++ -*-===//
//
// Every elementwise op becomes one linalg.generic over the broadcast result;
// linalg's elementwise fusion later merges chains of them into one loop.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value c(OpBuilder &b, Location loc, Value like, double v) {
  return scalarConstant(b, loc, like.getType(), v);
}

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value neg = arith::NegFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, neg);
  Value den = arith::AddFOp::create(b, loc, c(b, loc, x, 1.0), e);
  return arith::DivFOp::create(b, loc, c(b, loc, x, 1.0), den);
}

// One scalar builder per op: (builder, loc, operands in compute type, op).
Value scalar(AddOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0]) ? arith::AddFOp::create(b, l, a[0], a[1]).getResult()
                       : arith::AddIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(SubOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0]) ? arith::SubFOp::create(b, l, a[0], a[1]).getResult()
                       : arith::SubIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(MulOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0]) ? arith::MulFOp::create(b, l, a[0], a[1]).getResult()
                       : arith::MulIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(DivOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0]) ? arith::DivFOp::create(b, l, a[0], a[1]).getResult()
                       : arith::DivSIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(MaximumOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0])
             ? arith::MaximumFOp::create(b, l, a[0], a[1]).getResult()
             : arith::MaxSIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(MinimumOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0])
             ? arith::MinimumFOp::create(b, l, a[0], a[1]).getResult()
             : arith::MinSIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(PowOp, OpBuilder &b, Location l, ValueRange a) {
  return math::PowFOp::create(b, l, a[0], a[1]);
}
Value scalar(NegOp, OpBuilder &b, Location l, ValueRange a) {
  return isFloat(a[0])
             ? arith::NegFOp::create(b, l, a[0]).getResult()
             : arith::SubIOp::create(b, l, c(b, l, a[0], 0), a[0]).getResult();
}
Value scalar(ExpOp, OpBuilder &b, Location l, ValueRange a) {
  return math::ExpOp::create(b, l, a[0]);
}
Value scalar(LogOp, OpBuilder &b, Location l, ValueRange a) {
  return math::LogOp::create(b, l, a[0]);
}
Value scalar(SqrtOp, OpBuilder &b, Location l, ValueRange a) {
  return math::SqrtOp::create(b, l, a[0]);
}
Value scalar(RsqrtOp, OpBuilder &b, Location l, ValueRange a) {
  return math::RsqrtOp::create(b, l, a[0]);
}
Value scalar(AbsOp, OpBuilder &b, Location l, ValueRange a) {
  if (isFloat(a[0]))
    return math::AbsFOp::create(b, l, a[0]);
  // Integers: x < 0 ? -x : x (math.absi has no LLVM lowering here).
  Value zero = c(b, l, a[0], 0);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0], zero);
  return arith::SelectOp::create(b, l, neg,
                                 arith::SubIOp::create(b, l, zero, a[0]), a[0]);
}
Value scalar(TanhOp, OpBuilder &b, Location l, ValueRange a) {
  return math::TanhOp::create(b, l, a[0]);
}
Value scalar(SigmoidOp, OpBuilder &b, Location l, ValueRange a) {
  return sigmoid(b, l, a[0]);
}
Value scalar(ReluOp, OpBuilder &b, Location l, ValueRange a) {
  Value zero = c(b, l, a[0], 0);
  return isFloat(a[0])
             ? arith::MaximumFOp::create(b, l, a[0], zero).getResult()
             : arith::MaxSIOp::create(b, l, a[0], zero).getResult();
}
Value scalar(SiluOp, OpBuilder &b, Location l, ValueRange a) {
  return arith::MulFOp::create(b, l, a[0], sigmoid(b, l, a[0]));
}
Value scalar(ErfOp, OpBuilder &b, Location l, ValueRange a) {
  return math::ErfOp::create(b, l, a[0]);
}
Value scalar(CastOp, OpBuilder &, Location, ValueRange a) { return a[0]; }
Value scalar(RemOp, OpBuilder &b, Location l, ValueRange a) {
  // frem is fmod; remsi takes the sign of the dividend too.
  return isFloat(a[0]) ? arith::RemFOp::create(b, l, a[0], a[1]).getResult()
                       : arith::RemSIOp::create(b, l, a[0], a[1]).getResult();
}
Value scalar(BitwiseAndOp, OpBuilder &b, Location l, ValueRange a) {
  return arith::AndIOp::create(b, l, a[0], a[1]);
}
Value scalar(BitwiseOrOp, OpBuilder &b, Location l, ValueRange a) {
  return arith::OrIOp::create(b, l, a[0], a[1]);
}
Value scalar(BitwiseXorOp, OpBuilder &b, Location l, ValueRange a) {
  return arith::XOrIOp::create(b, l, a[0], a[1]);
}
Value scalar(BitwiseNotOp, OpBuilder &b, Location l, ValueRange a) {
  return arith::XOrIOp::create(b, l, a[0], c(b, l, a[0], -1));
}
Value scalar(ShiftLeftOp, OpBuilder &b, Location l, ValueRange a) {
  return shiftLeft(b, l, a[0], a[1]);
}
// Signless is signed; unsigned shifts are rewritten in Unsigned.cpp.
Value scalar(ShiftRightOp, OpBuilder &b, Location l, ValueRange a) {
  return shiftRight(b, l, a[0], a[1], /*isUnsigned=*/false);
}
// The unary ops that are one math op on the scalar.
#define TCC_SCALAR_MATH(OP, MATH)                                              \
  Value scalar(OP, OpBuilder &b, Location l, ValueRange a) {                   \
    return math::MATH::create(b, l, a[0]);                                     \
  }
TCC_SCALAR_MATH(SinOp, SinOp)
TCC_SCALAR_MATH(CosOp, CosOp)
TCC_SCALAR_MATH(TanOp, TanOp)
TCC_SCALAR_MATH(AsinOp, AsinOp)
TCC_SCALAR_MATH(AcosOp, AcosOp)
TCC_SCALAR_MATH(AtanOp, AtanOp)
TCC_SCALAR_MATH(SinhOp, SinhOp)
TCC_SCALAR_MATH(CoshOp, CoshOp)
TCC_SCALAR_MATH(AsinhOp, AsinhOp)
TCC_SCALAR_MATH(AcoshOp, AcoshOp)
TCC_SCALAR_MATH(AtanhOp, AtanhOp)
TCC_SCALAR_MATH(FloorOp, FloorOp)
TCC_SCALAR_MATH(CeilOp, CeilOp)
TCC_SCALAR_MATH(RoundOp, RoundEvenOp)
#undef TCC_SCALAR_MATH

Value gelu(GeluOp op, OpBuilder &b, Location l, ValueRange a) {
  Value x = a[0];
  Value half = c(b, l, x, 0.5);
  Value inner;
  if (op.getApproximate() == "tanh") {
    Value x3 = arith::MulFOp::create(
        b, l, x, arith::MulFOp::create(b, l, x, x));
    Value poly = arith::AddFOp::create(
        b, l, x, arith::MulFOp::create(b, l, c(b, l, x, 0.044715), x3));
    Value scaled = arith::MulFOp::create(
        b, l, c(b, l, x, std::sqrt(2.0 / M_PI)), poly);
    inner = math::TanhOp::create(b, l, scaled);
  } else {
    inner = math::ErfOp::create(
        b, l, arith::MulFOp::create(b, l, x, c(b, l, x, M_SQRT1_2)));
  }
  // x/2 * (1 + inner) as one FMA: x/2 * inner + x/2.
  Value halfX = arith::MulFOp::create(b, l, x, half);
  return math::FmaOp::create(b, l, halfX, inner, halfX);
}

/// Lowers any elementwise op whose scalar form is `scalar(OpTy, ...)`.
template <typename OpTy>
struct ElementwiseToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), op->getOperands(),
        op->getName().getStringRef(),
        [&](OpBuilder &b, Location l, ValueRange a) {
          return scalar(op, b, l, a);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct GeluToGeneric : OpRewritePattern<GeluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GeluOp op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(rewriter, op.getLoc(), op.getType(),
                               op->getOperands(), "tcc.gelu",
                               [&](OpBuilder &b, Location l, ValueRange a) {
                                 return gelu(op, b, l, a);
                               });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct CmpToGeneric : OpRewritePattern<CmpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpOp op,
                                PatternRewriter &rewriter) const override {
    StringRef p = op.getPredicate();
    Type et = op.getLhs().getType().getElementType();
    bool isBool = et.isInteger(1);
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), op->getOperands(), "tcc.cmp",
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          if (isFloat(a[0])) {
            // Ordered compares except ne, which holds for NaN (IEEE/PyTorch).
            auto pred = llvm::StringSwitch<arith::CmpFPredicate>(p)
                            .Case("eq", arith::CmpFPredicate::OEQ)
                            .Case("ne", arith::CmpFPredicate::UNE)
                            .Case("lt", arith::CmpFPredicate::OLT)
                            .Case("le", arith::CmpFPredicate::OLE)
                            .Case("gt", arith::CmpFPredicate::OGT)
                            .Default(arith::CmpFPredicate::OGE);
            return arith::CmpFOp::create(b, l, pred, a[0], a[1]);
          }
          auto pred =
              llvm::StringSwitch<arith::CmpIPredicate>(p)
                  .Case("eq", arith::CmpIPredicate::eq)
                  .Case("ne", arith::CmpIPredicate::ne)
                  .Case("lt", isBool ? arith::CmpIPredicate::ult
                                     : arith::CmpIPredicate::slt)
                  .Case("le", isBool ? arith::CmpIPredicate::ule
                                     : arith::CmpIPredicate::sle)
                  .Case("gt", isBool ? arith::CmpIPredicate::ugt
                                     : arith::CmpIPredicate::sgt)
                  .Default(isBool ? arith::CmpIPredicate::uge
                                  : arith::CmpIPredicate::sge);
          return arith::CmpIOp::create(b, l, pred, a[0], a[1]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct SelectToGeneric : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), op->getOperands(), "tcc.select",
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric<AddOp>, ElementwiseToGeneric<SubOp>,
               ElementwiseToGeneric<MulOp>, ElementwiseToGeneric<DivOp>,
               ElementwiseToGeneric<MaximumOp>,
               ElementwiseToGeneric<MinimumOp>, ElementwiseToGeneric<PowOp>,
               ElementwiseToGeneric<NegOp>, ElementwiseToGeneric<ExpOp>,
               ElementwiseToGeneric<LogOp>, ElementwiseToGeneric<SqrtOp>,
               ElementwiseToGeneric<RsqrtOp>, ElementwiseToGeneric<AbsOp>,
               ElementwiseToGeneric<TanhOp>, ElementwiseToGeneric<SigmoidOp>,
               ElementwiseToGeneric<ReluOp>, ElementwiseToGeneric<SiluOp>,
               ElementwiseToGeneric<ErfOp>, ElementwiseToGeneric<CastOp>,
               ElementwiseToGeneric<RemOp>, ElementwiseToGeneric<SinOp>,
               ElementwiseToGeneric<CosOp>, ElementwiseToGeneric<TanOp>,
               ElementwiseToGeneric<AsinOp>, ElementwiseToGeneric<AcosOp>,
               ElementwiseToGeneric<AtanOp>, ElementwiseToGeneric<SinhOp>,
               ElementwiseToGeneric<CoshOp>, ElementwiseToGeneric<AsinhOp>,
               ElementwiseToGeneric<AcoshOp>, ElementwiseToGeneric<AtanhOp>,
               ElementwiseToGeneric<FloorOp>, ElementwiseToGeneric<CeilOp>,
               ElementwiseToGeneric<RoundOp>,
               ElementwiseToGeneric<BitwiseAndOp>,
               ElementwiseToGeneric<BitwiseOrOp>,
               ElementwiseToGeneric<BitwiseXorOp>,
               ElementwiseToGeneric<BitwiseNotOp>,
               ElementwiseToGeneric<ShiftLeftOp>,
               ElementwiseToGeneric<ShiftRightOp>,
               GeluToGeneric, CmpToGeneric, SelectToGeneric>(
      patterns.getContext());
}
