//===- FusionPreparation.cpp - rewrites that expose fusion ------*- C++ -*-===//

#include "tcc/Transforms/FusionPreparation.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

//===----------------------------------------------------------------------===//
// Sinking transposes
//===----------------------------------------------------------------------===//

/// The size expressions of a transpose's input (inverse: dim perm[i] gets
/// entry i) or result (entry i is input dim perm[i]).
ShapeAttr permuteShape(ShapeAttr shape, ArrayRef<int64_t> perm, bool inverse) {
  SmallVector<std::string> names;
  SmallVector<AffineExpr> dims = shape.getDims(names);
  SmallVector<AffineExpr> out(dims.size());
  for (auto [i, p] : llvm::enumerate(perm)) {
    if (inverse)
      out[p] = dims[i];
    else
      out[i] = dims[p];
  }
  return ShapeAttr::get(shape.getContext(), out, names);
}

/// Whether `v` is `arith.index_cast(tensor.dim %src, dim)` (possibly
/// without the cast): the size of dim `dim` of `src`, read at run time.
bool readsDimOf(Value v, Value src, int64_t dim) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  auto dimOp = v.getDefiningOp<tensor::DimOp>();
  if (!dimOp || dimOp.getSource() != src)
    return false;
  std::optional<int64_t> index = dimOp.getConstantIndex();
  return index && *index == dim;
}

