//===- TCCGPUToLLVM.cpp - tcc_gpu ops to runtime calls ----------*- C++ -*-===//
//
// Runs inside gpu-to-llvm (through the dialect's ConvertToLLVMPattern-
// Interface), where an async token is the stream it stands for: the call
// is queued on that stream and the op's token is that stream again, like
// a kernel launch's. Lowering earlier would hide the stream's use from
// gpu.wait's canonicalization (it drops a wait on a stream nothing seems
// to use).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/TCCGPUToLLVM/TCCGPUToLLVM.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"
#include "tcc/Runtime/GemmCall.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace gemm = ::tcc_gemm;

namespace {

struct GemmOpLowering
    : public ConvertOpToLLVMPattern<tcc::tcc_gpu::GemmOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tcc::tcc_gpu::GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (adaptor.getAsyncDependencies().size() != 1 || !op.getAsyncToken())
      return rewriter.notifyMatchFailure(
          op, "expects one async dependency and a token (gpu-async-region)");
    Value stream = adaptor.getAsyncDependencies().front();
    MLIRContext *ctx = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Value count = LLVM::ConstantOp::create(rewriter, loc, i64,
                                           int64_t(gemm::kFields));
    Value desc = LLVM::AllocaOp::create(rewriter, loc, ptr, i64, count);

    auto toI64 = [&](Value v) -> Value {
      if (v.getType() == i64)
        return v;
      return LLVM::SExtOp::create(rewriter, loc, i64, v);
    };
    auto set = [&](int64_t field, Value v) {
      Value at = LLVM::GEPOp::create(rewriter, loc, ptr, i64, desc,
                                     ArrayRef<LLVM::GEPArg>{field});
      LLVM::StoreOp::create(rewriter, loc, toI64(v), at);
    };
    auto constant = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64, v);
    };
    // A memref's first element's address as an integer.
    auto address = [&](Value converted, Value original) -> Value {
      MemRefDescriptor d(converted);
      Type element = cast<MemRefType>(original.getType()).getElementType();
      Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64,
                                            d.alignedPtr(rewriter, loc));
      Value bytes = LLVM::MulOp::create(
          rewriter, loc, toI64(d.offset(rewriter, loc)),
          constant(element.getIntOrFloatBitWidth() / 8));
      return LLVM::AddOp::create(rewriter, loc, base, bytes);
    };
    auto setOperand = [&](int64_t base, Value converted, Value original) {
      if (!original) {
        for (int64_t f = 0; f < gemm::kOperandFields; ++f)
          set(base + f, constant(0));
        return;
      }
      MemRefDescriptor d(converted);
      unsigned r = cast<MemRefType>(original.getType()).getRank();
      set(base + gemm::kAddress, address(converted, original));
      set(base + gemm::kRowStride, d.stride(rewriter, loc, r - 2));
      set(base + gemm::kColStride, d.stride(rewriter, loc, r - 1));
      set(base + gemm::kBatchStride,
          r == 3 ? d.stride(rewriter, loc, 0) : constant(0));
    };

    auto dType = cast<MemRefType>(op.getD().getType());
    Type element = dType.getElementType();
    unsigned rank = dType.getRank();
    auto code = [&](Type t) {
      return constant(t.isF32() ? gemm::kF32
                      : t.isF16() ? gemm::kF16
                                  : gemm::kBF16);
    };
    set(gemm::kElementType, code(element));
    set(gemm::kInputType,
        code(cast<MemRefType>(op.getA().getType()).getElementType()));
    set(gemm::kEpilogue, constant(op.getEpilogue() == "relu" ? gemm::kReLU
                                                             : gemm::kNone));
    MemRefDescriptor d(adaptor.getD()), a(adaptor.getA());
    set(gemm::kBatch, rank == 3 ? d.size(rewriter, loc, 0) : constant(1));
    set(gemm::kM, d.size(rewriter, loc, rank - 2));
    set(gemm::kN, d.size(rewriter, loc, rank - 1));
    set(gemm::kK, a.size(rewriter, loc, rank - 1));
    setOperand(gemm::kA, adaptor.getA(), op.getA());
    setOperand(gemm::kB, adaptor.getB(), op.getB());
    setOperand(gemm::kC, adaptor.getC(), op.getC());
    setOperand(gemm::kD, adaptor.getD(), op.getD());
    set(gemm::kBias, op.getBias() ? address(adaptor.getBias(), op.getBias())
                                  : constant(0));

    auto module = op->getParentOfType<ModuleOp>();
    FailureOr<LLVM::LLVMFuncOp> callee = LLVM::lookupOrCreateFn(
        rewriter, module, "tccGemm", {ptr, ptr},
        LLVM::LLVMVoidType::get(ctx));
    if (failed(callee))
      return rewriter.notifyMatchFailure(op, "tccGemm has another type");
    LLVM::CallOp::create(rewriter, loc, *callee, ValueRange{stream, desc});
    rewriter.replaceOp(op, stream);
    return success();
  }
};

struct TCCGPUToLLVMInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    target.addIllegalDialect<tcc::tcc_gpu::TCCGPUDialect>();
    tcc::populateTCCGPUToLLVMConversionPatterns(converter, patterns);
  }
};

} // namespace

void tcc::populateTCCGPUToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GemmOpLowering>(converter);
}

void tcc::registerConvertTCCGPUToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(
      +[](MLIRContext *ctx, tcc::tcc_gpu::TCCGPUDialect *dialect) {
        dialect->addInterfaces<TCCGPUToLLVMInterface>();
      });
}
