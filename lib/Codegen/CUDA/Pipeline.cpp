//===- Pipeline.cpp - the cuda pipeline -------------------------*- C++ -*-===//
//
// The shared stages (lib/Codegen/Common/Pipeline.cpp) weighed for the GPU,
// then, on buffers: matrix products to cuBLASLt (tcc-contractions-to-
// gemms), row groups, row reductions and the remaining loops to gpu.launch
// kernels, host allocations to device ones, outlining and deduplication,
// GPU math approximations, async launches on one stream; then the NVVM
// chain (docs/gpu.md).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Pipeline.h"
#include "tcc/Codegen/CUDA/Passes.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Codegen/Common/Pipeline.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

static void buildNVVMPipeline(OpPassManager &pm,
                              const CUDAPipelineOptions &options);

void mlir::tcc::buildCUDAPipeline(OpPassManager &pm,
                                  const CUDAPipelineOptions &options) {
  AttachTargetPassOptions target;
  target.kind = "cuda";
  target.chip = options.chip;
  target.ptx = options.features;
  pm.addPass(createAttachTargetPass(target));
  pm.addPass(createPrepareFunctionABIPass());
  // Fusion weighed for the GPU (the module's target); groups stay whole
  // linalg ops (elementwise chains fused into one generic), not CPU tiles.
  TCCToLinalgOptions linalg;
  linalg.fuse = options.fuse;
  linalg.vectorize = false;
  linalg.planMemory = options.planMemory;
  linalg.attentionLibrary = options.flashAttention;
  linalg.convLibrary = options.cudnn;
  linalg.gemmLibrary = false; // cuBLASLt, through tcc-contractions-to-gemms
  linalg.specialize.assign(options.specialize.begin(),
                           options.specialize.end());
  buildTCCToLinalgPipeline(pm, linalg);
  buildBufferizationPipeline(pm);

  OpPassManager &loops = pm.nest<func::FuncOp>();
  loops.addPass(createCanonicalizerPass());
  if (options.cublaslt) {
    ContractionsToGemmsPassOptions gemms;
    gemms.minRows = options.gemmMinRows;
    gemms.dispatch = options.gemmDispatch;
    loops.addPass(createContractionsToGemmsPass(gemms));
  }
  RowGroupsToGPUPassOptions rowGroups;
  rowGroups.blockSize = options.blockSize;
  loops.addPass(createRowGroupsToGPUPass(rowGroups));
  RowReductionsToGPUPassOptions rows;
  rows.blockSize = options.blockSize;
  loops.addPass(createRowReductionsToGPUPass(rows));
  loops.addPass(createSerialLinalgToKernelsPass());
  loops.addPass(createConvertLinalgToParallelLoopsPass());
  loops.addPass(createHostAllocationsToDevicePass());
  ParallelLoopsToGPUPassOptions kernels;
  kernels.blockSize = options.blockSize;
  loops.addPass(createParallelLoopsToGPUPass(kernels));
  loops.addPass(createCanonicalizerPass());
  loops.addPass(createCSEPass());
  // Constants (and dims, selects, compares) back into the kernels: CSE
  // merged them with the host's, and a kernel would take them as
  // parameters (64-bit divisions by a "constant" parameter are slow).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createDeduplicateKernelsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createApproximateGPUMathPass());
  // Launches, copies and frees become async ops chained on one stream; the
  // host waits only where it needs a result.
  pm.nest<func::FuncOp>().addPass(createGpuAsyncRegionPass());

  buildNVVMPipeline(pm, options);
}

/// Upstream's gpu-lower-to-nvvm-pipeline, plus what it cannot be told:
/// libdevice linked into every kernel module (math functions such as
/// __nv_expf would otherwise stay unresolved externs) and the CUDA toolkit
/// that gpu-module-to-binary takes ptxas from.
static void buildNVVMPipeline(OpPassManager &pm,
                              const CUDAPipelineOptions &options) {
  std::string cuda = options.cudaPath;
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createLowerMultiDynamicExpandShapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // The kernels' chip and PTX version: the module's #tcc.target.
  AttachNVVMTargetPassOptions nvvm;
  nvvm.libdevice = cuda + "/nvvm/libdevice/libdevice.10.bc";
  pm.addPass(createAttachNVVMTargetPass(nvvm));
  pm.addPass(createLowerAffinePass());
  // Host functions only: the kernels' arith is lowered with the rest of
  // their ops by convert-gpu-to-nvvm, whose libdevice patterns take
  // arith.remf to __nv_fmodf (an llvm.frem has no lowering there).
  pm.addNestedPass<LLVM::LLVMFuncOp>(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  // Strided views the host returns (a slice of a merged linear's result).
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = cuda;
  // ptxas spreads its optimizations over the machine's cores (the same
  // code; ViT-B/16: 0.25 s -> 0.15 s on 2 cores).
  binary.cmdOptions = "-split-compile 0";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createConstantGlobalsToBytesPass());
}
