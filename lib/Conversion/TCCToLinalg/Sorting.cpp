//===- Sorting.cpp - tcc.sort to a bitonic sorting network ------*- C++ -*-===//
//
// tcc.sort becomes a bitonic sorting network along its axis. Every element
// gets an unsigned key that preserves the op's order (sortKey) and its
// position; keys of 32 bits or fewer share one i64 word with the position
// (packWord), 64-bit keys take a word of their own. The axis is padded to
// a power of two P with the largest key at positions >= n, so the padding
// sorts last. Sorting the (key, position) pairs, which are unique, gives
// the stable order whatever the network does with equal keys. The network
// is two host scf.for loops (log2 P phases, each of 1..log2 P steps) around
// one parallel linalg.generic per step: element i reads its partner
// i ^ 2^t with tensor.extract from a copy of the step's input and keeps the
// smaller or the larger pair, so a step vectorizes on the CPU and is an
// ordinary parallel kernel on the GPU. O(n log^2 n) compare-exchanges per
// row, every row at once. The indices are the first n positions; the
// values are read back from x at them (readBack), so -0.0 and NaN payloads
// come through unchanged. tcc.topk with a small k is k selection passes
// over the row (one vectorizable reduction each, the packed words built
// from x on the fly), otherwise the first k of a sort.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

Value i64Constant(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, b.getI64Type(), v);
}

/// Bits of the key of an element of `type`: 64 for f64 and i64, else 32.
unsigned keyWidth(Type type) {
  return type.getIntOrFloatBitWidth() == 64 ? 64 : 32;
}

/// The key of a scalar, an integer of keyWidth bits whose unsigned order is
/// the sort's ascending order: floats (f16 and bf16 via f32) with -0.0 as
/// 0.0 and every NaN as one NaN above +inf, the sign-magnitude bits mapped
/// to an unsigned order; integers sign-extended (i1 zero-extended) with the
/// sign bit flipped. `descending` complements the key.
Value sortKey(OpBuilder &b, Location l, Value v, bool descending) {
  unsigned w = keyWidth(v.getType());
  auto it = b.getIntegerType(w);
  Value key;
  if (auto ft = dyn_cast<FloatType>(v.getType())) {
    if (ft.getWidth() < 32) {
      ft = b.getF32Type();
      v = arith::ExtFOp::create(b, l, ft, v);
    }
    Value zero = arith::ConstantOp::create(b, l, ft, b.getFloatAttr(ft, 0.0));
    Value nan = arith::ConstantOp::create(
        b, l, ft, b.getFloatAttr(ft, APFloat::getQNaN(ft.getFloatSemantics())));
    Value isZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, v, zero);
    Value isNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v);
    v = arith::SelectOp::create(b, l, isZero, zero, v);
    v = arith::SelectOp::create(b, l, isNaN, nan, v);
    Value bits = arith::BitcastOp::create(b, l, it, v);
    Value negative = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::slt, bits,
        arith::ConstantIntOp::create(b, l, it, 0));
    // Negative floats: all bits flipped (larger magnitude, smaller key);
    // positive ones: the sign bit set (above every negative).
    Value flip = arith::SelectOp::create(
        b, l, negative, arith::ConstantIntOp::create(b, l, it, -1),
        arith::ConstantOp::create(
            b, l, it, b.getIntegerAttr(it, APInt::getSignMask(w))));
    key = arith::XOrIOp::create(b, l, bits, flip);
  } else {
    auto vt = cast<IntegerType>(v.getType());
    if (vt.getWidth() == 1) {
      key = arith::ExtUIOp::create(b, l, it, v);
    } else {
      if (vt.getWidth() < w)
        v = arith::ExtSIOp::create(b, l, it, v);
      key = arith::XOrIOp::create(
          b, l, v,
          arith::ConstantOp::create(
              b, l, it, b.getIntegerAttr(it, APInt::getSignMask(w))));
    }
  }
  if (descending)
    key = arith::XOrIOp::create(b, l, key,
                                arith::ConstantIntOp::create(b, l, it, -1));
  return key;
}

