//===- Passes.td - code generation shared by both targets --*- tablegen -*-===//
#ifndef TCC_CODEGEN_COMMON_PASSES_TD
#define TCC_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerFusionGroupsPass : Pass<"tcc-lower-fusion-groups", "func::FuncOp"> {
  let summary = "Turns each fusion group into one tiled loop nest";
  let description = [{
    Runs after convert-tcc-to-linalg. Inside each group, elementwise producers
    are fused into their consumers; the group's root (the op producing its
    result) is tiled and its producers in the group are fused into the tile
    loop, so a group becomes one loop nest; contractions get register-sized
    tiles that vectorize. The group op is then inlined.
  }];
  let options = [
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Tile roots, fuse producers into the tiles and vectorize them">,
    Option<"vectorLanes", "vector-lanes", "int64_t", /*default=*/"0",
           "f32 lanes of a vector register; register tiles are 8 x 2*lanes "
           "x lanes. 0: from the module's #tcc.target (16 with AVX-512, 8 "
           "with AVX2)">
  ];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

def MaterializeMemoryPlanPass
    : Pass<"tcc-materialize-memory-plan", "func::FuncOp"> {
  let summary = "Allocates one arena per call and places planned buffers in it";
  let description = [{
    Reads the `tcc.buffer` offsets that --plan-memory attached to group
    results (after they were lowered to linalg on tensors), allocates one
    arena of the size `tcc.arena` gives at function entry, and makes each planned
    buffer's destination a view into the arena, so bufferization writes the
    group's result there instead of allocating.
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect"
  ];
}

def LowerMultiDynamicExpandShapesPass
    : Pass<"tcc-lower-multi-dynamic-expand-shapes", "ModuleOp"> {
  let summary = "memref.expand_shapes that split one dim into several "
                "dynamic ones become reinterpret_casts";
  let description = [{
    MLIR 22's expand-strided-metadata assumes at most one dynamic size per
    reassociation group and crashes on more (llvm-project issue 186830,
    fixed after 22). A reshape `[B * S, 768] -> [B, S, 768]` with both B
    and S dynamic is such an expand_shape: what AOTAutograd emits around
    every matrix product of a transformer with open batch and sequence.
    Both pipelines run this pass just before expand-strided-metadata. Each
    such expand_shape becomes `extract_strided_metadata` of its source and
    a `reinterpret_cast` to the output shape, with strides computed from
    the inside out (the group's innermost dim keeps the source dim's
    stride; each outer one is the next inner stride times the next inner
    size), which is what the upstream fix computes. Every other
    expand_shape is left to upstream.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

#endif // TCC_CODEGEN_COMMON_PASSES_TD
