//===- Sampling.cpp - tcc.grid_sample to one generic ------------*- C++ -*-===//
//
// tcc.grid_sample is one linalg.generic over the result [N, C, Ho, Wo]: each
// element reads its (x, y) pair from the grid (two indexing maps into the
// grid's last dim), maps it to pixel coordinates as PyTorch's
// grid_sampler_2d does, and reads the 1 (nearest), 4 (bilinear) or 16
// (bicubic) pixels it needs with tensor.extract at clamped indices, each
// weighted and zeroed outside x for "zeros" padding. The vectorizer turns
// the extracts into gathers; no pixel outside x is ever read.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

/// Scalar arithmetic in one float type, with the sampler's coordinate maps.
struct Sampler {
  OpBuilder &b;
  Location l;
  FloatType t;
  StringRef padding;
  bool alignCorners;

  Value cst(double v) { return arith::ConstantOp::create(b, l, t, b.getFloatAttr(t, v)); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, l, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, l, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, l, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, l, x, y); }
  Value floor(Value x) { return math::FloorOp::create(b, l, x); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, l, c, x, y);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, l, p, x, y);
  }
  /// x clamped to [lo, hi]; NaN becomes lo.
  Value clamp(Value x, Value lo, Value hi) {
    return arith::MinNumFOp::create(b, l,
                                    arith::MaxNumFOp::create(b, l, x, lo), hi);
  }

  /// [-1, 1] to pixel coordinates in [0, size - 1] (align_corners) or
  /// [-0.5, size - 0.5].
  Value unnormalize(Value g, Value size) {
    Value one = cst(1);
    if (alignCorners)
      return mul(div(add(g, one), cst(2)), sub(size, one));
    return div(sub(mul(add(g, one), size), one), cst(2));
  }

  /// PyTorch's reflect_coordinates: `in` mirrored into [low, high] given
  /// as twice their values.
  Value reflect(Value in, Value twiceLow, Value twiceHigh) {
    Value half = cst(0.5);
    Value low = mul(twiceLow, half);
    Value span = mul(sub(twiceHigh, twiceLow), half);
    Value d = math::AbsFOp::create(b, l, sub(in, low));
    Value extra = arith::RemFOp::create(b, l, d, span);
    Value flips = floor(div(d, span));
    Value even = cmp(arith::CmpFPredicate::OEQ,
                     sub(flips, mul(cst(2), floor(mul(flips, half)))), cst(0));
    Value r = select(even, add(extra, low), add(sub(span, extra), low));
    // A span of 0 (one pixel, align_corners): everything maps to it.
    return select(cmp(arith::CmpFPredicate::OEQ, span, cst(0)), cst(0), r);
  }

  /// The padding mode applied to a pixel coordinate (PyTorch's
  /// compute_coordinates): border clips, reflection mirrors then clips.
  Value pad(Value c, Value size) {
    if (padding == "zeros")
      return c;
    Value last = sub(size, cst(1));
    if (padding == "reflection") {
      c = alignCorners ? reflect(c, cst(0), mul(cst(2), last))
                       : reflect(c, cst(-1), sub(mul(cst(2), size), cst(1)));
    }
    return clamp(c, cst(0), last);
  }

  /// Whether integral coordinate c lies in [0, size - 1].
  Value inside(Value c, Value size) {
    Value lo = cmp(arith::CmpFPredicate::OGE, c, cst(0));
    Value hi = cmp(arith::CmpFPredicate::OLE, c, sub(size, cst(1)));
    return arith::AndIOp::create(b, l, lo, hi);
  }

  /// c as an index clamped into x.
  Value index(Value c, Value size) {
    Value v = clamp(c, cst(0), sub(size, cst(1)));
    Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), v);
    return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
  }
};

