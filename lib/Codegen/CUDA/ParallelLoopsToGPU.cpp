//===- ParallelLoopsToGPU.cpp - scf.parallel to gpu.launch ------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "tcc/Codegen/CUDA/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PARALLELLOOPSTOGPUPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Whether `v` (in or above `body`) is computed from `iv`.
bool dependsOn(Value v, Value iv, Block *body) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body)
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return dependsOn(o, iv, body); });
}

/// A load or store of the body that may become one vector access of
/// `lanes` consecutive elements: indexed by the innermost induction var
/// `iv` in the last dim only, on a memref whose last dim is contiguous and
/// whose static offset and strides keep every such access aligned to its
/// size (given a base pointer so aligned, which the kernel checks).
bool isVectorizable(Operation *op, Value iv, int64_t lanes) {
  Value memref;
  ValueRange indices;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemRef();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemRef();
    indices = store.getIndices();
  } else {
    return false;
  }
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 0 || indices.back() != iv)
    return false;
  Block *body = op->getBlock();
  for (Value index : indices.drop_back())
    if (dependsOn(index, iv, body))
      return false;
  return tcc::alignedForVectors(type, lanes);
}

struct ParallelLoopsToGPUPass
    : tcc::impl::ParallelLoopsToGPUPassBase<ParallelLoopsToGPUPass> {
  using Base::Base;

  /// Consecutive innermost iterations per thread as vector accesses of 16
  /// bytes of the widest element the body loads or stores: when the loop
  /// starts at 0 with step 1, a block's lanes x block-size columns divide
  /// its static innermost trip count `inner`, the body is straight-line
  /// code whose only memory accesses are loads and stores of whole bytes,
  /// and one of them is vectorizable. Else 1.
  int64_t vectorLanes(scf::ParallelOp loop, std::optional<int64_t> inner) {
    if (!vectorize || !inner || *inner <= 0 ||
        !isConstantIntValue(loop.getLowerBound().back(), 0) ||
        !isConstantIntValue(loop.getStep().back(), 1))
      return 1;
    int64_t widest = 0;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (op.getNumRegions() != 0)
        return 1;
      Type element;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        element = load.getType();
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        element = store.getValue().getType();
      else if (!isMemoryEffectFree(&op))
        return 1;
      if (!element)
        continue;
      unsigned bits = element.getIntOrFloatBitWidth();
      if (bits < 8 || !llvm::isPowerOf2_32(bits) || bits > 128)
        return 1;
      widest = std::max<int64_t>(widest, bits / 8);
    }
    if (widest == 0 || 16 / widest < 2)
      return 1;
    int64_t lanes = 16 / widest;
    if (*inner % lanes != 0 || vectorThreads(*inner / lanes) == 0)
      return 1;
    Value iv = loop.getInductionVars().back();
    for (Operation &op : loop.getBody()->without_terminator())
      if (isVectorizable(&op, iv, lanes))
        return lanes;
    return 1;
  }

  /// Threads per block for `columns` vector accesses per row: the largest
  /// multiple of a warp, at most block-size, that divides them (a block
  /// per chunk of a row: 768 f32 columns are 192 threads of 4); 0 if none.
  int64_t vectorThreads(int64_t columns) const {
    for (int64_t t = blockSize - blockSize % 32; t >= 32; t -= 32)
      if (columns % t == 0)
        return t;
    return 0;
  }

  static llvm::MaybeAlign alignmentOf(Type element, int64_t lanes) {
    return llvm::MaybeAlign(lanes * element.getIntOrFloatBitWidth() / 8);
  }

  LogicalResult convert(scf::ParallelOp loop) {
    if (loop.getNumReductions() != 0)
      return loop.emitError("a parallel loop with reductions cannot become "
                            "a GPU kernel yet");
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value one = cst(1), zero = cst(0);
    // Trip counts per dim.
    SmallVector<Value> counts;
    for (auto [lb, ub, step] :
         llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                   loop.getStep())) {
      Value span = arith::SubIOp::create(b, loc, ub, lb);
      Value count = arith::CeilDivSIOp::create(b, loc, span, step);
      count = arith::MaxSIOp::create(b, loc, count, zero);
      counts.push_back(count);
    }
    // Iterations per thread: U innermost ones a block apart, when a block's
    // U x block-size columns divide the static innermost trip count and the
    // body is straight-line code. A block then covers one chunk of a row
    // and each access instruction stays coalesced.
    int64_t rank = counts.size();
    int64_t perThread = 1;
    std::optional<int64_t> inner;
    {
      std::optional<int64_t> lb = getConstantIntValue(
          loop.getLowerBound().back());
      std::optional<int64_t> ub = getConstantIntValue(
          loop.getUpperBound().back());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
      if (lb && ub && step && *step > 0)
        inner = std::max<int64_t>(0, llvm::divideCeil(*ub - *lb, *step));
    }
    bool straightLine = llvm::all_of(
        loop.getBody()->without_terminator(),
        [](Operation &op) { return op.getNumRegions() == 0; });
    Value innerIV = loop.getInductionVars().back();
    int64_t lanes = vectorLanes(loop, inner);
    if (lanes == 1 && inner && *inner > 0 && straightLine)
      for (int64_t u = elementsPerThread; u > 1; --u)
        if (*inner % (u * blockSize) == 0) {
          perThread = u;
          break;
        }
    if (lanes > 1)
      for (int64_t u = vectorsPerThread; u > 1; --u)
        if (*inner % (u * lanes * vectorThreads(*inner / lanes)) == 0) {
          perThread = u;
          break;
        }
    // Work items: threads (one iteration each), or whole blocks (a chunk
    // of U x lanes x threads columns each).
    bool chunked = perThread > 1 || lanes > 1;
    int64_t threadsPerBlock =
        lanes > 1 ? vectorThreads(*inner / lanes) : blockSize;
    int64_t chunk = perThread * lanes * threadsPerBlock;
    SmallVector<Value> workCounts(counts);
    if (chunked)
      workCounts.back() = cst(*inner / chunk);
    Value work = one;
    for (Value c : workCounts)
      work = arith::MulIOp::create(b, loc, work, c);
    Value threads = cst(threadsPerBlock);
    // At least one block (a grid of 0 is an error): with nothing to do its
    // threads all fail the bounds check. No branch around the launch, so
    // gpu-async-region can chain it with its neighbours.
    Value blocks =
        chunked ? work
                : arith::CeilDivSIOp::create(b, loc, work, threads)
                      .getResult();
    blocks = arith::MaxSIOp::create(b, loc, blocks, one);
    auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, threads,
                                        one, one);
    auto kind = loop->getAttrOfType<StringAttr>(tcc::kKernelKindAttr);
    tcc::nameKernel(launch, kind ? kind.getValue() : "loop");
    b.setInsertionPointToStart(&launch.getBody().front());
    Value tid = launch.getThreadIds().x;
    Value linear =
        chunked ? launch.getBlockIds().x
                : arith::AddIOp::create(
                      b, loc,
                      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                                            threads),
                      tid)
                      .getResult();
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, linear, work);
    auto body = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body.getThenRegion().front());
    // Row-major delinearization: the innermost dim varies fastest.
    Value rest = linear;
    SmallVector<Value> idx(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      idx[d] =
          d == 0 ? rest : arith::RemSIOp::create(b, loc, rest, workCounts[d]);
      if (d > 0)
        rest = arith::DivSIOp::create(b, loc, rest, workCounts[d]);
    }
    // With chunks: column chunk x U x lanes x threads + j x lanes x
    // threads + tid x lanes + lane.
    Value firstInner = idx.back();
    if (chunked) {
      // (Separate statements: argument order would make the IR's order
      // depend on the host compiler.)
      Value chunkStart = arith::MulIOp::create(b, loc, firstInner, cst(chunk));
      Value threadStart =
          lanes == 1 ? tid : arith::MulIOp::create(b, loc, tid, cst(lanes));
      firstInner = arith::AddIOp::create(b, loc, chunkStart, threadStart);
    }
    Block *loopBody = loop.getBody();
    // The body for every iteration of this thread, its loads and stores
    // of `lanes` consecutive elements as vector accesses when `vectorize`.
    // Each op is emitted for all U iterations before the next op (the
    // iterations are independent): the loads of all U come first, so U
    // are in flight at once rather than one behind each store.
    auto emitBody = [&](bool vectorize) {
      SmallVector<Value> bases;
      SmallVector<SmallVector<IRMapping>> lanesOf(perThread);
      for (int64_t j = 0; j < perThread; ++j) {
        Value base = j == 0 ? firstInner
                            : arith::AddIOp::create(
                                  b, loc, firstInner,
                                  cst(j * lanes * threadsPerBlock))
                                  .getResult();
        bases.push_back(base);
        SmallVector<IRMapping> &lane = lanesOf[j];
        lane.resize(lanes);
        for (int64_t l = 0; l < lanes; ++l) {
          idx.back() =
              l == 0 ? base
                     : arith::AddIOp::create(b, loc, base, cst(l)).getResult();
          for (int64_t d = 0; d < rank; ++d)
            lane[l].map(loop.getInductionVars()[d],
                        arith::AddIOp::create(
                            b, loc, loop.getLowerBound()[d],
                            arith::MulIOp::create(b, loc, idx[d],
                                                  loop.getStep()[d])));
        }
      }
      for (Operation &op : loopBody->without_terminator()) {
        for (int64_t j = 0; j < perThread; ++j) {
          SmallVector<IRMapping> &lane = lanesOf[j];
          Value base = bases[j];
          if (!vectorize || !isVectorizable(&op, innerIV, lanes)) {
            for (int64_t l = 0; l < lanes; ++l)
              b.clone(op, lane[l]);
            continue;
          }
          auto indices = [&](ValueRange old) {
            SmallVector<Value> now;
            for (Value i : old.drop_back())
              now.push_back(lane[0].lookupOrDefault(i));
            now.push_back(base);
            return now;
          };
          if (auto load = dyn_cast<memref::LoadOp>(op)) {
            auto type = VectorType::get({lanes}, load.getType());
            Value v = vector::LoadOp::create(
                b, loc, type, lane[0].lookupOrDefault(load.getMemRef()),
                indices(load.getIndices()), /*nontemporal=*/false,
                alignmentOf(load.getType(), lanes));
            for (int64_t l = 0; l < lanes; ++l)
              lane[l].map(load.getResult(),
                          vector::ExtractOp::create(b, loc, v, l).getResult());
            continue;
          }
          auto store = cast<memref::StoreOp>(op);
          SmallVector<Value> values;
          for (int64_t l = 0; l < lanes; ++l)
            values.push_back(lane[l].lookupOrDefault(store.getValue()));
          Type element = store.getValue().getType();
          Value v = vector::FromElementsOp::create(
              b, loc, VectorType::get({lanes}, element), values);
          vector::StoreOp::create(
              b, loc, v, lane[0].lookupOrDefault(store.getMemRef()),
              indices(store.getIndices()), /*nontemporal=*/false,
              alignmentOf(element, lanes));
        }
      }
    };
    if (lanes == 1) {
      emitBody(false);
    } else {
      // Vector accesses need their base pointers aligned (a view or a
      // caller's tensor may not be): checked once, uniformly per kernel,
      // with the scalar body as the fallback.
      llvm::SetVector<Value> memrefs;
      for (Operation &op : loopBody->without_terminator())
        if (isVectorizable(&op, innerIV, lanes))
          memrefs.insert(isa<memref::LoadOp>(op)
                             ? cast<memref::LoadOp>(op).getMemRef()
                             : cast<memref::StoreOp>(op).getMemRef());
      Value aligned =
          tcc::basesAligned(b, loc, memrefs.getArrayRef(), lanes);
      auto branch = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      emitBody(true);
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      emitBody(false);
    }
    loop.erase();
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost)
      if (failed(convert(loop)))
        return signalPassFailure();
  }
};

} // namespace
