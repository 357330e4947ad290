//===- HostAllocationsToDevice.cpp - buffers in GPU memory ------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_HOSTALLOCATIONSTODEVICEPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
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

/// The memref `def` views (a view-like op or a cast), or null.
Value viewSourceOf(Operation *def) {
  if (auto viewLike = dyn_cast<ViewLikeOpInterface>(def))
    return viewLike.getViewSource();
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return cast.getSource();
  return nullptr;
}

/// The buffer `view` is a view of (through view-like ops and casts).
Value rootOf(Value view) {
  while (Operation *def = view.getDefiningOp()) {
    Value source = viewSourceOf(def);
    if (!source)
      break;
    view = source;
  }
  return view;
}

/// Whether `buffer` is (a view of) device memory: an argument (a device
/// pointer in the cuda ABI) or a gpu.alloc.
bool onDevice(Value buffer) {
  Value root = rootOf(buffer);
  return isa<BlockArgument>(root) || root.getDefiningOp<gpu::AllocOp>();
}

/// The memref operand through which host op `op` reads or writes memory:
/// a load's or store's memref, a reshape's shape (the reshape builds its
/// descriptor from it).
OpOperand *hostAccessOf(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return &load.getMemrefMutable();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return &store.getMemrefMutable();
  if (auto reshape = dyn_cast<memref::ReshapeOp>(op))
    return &reshape.getShapeMutable();
  return nullptr;
}

/// Host copies of the device buffers host code reads and writes, for one
/// block: host code then only touches host memory.
///
/// A unit is a host load, store or reshape of device memory, or a host op
/// with regions (an scf.for, scf.if of host code) whose accesses are all on
/// the host. Before a unit, each device buffer it touches is copied into a
/// host buffer of the same type (gpu.memcpy: on the call's stream, after
/// the kernels that wrote it; gpu-async-region puts the host's wait before
/// the first host access); the unit then touches the copy, through the same
/// views. Copies are reused by the next units until an op that may touch
/// memory otherwise (a kernel, a copy, a call, a free) comes between; the
/// copies the host wrote go back to the device before it, and before the
/// block's terminator, where the copies are freed. A host loop is staged
/// once as a whole (not a copy per iteration) unless it holds a kernel: then
/// its blocks are staged one by one.
class HostStaging {
public:
  explicit HostStaging(IRRewriter &rewriter) : rewriter(rewriter) {}

  LogicalResult stage(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      SmallVector<OpOperand *> accesses;
      bool holdsKernel = false;
      op.walk([&](Operation *inner) {
        // Kernels, device copies and calls reach the device buffers
        // themselves: host copies would not see their writes.
        if (isa<scf::ParallelOp, func::CallOp>(inner) ||
            isa<gpu::GPUDialect>(inner->getDialect())) {
          holdsKernel = true;
          return WalkResult::skip();
        }
        if (OpOperand *access = hostAccessOf(inner))
          if (onDevice(access->get()))
            accesses.push_back(access);
        return WalkResult::advance();
      });
      if (!holdsKernel && !accesses.empty()) {
        if (failed(stageUnit(op, accesses)))
          return failure();
        continue;
      }
      if (!op.hasTrait<OpTrait::IsTerminator>() &&
          (isMemoryEffectFree(&op) ||
           isa<memref::AllocOp, memref::DimOp, ViewLikeOpInterface>(op)))
        continue;
      // Something else may touch the buffers: the device gets the host's
      // writes, and later host reads copy again.
      sync(op);
      if (holdsKernel && !isa<scf::ParallelOp>(op) &&
          !isa<gpu::GPUDialect>(op.getDialect()))
        for (Region &region : op.getRegions())
          for (Block &inner : region)
            if (failed(HostStaging(rewriter).stage(inner)))
              return failure();
    }
    return success();
  }

private:
  LogicalResult stageUnit(Operation &unit, ArrayRef<OpOperand *> accesses) {
    for (OpOperand *access : accesses) {
      Value root = rootOf(access->get());
      auto rootType = cast<MemRefType>(root.getType());
      if (!rootType.getLayout().isIdentity())
        return access->getOwner()->emitError(
            "host code would access a strided device buffer: not supported "
            "by the cuda target");
      Value copy = mapping.lookupOrNull(root);
      if (!copy) {
        Location loc = unit.getLoc();
        rewriter.setInsertionPoint(&unit);
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < rootType.getRank(); ++d)
          if (rootType.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(rewriter, loc, root, d));
        copy = memref::AllocOp::create(rewriter, loc, rootType, sizes);
        gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange(), copy,
                              root);
        mapping.map(root, copy);
        copies.push_back({root, copy});
      }
      if (isa<memref::StoreOp>(access->getOwner()))
        written.insert(root);
      access->set(twinOf(access->get(), unit));
    }
    return success();
  }

  /// The view of the host copy that `view` is of the device buffer: the
  /// same view ops, placed before `unit` or, for a view made inside it,
  /// after the original.
  Value twinOf(Value view, Operation &unit) {
    if (Value twin = mapping.lookupOrNull(view))
      return twin;
    Operation *def = view.getDefiningOp();
    twinOf(viewSourceOf(def), unit);
    if (unit.isProperAncestor(def))
      rewriter.setInsertionPointAfter(def);
    else
      rewriter.setInsertionPoint(&unit);
    rewriter.clone(*def, mapping);
    return mapping.lookup(view);
  }

  /// Before `op`: the host's writes go back to the device; without more
  /// uses, the host copies are freed (before a terminator: the block's
  /// end).
  void sync(Operation &op) {
    rewriter.setInsertionPoint(&op);
    for (auto [root, copy] : copies) {
      if (written.contains(root))
        gpu::MemcpyOp::create(rewriter, op.getLoc(), Type(), ValueRange(),
                              root, copy);
      memref::DeallocOp::create(rewriter, op.getLoc(), copy);
    }
    copies.clear();
    written.clear();
    mapping.clear();
  }

  IRRewriter &rewriter;
  IRMapping mapping; // device buffers and views -> their host twins
  SmallVector<std::pair<Value, Value>> copies; // device root, host copy
  DenseSet<Value> written;
};

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
    // Host code that reads or writes device memory (a shape operand, a
    // count a one-thread kernel computed, a data-dependent loop) works on
    // host copies.
    for (Block &block : getOperation().getBody())
      if (failed(HostStaging(rewriter).stage(block)))
        return signalPassFailure();
  }
};

} // namespace
