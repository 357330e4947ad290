//===- TCCLibToLLVM.h - tcc_lib ops to runtime calls ------------*- C++ -*-===//
#ifndef TCC_CONVERSION_TCCLibTOLLVM_TCCLibTOLLVM_H
#define TCC_CONVERSION_TCCLibTOLLVM_TCCLibTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;

namespace tcc {

/// tcc_lib.gemm -> `tccGemm(stream, desc)` (lib/Runtime/CUBLASLtGemm.cpp):
/// the op's async dependency is the stream (gpu-to-llvm's token type
/// conversion), `desc` a stack array of the fields of
/// include/tcc/Runtime/GemmCall.h, and the op's token the same stream.
void populateTCCLibToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns);

/// The same ops without a stream (the cpu pipeline's) -> host runtime
/// calls `tccHostConv(null, desc)` (lib/Runtime/DNNLConv.cpp).
void populateHostLibraryCallsToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns);

/// Lets gpu-to-llvm (and convert-to-llvm) lower tcc_lib ops: registers the
/// dialect's ConvertToLLVMPatternInterface.
void registerConvertTCCLibToLLVMInterface(DialectRegistry &registry);

} // namespace tcc
} // namespace mlir

#endif // TCC_CONVERSION_TCCLibTOLLVM_TCCLibTOLLVM_H
