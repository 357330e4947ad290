//===- RecognizeComposites.cpp - Hand-written ops -> composites -*- C++ -*-===//
//
// Captured graphs often spell softmax, the norms or attention out of
// elementwise ops, reductions and matmuls (a model's own LayerNorm module,
// the seeds' NaiveAttention). The patterns here find those chains and replace
// them by the composite tcc op, which fusion makes one group and the lowering
// computes in one pass over each row.
//
// A chain is replaced only when it is closed: every value it computes except
// its result is used only inside the chain, so nothing it computes is needed
// afterwards. Its inputs (x, weights, the mask, q, k, v) may have any users.
// A match keeps the semantics exactly, up to floating-point rounding: axes,
// epsilon and scale are read from the IR, constants must be scalars,
// full-size intermediates must have the input's exact type (broadcasting
// never grows a shape) and weights the exact shape of the normalized dims.
//
//===----------------------------------------------------------------------===//

#include "tcc/Transforms/RecognizeComposites.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <cmath>

namespace mlir::tcc {
#define GEN_PASS_DEF_RECOGNIZECOMPOSITESPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// The ops of one match. The op producing the composite's value is replaced,
/// the others are erased.
using OpSet = llvm::SmallSetVector<Operation *, 16>;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// The dims a reduction over `axes` of a rank-`rank` tensor reduces, sorted
/// and non-negative (empty `axes` reduces every dim).
SmallVector<int64_t> reducedDims(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> dims;
  if (axes.empty()) {
    llvm::append_range(dims, llvm::seq<int64_t>(0, rank));
    return dims;
  }
  for (int64_t a : axes)
    if (std::optional<int64_t> n = normalizeAxis(a, rank))
      dims.push_back(*n);
  llvm::sort(dims);
  return dims;
}

/// The one dim a keep_dims reduction reduces, if it reduces exactly one.
template <typename ReduceOp> std::optional<int64_t> singleKeptDim(ReduceOp op) {
  if (!op || !op.getKeepDims())
    return std::nullopt;
  SmallVector<int64_t> dims = reducedDims(op.getAxes(), rankOf(op.getX()));
  if (dims.size() != 1)
    return std::nullopt;
  return dims.front();
}

/// `a` when a keep_dims reduction reduces exactly dims a..rank-1 (what
/// layer_norm and rms_norm normalize).
template <typename ReduceOp>
std::optional<int64_t> trailingKeptAxis(ReduceOp op) {
  if (!op || !op.getKeepDims())
    return std::nullopt;
  int64_t rank = rankOf(op.getX());
  SmallVector<int64_t> dims = reducedDims(op.getAxes(), rank);
  if (dims.empty() || dims.back() != rank - 1)
    return std::nullopt;
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != dims.front() + (int64_t)i)
      return std::nullopt;
  return dims.front();
}

/// The value of a splat float constant that is a scalar under broadcasting:
/// rank 0, or every dim 1 and rank at most `maxRank` (so it never adds dims).
std::optional<double> scalarConstant(Value v, int64_t maxRank) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat() || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  ShapedType type = dense.getType();
  if (type.getRank() > maxRank ||
      llvm::any_of(type.getShape(), [](int64_t d) { return d != 1; }))
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

/// `op`'s two operands in both orders, for commutative ops.
std::array<std::pair<Value, Value>, 2> bothOrders(Operation *op) {
  return {{{op->getOperand(0), op->getOperand(1)},
           {op->getOperand(1), op->getOperand(0)}}};
}

/// True when every op of `ops` but `last` is used only by ops of `ops` (the
/// chain's intermediates are dead once `last` is replaced) and no value of
/// `inputs` is computed by `ops` (the composite op still reads them).
bool isClosed(const OpSet &ops, Operation *last, ArrayRef<Value> inputs) {
  for (Operation *op : ops) {
    if (op == last)
      continue;
    for (Operation *user : op->getUsers())
      if (!ops.contains(user))
        return false;
  }
  return llvm::none_of(inputs, [&](Value v) {
    return v && v.getDefiningOp() && ops.contains(v.getDefiningOp());
  });
}