/// P and log2 P as index values for a row of n: the smallest power of two
/// >= n, or n itself for n <= 1 (log2 P = 0 then).
std::pair<Value, Value> paddedLength(OpBuilder &b, Location l, Value n) {
  if (auto c = getConstantIntValue(n)) {
    int64_t log = *c <= 1 ? 0 : llvm::Log2_64_Ceil(*c);
    int64_t p = *c <= 1 ? *c : int64_t(1) << log;
    return {arith::ConstantIndexOp::create(b, l, p),
            arith::ConstantIndexOp::create(b, l, log)};
  }
  Type i64 = b.getI64Type();
  Value n64 = arith::IndexCastOp::create(b, l, i64, n);
  Value below = arith::MaxSIOp::create(
      b, l, arith::SubIOp::create(b, l, n64, i64Constant(b, l, 1)),
      i64Constant(b, l, 0));
  // 64 - ctlz(n - 1): 0 for n <= 1 (ctlz(0) is 64).
  Value log = arith::SubIOp::create(b, l, i64Constant(b, l, 64),
                                    math::CountLeadingZerosOp::create(b, l, below));
  Value p = arith::SelectOp::create(
      b, l,
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, n64,
                            i64Constant(b, l, 1)),
      n64, arith::ShLIOp::create(b, l, i64Constant(b, l, 1), log));
  Type index = b.getIndexType();
  return {arith::IndexCastOp::create(b, l, index, p),
          arith::IndexCastOp::create(b, l, index, log)};
}

SmallVector<Value> loopIndices(OpBuilder &b, Location l, int64_t rank) {
  SmallVector<Value> idx;
  for (int64_t d = 0; d < rank; ++d)
    idx.push_back(linalg::IndexOp::create(b, l, d));
  return idx;
}

/// A 32-bit key and its position in one i64 word: key high, position low,
/// so that one unsigned compare orders the pair.
Value packWord(OpBuilder &b, Location l, Value key32, Value pos) {
  Value key = arith::ExtUIOp::create(b, l, b.getI64Type(), key32);
  return arith::OrIOp::create(
      b, l, arith::ShLIOp::create(b, l, key, i64Constant(b, l, 32)), pos);
}

/// Whether rows of n elements can pack positions into 32 bits: false for a
/// static n above 2^32; a dynamic n is checked at run time (`what` names
/// the op in the message).
bool positionsFit32(OpBuilder &b, Location l, Value n, StringRef what) {
  constexpr int64_t kLimit = int64_t(1) << 32;
  if (std::optional<int64_t> known = getConstantIntValue(n))
    return *known <= kLimit;
  cf::AssertOp::create(
      b, l,
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, n,
                            arith::ConstantIndexOp::create(b, l, kLimit)),
      (what + ": more than 2^32 elements along the axis").str());
  return true;
}

/// The results of a sort or top-k from the positions in its order,
/// `order` (words whose low half is the position when `packed`): the i64
/// indices and x read at them, cast to the op's declared result types.
SmallVector<Value> readBack(OpBuilder &b, Location loc, Value x, int64_t axis,
                            Value order, bool packed, ArrayRef<Value> dims,
                            Type valuesType, Type indicesType) {
  auto orderType = cast<RankedTensorType>(order.getType());
  int64_t rank = orderType.getRank();
  auto outValues = orderType.clone(getElementTypeOrSelf(x.getType()));
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  auto gathered = linalg::GenericOp::create(
      b, loc, TypeRange{outValues, orderType}, ValueRange{order},
      ValueRange{emptyTensor(b, loc, outValues, dims),
                 emptyTensor(b, loc, orderType, dims)},
      ArrayRef<AffineMap>{id, id, id}, parallel,
      [&](OpBuilder &b, Location l, ValueRange a) {
        Value pos = a[0];
        if (packed)
          pos = arith::AndIOp::create(b, l, pos,
                                      i64Constant(b, l, 0xFFFFFFFFll));
        SmallVector<Value> idx = loopIndices(b, l, rank);
        idx[axis] = arith::IndexCastOp::create(b, l, b.getIndexType(), pos);
        Value v = tensor::ExtractOp::create(b, l, x, idx);
        linalg::YieldOp::create(b, l, ValueRange{v, pos});
      });
  SmallVector<Value> results;
  SmallVector<Type, 2> types = {valuesType, indicesType};
  for (auto [r, t] : llvm::zip(gathered.getResults(), types)) {
    Value v = r;
    if (v.getType() != t)
      v = castChecked(b, loc, v, cast<RankedTensorType>(t));
    results.push_back(v);
  }
  return results;
}

