//===- ParallelLoopsToGPU.cpp - scf.parallel to gpu.launch ------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PARALLELLOOPSTOGPUPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct ParallelLoopsToGPUPass
    : tcc::impl::ParallelLoopsToGPUPassBase<ParallelLoopsToGPUPass> {
  using Base::Base;

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
    if (inner && *inner > 0 && straightLine)
      for (int64_t u = elementsPerThread; u > 1; --u)
        if (*inner % (u * blockSize) == 0) {
          perThread = u;
          break;
        }
    // Work items: threads (one iteration each), or whole blocks (a chunk
    // of U x block-size columns each).
    SmallVector<Value> workCounts(counts);
    if (perThread > 1)
      workCounts.back() = cst(*inner / (perThread * blockSize));
    Value work = one;
    for (Value c : workCounts)
      work = arith::MulIOp::create(b, loc, work, c);
    Value threads = cst(blockSize);
    // At least one block (a grid of 0 is an error): with nothing to do its
    // threads all fail the bounds check. No branch around the launch, so
    // gpu-async-region can chain it with its neighbours.
    Value blocks =
        perThread > 1 ? work
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
        perThread > 1
            ? launch.getBlockIds().x
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
    // With chunks: column chunk * U * block-size + j * block-size + tid.
    Value firstInner = idx.back();
    if (perThread > 1)
      firstInner = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, firstInner,
                                cst(perThread * blockSize)),
          tid);
    for (int64_t j = 0; j < perThread; ++j) {
      idx.back() =
          j == 0 ? firstInner
                 : arith::AddIOp::create(b, loc, firstInner,
                                         cst(j * blockSize))
                       .getResult();
      IRMapping map;
      for (int64_t d = 0; d < rank; ++d)
        map.map(loop.getInductionVars()[d],
                arith::AddIOp::create(
                    b, loc, loop.getLowerBound()[d],
                    arith::MulIOp::create(b, loc, idx[d], loop.getStep()[d])));
      for (Operation &op : loop.getBody()->without_terminator())
        b.clone(op, map);
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