/// slice(transpose(x, p)) -> transpose(slice'(x), p), once for every slice
/// of the transpose: the slices become views of x and each transpose copies
/// (or, folded into a consumer's reads, never copies) only its part.
struct SinkTransposeBelowSlice : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op->use_empty() ||
        !llvm::all_of(op->getUsers(), [](Operation *u) { return isa<SliceOp>(u); }))
      return failure();
    ArrayRef<int64_t> perm = op.getPermutation();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    for (Operation *user : llvm::make_early_inc_range(op->getUsers())) {
      auto slice = cast<SliceOp>(user);
      auto resType = cast<RankedTensorType>(slice.getType());
      size_t rank = perm.size();
      SmallVector<int64_t> starts(rank), ends(rank), steps(rank), shape(rank);
      SmallVector<int64_t> oldSteps = slice.getStepsOrDefault();
      for (size_t i = 0; i < rank; ++i) {
        starts[perm[i]] = slice.getStarts()[i];
        ends[perm[i]] = slice.getEnds()[i];
        steps[perm[i]] = oldSteps[i];
        shape[perm[i]] = resType.getDimSize(i);
      }
      rewriter.setInsertionPoint(slice);
      auto inner = SliceOp::create(
          rewriter, slice.getLoc(),
          RankedTensorType::get(shape, xType.getElementType()), op.getX(),
          rewriter.getDenseI64ArrayAttr(starts),
          rewriter.getDenseI64ArrayAttr(ends),
          rewriter.getDenseI64ArrayAttr(steps));
      // The size expressions move with the dims (later rewrites read them).
      if (auto sizes = slice->getAttrOfType<ShapeAttr>(kShapeAttr))
        inner->setAttr(kShapeAttr, permuteShape(sizes, perm, /*inverse=*/true));
      // Read before the slice is replaced (and freed).
      Attribute sliceSizes = slice->getAttr(kShapeAttr);
      auto moved =
          rewriter.replaceOpWithNewOp<TransposeOp>(slice, resType, inner, perm);
      if (sliceSizes)
        moved->setAttr(kShapeAttr, sliceSizes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// reshape(transpose(x, p)) -> transpose(reshape'(x), p') when the reshape
/// only drops static unit dims: the unit dims are dropped from x instead.
struct SinkTransposeBelowUnitReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getX().getDefiningOp<TransposeOp>();
    if (!transpose || !transpose->hasOneUse())
      return failure();
    auto full = cast<RankedTensorType>(transpose.getType());
    auto reduced = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> perm = transpose.getPermutation();
    auto elements = op.getShape()
                        ? op.getShape().getDefiningOp<tensor::FromElementsOp>()
                        : tensor::FromElementsOp();
    if (op.getShape() && !elements)
      return failure();
    // Size expressions of both sides, when --symbolic-shapes annotated them.
    SmallVector<std::string> names;
    std::optional<SmallVector<AffineExpr>> fullSizes, reducedSizes;
    if (auto a = transpose->getAttrOfType<ShapeAttr>(kShapeAttr))
      fullSizes = a.getDims(names);
    if (auto a = op->getAttrOfType<ShapeAttr>(kShapeAttr))
      reducedSizes = a.getDims(names);
    // Dim d of the transposed value is dim r of the reshape's result when
    // both are the same static size, or both dynamic and provably equal:
    // equal size expressions, or the shape operand reads that very dim.
    auto sameSize = [&](int64_t d, int64_t r) {
      int64_t a = full.getDimSize(d), b = reduced.getDimSize(r);
      if (!ShapedType::isDynamic(a) || !ShapedType::isDynamic(b))
        return a == b;
      if (fullSizes && reducedSizes && d < (int64_t)fullSizes->size() &&
          r < (int64_t)reducedSizes->size() &&
          provablyEqualSizes((*fullSizes)[d], (*reducedSizes)[r]))
        return true;
      if (elements)
        return readsDimOf(elements.getElements()[r], transpose.getX(), perm[d]);
      // No shape operand: a lone dynamic dim is fixed by the element count.
      return llvm::count_if(reduced.getShape(), ShapedType::isDynamic) == 1;
    };
    // Kept dims of the transposed value, matched in order; every other dim
    // must be a static 1.
    SmallVector<int64_t> kept;
    size_t r = 0;
    for (int64_t d = 0; d < full.getRank(); ++d) {
      bool unit = full.getDimSize(d) == 1;
      if (r < (size_t)reduced.getRank() && sameSize(d, r) &&
          // A unit dim is kept only if the dims left can still match.
          (!unit || full.getRank() - d - 1 >= reduced.getRank() - (int64_t)r - 1)) {
        kept.push_back(d);
        ++r;
      } else if (!unit) {
        return failure();
      }
    }
    if (r != (size_t)reduced.getRank() || kept.size() == (size_t)full.getRank())
      return failure();
    SmallVector<int64_t> keptSource; // x dims that survive, in x order
    for (int64_t d : kept)
      keptSource.push_back(perm[d]);
    llvm::sort(keptSource);
    auto rank = [&](int64_t xDim) {
      return std::distance(keptSource.begin(),
                           llvm::find(keptSource, xDim));
    };
    // New permutation: result dim i (kept[i]) reads x dim perm[kept[i]],
    // which is dim rank(perm[kept[i]]) of the reshaped x.
    SmallVector<int64_t> newPerm;
    for (int64_t d : kept)
      newPerm.push_back(rank(perm[d]));
    auto xType = cast<RankedTensorType>(transpose.getX().getType());
    SmallVector<int64_t> newShape;
    for (int64_t xDim : keptSource)
      newShape.push_back(xType.getDimSize(xDim));
    Value shapeOperand;
    if (elements) {
      SmallVector<Value> permuted(newPerm.size());
      for (size_t i = 0; i < newPerm.size(); ++i)
        permuted[newPerm[i]] = elements.getElements()[i];
      rewriter.setInsertionPoint(op);
      shapeOperand = tensor::FromElementsOp::create(
          rewriter, op.getLoc(), elements.getType(), permuted);
    } else if (llvm::count_if(newShape, ShapedType::isDynamic) > 1) {
      return failure();
    }
    rewriter.setInsertionPoint(op);
    auto newType = RankedTensorType::get(newShape, xType.getElementType());
    auto reshaped = ReshapeOp::create(rewriter, op.getLoc(), newType,
                                      transpose.getX(), shapeOperand);
    auto sizes = op->getAttrOfType<ShapeAttr>(kShapeAttr);
    if (sizes)
      reshaped->setAttr(kShapeAttr,
                        permuteShape(sizes, newPerm, /*inverse=*/true));
    // Only unit dims moved: no transpose left. (An identity transpose
    // would become a copy group that lowering folds into a view of its
    // input: a returned view of a planned buffer.)
    if (llvm::equal(newPerm, llvm::seq<int64_t>(0, newPerm.size()))) {
      if (sizes)
        reshaped->setAttr(kShapeAttr, sizes);
      rewriter.replaceOp(op, reshaped.getResult());
      rewriter.eraseOp(transpose);
      return success();
    }
    auto moved =
        rewriter.replaceOpWithNewOp<TransposeOp>(op, reduced, reshaped, newPerm);
    if (sizes)
      moved->setAttr(kShapeAttr, sizes);
    rewriter.eraseOp(transpose);
    return success();
  }
};

} // namespace

