//===- GPULibraryCalls.cpp - tcc_gpu ops to runtime calls -------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"
#include "tcc/Runtime/GemmCall.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_GPULIBRARYCALLSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
namespace gemm = ::tcc_gemm;

namespace {

constexpr StringLiteral kGemmFunction = "tccGemm";

/// Fills `desc` (a memref<kFields x i64> on the host stack) for `op`.
class DescriptorBuilder {
public:
  DescriptorBuilder(OpBuilder &b, Location loc, Value desc)
      : b(b), loc(loc), desc(desc) {}

  void set(int64_t field, Value index) {
    Value v = index.getType().isIndex()
                  ? arith::IndexCastOp::create(b, loc, b.getI64Type(), index)
                  : index;
    Value at = arith::ConstantIndexOp::create(b, loc, field);
    memref::StoreOp::create(b, loc, v, desc, at);
  }
  void set(int64_t field, int64_t value) {
    set(field, arith::ConstantIntOp::create(b, loc, b.getI64Type(), value));
  }

  /// Address and strides of a matrix operand (rank 2, or 3 with batch);

  void setOperand(int64_t base, Value matrix) {
    if (!matrix) {
      for (int64_t f = 0; f < gemm::kOperandFields; ++f)
        set(base + f, int64_t(0));
      return;
    }
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, matrix);
    int64_t r = cast<MemRefType>(matrix.getType()).getRank();
    set(base + gemm::kAddress, address(matrix, meta));
    set(base + gemm::kRowStride, meta.getStrides()[r - 2]);
    set(base + gemm::kColStride, meta.getStrides()[r - 1]);
    if (r == 3)
      set(base + gemm::kBatchStride, meta.getStrides()[0]);
    else
      set(base + gemm::kBatchStride, int64_t(0));
  }

  /// The device address of `buffer`'s first element.
  Value address(Value buffer, memref::ExtractStridedMetadataOp meta) {
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    unsigned bytes = cast<MemRefType>(buffer.getType())
                         .getElementType()
                         .getIntOrFloatBitWidth() /
                     8;
    Value offset = arith::MulIOp::create(
        b, loc, meta.getOffset(),
        arith::ConstantIndexOp::create(b, loc, bytes));
    return arith::AddIOp::create(b, loc, aligned, offset);
  }

private:
  OpBuilder &b;
  Location loc;
  Value desc;
};

struct GPULibraryCallsPass
    : tcc::impl::GPULibraryCallsPassBase<GPULibraryCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<tcc::tcc_gpu::GemmOp> gemms;
    func.walk([&](tcc::tcc_gpu::GemmOp op) { gemms.push_back(op); });
    if (gemms.empty())
      return;
    auto module = func->getParentOfType<ModuleOp>();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    // void tccGemm(void *stream, const int64_t *desc)
    if (!module.lookupSymbol(kGemmFunction)) {
      OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
      auto decl = func::FuncOp::create(
          top, module.getLoc(), kGemmFunction,
          FunctionType::get(ctx, {ptr, ptr}, {}));
      decl.setPrivate();
    }
    IRRewriter rewriter(ctx);
    for (tcc::tcc_gpu::GemmOp op : gemms)
      if (failed(lower(rewriter, op, ptr)))
        return signalPassFailure();
  }

  LogicalResult lower(IRRewriter &rewriter, tcc::tcc_gpu::GemmOp op,
                      Type ptr) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    ValueRange deps = op.getAsyncDependencies();
    if (deps.empty() || !op.getAsyncToken())
      return op.emitOpError("expects to be async with a dependency (run "
                            "gpu-async-region first)");
    Value token = deps.front();
    if (deps.size() > 1)
      token = gpu::WaitOp::create(rewriter, loc,
                                  rewriter.getType<gpu::AsyncTokenType>(),
                                  deps)
                  .getAsyncToken();

    auto i64 = rewriter.getI64Type();
    Value desc = memref::AllocaOp::create(
        rewriter, loc, MemRefType::get({gemm::kFields}, i64));
    DescriptorBuilder fields(rewriter, loc, desc);
    auto d = cast<MemRefType>(op.getD().getType());
    Type element = d.getElementType();
    int64_t type = element.isF32()   ? gemm::kF32
                   : element.isF16() ? gemm::kF16
                                     : gemm::kBF16;
    int64_t rank = d.getRank();
    fields.set(gemm::kElementType, type);
    fields.set(gemm::kEpilogue, op.getEpilogue() == "relu" ? gemm::kReLU
                                                           : gemm::kNone);
    auto dim = [&](Value v, int64_t i) -> Value {
      return memref::DimOp::create(rewriter, loc, v, i);
    };
    if (rank == 3)
      fields.set(gemm::kBatch, dim(op.getD(), 0));
    else
      fields.set(gemm::kBatch, int64_t(1));
    fields.set(gemm::kM, dim(op.getD(), rank - 2));
    fields.set(gemm::kN, dim(op.getD(), rank - 1));
    fields.set(gemm::kK, dim(op.getA(), rank - 1));
    fields.setOperand(gemm::kA, op.getA());
    fields.setOperand(gemm::kB, op.getB());
    fields.setOperand(gemm::kC, op.getC());
    fields.setOperand(gemm::kD, op.getD());
    if (Value bias = op.getBias()) {
      auto meta = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                           bias);
      fields.set(gemm::kBias, fields.address(bias, meta));
    } else {
      fields.set(gemm::kBias, int64_t(0));
    }

    // gpu-to-llvm turns the token into the stream it stands for.
    Value stream =
        UnrealizedConversionCastOp::create(rewriter, loc, ptr, token)
            .getResult(0);
    Value descAddress =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, desc);
    Value descPtr = LLVM::IntToPtrOp::create(
        rewriter, loc, ptr,
        arith::IndexCastOp::create(rewriter, loc, i64, descAddress)
            .getResult());
    func::CallOp::create(rewriter, loc, kGemmFunction, TypeRange(),
                         ValueRange{stream, descPtr});
    rewriter.replaceOp(op, token);
    return success();
  }
};

} // namespace
