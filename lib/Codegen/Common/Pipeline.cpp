//===- Pipeline.cpp - tcc to linalg, shared by both targets -----*- C++ -*-===//
//
// Stage by stage (docs/architecture.md has the table):
//   1. tcc level: --select-layout, --symbolic-shapes derives size
//      expressions, --fuse forms groups, --plan-memory assigns arena
//      offsets; all weigh for the module's #tcc.target.
//   2. library calls (attention, convolutions, linears) where the target
//      has the library; convert-tcc-to-linalg: linalg on tensors, groups
//      kept.
//   3. tcc-lower-fusion-groups: one (tiled) loop nest per group.
//   4. tcc-materialize-memory-plan: group results written into the arena.
//   5. one-shot bufferization and ownership-based deallocation; entry
//      guards check input sizes before anything runs.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Common/Pipeline.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

void mlir::tcc::buildTCCToLinalgPipeline(OpPassManager &pm,
                                         const TCCToLinalgOptions &options) {
  // Recurrences first: their cell functions then go through every stage.
  pm.addPass(createExpandRecurrencesPass());
  OpPassManager &shapesPM = pm.nest<func::FuncOp>();
  if (options.selectLayout) {
    SelectLayoutPassOptions layout;
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
    fuse.reportSizes.assign(options.reportSizes.begin(),
                            options.reportSizes.end());
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
    plan.reportSizes.assign(options.reportSizes.begin(),
                            options.reportSizes.end());
    pm.addPass(createPlanMemoryPass(plan));
    pm.nest<func::FuncOp>().addPass(createVerifyMemoryPlanPass());
  }
  OpPassManager &funcPM = pm.nest<func::FuncOp>();
  if (options.attentionLibrary)
    funcPM.addPass(createAttentionToLibraryPass());
  if (options.convLibrary)
    funcPM.addPass(createConvToLibraryPass());
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
  // Every dynamic size as the function-level value it is (the dims of loop
  // results are their inits', the arena views' their size operands): the
  // bufferization analysis proves slices equal or disjoint with value
  // bounds, which walked the whole chain of groups back to the arguments
  // for each comparison (a transformer layer: 3.0 of 3.8 s of the
  // pipeline, 0.6 s with the dims resolved).
  funcPM.addPass(createSCFForLoopCanonicalizationPass());
  funcPM.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  funcPM.addPass(createCanonicalizerPass());
  // Each destination its own allocation, which CSE cannot merge: library
  // calls read their operands through bufferization.to_buffer, reads that
  // one-shot bufferization cannot see, so two loops writing one merged
  // tensor.empty would share a buffer that a later call still reads.
  funcPM.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  funcPM.addPass(createCSEPass());
}

void mlir::tcc::buildBufferizationPipeline(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createInsertEntryGuardsPass());
  pm.addPass(createConvertBufferizationToMemRefPass()); // clones: alloc+copy
}