/// A convolution whose stride is its kernel, without padding, dilation or
/// groups (ViT's patch embedding: 16x16 stride 16) reads every input
/// element once: it is a linear over the patches.
///   x [N, C, H, W] -> [N, C, H/kh, kh, W/kw, kw] -> [N, H/kh, W/kw, C, kh,
///   kw] -> [N * H/kh * W/kw, C*kh*kw]; w [O, C, kh, kw] -> [O, C*kh*kw];
///   linear -> [N, H/kh, W/kw, O] -> [N, O, H/kh, W/kw].
/// Matrix-product code (cuBLASLt, the CPU's GEMM tiles) then does what a
/// direct convolution loop would do element by element.
bool mlir::tcc::isPatchConv(Conv2dOp op) {
  auto xType = cast<RankedTensorType>(op.getX().getType());
  auto wType = cast<RankedTensorType>(op.getWeight().getType());
  if (op.getGroups() != 1 || !wType.hasStaticShape() ||
      xType.getRank() != 4 || op.isChannelsLast())
    return false;
  int64_t c = wType.getDimSize(1), kh = wType.getDimSize(2),
          kw = wType.getDimSize(3);
  int64_t h = xType.getDimSize(2), w = xType.getDimSize(3);
  SmallVector<int64_t, 2> strides = op.getStridesOrDefault();
  SmallVector<int64_t, 2> dilations = op.getDilationsOrDefault();
  if (strides[0] != kh || strides[1] != kw || dilations[0] != 1 ||
      dilations[1] != 1 ||
      llvm::any_of(op.getPaddingOrDefault(), [](int64_t p) { return p; }) ||
      xType.getDimSize(1) != c || ShapedType::isDynamic(h) ||
      ShapedType::isDynamic(w) || h % kh || w % kw || (kh == 1 && kw == 1))
    return false;
  // One dynamic dim (the batch) at most: each reshape infers it.
  return llvm::count_if(xType.getShape(), ShapedType::isDynamic) <= 1;
}

namespace {
struct PatchConvToLinear : OpRewritePattern<Conv2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2dOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPatchConv(op))
      return failure();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto wType = cast<RankedTensorType>(op.getWeight().getType());
    auto rType = cast<RankedTensorType>(op.getType());
    int64_t o = wType.getDimSize(0), c = wType.getDimSize(1),
            kh = wType.getDimSize(2), kw = wType.getDimSize(3);
    int64_t h = xType.getDimSize(2), w = xType.getDimSize(3);
    int64_t n = xType.getDimSize(0), ph = h / kh, pw = w / kw;
    int64_t rows = ShapedType::isDynamic(n) ? n : n * ph * pw;
    Type element = xType.getElementType();
    auto type = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, element);
    };
    Location loc = op.getLoc();
    Value x6 = ReshapeOp::create(rewriter, loc, type({n, c, ph, kh, pw, kw}),
                                 op.getX(), Value());
    Value patches = TransposeOp::create(
        rewriter, loc, type({n, ph, pw, c, kh, kw}), x6,
        rewriter.getDenseI64ArrayAttr({0, 2, 4, 1, 3, 5}));
    Value flat = ReshapeOp::create(rewriter, loc, type({rows, c * kh * kw}),
                                   patches, Value());
    Value weight = ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get({o, c * kh * kw}, wType.getElementType()),
        op.getWeight(), Value());
    Value y = LinearOp::create(
        rewriter, loc, RankedTensorType::get({rows, o}, rType.getElementType()),
        flat, weight, op.getBias());
    Value y4 = ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get({n, ph, pw, o}, rType.getElementType()), y,
        Value());
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, rType, y4, rewriter.getDenseI64ArrayAttr({0, 3, 1, 2}));
    return success();
  }
};

} // namespace