/// One location for the composite op: those of every op it replaces.
Location chainLoc(PatternRewriter &rewriter, const OpSet &ops) {
  SmallVector<Location> locs;
  for (Operation *op : ops)
    locs.push_back(op->getLoc());
  return rewriter.getFusedLoc(locs);
}

/// Replaces `last` by `replacement` and erases the rest of the chain, users
/// before producers (isClosed has checked that nothing else uses them).
void replaceChain(PatternRewriter &rewriter, const OpSet &ops, Operation *last,
                  Value replacement) {
  rewriter.replaceOp(last, replacement);
  SmallVector<Operation *> dead;
  for (Operation *op : ops)
    if (op != last)
      dead.push_back(op);
  while (!dead.empty()) {
    size_t before = dead.size();
    llvm::erase_if(dead, [&](Operation *op) {
      if (!op->use_empty())
        return false;
      rewriter.eraseOp(op);
      return true;
    });
    assert(dead.size() < before && "a chain op is used outside the chain");
    (void)before;
  }
}

/// A splat `value` of `type`: the weight or bias a norm written without one
/// implies.
Value splatConstant(PatternRewriter &rewriter, Location loc,
                    RankedTensorType type, double value) {
  Attribute element = rewriter.getFloatAttr(type.getElementType(), value);
  auto attr = DenseElementsAttr::get(type, ArrayRef<Attribute>(element));
  return ConstantOp::create(rewriter, loc, cast<ElementsAttr>(attr));
}

//===----------------------------------------------------------------------===//
// softmax and log_softmax
//===----------------------------------------------------------------------===//

/// If `z` is `x - reduce_max(x, [axis], keep_dims)` and the difference and
/// the maximum are used only by `users`, returns x and adds the two ops to
/// `ops`: the composite subtracts the maximum itself.
Value absorbMaxSubtraction(Value z, int64_t axis,
                           const llvm::SmallPtrSetImpl<Operation *> &users,
                           OpSet &ops) {
  auto sub = z.getDefiningOp<SubOp>();
  if (!sub)
    return {};
  Value x = sub.getLhs();
  auto max = sub.getRhs().getDefiningOp<ReduceMaxOp>();
  if (!max || max.getX() != x || singleKeptDim(max) != axis ||
      z.getType() != x.getType() || !max->hasOneUse() ||
      llvm::any_of(z.getUsers(),
                   [&](Operation *user) { return !users.contains(user); }))
    return {};
  ops.insert(sub);
  ops.insert(max);
  return x;
}

struct SoftmaxMatch {
  Value x;
  int64_t axis;
  OpSet ops;
};

/// exp(z) / reduce_sum(exp(z), [a], keep_dims) is softmax(z, a) for every z;
/// the max-subtracted form exp(x - m) / reduce_sum(exp(x - m)) with
/// m = reduce_max(x, [a], keep_dims) is softmax(x, a). When the maximum or
/// the difference is used elsewhere, the match is softmax of the difference
/// (the same values).
std::optional<SoftmaxMatch> matchSoftmax(Value p) {
  auto div = p.getDefiningOp<DivOp>();
  if (!div)
    return std::nullopt;
  auto exp = div.getLhs().getDefiningOp<ExpOp>();
  auto sum = div.getRhs().getDefiningOp<ReduceSumOp>();
  if (!exp || !sum || sum.getX() != exp.getResult())
    return std::nullopt;
  Value z = exp.getX();
  std::optional<int64_t> axis = singleKeptDim(sum);
  if (!axis || !isFloatTensor(z) || exp.getType() != z.getType() ||
      div.getType() != z.getType())
    return std::nullopt;
  SoftmaxMatch m{z, *axis, {}};
  m.ops.insert(div);
  m.ops.insert(sum);
  m.ops.insert(exp);
  llvm::SmallPtrSet<Operation *, 2> zUsers{exp};
  if (Value x = absorbMaxSubtraction(z, *axis, zUsers, m.ops))
    m.x = x;
  return m;
}

