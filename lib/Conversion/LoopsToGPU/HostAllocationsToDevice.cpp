//===- HostAllocationsToDevice.cpp - buffers in GPU memory ------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_HOSTALLOCATIONSTODEVICEPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// `copy` as an scf.parallel of loads and stores over its shape.
void copyByLoop(IRRewriter &rewriter, memref::CopyOp copy) {
  Location loc = copy.getLoc();
  Value src = copy.getSource(), dst = copy.getTarget();
  int64_t rank = cast<MemRefType>(src.getType()).getRank();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lbs(rank, zero), steps(rank, one), ubs;
  for (int64_t d = 0; d < rank; ++d)
    ubs.push_back(memref::DimOp::create(rewriter, loc, src, d));
  auto loop = scf::ParallelOp::create(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        Value v = memref::LoadOp::create(b, l, src, ivs);
        memref::StoreOp::create(b, l, v, dst, ivs);
      });
  // The kernel's name says what it is (tcc-parallel-loops-to-gpu).
  loop->setAttr(tcc::kKernelKindAttr, rewriter.getStringAttr("copy"));
  rewriter.eraseOp(copy);
}

/// Whether `op` allocates, frees or fills a buffer that only the host reads:
/// the shape operand of a memref.reshape (a reshape whose dims bufferization
/// could not express as a view).
bool readByHost(Operation *op) {
  Value buffer;
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    buffer = alloc.getMemref();
  else if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    buffer = alloca.getMemref();
  else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
    buffer = dealloc.getMemref();
  else
    return false;
  return llvm::any_of(buffer.getUsers(), [&](Operation *user) {
    auto reshape = dyn_cast<memref::ReshapeOp>(user);
    return reshape && reshape.getShape() == buffer;
  });
}

/// Whether `op` runs on the host (not in a kernel or a loop that becomes
/// one).
bool onHost(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() &&
         !op->getParentOfType<scf::ParallelOp>();
}

/// The buffer `view` is a view of (through view-like ops).
Value rootOf(Value view) {
  while (Operation *def = view.getDefiningOp()) {
    if (auto viewLike = dyn_cast<ViewLikeOpInterface>(def))
      view = viewLike.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      view = cast.getSource();
    else
      break;
  }
  return view;
}

struct HostAllocationsToDevicePass
    : tcc::impl::HostAllocationsToDevicePassBase<HostAllocationsToDevicePass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> ops;
    SmallVector<memref::GetGlobalOp> globals;
    getOperation().walk([&](Operation *op) {
      // What kernels do (or will do: parallel loops become kernels) is
      // theirs.
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ParallelOp>())
        return;
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::AllocaOp>(op) &&
          !readByHost(op))
        ops.push_back(op);
      if (auto global = dyn_cast<memref::GetGlobalOp>(op))
        globals.push_back(global);
    });
    // Synchronous gpu ops: gpu-async-region then chains them and the
    // launches on one stream (the host waits where it needs a result).
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto device = gpu::AllocOp::create(
            rewriter, loc, alloc.getType(), /*asyncToken=*/Type(),
            ValueRange(), alloc.getDynamicSizes(), alloc.getSymbolOperands(),
            /*hostShared=*/false);
        rewriter.replaceOp(alloc, device.getMemref());
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(),
                               dealloc.getMemref());
        rewriter.eraseOp(dealloc);
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto srcType = cast<MemRefType>(copy.getSource().getType());
        auto dstType = cast<MemRefType>(copy.getTarget().getType());
        if (!srcType.getLayout().isIdentity() ||
            !dstType.getLayout().isIdentity()) {
          // A strided view (a slice of a merged linear's result) is not
          // one block of memory: an element-wise copy loop, which
          // tcc-parallel-loops-to-gpu makes a kernel.
          copyByLoop(rewriter, copy);
          continue;
        }
        gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange(),
                              copy.getTarget(), copy.getSource());
        rewriter.eraseOp(copy);
      } else {
        op->emitError("a stack buffer on the host cannot be used by GPU "
                      "kernels");
        return signalPassFailure();
      }
    }
    DominanceInfo dominance(getOperation());
    // Constants (memref.get_global: host memory) are copied into a device
    // buffer where they are read, freed at the function's returns unless
    // returned.
    for (memref::GetGlobalOp global : globals) {
      Location loc = global.getLoc();
      rewriter.setInsertionPointAfter(global);
      auto device = gpu::AllocOp::create(
          rewriter, loc, global.getType(), Type(), ValueRange(), ValueRange(),
          ValueRange(), /*hostShared=*/false);
      Value buffer = device.getMemref();
      gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange(), buffer,
                            global.getResult());
      // Host code that loads from the constant keeps reading host memory.
      rewriter.replaceUsesWithIf(
          global.getResult(), buffer, [&](OpOperand &use) {
            Operation *user = use.getOwner();
            return !isa<gpu::MemcpyOp>(user) &&
                   !(isa<memref::LoadOp>(user) && onHost(user));
          });
      getOperation().walk([&](func::ReturnOp ret) {
        // Returns on paths that never allocated it (an entry guard's early
        // exit) have nothing to free.
        if (llvm::is_contained(ret.getOperands(), buffer) ||
            !dominance.properlyDominates(buffer, ret))
          return;
        rewriter.setInsertionPoint(ret);
        gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), buffer);
      });
    }
    // Host code must not touch device memory: arguments are device
    // pointers, and every buffer but the reshape shapes is now one.
    WalkResult touches = getOperation().walk([&](Operation *op) {
      Value buffer;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        buffer = load.getMemref();
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        buffer = store.getMemref();
      if (!buffer || !onHost(op))
        return WalkResult::advance();
      Value root = rootOf(buffer);
      if (isa<BlockArgument>(root) || root.getDefiningOp<gpu::AllocOp>()) {
        op->emitError("host code would ")
            << (isa<memref::LoadOp>(op) ? "read" : "write")
            << " device memory (a shape operand or a data-dependent size "
               "computed on the host): not supported by the cuda target "
               "yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (touches.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