namespace {

/// The rows of `x` [d..., K] as one dim, or nullopt when they should stay
/// (see populateFlattenProductRowsPatterns).
std::optional<int64_t> flatRows(RankedTensorType x) {
  int64_t rank = x.getRank();
  if (rank < 3)
    return std::nullopt;
  ArrayRef<int64_t> rows = x.getShape().drop_back();
  if (llvm::count_if(rows, ShapedType::isDynamic) > 1 ||
      ShapedType::isDynamic(x.getShape().back()))
    return std::nullopt;
  // A rank-3 input's batch: unit or open, the product already has one
  // matrix of rows (a sequence); static above 1, each batch index would
  // read the weight again.
  if (rank == 3 && (ShapedType::isDynamic(rows[0]) || rows[0] == 1))
    return std::nullopt;
  if (llvm::is_contained(rows, ShapedType::kDynamic))
    return ShapedType::kDynamic;
  int64_t n = 1;
  for (int64_t r : rows)
    n *= r;
  return n;
}

/// linear/matmul(x, w) over flattened rows (populateFlattenProductRows...).
template <typename ProductOp>
struct FlattenProductRows : OpRewritePattern<ProductOp> {
  using OpRewritePattern<ProductOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ProductOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op->getOperand(0), w = op->getOperand(1);
    auto xType = cast<RankedTensorType>(x.getType());
    auto rType = cast<RankedTensorType>(op.getType());
    if (cast<RankedTensorType>(w.getType()).getRank() != 2)
      return failure();
    std::optional<int64_t> rows = flatRows(xType);
    if (!rows)
      return failure();
    Location loc = op.getLoc();
    Value flat = ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get({*rows, xType.getShape().back()},
                              xType.getElementType()),
        x, Value());
    SmallVector<Value> operands(op->getOperands());
    operands[0] = flat;
    auto flatType = RankedTensorType::get({*rows, rType.getShape().back()},
                                          rType.getElementType());
    auto product = ProductOp::create(rewriter, loc, TypeRange{flatType},
                                     operands, op->getAttrs());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, rType, product.getResult(),
                                           Value());
    return success();
  }
};

} // namespace

void mlir::tcc::populateFlattenProductRowsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FlattenProductRows<LinearOp>, FlattenProductRows<MatmulOp>>(
      patterns.getContext());
}

void mlir::tcc::populateSinkTransposePatterns(RewritePatternSet &patterns) {
  patterns.add<SinkTransposeBelowSlice, SinkTransposeBelowUnitReshape>(
      patterns.getContext());
}

void mlir::tcc::populatePatchConvToLinearPatterns(
    RewritePatternSet &patterns) {
  patterns.add<PatchConvToLinear>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// Horizontal merging
//===----------------------------------------------------------------------===//

namespace {
/// One linear / matmul that may join a horizontal merge.
struct Candidate {
  Operation *op;
  Value weight, bias; // bias: linear only, may be null
  int64_t columns;    // output features (static)
};

std::optional<Candidate> asCandidate(Operation *op) {
  if (auto linear = dyn_cast<LinearOp>(op)) {
    auto w = cast<RankedTensorType>(linear.getWeight().getType());
    if (w.getRank() != 2 || w.isDynamicDim(0))
      return std::nullopt;
    return Candidate{op, linear.getWeight(), linear.getBias(), w.getDimSize(0)};
  }
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    auto a = cast<RankedTensorType>(matmul.getA().getType());
    auto b = cast<RankedTensorType>(matmul.getB().getType());
    if (b.getRank() != 2 || a.getRank() < 2 || b.isDynamicDim(1))
      return std::nullopt;
    return Candidate{op, matmul.getB(), Value(), b.getDimSize(1)};
  }
  return std::nullopt;
}

/// Whether `v` is available before `point` in its block.
bool definedBefore(Value v, Operation *point) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return cast<BlockArgument>(v).getOwner() == point->getBlock();
  return def->getBlock() == point->getBlock() && def->isBeforeInBlock(point);
}
} // namespace