/// div(exp(x - m), reduce_sum(exp(x - m))) -> tcc.softmax(x).
struct RecognizeSoftmax : OpRewritePattern<DivOp> {
  using Base::Base;
  LogicalResult matchAndRewrite(DivOp div,
                                PatternRewriter &rewriter) const override {
    std::optional<SoftmaxMatch> m = matchSoftmax(div.getResult());
    if (!m || !isClosed(m->ops, div, {m->x}))
      return failure();
    rewriter.setInsertionPoint(div);
    auto softmax =
        SoftmaxOp::create(rewriter, chainLoc(rewriter, m->ops), div.getType(),
                          m->x, rewriter.getI64IntegerAttr(m->axis));
    replaceChain(rewriter, m->ops, div, softmax);
    return success();
  }
};

/// z - log(reduce_sum(exp(z), [a], keep_dims)) -> tcc.log_softmax(z), and
/// with z = x - reduce_max(x, [a], keep_dims) (used by exp and the outer
/// sub) -> tcc.log_softmax(x).
struct RecognizeLogSoftmax : OpRewritePattern<SubOp> {
  using Base::Base;
  LogicalResult matchAndRewrite(SubOp outer,
                                PatternRewriter &rewriter) const override {
    Value z = outer.getLhs();
    auto log = outer.getRhs().getDefiningOp<LogOp>();
    if (!log)
      return failure();
    auto sum = log.getX().getDefiningOp<ReduceSumOp>();
    if (!sum)
      return failure();
    auto exp = sum.getX().getDefiningOp<ExpOp>();
    std::optional<int64_t> axis = singleKeptDim(sum);
    if (!exp || exp.getX() != z || !axis || !isFloatTensor(z) ||
        exp.getType() != z.getType() || outer.getType() != z.getType() ||
        log.getType() != sum.getType())
      return failure();
    OpSet ops;
    ops.insert(outer);
    ops.insert(log);
    ops.insert(sum);
    ops.insert(exp);
    Value x = z;
    llvm::SmallPtrSet<Operation *, 2> zUsers{exp, outer};
    if (Value source = absorbMaxSubtraction(z, *axis, zUsers, ops))
      x = source;
    if (!isClosed(ops, outer, {x}))
      return failure();
    rewriter.setInsertionPoint(outer);
    auto logSoftmax =
        LogSoftmaxOp::create(rewriter, chainLoc(rewriter, ops), outer.getType(),
                             x, rewriter.getI64IntegerAttr(*axis));
    replaceChain(rewriter, ops, outer, logSoftmax);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// layer_norm and rms_norm
//===----------------------------------------------------------------------===//

struct NormMatch {
  Value x;
  int64_t axis;
  double epsilon;
  Value weight, bias; // null when the chain has none
  Operation *last;
  OpSet ops;
};

/// `root` = a * rsqrt(r + eps) (either order) or a / sqrt(r + eps) with
/// r = reduce_mean(a * a or a ** 2, dims axis..rank-1, keep_dims) and eps a
/// non-negative scalar constant: the normalization both norms end with.
/// The match has x = a, last = root and no weight or bias yet.
std::optional<NormMatch> matchNormalization(Operation *root, Value a,
                                            Value scale) {
  Operation *scaleOp = scale.getDefiningOp();
  if (isa<MulOp>(root) ? !isa_and_nonnull<RsqrtOp>(scaleOp)
                       : !isa_and_nonnull<SqrtOp>(scaleOp))
    return std::nullopt;
  if (!isFloatTensor(a) || root->getResult(0).getType() != a.getType())
    return std::nullopt;
  int64_t rank = rankOf(a);
  auto add = scaleOp->getOperand(0).getDefiningOp<AddOp>();
  if (!add || scale.getType() != add.getType())
    return std::nullopt;
  for (auto [r, eps] : bothOrders(add)) {
    std::optional<double> epsilon = scalarConstant(eps, rank);
    auto mean = r.getDefiningOp<ReduceMeanOp>();
    if (!epsilon || !(*epsilon >= 0.0) || !std::isfinite(*epsilon) || !mean ||
        add.getType() != r.getType())
      continue;
    std::optional<int64_t> axis = trailingKeptAxis(mean);
    Value square = mean.getX();
    Operation *squareOp = square.getDefiningOp();
    bool isSquare = false;
    if (auto mul = dyn_cast_or_null<MulOp>(squareOp))
      isSquare = mul.getLhs() == a && mul.getRhs() == a;
    else if (auto pow = dyn_cast_or_null<PowOp>(squareOp))
      isSquare = pow.getLhs() == a && scalarConstant(pow.getRhs(), rank) == 2.0;
    if (!axis || !isSquare || square.getType() != a.getType())
      continue;
    NormMatch m{a, *axis, *epsilon, {}, {}, root, {}};
    for (Operation *op :
         {root, scaleOp, add.getOperation(), mean.getOperation(), squareOp})
      m.ops.insert(op);
    return m;
  }
  return std::nullopt;
}

/// The first normalization of `root` (a div, or a mul in either operand
/// order) that `fn` extends into a full match.
template <typename Fn>
std::optional<NormMatch> findNormalization(Operation *root, Fn fn) {
  if (isa<DivOp>(root)) {
    if (auto m =
            matchNormalization(root, root->getOperand(0), root->getOperand(1)))
      return fn(*m);
    return std::nullopt;
  }
  for (auto [a, scale] : bothOrders(root))
    if (auto m = matchNormalization(root, a, scale))
      if (auto full = fn(*m))
        return full;
  return std::nullopt;
}

/// If `v`'s only use is `OpTy(v, p)` or `OpTy(p, v)` of `v`'s type, with
/// `p` of exactly `paramType` (the normalized dims), returns that op and p.
template <typename OpTy>
std::pair<OpTy, Value> followAffine(Value v, RankedTensorType paramType) {
  if (!v.hasOneUse())
    return {};
  auto op = dyn_cast<OpTy>(*v.getUsers().begin());
  if (!op || op.getType() != v.getType())
    return {};
  Value param = op.getLhs() == v ? op.getRhs() : op.getLhs();
  if (param.getType() != paramType)
    return {};
  return {op, param};
}

/// The type of weight and bias: x's normalized dims.
RankedTensorType paramType(const NormMatch &m) {
  auto type = cast<RankedTensorType>(m.x.getType());
  return RankedTensorType::get(type.getShape().drop_front(m.axis),
                               type.getElementType());
}

/// Extends the match over `* weight` and, for layer_norm, `+ bias`.
void matchAffine(NormMatch &m, bool withBias) {
  RankedTensorType type = paramType(m);
  if (auto [mul, w] = followAffine<MulOp>(m.last->getResult(0), type); mul) {
    m.weight = w;
    m.last = mul;
    m.ops.insert(mul);
  }
  if (!withBias)
    return;
  if (auto [add, b] = followAffine<AddOp>(m.last->getResult(0), type); add) {
    m.bias = b;
    m.last = add;
    m.ops.insert(add);
  }
}

/// layer_norm: d = x - reduce_mean(x, dims a..rank-1, keep_dims), then the
/// normalization of d, optionally `* w` and `+ b`.
std::optional<NormMatch> matchLayerNorm(Operation *root) {
  return findNormalization(root, [](NormMatch m) -> std::optional<NormMatch> {
    Value d = m.x;
    auto sub = d.getDefiningOp<SubOp>();
    if (!sub)
      return std::nullopt;
    Value x = sub.getLhs();
    auto mean = sub.getRhs().getDefiningOp<ReduceMeanOp>();
    if (!mean || mean.getX() != x || trailingKeptAxis(mean) != m.axis ||
        d.getType() != x.getType())
      return std::nullopt;
    m.x = x;
    m.ops.insert(sub);
    m.ops.insert(mean);
    matchAffine(m, /*withBias=*/true);
    return m;
  });
}

/// rms_norm: the normalization of x itself, optionally `* w`.
std::optional<NormMatch> matchRmsNorm(Operation *root) {
  return findNormalization(root, [](NormMatch m) -> std::optional<NormMatch> {
    matchAffine(m, /*withBias=*/false);
    return m;
  });
}

/// Checks the match and builds weight and bias (ones and zeros of the
/// normalized dims when the chain has none; those need static dims).
LogicalResult prepareNorm(NormMatch &m, bool withBias,
                          PatternRewriter &rewriter, Location loc) {
  if (!isClosed(m.ops, m.last, {m.x, m.weight, m.bias}))
    return failure();
  RankedTensorType type = paramType(m);
  if ((!m.weight || (withBias && !m.bias)) && !type.hasStaticShape())
    return failure();
  rewriter.setInsertionPoint(m.last);
  if (!m.weight)
    m.weight = splatConstant(rewriter, loc, type, 1.0);
  if (withBias && !m.bias)
    m.bias = splatConstant(rewriter, loc, type, 0.0);
  return success();
}

/// The layer_norm chain (see matchLayerNorm) -> tcc.layer_norm. Rooted at the
/// normalization, before the rms_norm pattern on the same root: the
/// normalization of d = x - mean is also an rms_norm of d.
template <typename RootOp>
struct RecognizeLayerNorm : OpRewritePattern<RootOp> {
  using OpRewritePattern<RootOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RootOp root,
                                PatternRewriter &rewriter) const override {
    std::optional<NormMatch> m = matchLayerNorm(root);
    if (!m)
      return failure();
    Location loc = chainLoc(rewriter, m->ops);
    if (failed(prepareNorm(*m, /*withBias=*/true, rewriter, loc)))
      return failure();
    Value result = LayerNormOp::create(
        rewriter, loc, m->last->getResult(0).getType(), m->x, m->weight,
        m->bias, rewriter.getI64IntegerAttr(m->axis),
        rewriter.getF32FloatAttr(m->epsilon));
    replaceChain(rewriter, m->ops, m->last, result);
    return success();
  }
};

/// The rms_norm chain (see matchRmsNorm) -> tcc.rms_norm.
template <typename RootOp> struct RecognizeRmsNorm : OpRewritePattern<RootOp> {
  using OpRewritePattern<RootOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RootOp root,
                                PatternRewriter &rewriter) const override {
    std::optional<NormMatch> m = matchRmsNorm(root);
    if (!m)
      return failure();
    Location loc = chainLoc(rewriter, m->ops);
    if (failed(prepareNorm(*m, /*withBias=*/false, rewriter, loc)))
      return failure();
    Value result =
        RmsNormOp::create(rewriter, loc, m->last->getResult(0).getType(), m->x,
                          m->weight, rewriter.getI64IntegerAttr(m->axis),
                          rewriter.getF32FloatAttr(m->epsilon));
    replaceChain(rewriter, m->ops, m->last, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

struct ScoresMatch {
  Value q, k;
  double scale = 1.0;
  OpSet ops;
};

/// u = matmul(q, transpose(k) of the last two dims), optionally `* c`
/// (either order) or `/ c` with c a scalar constant.
std::optional<ScoresMatch> matchScores(Value u) {
  ScoresMatch m;
  Value s = u;
  Operation *scaleOp = u.getDefiningOp();
  if (isa_and_nonnull<MulOp>(scaleOp)) {
    for (auto [scores, c] : bothOrders(scaleOp))
      if (std::optional<double> v = scalarConstant(c, rankOf(u))) {
        s = scores;
        m.scale = *v;
        break;
      }
  } else if (auto div = dyn_cast_or_null<DivOp>(scaleOp)) {
    if (std::optional<double> v = scalarConstant(div.getRhs(), rankOf(u));
        v && *v != 0.0) {
      s = div.getLhs();
      m.scale = 1.0 / *v;
    }
  }
  if (s != u) {
    if (s.getType() != u.getType() || !std::isfinite(m.scale))
      return std::nullopt;
    m.ops.insert(scaleOp);
  }
  auto matmul = s.getDefiningOp<MatmulOp>();
  if (!matmul)
    return std::nullopt;
  auto kt = matmul.getB().getDefiningOp<TransposeOp>();
  if (!kt)
    return std::nullopt;
  int64_t rank = rankOf(kt.getX());
  if (rank < 2)
    return std::nullopt;
  SmallVector<int64_t> swapLast = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(swapLast[rank - 2], swapLast[rank - 1]);
  if (kt.getPermutation() != ArrayRef<int64_t>(swapLast))
    return std::nullopt;
  m.q = matmul.getA();
  m.k = kt.getX();
  m.ops.insert(matmul);
  m.ops.insert(kt);
  return m;
}

/// matmul(softmax(scores [+ mask], last axis), v) with scores from
/// matchScores -> tcc.attention(q, k, v, mask){scale}. The softmax is a
/// tcc.softmax or written out (matchSoftmax), so the order in which the
/// patterns run does not matter.
struct RecognizeAttention : OpRewritePattern<MatmulOp> {
  using Base::Base;
  LogicalResult matchAndRewrite(MatmulOp out,
                                PatternRewriter &rewriter) const override {
    Value p = out.getA(), v = out.getB();
    int64_t rank = rankOf(p);
    OpSet ops;
    ops.insert(out);

    // The softmax over the last axis.
    Value t;
    if (auto softmax = p.getDefiningOp<SoftmaxOp>()) {
      if (normalizeAxis(softmax.getAxis(), rank) != rank - 1 ||
          softmax.getX().getType() != p.getType())
        return failure();
      t = softmax.getX();
      ops.insert(softmax);
    } else if (std::optional<SoftmaxMatch> m = matchSoftmax(p)) {
      if (m->axis != rank - 1)
        return failure();
      t = m->x;
      ops.insert(m->ops.begin(), m->ops.end());
    } else {
      return failure();
    }

    // The scores, with an optional additive mask on either side of the add.
    Value mask;
    std::optional<ScoresMatch> scores = matchScores(t);
    if (auto add = t.getDefiningOp<AddOp>(); add && !scores) {
      for (auto [u, other] : bothOrders(add)) {
        if (u.getType() != t.getType() || !(scores = matchScores(u)))
          continue;
        mask = other;
        ops.insert(add);
        break;
      }
    }
    if (!scores)
      return failure();
    ops.insert(scores->ops.begin(), scores->ops.end());

    // q [..., Sq, D], k [..., Sk, D], v [..., Sk, Dv] with the same leading
    // dims: tcc.attention does not broadcast them as matmul would.
    Value q = scores->q, k = scores->k;
    auto qType = cast<RankedTensorType>(q.getType());
    auto kType = cast<RankedTensorType>(k.getType());
    auto vType = cast<RankedTensorType>(v.getType());
    if (qType.getRank() < 3 || kType.getRank() != qType.getRank() ||
        vType.getRank() != qType.getRank() || rank != qType.getRank() ||
        !isFloatTensor(q) ||
        qType.getShape().drop_back(2) != kType.getShape().drop_back(2) ||
        qType.getShape().drop_back(2) != vType.getShape().drop_back(2))
      return failure();
    if (mask) {
      // The mask must broadcast to the scores, as the op requires.
      ArrayRef<int64_t> scoresShape =
          cast<RankedTensorType>(t.getType()).getShape();
      FailureOr<SmallVector<int64_t>> b = broadcastShapes(
          {scoresShape, cast<RankedTensorType>(mask.getType()).getShape()},
          {"scores", "mask"});
      if (failed(b) || failed(verifyCompatibleShape(*b, scoresShape)))
        return failure();
    }
    SmallVector<int64_t> expected(qType.getShape().drop_back());
    expected.push_back(vType.getShape().back());
    if (failed(verifyCompatibleShape(out.getType().getShape(), expected)) ||
        !isClosed(ops, out, {q, k, v, mask}))
      return failure();

    rewriter.setInsertionPoint(out);
    auto attention = AttentionOp::create(
        rewriter, chainLoc(rewriter, ops), out.getType(), q, k, v, mask,
        rewriter.getF32FloatAttr(scores->scale), /*is_causal=*/false);
    replaceChain(rewriter, ops, out, attention);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct RecognizeCompositesPass
    : tcc::impl::RecognizeCompositesPassBase<RecognizeCompositesPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateRecognizeCompositesPatterns(patterns);
    // Only the recognized chains change: no folding, no constant hoisting.
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::tcc::populateRecognizeCompositesPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<RecognizeSoftmax, RecognizeLogSoftmax, RecognizeAttention>(ctx);
  // layer_norm before rms_norm on the same root (see RecognizeLayerNorm).
  patterns.add<RecognizeLayerNorm<MulOp>, RecognizeLayerNorm<DivOp>>(
      ctx, /*benefit=*/2);
  patterns.add<RecognizeRmsNorm<MulOp>, RecognizeRmsNorm<DivOp>>(ctx);
}
