//===- FusionPreparation.cpp - rewrites that expose fusion ------*- C++ -*-===//

#include "tcc/Transforms/FusionPreparation.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

//===----------------------------------------------------------------------===//
// Sinking transposes
//===----------------------------------------------------------------------===//

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
      rewriter.replaceOpWithNewOp<TransposeOp>(slice, resType, inner, perm);
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
    // Kept dims of the transposed value, matched in order; every other dim
    // must be a static 1.
    SmallVector<int64_t> kept;
    size_t r = 0;
    for (int64_t d = 0; d < full.getRank(); ++d) {
      bool unit = full.getDimSize(d) == 1;
      if (r < (size_t)reduced.getRank() &&
          (full.getDimSize(d) == reduced.getDimSize(r) ||
           (!unit && (full.isDynamicDim(d) || reduced.isDynamicDim(r)))) &&
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
    // A dynamic dim must stay the same value: the reshape's shape operand
    // must be a from_elements (or absent when everything is static) so that
    // it can be permuted for the new reshape.
    ArrayRef<int64_t> perm = transpose.getPermutation();
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
    // Sizes must agree with the reshape's result where either is static.
    SmallVector<int64_t> refined(newShape);
    for (size_t i = 0; i < newPerm.size(); ++i) {
      int64_t want = reduced.getDimSize(i);
      if (!ShapedType::isDynamic(want))
        refined[newPerm[i]] = want;
    }
    Value shapeOperand;
    if (Value shape = op.getShape()) {
      auto elements = shape.getDefiningOp<tensor::FromElementsOp>();
      if (!elements)
        return failure();
      SmallVector<Value> permuted(newPerm.size());
      for (size_t i = 0; i < newPerm.size(); ++i)
        permuted[newPerm[i]] = elements.getElements()[i];
      rewriter.setInsertionPoint(op);
      shapeOperand = tensor::FromElementsOp::create(
          rewriter, op.getLoc(), elements.getType(), permuted);
    } else if (llvm::count_if(refined, ShapedType::isDynamic) > 1) {
      return failure();
    }
    rewriter.setInsertionPoint(op);
    auto newType = RankedTensorType::get(refined, xType.getElementType());
    Value reshaped = ReshapeOp::create(rewriter, op.getLoc(), newType,
                                       transpose.getX(), shapeOperand);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, reduced, reshaped, newPerm);
    rewriter.eraseOp(transpose);
    return success();
  }
};

} // namespace

void mlir::tcc::populateSinkTransposePatterns(RewritePatternSet &patterns) {
  patterns.add<SinkTransposeBelowSlice, SinkTransposeBelowUnitReshape>(
      patterns.getContext());
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
    // must exist there.
    Operation *first = group.front().op;
    if (!llvm::all_of(group, [&](const Candidate &c) {
          return definedBefore(c.weight, first) &&
                 (!c.bias || definedBefore(c.bias, first));
        }))
      continue;
    // Constant weights and biases are packed at compile time: free.
    auto runtimeBytes = [](Value v) -> int64_t {
      return v && !v.getDefiningOp<ConstantOp>() ? estimateBytes(v) : 0;
    };
    int64_t packed = 0;
    SmallVector<Operation *> ops;
    for (const Candidate &c : group) {
      packed += runtimeBytes(c.weight) + runtimeBytes(c.bias);
      ops.push_back(c.op);
    }
    if (!isHorizontalMergeProfitable(ops, packed, target))
      continue;

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