struct SortToBitonicNetwork : OpRewritePattern<SortOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SortOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto type = op.getX().getType();
    int64_t rank = type.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    bool descending = op.getDescending();
    MLIRContext *ctx = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    // Keys of 32 bits or fewer share one i64 word with the position (key
    // high, position low: one unsigned compare orders the pair), which
    // halves the network's traffic; 64-bit keys need a word of their own.
    bool packed = keyWidth(type.getElementType()) == 32;

    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value n = dims[axis];
    packed = packed && positionsFit32(rewriter, loc, n, "tcc.sort");
    unsigned words = packed ? 1 : 2;
    auto [p, log2p] = paddedLength(rewriter, loc, n);
    SmallVector<int64_t> paddedShape(type.getShape());
    paddedShape[axis] = getConstantIntValue(p).value_or(ShapedType::kDynamic);
    SmallVector<Value> paddedDims(dims);
    paddedDims[axis] = p;
    auto wordType = RankedTensorType::get(paddedShape, i64);
    SmallVector<Type> wordTypes(words, wordType);
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto wordGeneric = [&](OpBuilder &b, Location l, ValueRange inputs,
                           ValueRange outs,
                           function_ref<void(OpBuilder &, Location,
                                             ValueRange)>
                               body) {
      SmallVector<AffineMap> maps(inputs.size() + outs.size(), id);
      return linalg::GenericOp::create(b, l, wordTypes, inputs, outs, maps,
                                       parallel, body)
          .getResults();
    };

    // Keys and positions; the padding past n gets the largest key
    // (sorting after every element, which all have positions below n).
    SmallVector<Value> initOuts;
    for (unsigned w = 0; w < words; ++w)
      initOuts.push_back(emptyTensor(rewriter, loc, wordType, paddedDims));
    auto init = wordGeneric(
        rewriter, loc, {}, initOuts, [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> idx = loopIndices(b, l, rank);
          Value i = idx[axis];
          Value inRange =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, i, n);
          Value last = arith::SubIOp::create(
              b, l, n, arith::ConstantIndexOp::create(b, l, 1));
          idx[axis] = arith::MinUIOp::create(b, l, i, last);
          Value v = tensor::ExtractOp::create(b, l, x, idx);
          Value key = sortKey(b, l, v, descending);
          Value pos = arith::IndexCastOp::create(b, l, i64, i);
          if (packed) {
            key = arith::SelectOp::create(
                b, l, inRange, key,
                arith::ConstantIntOp::create(b, l, b.getI32Type(), -1));
            linalg::YieldOp::create(b, l, ValueRange{packWord(b, l, key, pos)});
            return;
          }
          key = arith::SelectOp::create(b, l, inRange, key,
                                        i64Constant(b, l, -1));
          linalg::YieldOp::create(b, l, ValueRange{key, pos});
        });

    // Phase s (1 ..= log2 P) merges bitonic runs of 2^s; its step t
    // (s-1 down to 0) compare-exchanges elements 2^t apart: element i keeps
    // the smaller pair when it is the lower of the two and its run sorts
    // ascending (bit s of i clear), or the larger one otherwise.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value phases = arith::AddIOp::create(rewriter, loc, log2p, one);
    auto network = scf::ForOp::create(
        rewriter, loc, one, phases, one, init,
        [&](OpBuilder &b, Location l, Value s, ValueRange phaseArgs) {
          Value run = arith::ShLIOp::create(b, l, one, s);
          auto steps = scf::ForOp::create(
              b, l, zero, s, one, phaseArgs,
              [&](OpBuilder &b, Location l, Value u, ValueRange args) {
                Value t = arith::SubIOp::create(
                    b, l, arith::SubIOp::create(b, l, s, one), u);
                Value stride = arith::ShLIOp::create(b, l, one, t);
                // The step reads a copy and writes the carried buffers in
                // place (an element's partner must be read before it is
                // overwritten; scf.for yields its iter_args' buffers).
                SmallVector<Value> copies;
                for (Value w : args)
                  copies.push_back(ownCopy(b, l, w));
                auto next = wordGeneric(
                    b, l, copies, args,
                    [&](OpBuilder &b, Location l, ValueRange a) {
                      SmallVector<Value> idx = loopIndices(b, l, rank);
                      Value i = idx[axis];
                      Value partner = arith::XOrIOp::create(b, l, i, stride);
                      idx[axis] = partner;
                      SmallVector<Value> theirs;
                      for (Value c : copies)
                        theirs.push_back(
                            tensor::ExtractOp::create(b, l, c, idx));
                      Value ascendingRun = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq,
                          arith::AndIOp::create(b, l, i, run), zero);
                      Value lower = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::ult, i, partner);
                      Value keepSmaller = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, lower, ascendingRun);
                      // The partner's pair below ours (keys unsigned).
                      Value partnerSmaller = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::ult, theirs[0], a[0]);
                      if (!packed)
                        partnerSmaller = arith::OrIOp::create(
                            b, l, partnerSmaller,
                            arith::AndIOp::create(
                                b, l,
                                arith::CmpIOp::create(b, l,
                                                      arith::CmpIPredicate::eq,
                                                      theirs[0], a[0]),
                                arith::CmpIOp::create(
                                    b, l, arith::CmpIPredicate::slt, theirs[1],
                                    a[1])));
                      // The pairs are unique: not smaller means larger.
                      Value takePartner = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, partnerSmaller,
                          keepSmaller);
                      SmallVector<Value> result;
                      for (unsigned w = 0; w < words; ++w)
                        result.push_back(arith::SelectOp::create(
                            b, l, takePartner, theirs[w], a[w]));
                      linalg::YieldOp::create(b, l, result);
                    });
                scf::YieldOp::create(b, l, next);
              });
          scf::YieldOp::create(b, l, steps.getResults());
        });

    // The first n positions are the order; the values are x at them.
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
        sizes = getAsOpFoldResult(dims),
        strides(rank, rewriter.getIndexAttr(1));
    auto sortedType = RankedTensorType::get(type.getShape(), i64);
    Value order = tensor::ExtractSliceOp::create(
        rewriter, loc, sortedType, network.getResults().back(), offsets, sizes,
        strides);
    rewriter.replaceOp(op, readBack(rewriter, loc, x, axis, order, packed,
                                    dims, op.getValues().getType(),
                                    op.getIndices().getType()));
    return success();
  }
};

