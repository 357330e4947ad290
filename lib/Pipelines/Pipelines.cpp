//===- Pipelines.cpp - tcc's registered pass pipelines ----------*- C++ -*-===//
//
// The CPU pipeline, stage by stage (docs/architecture.md has the picture):
//   1. tcc level: --symbolic-shapes derives size expressions, --fuse forms
//      groups, --plan-memory assigns arena offsets.
//   2. convert-tcc-to-linalg: linalg on tensors, groups kept.
//   3. tcc-lower-fusion-groups: one tiled loop nest per group.
//   4. tcc-materialize-memory-plan: group results written into the arena.
//   5. one-shot bufferization and ownership-based deallocation; entry
//      guards check input sizes before anything runs.
//   6. vector/scf/memref/math/arith to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::tcc;

void mlir::tcc::buildTCCToLinalgPipeline(OpPassManager &pm,
                                         const CPUPipelineOptions &options) {
  OpPassManager &shapesPM = pm.nest<func::FuncOp>();
  if (options.selectLayout) {
    SelectLayoutPassOptions layout;
    layout.target = options.convLibraryTarget;
    layout.library = options.convLibrary;
    shapesPM.addPass(createSelectLayoutPass(layout));
    shapesPM.addPass(createCanonicalizerPass());
    shapesPM.addPass(createCSEPass()); // one relayout per weight
  }
  SymbolicShapesPassOptions shapes;
  shapes.specialize.assign(options.specialize.begin(),
                           options.specialize.end());
  shapesPM.addPass(createSymbolicShapesPass(shapes));
  shapesPM.addPass(createCanonicalizerPass());
  {
    FusePassOptions fuse;
    fuse.singletons = !options.fuse;
    fuse.targetName = options.fusionTarget;
    fuse.reportFile = options.fusionReport;
    fuse.dotFile = options.fusionDot;
    fuse.reportSizes.assign(options.fusionReportSizes.begin(),
                            options.fusionReportSizes.end());
    pm.addPass(createFusePass(fuse));
  }
  // Group results get their expressions too (memory planning reads them).
  pm.nest<func::FuncOp>().addPass(createSymbolicShapesPass());
  if (options.planMemory) {
    PlanMemoryPassOptions plan;
    plan.target = options.fusionTarget;
    plan.reorder = options.memoryReorder;
    plan.reportFile = options.memoryReport;
    plan.svgFile = options.memoryPlanSvg;
    plan.reportSizes.assign(options.fusionReportSizes.begin(),
                            options.fusionReportSizes.end());
    pm.addPass(createPlanMemoryPass(plan));
    pm.nest<func::FuncOp>().addPass(createVerifyMemoryPlanPass());
  }
  OpPassManager &funcPM = pm.nest<func::FuncOp>();
  if (options.attentionLibrary)
    funcPM.addPass(createAttentionToLibraryPass());
  if (options.convLibrary) {
    ConvToLibraryPassOptions conv;
    conv.target = options.convLibraryTarget;
    funcPM.addPass(createConvToLibraryPass(conv));
  }
  if (options.gemmLibrary) {
    LinearToLibraryPassOptions gemm;
    gemm.minMacs = options.gemmLibraryMinMacs;
    funcPM.addPass(createLinearToLibraryPass(gemm));
  }
  funcPM.addPass(createConvertTCCToLinalgPass());
  LowerFusionGroupsPassOptions lowerGroups;
  lowerGroups.vectorize = options.vectorize;
  funcPM.addPass(createLowerFusionGroupsPass(lowerGroups));
  // Identity ops disappear before buffers are placed, not after.
  funcPM.addPass(createCanonicalizerPass());
  funcPM.addPass(createMaterializeMemoryPlanPass());
  funcPM.addPass(createCanonicalizerPass());
  funcPM.addPass(createCSEPass());
}

/// Tensors to memrefs (function boundaries with identity layouts),
/// ownership-based deallocation, and the entry guards that check input
/// sizes before anything runs: shared by the cpu and cuda pipelines.
static void addBufferizationAndGuards(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createInsertEntryGuardsPass());
  pm.addPass(createConvertBufferizationToMemRefPass()); // clones: alloc+copy
}

