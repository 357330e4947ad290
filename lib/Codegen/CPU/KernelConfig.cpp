//===- KernelConfig.cpp - tile sizes of a fusion group on the CPU -*- C++
//-*-===//
//
// What size each tile is, apart from how tiling is done
// (TileAndVectorizeGroup.cpp), as IREE's LLVMCPU KernelDispatch keeps it:
// the root's tiles by the group's kind, the contractions' register tiles
// and the chunks of long rows by the target's vector lanes, and the budget
// past which whole ops run a row at a time.
//
//===----------------------------------------------------------------------===//

#include "KernelConfig.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::cpu;

/// Tile sizes of the root's loops: the batch-like parallel dims get 1 and
/// the innermost row dim 8 (contraction groups) or 1 (all others; long
/// static rows 4 or 2, see below). A single contraction with an elementwise
/// epilogue also tiles its N dim by 32, the register tile; when the group
/// holds more (attention: two contractions and a softmax between them), N
/// stays whole so the producers of a row block are computed once, not once
/// per N tile. The innermost dim of non-contraction groups stays whole: a
/// row is reduced and written in one go.
SmallVector<int64_t>
mlir::tcc::cpu::rootTileSizes(linalg::LinalgOp root, int numContractions,
                              bool multiPass, bool cheapPasses, int64_t lanes) {
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  SmallVector<int64_t> parallelDims;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel)
      parallelDims.push_back(i);
  SmallVector<int64_t> sizes(iters.size(), 0);
  if (parallelDims.empty())
    return sizes;
  for (int64_t d : parallelDims)
    sizes[d] = 1;
  if (numContractions > 0 && parallelDims.size() >= 2) {
    sizes[parallelDims.back()] = numContractions == 1 ? 2 * lanes : 0;
    sizes[parallelDims[parallelDims.size() - 2]] = 8;
  } else if (numContractions > 0) {
    sizes[parallelDims.back()] = 2 * lanes;
  } else {
    sizes[iters.size() - 1] = 0;
    // Long static rows (1024 elements and more) of a one-pass group
    // (pointwise, a lone reduction) go 4 at a time: the pass then streams
    // four rows, more memory-level parallelism. A multi-pass group whose
    // passes only read the input again (layer_norm, rms_norm: mean,
    // variance, normalize) goes 2 at a time: its last pass loads each
    // column of the scale and shift once for both rows, loads that miss
    // L1 (the rows and those two vectors, 64 KiB per row of 4096 f32, do
    // not fit) and cost a core as much as its share of memory bandwidth
    // (layer_norm over 16384 x 4096: 8-9 % faster on one core and on two;
    // 4 rows gain nothing more). A multi-pass group with expensive
    // per-element work (softmax: max, exp-sum, scale) goes one row at a
    // time: the row and its scratch copy of the exps stay in L1 between
    // passes (4 rows of 4096 f32 and their scratch, 128 KiB, spill to L2;
    // softmax over 16384 x 4096: 20 ms against 24.6 ms), and
    // tcc-prefetch-rows brings the next row in during the longest pass.
    SmallVector<int64_t> ranges = root.getStaticLoopRanges();
    int64_t last = iters.size() - 1;
    bool longStaticRows =
        iters.size() >= 2 && iters[last - 1] == utils::IteratorType::parallel &&
        !ShapedType::isDynamic(ranges[last]) && ranges[last] >= 1024 &&
        !ShapedType::isDynamic(ranges[last - 1]) && ranges[last - 1] >= 64;
    if (longStaticRows && !multiPass)
      sizes[last - 1] = 4;
    else if (longStaticRows && cheapPasses)
      sizes[last - 1] = 2;
  }
  return sizes;
}

/// Whether `op`'s body holds arithmetic that expands into many vector
/// instructions per element: transcendental functions (polynomials of 20 to
/// 50 instructions once approximated) and divisions.
bool mlir::tcc::cpu::hasExpensiveBody(linalg::LinalgOp op) {
  bool expensive = false;
  op->walk([&](Operation *inner) {
    if (isa<arith::DivFOp, arith::RemFOp>(inner))
      expensive = true;
    else if (inner->getDialect() &&
             inner->getDialect()->getNamespace() == "math" &&
             !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
                  math::FloorOp, math::CeilOp, math::RoundEvenOp,
                  math::CopySignOp>(inner))
      expensive = true;
  });
  return expensive;
}