/// Rows selected by k passes instead of a sort up to this k.
constexpr int64_t kSelectionMaxK = 16;

/// tcc.topk. For keys of 32 bits or fewer and k <= kSelectionMaxK: k
/// selection passes, pass r one reduction over the row computing the
/// smallest packed (key, position) word above pass r-1's (the words are
/// unique, so pass r finds the r-th of the sort's order), each word built
/// from x on the fly; then the values read back at the positions.
/// Otherwise the first k of a tcc.sort.
struct TopKToSelection : OpRewritePattern<TopKOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TopKOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto type = op.getX().getType();
    int64_t rank = type.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    int64_t k = op.getK();
    bool descending = op.getLargest();
    MLIRContext *ctx = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());

    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value n = dims[axis];
    Value kIndex = arith::ConstantIndexOp::create(rewriter, loc, k);
    if (!getConstantIntValue(n))
      cf::AssertOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule,
                                kIndex, n),
          "tcc.topk: k = " + std::to_string(k) +
              " exceeds the dim along the axis");
    SmallVector<int64_t> outShape(type.getShape());
    outShape[axis] = k;
    SmallVector<Value> outDims(dims);
    outDims[axis] = kIndex;
    auto castTo = [&](Value v, RankedTensorType t) {
      return v.getType() == t ? v : castChecked(rewriter, loc, v, t);
    };

    bool select = keyWidth(type.getElementType()) == 32 &&
                  k <= kSelectionMaxK &&
                  positionsFit32(rewriter, loc, n, "tcc.topk");
    if (!select) {
      auto sorted = SortOp::create(rewriter, loc, x,
                                   rewriter.getI64IntegerAttr(axis),
                                   rewriter.getBoolAttr(descending));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          sizes = getAsOpFoldResult(outDims),
          strides(rank, rewriter.getIndexAttr(1));
      Value values = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(outShape, type.getElementType()),
          sorted.getValues(), offsets, sizes, strides);
      Value indices = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(outShape, i64),
          sorted.getIndices(), offsets, sizes, strides);
      rewriter.replaceOp(op, ValueRange{castTo(values, valuesType),
                                        castTo(indices, indicesType)});
      return success();
    }
    // A pass reduces the axis: its result has the other dims.
    SmallVector<int64_t> rowShape;
    SmallVector<Value> rowDims;
    SmallVector<AffineExpr> rowExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) {
        rowShape.push_back(type.getDimSize(d));
        rowDims.push_back(dims[d]);
        rowExprs.push_back(getAffineDimExpr(d, ctx));
      }
    auto rowType = RankedTensorType::get(rowShape, i64);
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap rowMap = AffineMap::get(rank, 0, rowExprs, ctx);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    Value none = i64Constant(rewriter, loc, -1);
    Value words = emptyTensor(rewriter, loc,
                              RankedTensorType::get(outShape, i64), outDims);
    Value prev;
    for (int64_t r = 0; r < k; ++r) {
      Value init = filledTensor(rewriter, loc, rowType, rowDims, none);
      SmallVector<Value> ins = {x};
      SmallVector<AffineMap> maps = {id};
      if (prev) {
        ins.push_back(prev);
        maps.push_back(rowMap);
      }
      maps.push_back(rowMap);
      Value best =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{rowType}, ins, ValueRange{init}, maps,
              iterators,
              [&](OpBuilder &b, Location l, ValueRange a) {
                Value pos = arith::IndexCastOp::create(
                    b, l, i64, linalg::IndexOp::create(b, l, axis));
                Value word =
                    packWord(b, l, sortKey(b, l, a[0], descending), pos);
                if (prev)
                  word = arith::SelectOp::create(
                      b, l,
                      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt,
                                            word, a[1]),
                      word, i64Constant(b, l, -1));
                linalg::YieldOp::create(
                    b, l,
                    ValueRange{arith::MinUIOp::create(b, l, word, a.back())});
              })
              .getResult(0);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = rewriter.getIndexAttr(r);
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(d == axis ? OpFoldResult(rewriter.getIndexAttr(1))
                                  : getAsOpFoldResult(dims[d]));
      words = tensor::InsertSliceOp::create(rewriter, loc, best, words, offsets,
                                            sizes, strides);
      prev = best;
    }

    // The positions are the words' low halves; the values x at them.
    rewriter.replaceOp(op, readBack(rewriter, loc, x, axis, words,
                                    /*packed=*/true, outDims, valuesType,
                                    indicesType));
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCSortToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SortToBitonicNetwork, TopKToSelection>(patterns.getContext());
}