unsigned mlir::tcc::mergeHorizontalContractions(func::FuncOp func,
                                                const FusionTarget &target) {
  if (!func.getBody().hasOneBlock())
    return 0;
  Block &block = func.getBody().front();
  // Candidates by shared input and kind (weights of one kind, one type).
  llvm::MapVector<std::tuple<Value, OperationName, Type>,
                  SmallVector<Candidate>>
      sets;
  for (Operation &op : block) {
    std::optional<Candidate> c = asCandidate(&op);
    if (!c)
      continue;
    Type wType = cast<RankedTensorType>(c->weight.getType()).getElementType();
    sets[{op.getOperand(0), op.getName(), wType}].push_back(*c);
  }
  unsigned made = 0;
  for (auto &[key, all] : sets) {
    // Linears merge only if all or none have a bias.
    SmallVector<Candidate> group;
    for (const Candidate &c : all)
      if (!group.empty() && bool(c.bias) != bool(group.front().bias))
        continue;
      else
        group.push_back(c);
    if (group.size() < 2)
      continue;
    // The merged op goes where the first one was: every weight and bias
    // must exist there. A constant defined later (an importer that puts
    // each weight next to its use) moves up; it reads nothing.
    Operation *first = group.front().op;
    auto availableAtFirst = [&](Value v) {
      if (!v || definedBefore(v, first))
        return true;
      auto constant = v.getDefiningOp<ConstantOp>();
      return constant && constant->getBlock() == first->getBlock();
    };
    if (!llvm::all_of(group, [&](const Candidate &c) {
          return availableAtFirst(c.weight) && availableAtFirst(c.bias);
        }))
      continue;
    // Constant weights and biases are packed at compile time: free.
    auto runtimeBytes = [](Value v) -> int64_t {
      return v && !v.getDefiningOp<ConstantOp>() ? estimateBytes(v) : 0;
    };
    int64_t packed = 0, packedTensors = 0;
    SmallVector<Operation *> ops;
    for (const Candidate &c : group) {
      for (Value v : {c.weight, c.bias}) {
        packed += runtimeBytes(v);
        packedTensors += runtimeBytes(v) > 0;
      }
      ops.push_back(c.op);
    }
    if (!isHorizontalMergeProfitable(ops, packed, packedTensors, target))
      continue;

    for (const Candidate &c : group)
      for (Value v : {c.weight, c.bias})
        if (v && !definedBefore(v, first))
          v.getDefiningOp()->moveBefore(first);
    OpBuilder b(first);
    Location loc = first->getLoc();
    bool isLinear = isa<LinearOp>(first);
    int64_t columns = 0;
    SmallVector<Value> weights, biases;
    for (const Candidate &c : group) {
      columns += c.columns;
      weights.push_back(c.weight);
      if (c.bias)
        biases.push_back(c.bias);
    }
    auto wType = cast<RankedTensorType>(group.front().weight.getType());
    SmallVector<int64_t> packedShape(wType.getShape());
    packedShape[isLinear ? 0 : 1] = columns;
    // Constant weights fold into one constant here (nothing to pack at run
    // time).
    Value weight = b.createOrFold<ConcatOp>(
        loc, RankedTensorType::get(packedShape, wType.getElementType()),
        weights, b.getI64IntegerAttr(isLinear ? 0 : 1));
    Value bias;
    if (!biases.empty()) {
      auto bType = cast<RankedTensorType>(biases.front().getType());
      bias = b.createOrFold<ConcatOp>(
          loc, RankedTensorType::get({columns}, bType.getElementType()),
          biases, b.getI64IntegerAttr(0));
    }
    auto rType = cast<RankedTensorType>(first->getResult(0).getType());
    SmallVector<int64_t> wideShape(rType.getShape());
    wideShape.back() = columns;
    auto wideType = RankedTensorType::get(wideShape, rType.getElementType());
    Operation *wide =
        isLinear ? LinearOp::create(b, loc, wideType, first->getOperand(0),
                                    weight, bias)
                       .getOperation()
                 : MatmulOp::create(b, loc, wideType, first->getOperand(0),
                                    weight)
                       .getOperation();
    wide->setAttr(kHorizontalAttr, b.getI64IntegerAttr(group.size()));
    // One slice of the last dim per original result.
    b.setInsertionPointAfter(wide);
    int64_t offset = 0;
    int64_t rank = wideType.getRank();
    for (const Candidate &c : group) {
      SmallVector<int64_t> starts(rank, 0), ends(rank, INT64_MAX),
          steps(rank, 1);
      starts.back() = offset;
      ends.back() = offset + c.columns;
      offset += c.columns;
      Value part = SliceOp::create(b, c.op->getLoc(),
                                   c.op->getResult(0).getType(),
                                   wide->getResult(0),
                                   b.getDenseI64ArrayAttr(starts),
                                   b.getDenseI64ArrayAttr(ends),
                                   b.getDenseI64ArrayAttr(steps));
      c.op->getResult(0).replaceAllUsesWith(part);
    }
    // Erased last: the builder inserts before the first of them.
    for (const Candidate &c : group)
      c.op->erase();
    ++made;
  }
  return made;
}