/// Whether `op` does expensive arithmetic (see hasExpensiveBody) on values
/// that vary along its innermost loop; work on per-row values only (a
/// mean's sum / n) is hoisted out of the column loop.
bool mlir::tcc::cpu::hasExpensiveRowWork(linalg::GenericOp op) {
  unsigned innerDim = op.getNumLoops() - 1;
  llvm::DenseSet<Value> varying;
  Block &body = op.getRegion().front();
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.isFunctionOfDim(innerDim))
      varying.insert(body.getArgument(operand.getOperandNumber()));
  }
  bool expensive = false;
  for (Operation &bodyOp : body.without_terminator()) {
    bool varies = isa<linalg::IndexOp>(bodyOp) ||
                  llvm::any_of(bodyOp.getOperands(),
                               [&](Value v) { return varying.contains(v); });
    if (!varies)
      continue;
    for (Value r : bodyOp.getResults())
      varying.insert(r);
    if (isa<arith::DivFOp, arith::RemFOp>(bodyOp) ||
        (bodyOp.getDialect() && bodyOp.getDialect()->getNamespace() == "math" &&
         !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
              math::FloorOp, math::CeilOp, math::RoundEvenOp, math::CopySignOp>(
             bodyOp)))
      expensive = true;
  }
  return expensive;
}

/// Lanes of the innermost dim one chunk of a long static row covers. All
/// rows of the tile are processed together, so one value of the body spans
/// rows x chunk / lanes vector registers. The budget per value: 4 registers
/// for an expensive body (an exp or erf polynomial keeps three or four such
/// values live, out of 32 zmm), 8 for a reduction (accumulators plus the
/// chunk just read), 16 for a cheap elementwise body.
int64_t mlir::tcc::cpu::rowChunkLanes(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < ranges.size(); ++i)
    rows *= ranges[i];
  bool reduces = op.getNumReductionLoops() > 0;
  int64_t registers = hasExpensiveBody(op) ? 4 : reduces ? 8 : 16;
  int64_t chunk = lanes;
  while (chunk * 2 * rows <= registers * lanes && chunk < 4 * lanes)
    chunk *= 2;
  return chunk;
}

/// Straight-line vector instructions `op` becomes when vectorized whole:
/// registers per row times rows times its body's cost, a transcendental
/// (math dialect, expanded to a polynomial later) counting 16.
int64_t mlir::tcc::cpu::straightLineZmmOps(linalg::LinalgOp op, int64_t lanes) {
  if (op.hasDynamicShape() || op.getNumLoops() == 0)
    return 0;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  if (elements > kMaxWholeVectorElements)
    return 0; // stays loops (vectorizeIfProfitable)
  int64_t rows = 1;
  for (int64_t r : ArrayRef<int64_t>(ranges).drop_back())
    rows *= r;
  int64_t perRow = llvm::divideCeil(ranges.back(), lanes);
  int64_t bodyCost = 0;
  op->walk([&](Operation *bodyOp) {
    if (bodyOp == op.getOperation() || isa<linalg::YieldOp>(bodyOp))
      return;
    bool transcendental =
        bodyOp->getDialect() &&
        bodyOp->getDialect()->getNamespace() == "math" &&
        !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp>(bodyOp);
    bodyCost += transcendental ? 16 : 1;
  });
  return rows * perRow * std::max<int64_t>(bodyCost, 1);
}

/// Register tile of a contraction that takes outer products: its two
/// innermost parallel dims by 8 x 2*lanes and K by lanes (with AVX-512:
/// 8 x 32 x 16, 16 zmm accumulators, one vector.contract each), leading
/// parallel dims by 1. A dim still dynamic (the rows of an edge tile when
/// the batch is dynamic) is tiled by 1, or 4 for dynamic rows, so even a
/// batch of 1 runs vector code.
SmallVector<int64_t>
mlir::tcc::cpu::contractionRegisterTile(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> kSizes(op.getNumLoops(), 0);
  SmallVector<int64_t> parallelDims;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (it == utils::IteratorType::reduction)
      kSizes[i] = lanes;
    else
      parallelDims.push_back(i);
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto registerTile = [&](int64_t dim, int64_t size) {
    kSizes[dim] = ShapedType::isDynamic(ranges[dim])
                      ? 1
                      : std::min<int64_t>(size, ranges[dim]);
  };
  for (int64_t d : parallelDims)
    kSizes[d] = 1;
  // Dynamic columns (a sequence length) take full-width tiles anyway: the
  // peeled main loop runs static 8 x 32 tiles and only the last partial
  // tile is scalar.
  if (!parallelDims.empty() &&
      ShapedType::isDynamic(ranges[parallelDims.back()]))
    kSizes[parallelDims.back()] = 2 * lanes;
  else if (!parallelDims.empty())
    registerTile(parallelDims.back(), 2 * lanes);
  if (parallelDims.size() >= 2) {
    int64_t m = parallelDims[parallelDims.size() - 2];
    registerTile(m, 8);
    // Dynamic rows (the last, partial row tile of a dynamic sequence):
    // 4 rows at a time first, then 2, then 1 (below), so fewer than 8
    // rows take at most three passes over the weight panel, not seven.
    if (ShapedType::isDynamic(ranges[m]))
      kSizes[m] = 4;
  }
  return kSizes;
}

