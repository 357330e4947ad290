//===- TCCLibToLLVM.cpp - tcc_lib ops to runtime calls ----------*- C++ -*-===//
//
// Runs inside gpu-to-llvm (through the dialect's ConvertToLLVMPattern-
// Interface), where an async token is the stream it stands for: the call
// is queued on that stream and the op's token is that stream again, like
// a kernel launch's. Lowering earlier would hide the stream's use from
// gpu.wait's canonicalization (it drops a wait on a stream nothing seems
// to use).
//
// The cpu pipeline's library calls (oneDNN) have no token: the
// tcc-host-library-calls-to-llvm pass lowers them to the host runtime's
// entry points (`tccHostConv(null, desc)`), with the same descriptors.
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/TCCLibToLLVM/TCCLibToLLVM.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"
#include "tcc/Runtime/AttentionCall.h"
#include "tcc/Runtime/ConvCall.h"
#include "tcc/Runtime/GemmCall.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace gemm = ::tcc_gemm;
namespace attn = ::tcc_attention;
namespace conv = ::tcc_conv;

namespace {

/// A runtime call's argument array of i64 fields on the stack, and the
/// values that fill it (shared by the library calls' lowerings).
struct CallFields {
  ConversionPatternRewriter &rewriter;
  Location loc;
  Type i64, ptr;
  Value desc;

  CallFields(ConversionPatternRewriter &rewriter, Location loc, int64_t count)
      : rewriter(rewriter), loc(loc), i64(rewriter.getI64Type()),
        ptr(LLVM::LLVMPointerType::get(rewriter.getContext())) {
    desc = LLVM::AllocaOp::create(rewriter, loc, ptr, i64, constant(count));
  }
  Value constant(int64_t v) {
    return LLVM::ConstantOp::create(rewriter, loc, i64, v);
  }
  Value toI64(Value v) {
    if (v.getType() == i64)
      return v;
    return LLVM::SExtOp::create(rewriter, loc, i64, v);
  }
  void set(int64_t field, Value v) {
    Value at = LLVM::GEPOp::create(rewriter, loc, ptr, i64, desc,
                                   ArrayRef<LLVM::GEPArg>{field});
    LLVM::StoreOp::create(rewriter, loc, toI64(v), at);
  }
  /// A memref's first element's address as an integer.
  Value address(Value converted, Value original) {
    MemRefDescriptor d(converted);
    Type element = cast<MemRefType>(original.getType()).getElementType();
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64,
                                          d.alignedPtr(rewriter, loc));
    Value bytes =
        LLVM::MulOp::create(rewriter, loc, toI64(d.offset(rewriter, loc)),
                            constant(element.getIntOrFloatBitWidth() / 8));
    return LLVM::AddOp::create(rewriter, loc, base, bytes);
  }
  /// The scratch fields: `scratch`'s address and bytes, or zeros.
  void setScratch(int64_t addressField, int64_t bytesField, Value converted,
                  Value original) {
    if (!original) {
      set(addressField, constant(0));
      set(bytesField, constant(0));
      return;
    }
    set(addressField, address(converted, original));
    set(bytesField, MemRefDescriptor(converted).size(rewriter, loc, 0));
  }
  /// `call(stream, desc)`, and the op's token is the stream (a host call:
  /// a null stream, and the op has no token).
  LogicalResult call(Operation *op, StringRef name, Value stream) {
    auto module = op->getParentOfType<ModuleOp>();
    FailureOr<LLVM::LLVMFuncOp> callee = LLVM::lookupOrCreateFn(
        rewriter, module, name, {ptr, ptr},
        LLVM::LLVMVoidType::get(rewriter.getContext()));
    if (failed(callee))
      return rewriter.notifyMatchFailure(op, name + " has another type");
    LLVM::CallOp::create(rewriter, loc, *callee, ValueRange{stream, desc});
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, stream);
    return success();
  }
};