struct GridSampleToGeneric : OpRewritePattern<GridSampleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GridSampleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX(), grid = op.getGrid();
    auto out = op.getType();
    Type elem = out.getElementType();
    auto ct = cast<FloatType>(computeType(elem));
    StringRef mode = op.getMode();
    assertSameDim(rewriter, loc, x, 0, grid, 0,
                  "tcc.grid_sample: x and grid differ in batch size");
    assertEqual(rewriter, loc, dimValue(rewriter, loc, grid, 3),
                arith::ConstantIndexOp::create(rewriter, loc, 2),
                "tcc.grid_sample: the grid's last dim must be 2 (x, y)");
    SmallVector<Value> dims = {dimValue(rewriter, loc, x, 0),
                               dimValue(rewriter, loc, x, 1),
                               dimValue(rewriter, loc, grid, 1),
                               dimValue(rewriter, loc, grid, 2)};
    Value hDim = dimValue(rewriter, loc, x, 2), wDim = dimValue(rewriter, loc, x, 3);
    auto asFloat = [&](Value v) -> Value {
      Value i = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), v);
      return arith::SIToFPOp::create(rewriter, loc, ct, i);
    };
    Value hf = asFloat(hDim), wf = asFloat(wDim);

    AffineExpr n = getAffineDimExpr(0, ctx), h = getAffineDimExpr(2, ctx),
               w = getAffineDimExpr(3, ctx);
    auto gridMap = [&](int64_t k) {
      return AffineMap::get(4, 0, {n, h, w, getAffineConstantExpr(k, ctx)},
                            ctx);
    };
    Value init = emptyTensor(rewriter, loc, out, dims);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, out, ValueRange{grid, grid}, init,
        ArrayRef<AffineMap>{gridMap(0), gridMap(1),
                            AffineMap::getMultiDimIdentityMap(4, ctx)},
        SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Sampler s{b, l, ct, op.getPaddingMode(), op.getAlignCorners()};
          Value gx = convertScalar(b, l, a[0], ct);
          Value gy = convertScalar(b, l, a[1], ct);
          Value ni = linalg::IndexOp::create(b, l, 0);
          Value ci = linalg::IndexOp::create(b, l, 1);
          // x's pixel (px, py) times `weight`, 0 outside x.
          auto tap = [&](Value px, Value py, Value weight) -> Value {
            Value v = tensor::ExtractOp::create(
                b, l, x,
                ValueRange{ni, ci, s.index(py, hf), s.index(px, wf)});
            Value term = s.mul(convertScalar(b, l, v, ct), weight);
            Value in = arith::AndIOp::create(b, l, s.inside(px, wf),
                                             s.inside(py, hf));
            return s.select(in, term, s.cst(0));
          };
          Value result;
          if (mode == "bicubic") {
            // Taps at floor - 1 .. floor + 2, each padded on its own.
            Value ix = s.unnormalize(gx, wf), iy = s.unnormalize(gy, hf);
            Value x0 = s.floor(ix), y0 = s.floor(iy);
            auto coeffs = [&](Value t) {
              Value A = s.cst(-0.75), one = s.cst(1);
              auto near = [&](Value v) { // ((A + 2) v - (A + 3)) v^2 + 1
                return s.add(s.mul(s.mul(s.sub(s.mul(s.add(A, s.cst(2)), v),
                                               s.add(A, s.cst(3))),
                                         v),
                                   v),
                             one);
              };
              auto far = [&](Value v) { // ((A v - 5A) v + 8A) v - 4A
                return s.sub(
                    s.mul(s.add(s.mul(s.sub(s.mul(A, v), s.mul(s.cst(5), A)), v),
                                s.mul(s.cst(8), A)),
                          v),
                    s.mul(s.cst(4), A));
              };
              return SmallVector<Value>{far(s.add(t, one)), near(t),
                                        near(s.sub(one, t)),
                                        far(s.sub(s.cst(2), t))};
            };
            SmallVector<Value> cx = coeffs(s.sub(ix, x0)),
                               cy = coeffs(s.sub(iy, y0));
            result = s.cst(0);
            for (int i = 0; i < 4; ++i)
              for (int j = 0; j < 4; ++j) {
                Value px = s.pad(s.add(x0, s.cst(j - 1)), wf);
                Value py = s.pad(s.add(y0, s.cst(i - 1)), hf);
                result = s.add(result, tap(px, py, s.mul(cx[j], cy[i])));
              }
          } else {
            Value ix = s.pad(s.unnormalize(gx, wf), wf);
            Value iy = s.pad(s.unnormalize(gy, hf), hf);
            if (mode == "nearest") {
              result = tap(math::RoundEvenOp::create(b, l, ix),
                           math::RoundEvenOp::create(b, l, iy), s.cst(1));
            } else {
              Value x0 = s.floor(ix), y0 = s.floor(iy);
              Value x1 = s.add(x0, s.cst(1)), y1 = s.add(y0, s.cst(1));
              Value wx1 = s.sub(ix, x0), wy1 = s.sub(iy, y0);
              Value wx0 = s.sub(s.cst(1), wx1), wy0 = s.sub(s.cst(1), wy1);
              result = s.add(s.add(tap(x0, y0, s.mul(wx0, wy0)),
                                   tap(x1, y0, s.mul(wx1, wy0))),
                             s.add(tap(x0, y1, s.mul(wx0, wy1)),
                                   tap(x1, y1, s.mul(wx1, wy1))));
            }
          }
          linalg::YieldOp::create(b, l, convertScalar(b, l, result, elem));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCSamplingToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GridSampleToGeneric>(patterns.getContext());
}