void mlir::tcc::buildCPUPipeline(OpPassManager &pm,
                                 const CPUPipelineOptions &options) {
  pm.addPass(createPrepareFunctionABIPass());
  buildTCCToLinalgPipeline(pm, options);
  addBufferizationAndGuards(pm);

  OpPassManager &loops = pm.nest<func::FuncOp>();
  loops.addPass(createCanonicalizerPass());
  // AVX-512-only instructions (vscalefps): by default when the code runs
  // where it is compiled and the host has them; tcc-compile decides for the
  // CPU it targets.
  LowerVectorsPassOptions lowerVectors;
  lowerVectors.avx512 =
      options.avx512 == CPUPipelineOptions::AVX512::On ||
      (options.avx512 == CPUPipelineOptions::AVX512::Auto &&
       llvm::sys::getHostCPUFeatures().lookup("avx512f"));
  loops.addPass(createLowerVectorsPass(lowerVectors));
  if (options.parallel)
    loops.addPass(createParallelizeTileLoopsPass());
  // Groups' own temporaries: on the stack of the thread that runs the tile,
  // or in the arena, not the heap.
  loops.addPass(createPlaceScratchBuffersPass());
  loops.addPass(createConvertLinalgToLoopsPass());
  loops.addPass(createCanonicalizerPass());
  loops.addPass(createCSEPass());
  // Unrolled transfers: the loop form would put a stack buffer (alloca) in
  // every iteration of the tile loops.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll(true);
  loops.addPass(createConvertVectorToSCFPass(transfers));
  loops.addPass(createStreamingStoresPass());
  loops.addPass(createPrefetchRowsPass());
  if (options.parallel)
    loops.addPass(createPipelineRowStoresPass());
  loops.addPass(createLowerAffinePass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true; // bf16 <-> f32 as integer ops: no libcalls
  loops.addPass(arith::createArithExpandOpsPass(expand));
  if (options.workspace)
    pm.addPass(createUseWorkspacePass());

  // Math first: LLVM intrinsics where they exist, then libm calls (one per
  // lane: f64 erf/tanh/...) for the rest; f32 ones are polynomials by now.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  // Matmul tiles become broadcast-FMA outer products, the AVX-512 friendly
  // form of an 8 x 32 register tile.
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  if (options.parallel) {
    pm.addNestedPass<func::FuncOp>(createLowerFunctionLevelIfsPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addPass(createConvertOpenMPToLLVMPass());
  }
  pm.addPass(createLowerMultiDynamicExpandShapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (options.convLibrary || options.gemmLibrary)
    pm.addPass(createHostLibraryCallsToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

static void buildNVVMPipeline(OpPassManager &pm,
                              const CUDAPipelineOptions &options);

void mlir::tcc::buildCUDAPipeline(OpPassManager &pm,
                                  const CUDAPipelineOptions &options) {
  pm.addPass(createPrepareFunctionABIPass());
  // Fusion weighed for the GPU; groups stay whole linalg ops (elementwise
  // chains fused into one generic), not CPU tiles.
  CPUPipelineOptions linalg;
  linalg.fuse = options.fuse;
  linalg.fusionTarget = "cuda";
  linalg.vectorize = false;
  linalg.planMemory = options.planMemory;
  linalg.attentionLibrary = options.flashAttention;
  linalg.convLibrary = options.cudnn;
  linalg.convLibraryTarget = "cuda";
  linalg.gemmLibrary = false; // cuBLASLt, through tcc-contractions-to-gemms
  for (const std::string &s : options.specialize)
    linalg.specialize.push_back(s);
  buildTCCToLinalgPipeline(pm, linalg);
  addBufferizationAndGuards(pm);

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
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.linkLibs.push_back(cuda + "/nvvm/libdevice/libdevice.10.bc");
  pm.addPass(createGpuNVVMAttachTarget(target));
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
}

void mlir::tcc::registerTCCPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "tcc-to-linalg",
      "Fuse, plan memory and lower tcc to linalg on tensors (one loop nest "
      "per fusion group)",
      buildTCCToLinalgPipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "tcc-cpu-pipeline", "Lower tcc to the LLVM dialect for the host CPU",
      buildCPUPipeline);
  PassPipelineRegistration<CUDAPipelineOptions>(
      "tcc-cuda-pipeline",
      "Lower tcc to host LLVM dialect plus NVVM kernels (PTX or cubin) for "
      "NVIDIA GPUs",
      buildCUDAPipeline);
}
