//===- Scans.cpp - tcc.cumsum to an scf.for over its axis -------*- C++ -*-===//
//
// A running sum has no linalg form (a generic's reduction yields one value
// per row, not every prefix). tcc.cumsum becomes an scf.for over the axis
// that carries the result and the running sum of the other dims: each step
// adds the axis slice to the sum (one elementwise generic over every other
// dim, vectorizable when the axis is not the innermost dim) and stores the
// sum, or for `exclusive` the sum before the add, into the result. f16 and
// bf16 sums run in f32.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

struct CumsumToLoop : OpRewritePattern<CumsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CumsumOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    Type elem = type.getElementType();
    Type acc = computeType(elem);

    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value result = emptyTensor(rewriter, loc, type, dims);
    // The running sum: every dim but the axis.
    SmallVector<int64_t> rowShape;
    SmallVector<Value> rowDims;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) {
        rowShape.push_back(type.getDimSize(d));
        rowDims.push_back(dims[d]);
      }
    auto rowType = RankedTensorType::get(rowShape, elem);
    auto accType = RankedTensorType::get(rowShape, acc);
    Value zero = scalarConstant(rewriter, loc, acc, 0);
    Value running = filledTensor(rewriter, loc, accType, rowDims, zero);

    // The slice at `pos` along the axis, rank-reduced to the row.
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(d == axis ? OpFoldResult(rewriter.getIndexAttr(1))
                                : getAsOpFoldResult(dims[d]));
    auto offsetsAt = [&](Value pos) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[axis] = pos;
      return offsets;
    };

    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value len = dims[axis];
    MLIRContext *ctx = rewriter.getContext();
    AffineMap id = AffineMap::getMultiDimIdentityMap(rowShape.size(), ctx);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, len, one, ValueRange{result, running},
        [&](OpBuilder &b, Location l, Value k, ValueRange carried) {
          Value pos = k;
          if (op.getReverse())
            pos = arith::SubIOp::create(
                b, l, arith::SubIOp::create(b, l, len, one), k);
          Value slice = tensor::ExtractSliceOp::create(
              b, l, rowType, x, offsetsAt(pos), sizes, strides);
          auto store = [&](Value acc, Value sum) -> Value {
            if (accType != rowType)
              sum = buildMapped(b, l, rowType, rowDims, ValueRange{sum}, {id},
                                [](OpBuilder &, Location, ValueRange a) {
                                  return a[0];
                                });
            return tensor::InsertSliceOp::create(b, l, sum, acc,
                                                 offsetsAt(pos), sizes,
                                                 strides);
          };
          // exclusive: the sum so far is stored before the step's add.
          Value next = carried[0];
          if (op.getExclusive())
            next = store(next, carried[1]);
          // The add runs in place on the carried sum (scf.for's yield must
          // be its iter_arg's buffer).
          Value sum =
              linalg::GenericOp::create(
                  b, l, accType, ValueRange{slice}, ValueRange{carried[1]},
                  ArrayRef<AffineMap>{id, id},
                  SmallVector<utils::IteratorType>(
                      rowShape.size(), utils::IteratorType::parallel),
                  [&](OpBuilder &bb, Location ll, ValueRange a) {
                    Value v = convertScalar(bb, ll, a[0], acc);
                    Value r = isa<FloatType>(acc)
                                  ? arith::AddFOp::create(bb, ll, a[1], v)
                                        .getResult()
                                  : arith::AddIOp::create(bb, ll, a[1], v)
                                        .getResult();
                    linalg::YieldOp::create(bb, ll, r);
                  })
                  .getResult(0);
          if (!op.getExclusive())
            next = store(next, sum);
          scf::YieldOp::create(b, l, ValueRange{next, sum});
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCScanToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<CumsumToLoop>(patterns.getContext());
}