std::optional<RootTiling>
mlir::tcc::cpu::chooseRootTiling(fusion::GroupOp group, int64_t lanes) {
  // The root computes every result (several only when elementwise fusion
  // merged a multi-output group into one op). A group without one (small
  // independent loops merged horizontally) is not tiled: each op is
  // vectorized whole below.
  auto yield = cast<fusion::YieldOp>(group.getBodyBlock().getTerminator());
  if (yield.getValues().empty())
    return std::nullopt;
  // A reduction with keep_dims yields its result through an expand_shape:
  // the root is the reduction.
  auto throughReshapes = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        break;
      v = def->getOperand(0);
    }
    return v;
  };
  auto root =
      throughReshapes(yield.getValues()[0]).getDefiningOp<linalg::LinalgOp>();
  if (root && (!isa<TilingInterface>(root.getOperation()) ||
               !llvm::all_of(yield.getValues(), [&](Value v) {
                 return throughReshapes(v).getDefiningOp() ==
                        root.getOperation();
               })))
    root = nullptr;
  int numContractions = 0;
  bool hasConv = false, hasReduction = false;
  group.walk([&](linalg::LinalgOp op) {
    numContractions += linalg::isaContractionOpInterface(op);
    hasConv |= isa<linalg::Conv2DNchwFchwOp>(op);
    hasReduction |= op.getNumReductionLoops() > 0;
  });
  SmallVector<int64_t> sizes;
  bool tileRootLoops = false;
  if (root) {
    // A reduction read again by the root (softmax, the norms) makes
    // several passes over each row.
    bool multiPass = hasReduction && numContractions == 0 &&
                     root.getNumReductionLoops() == 0;
    // Per-element work of the full-rank ops only: a norm's per-row
    // division and rsqrt (ops over the reduced rows) do not count.
    bool cheapPasses = true;
    group.walk([&](linalg::GenericOp op) {
      if (op.getNumLoops() >= root.getNumLoops() && hasExpensiveRowWork(op))
        cheapPasses = false;
    });
    sizes = rootTileSizes(root, numContractions, multiPass, cheapPasses, lanes);
    // A root over a reduction's result space (the mean's division after
    // its sum, [16384] after [16384, 4096]): the root's innermost dim is
    // rows of the reduction, not a row to keep whole. Four at a time, as a
    // lone reduction's rows; untiled, the fused-in reduction walked all
    // 16384 rows per 16-column chunk (layer_norm --no-fuse: 660 ms).
    bool overReducedRows = false;
    group.walk([&](linalg::LinalgOp op) {
      overReducedRows |= op.getNumReductionLoops() > 0 &&
                         op.getNumLoops() > root.getNumLoops();
    });
    if (overReducedRows && numContractions == 0 && !sizes.empty() &&
        root.getNumReductionLoops() == 0)
      sizes.back() = 4;
    // NCHW conv groups: 8 output channels x 32 output columns of one row
    // per tile (the conv's parallel loops are n, f, oh, ow).
    if (hasConv && root.getNumParallelLoops() == 4 && root.getNumLoops() >= 4) {
      SmallVector<int64_t> convSizes = {1, 8, 1, 2 * lanes};
      convSizes.resize(root.getNumLoops(), 0);
      sizes = convSizes;
    }
    // A 2-D transpose root (a copy group) is tiled in square blocks below,
    // not by rows (a row of its result is a strided column of its input);
    // a root with nothing to tile is left whole.
    bool blockTranspose =
        isa<linalg::TransposeOp>(root) && root.getNumLoops() == 2;
    tileRootLoops = !blockTranspose &&
                    llvm::any_of(sizes, [](int64_t s) { return s != 0; });
  }
  return RootTiling{root, sizes, tileRootLoops};
}