/// A library call's lowering: the op's one async dependency (a stream,
/// inside gpu-to-llvm) and its descriptor, which `Derived::fill` writes;
/// then `Derived::kCallee(stream, desc)`. Without a stream
/// (gpu-async-region has not run) the call has nothing to be queued on.
/// Host calls (`host`: the cpu pipeline) have neither token nor
/// dependency and become `Derived::kHostCallee(null, desc)`; ops with no
/// host runtime (kHostCallee null) do not match.
template <typename Op, typename Derived>
struct LibraryCallLowering : public ConvertOpToLLVMPattern<Op> {
  LibraryCallLowering(const LLVMTypeConverter &converter, bool host)
      : ConvertOpToLLVMPattern<Op>(converter), host(host) {}
  using OpAdaptor = typename Op::Adaptor;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (host) {
      if (!Derived::kHostCallee)
        return rewriter.notifyMatchFailure(op, "no host runtime");
      if (!adaptor.getAsyncDependencies().empty() || op.getAsyncToken())
        return rewriter.notifyMatchFailure(op, "an async op on a stream");
      CallFields f(rewriter, op.getLoc(), Derived::kFieldCount);
      Derived::fill(op, adaptor, f);
      Value null = LLVM::ZeroOp::create(rewriter, op.getLoc(), f.ptr);
      return f.call(op, Derived::kHostCallee, null);
    }
    if (adaptor.getAsyncDependencies().size() != 1 || !op.getAsyncToken())
      return rewriter.notifyMatchFailure(
          op, "expects one async dependency and a token (gpu-async-region)");
    CallFields f(rewriter, op.getLoc(), Derived::kFieldCount);
    Derived::fill(op, adaptor, f);
    return f.call(op, Derived::kCallee, adaptor.getAsyncDependencies().front());
  }

  bool host;
};

struct GemmOpLowering
    : LibraryCallLowering<tcc::tcc_lib::GemmOp, GemmOpLowering> {
  using LibraryCallLowering::LibraryCallLowering;
  static constexpr int64_t kFieldCount = gemm::kFields;
  static constexpr const char *kCallee = "tccGemm";
  static constexpr const char *kHostCallee = "tccHostGemm";

  static void fill(tcc::tcc_lib::GemmOp op, OpAdaptor adaptor,
                   CallFields &f) {
    ConversionPatternRewriter &rewriter = f.rewriter;
    Location loc = f.loc;
    auto setOperand = [&](int64_t base, Value converted, Value original) {
      if (!original) {
        for (int64_t i = 0; i < gemm::kOperandFields; ++i)
          f.set(base + i, f.constant(0));
        return;
      }
      MemRefDescriptor d(converted);
      unsigned r = cast<MemRefType>(original.getType()).getRank();
      f.set(base + gemm::kAddress, f.address(converted, original));
      f.set(base + gemm::kRowStride, d.stride(rewriter, loc, r - 2));
      f.set(base + gemm::kColStride, d.stride(rewriter, loc, r - 1));
      f.set(base + gemm::kBatchStride,
            r == 3 ? d.stride(rewriter, loc, 0) : f.constant(0));
    };

    auto dType = cast<MemRefType>(op.getD().getType());
    Type element = dType.getElementType();
    unsigned rank = dType.getRank();
    auto code = [&](Type t) {
      return f.constant(t.isF32() ? gemm::kF32
                        : t.isF16() ? gemm::kF16
                                    : gemm::kBF16);
    };
    f.set(gemm::kElementType, code(element));
    f.set(gemm::kInputType,
          code(cast<MemRefType>(op.getA().getType()).getElementType()));
    f.set(gemm::kEpilogue,
          f.constant(gemm::epilogueOf(op.getEpilogue().str())));
    f.set(gemm::kConstantB, f.constant(op.getConstantB() ? 1 : 0));
    f.setScratch(gemm::kScratch, gemm::kScratchBytes, adaptor.getScratch(),
                 op.getScratch());
    MemRefDescriptor d(adaptor.getD()), a(adaptor.getA());
    f.set(gemm::kBatch, rank == 3 ? d.size(rewriter, loc, 0) : f.constant(1));
    f.set(gemm::kM, d.size(rewriter, loc, rank - 2));
    f.set(gemm::kN, d.size(rewriter, loc, rank - 1));
    f.set(gemm::kK, a.size(rewriter, loc, rank - 1));
    setOperand(gemm::kA, adaptor.getA(), op.getA());
    setOperand(gemm::kB, adaptor.getB(), op.getB());
    setOperand(gemm::kC, adaptor.getC(), op.getC());
    setOperand(gemm::kD, adaptor.getD(), op.getD());
    if (op.getBias()) {
      f.set(gemm::kBias, f.address(adaptor.getBias(), op.getBias()));
      f.set(gemm::kBiasStride,
            MemRefDescriptor(adaptor.getBias()).stride(rewriter, loc, 0));
    } else {
      f.set(gemm::kBias, f.constant(0));
      f.set(gemm::kBiasStride, f.constant(0));
    }
  }
};

