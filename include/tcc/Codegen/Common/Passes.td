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

def ConstantGlobalsToBytesPass
    : Pass<"tcc-constant-globals-to-bytes", "ModuleOp"> {
  let summary = "Large constant LLVM globals (weights) become byte arrays";
  let description = [{
    Runs at the end of both pipelines, on the LLVM dialect. memref.global's
    lowering types a weight as nested arrays (`!llvm.array<576 x array<1 x
    array<1 x array<96 x f32>>>>`); LLVM then builds one constant per inner
    array and its AsmPrinter writes the object file element by element, which
    made a ViT-B/16's 344 MB of weights 6 of its 9 seconds of machine code.
    Each constant global of more than `min-bytes` whose value is dense
    elements of whole-byte ints or floats becomes `!llvm.array<N x i8>` over
    the same bytes (a dense resource keeps its blob: nothing is copied), which
    LLVM emits as one block. Users address the global through `!llvm.ptr` and
    their own GEP element types, so nothing else changes; the alignment is
    kept (64 when the global had none).

    ```mlir
    llvm.mlir.global private constant @w(dense_resource<w> : tensor<64x96xf32>)
        {alignment = 64 : i64} : !llvm.array<64 x array<96 x f32>>
    // becomes
    llvm.mlir.global private constant @w(dense_resource<w> : tensor<24576xi8>)
        {alignment = 64 : i64} : !llvm.array<24576 x i8>
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"4096",
           "Globals this large or smaller keep their type (LLVM folds loads "
           "of small constant tables)">
  ];
}

#endif // TCC_CODEGEN_COMMON_PASSES_TD
