//===- Pipeline.cpp - the cpu pipeline --------------------------*- C++ -*-===//
//
// The shared stages (lib/Codegen/Common/Pipeline.cpp), then, on buffers:
//   6. vectors: K-loop accumulators in registers, f32 math as polynomials
//      (AVX-512 forms where the target has them), copies as vector moves;
//   7. threads: the marked tile loop becomes scf.parallel, then OpenMP;
//   8. scratch buffers on the stack or in the arena; memory traffic
//      (streaming stores, prefetches, pipelined row stores);
//   9. vector/scf/memref/math/arith to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Pipeline.h"
#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

TCCToLinalgOptions CPUPipelineOptions::toLinalgOptions() const {
  TCCToLinalgOptions o;
  o.fuse = fuse;
  o.fusionTarget = fusionTarget;
  o.fusionReport = fusionReport;
  o.fusionDot = fusionDot;
  o.memoryReport = memoryReport;
  o.memoryPlanSvg = memoryPlanSvg;
  o.reportSizes.assign(fusionReportSizes.begin(), fusionReportSizes.end());
  o.planMemory = planMemory;
  o.memoryReorder = memoryReorder;
  o.selectLayout = selectLayout;
  o.specialize.assign(specialize.begin(), specialize.end());
  o.convLibrary = convLibrary;
  o.gemmLibrary = gemmLibrary;
  o.gemmLibraryMinMacs = gemmLibraryMinMacs;
  o.vectorize = vectorize;
  return o;
}

void mlir::tcc::buildCPUPipeline(OpPassManager &pm,
                                 const CPUPipelineOptions &options) {
  AttachTargetPassOptions target;
  target.kind = "cpu";
  target.mcpu = options.mcpu;
  pm.addPass(createAttachTargetPass(target));
  pm.addPass(createPrepareFunctionABIPass());
  buildTCCToLinalgPipeline(pm, options.toLinalgOptions());
  buildBufferizationPipeline(pm);
  if (options.outlineKernels)
    pm.addPass(createOutlineKernelsPass());

  OpPassManager &loops = pm.nest<func::FuncOp>();
  loops.addPass(createCanonicalizerPass());
  // AVX-512-only instructions (vscalefps, vpermps tables) where the target
  // CPU has them, unless the options say otherwise.
  LowerVectorsPassOptions lowerVectors;
  lowerVectors.avx512 = options.avx512;
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

  // Views as offsets and strides while the module is still small: on the
  // LLVM dialect (vector ops unrolled) the pattern driver's visits of
  // every op cost mobilenet_v3_small 1.3 s, deeplabv3 5.6 s.
  pm.addPass(createLowerMultiDynamicExpandShapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());

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
  pm.addPass(createConstantGlobalsToBytesPass());
}