struct AttentionOpLowering
    : LibraryCallLowering<tcc::tcc_lib::AttentionOp, AttentionOpLowering> {
  using LibraryCallLowering::LibraryCallLowering;
  static constexpr int64_t kFieldCount = attn::kFields;
  static constexpr const char *kHostCallee = nullptr;
  static constexpr const char *kCallee = "tccAttention";

  static void fill(tcc::tcc_lib::AttentionOp op, OpAdaptor adaptor,
                   CallFields &f) {
    ConversionPatternRewriter &rewriter = f.rewriter;
    auto qType = cast<MemRefType>(op.getQ().getType());
    int64_t rank = qType.getRank();
    bool heads = rank == 4;
    // Rank 3 is one head: head dim index -1, stride 0.
    auto setOperand = [&](int64_t base, Value converted, Value original) {
      MemRefDescriptor d(converted);
      f.set(base + attn::kAddress, f.address(converted, original));
      f.set(base + attn::kBatchStride, d.stride(rewriter, f.loc, 0));
      f.set(base + attn::kHeadStride,
            heads ? d.stride(rewriter, f.loc, 1) : f.constant(0));
      f.set(base + attn::kRowStride, d.stride(rewriter, f.loc, rank - 2));
      f.set(base + attn::kColStride, d.stride(rewriter, f.loc, rank - 1));
    };
    Type element = qType.getElementType();
    f.set(attn::kElementType, f.constant(element.isF32()   ? attn::kF32
                                         : element.isF16() ? attn::kF16
                                                           : attn::kBF16));
    f.set(attn::kCausal, f.constant(op.getIsCausal() ? 1 : 0));
    MemRefDescriptor q(adaptor.getQ()), k(adaptor.getK());
    f.set(attn::kBatch, q.size(rewriter, f.loc, 0));
    f.set(attn::kHeads, heads ? q.size(rewriter, f.loc, 1) : f.constant(1));
    f.set(attn::kQueries, q.size(rewriter, f.loc, rank - 2));
    f.set(attn::kKeys, k.size(rewriter, f.loc, rank - 2));
    f.set(attn::kHeadDim, f.constant(qType.getDimSize(rank - 1)));
    float scale = op.getScale().convertToFloat();
    f.set(attn::kScaleBits,
          f.constant(int64_t(llvm::bit_cast<uint32_t>(scale))));
    setOperand(attn::kQ, adaptor.getQ(), op.getQ());
    setOperand(attn::kK, adaptor.getK(), op.getK());
    setOperand(attn::kV, adaptor.getV(), op.getV());
    setOperand(attn::kOut, adaptor.getOut(), op.getOut());
  }
};

struct ConvOpLowering
    : LibraryCallLowering<tcc::tcc_lib::ConvOp, ConvOpLowering> {
  using LibraryCallLowering::LibraryCallLowering;
  static constexpr int64_t kFieldCount = conv::kFields;
  static constexpr const char *kCallee = "tccConv";
  static constexpr const char *kHostCallee = "tccHostConv";

  static void fill(tcc::tcc_lib::ConvOp op, OpAdaptor adaptor,
                   CallFields &f) {
    ConversionPatternRewriter &rewriter = f.rewriter;
    Location loc = f.loc;
    auto setOperand = [&](int64_t base, Value converted, Value original) {
      if (!original) {
        for (int64_t i = 0; i < conv::kOperandFields; ++i)
          f.set(base + i, f.constant(0));
        return;
      }
      MemRefDescriptor d(converted);
      f.set(base + conv::kAddress, f.address(converted, original));
      for (int64_t i = 0; i < 4; ++i)
        f.set(base + conv::kNStride + i, d.stride(rewriter, loc, i));
    };
    Type element = cast<MemRefType>(op.getX().getType()).getElementType();
    f.set(conv::kElementType, f.constant(element.isF32()   ? conv::kF32
                                         : element.isF16() ? conv::kF16
                                                           : conv::kBF16));
    f.set(conv::kActivation, f.constant(op.getActivation() == "relu"
                                            ? conv::kReLU
                                            : conv::kNone));
    MemRefDescriptor x(adaptor.getX()), w(adaptor.getWeight()),
        out(adaptor.getOut());
    f.set(conv::kBatch, x.size(rewriter, loc, 0));
    f.set(conv::kInChannels, x.size(rewriter, loc, 1));
    f.set(conv::kInHeight, x.size(rewriter, loc, 2));
    f.set(conv::kInWidth, x.size(rewriter, loc, 3));
    f.set(conv::kOutChannels, w.size(rewriter, loc, 0));
    f.set(conv::kKernelHeight, w.size(rewriter, loc, 2));
    f.set(conv::kKernelWidth, w.size(rewriter, loc, 3));
    f.set(conv::kOutHeight, out.size(rewriter, loc, 2));
    f.set(conv::kOutWidth, out.size(rewriter, loc, 3));
    f.set(conv::kPadH, f.constant(op.getPadding()[0]));
    f.set(conv::kPadW, f.constant(op.getPadding()[1]));
    f.set(conv::kStrideH, f.constant(op.getStrides()[0]));
    f.set(conv::kStrideW, f.constant(op.getStrides()[1]));
    f.set(conv::kDilationH, f.constant(op.getDilations()[0]));
    f.set(conv::kDilationW, f.constant(op.getDilations()[1]));
    f.set(conv::kGroups, f.constant(op.getGroups()));
    f.set(conv::kBias, op.getBias()
                           ? f.address(adaptor.getBias(), op.getBias())
                           : f.constant(0));
    f.set(conv::kBiasStride,
          op.getBias() ? MemRefDescriptor(adaptor.getBias())
                             .stride(rewriter, loc, 0)
                       : f.constant(0));
    setOperand(conv::kX, adaptor.getX(), op.getX());
    setOperand(conv::kWeight, adaptor.getWeight(), op.getWeight());
    setOperand(conv::kResidual, adaptor.getResidual(), op.getResidual());
    setOperand(conv::kOut, adaptor.getOut(), op.getOut());
    f.set(conv::kConstantWeight, f.constant(op.getConstantWeight() ? 1 : 0));
    f.setScratch(conv::kScratch, conv::kScratchBytes, adaptor.getScratch(),
                 op.getScratch());
  }
};

struct TCCLibToLLVMInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    target.addIllegalDialect<tcc::tcc_lib::TCCLibDialect>();
    tcc::populateTCCLibToLLVMConversionPatterns(converter, patterns);
  }
};

} // namespace

void tcc::populateTCCLibToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GemmOpLowering, AttentionOpLowering, ConvOpLowering>(
      converter, /*host=*/false);
}

void tcc::populateHostLibraryCallsToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GemmOpLowering, AttentionOpLowering, ConvOpLowering>(
      converter, /*host=*/true);
}

namespace mlir::tcc {
#define GEN_PASS_DEF_HOSTLIBRARYCALLSTOLLVMPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

namespace {
struct HostLibraryCallsToLLVMPass
    : tcc::impl::HostLibraryCallsToLLVMPassBase<HostLibraryCallsToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    tcc::populateHostLibraryCallsToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addIllegalDialect<tcc::tcc_lib::TCCLibDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void tcc::registerConvertTCCLibToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(
      +[](MLIRContext *ctx, tcc::tcc_lib::TCCLibDialect *dialect) {
        dialect->addInterfaces<TCCLibToLLVMInterface>();
      });
}
