//===- Passes.td - tcc conversion passes --------------------*- tablegen -*-===//
#ifndef TCC_CONVERSION_PASSES_TD
#define TCC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTCCToLinalgPass
    : Pass<"tcc-convert-to-linalg", "func::FuncOp"> {
  let summary = "Lowers tcc ops to linalg, tensor and arith ops on tensors";
  let description = [{
    Elementwise ops become `linalg.generic`s with broadcasting indexing maps,
    reductions become generics with reduction iterators, matmul and linear
    become contractions, conv2d and pooling become linalg's named conv and
    pooling ops over `tensor.pad`ded inputs, and data movement becomes tensor
    ops. f16/bf16 arithmetic is done in f32 inside each op and rounded at its
    output; contractions accumulate in f32. Ops inside `fusion.group`s are
    lowered in place, so the groups survive for code generation.
    Dynamic dims that must agree at runtime (two `?` broadcast against each
    other, contraction dims) are checked with `cf.assert`.
    Ops with data-dependent result sizes (mask_select, nonzero) become
    `scf.for` loops that fill a buffer allocated at the bound; a
    `tensor.extract_slice` cuts it to the count found at runtime.
    Scatters become `scf.for` loops over their updates that write into a
    copy of x of their own (`bufferization.alloc_tensor`).
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::scf::SCFDialect",
    "::mlir::bufferization::BufferizationDialect"
  ];
}

def AttentionToLibraryPass
    : Pass<"tcc-attention-to-library", "func::FuncOp"> {
  let summary = "Attention groups become the runtime's fused attention "
                "kernel (tcc_lib.attention)";
  let description = [{
    Runs on tcc ops and fusion groups, before the lowering to linalg (the
    cuda pipeline runs it). A `fusion.group "attention"` that holds only a
    `tcc.attention` and transposes, with f16 or bf16 q, k and v of rank 3 or
    4, a static head dim of 64 or 128 (f32: 64, the runtime's CUDA-core
    kernel) and no mask, becomes one
    `tcc_lib.attention`: the runtime's flash-attention kernel, whose scores
    never reach memory (the generic lowering writes f32 scores, runs a
    softmax kernel and two library products).

    Its operands are views of the buffers that hold the data. Each of q, k
    and v is followed back through the transposes in the group, through
    `copy` groups that only transpose it and through reshapes that only add
    or drop static unit dims (with at most one dynamic dim): ViT's q, k and
    v become strided views into the fused QKV projection's output, and the
    three transposing copies go away. The result is a new buffer in the
    group's result layout, written through the inverse of the group's
    final transposes (ViT's [batch, rows, heads, dim]).

    The views cross the tensor/buffer boundary with
    `bufferization.to_buffer {read_only}` and a `bufferization.to_tensor
    restrict writable` of the new buffer, which one-shot bufferization
    keeps as they are. Leading dims and sequence lengths that the types do
    not fix are compared at run time (`cf.assert`, as tcc.attention's
    lowering does). Anything else stays on the generic path.
  }];
  let dependentDialects = ["::mlir::tcc::tcc_lib::TCCLibDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvToLibraryPass : Pass<"tcc-conv-to-library", "func::FuncOp"> {
  let summary = "Convolutions in fusion groups become library calls "
                "(tcc_lib.conv2d: cuDNN on cuda, oneDNN on cpu)";
  let description = [{
    Runs on tcc ops and fusion groups, before the lowering to linalg (the
    cuda pipeline runs it with option `cudnn`, the cpu pipeline with
    `conv-library`). A `tcc.conv2d` whose input, weight and bias are inputs
    of its group and whose padding is the same on both sides of each dim
    becomes a `tcc_lib.conv2d` into a new buffer, computed by the target's
    library (the module's `#tcc.target`, or the `target` option): cuDNN
    for f32, f16 and bf16 on cuda (the generic lowering is a direct loop
    nest, one output element per thread), oneDNN for f32 on the cpu (the
    op has no async token there, and
    tcc-host-library-calls-to-llvm lowers it). A weight that is a constant
    is marked `constant_weight`: the host runtime keeps its repacked copy.
    The epilogue the library applies in the same call goes with it: a
    residual add of a group input of the output's type (no broadcast),
    then ReLU, in that order, each only when it is the previous value's
    one use.

    The rest of the group (a batch norm's scale and shift, a pool's
    producer chain) reads the library's result as a new input and becomes
    a `pointwise` group; a group with nothing left is replaced by the
    result. Output sizes the types leave open are computed from the input's
    and weight's, and a residual's dims the types leave open are compared
    with them at run time (`cf.assert`). Convolutions with asymmetric
    padding, other element types, or a prologue fused into the group stay
    generated.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Call this kind of target's library, cuda (cuDNN) or cpu "
           "(oneDNN), instead of the module's #tcc.target's">
  ];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           "::mlir::tcc::tcc_lib::TCCLibDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def LinearToLibraryPass : Pass<"tcc-linear-to-library", "func::FuncOp"> {
  let summary = "Linears and matmuls in fusion groups become oneDNN calls "
                "(host tcc_lib.gemm)";
  let description = [{
    The cpu pipeline's counterpart of tcc-conv-to-library for matrix
    products (option `gemm-library`; the cuda pipeline's products go to
    cuBLASLt later, through tcc-contractions-to-gemms). Runs on tcc ops and
    fusion groups, before the lowering to linalg. A `tcc.linear` or
    `tcc.matmul` of f32 whose operands are inputs of its group, with `a`
    (the linear's `x`) of rank 2 or 3 and `b` (the weight) of rank 2,
    becomes a `tcc_lib.gemm` without async token into a new buffer, which
    tcc-host-library-calls-to-llvm lowers to `tccHostGemm` (oneDNN's
    matmul, lib/Runtime/DNNLGemm.cpp). A linear's [N, K] weight is passed
    as a transposed view; a weight that is a constant is marked
    `constant_b`: the runtime prepacks it once into oneDNN's blocked format
    and keeps it. The epilogue goes into the same call: the linear's bias,
    a residual add of a group input of the result's type (no broadcast),
    then ReLU or GELU (erf or tanh), each only when it is the previous
    value's one use.

    The rest of the group reads the library's result as a new input and
    becomes a `pointwise` group; a group with nothing left is replaced by
    the result (and its place in the memory plan goes to the call's
    buffer). A residual's dims the types leave open are compared with the
    result's at run time (`cf.assert`).

    Products smaller than `min-macs` multiply-adds stay generated: there
    the library's fixed cost per call outweighs its faster kernel
    (docs/layout.md has the measurement the default comes from). Where the
    sizes the types give already make `min-macs`, the library computes the
    product at every size; where they do not but a size is open (a dynamic
    batch) and the library computes all the group does, the choice is made
    per call: an `scf.if` on the product's multiply-adds runs the library's
    form or the group as it was. Other
    element types, higher ranks, batched weights and products with a
    prologue fused into the group stay generated.
  }];
  let options = [
    Option<"minMacs", "min-macs", "int64_t", /*default=*/"262144",
           "Smallest product (multiply-adds) the library computes">
  ];
  let dependentDialects = ["::mlir::tcc::tcc_lib::TCCLibDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ContractionsToGemmsPass
    : Pass<"tcc-contractions-to-gemms", "func::FuncOp"> {
  let summary = "Matrix products on buffers become cuBLASLt calls";
  let description = [{
    A `linalg.generic` on buffers that is a matrix product, `d[batch.., m..,
    n] += a[batch.., m.., k] * b[batch..?, k, n]` in one float type (f32,
    f16, bf16), or with f16/bf16 inputs extended to an f32 accumulator,
    each operand's dims in any order, becomes a `tcc_lib.gemm`: batch dims
    and m dims are merged by `memref.collapse_shape` where the layout
    allows it (else the operand is copied dense in the library's order:
    attention's heads inside the rows of the fused qkv buffer), an operand
    with its last two dims swapped becomes a `memref.transpose` view, and
    a weight that a `linalg.transpose` copies into a scratch buffer on
    every call is read through a transposed view of the original instead
    (the transpose and its buffer go away).

    A zero `linalg.fill` of the result just before is dropped (the library
    overwrites it); without one the product accumulates into the result
    (`c` = `d`). When the next op on buffers is a pointwise generic that
    only adds a bias along n and/or a residual to the product and maybe
    applies ReLU (max with 0), and nothing else reads the product, that op
    becomes cuBLASLt's epilogue: the bias, the residual as `c`, `relu`, and
    its output buffer as `d`. An epilogue with anything else (GELU) stays a
    kernel of its own.

    Products with a static row count (batch x m) below `min-rows` stay
    generated code: tcc-row-groups-to-gpu's matvec kernel beats a library
    launch for the robot policy's batch of one. A dynamic row count goes
    to the library, or with `dispatch` to a host branch on the row count
    that holds both (each branch then synchronizes its own stream, which
    costs a few microseconds per product and splits a CUDA graph into more
    segments: a latency-bound caller does better with a specialized
    batch).
  }];
  let options = [
    Option<"minRows", "min-rows", "int64_t", /*default=*/"16",
           "Smallest row count (batch x m) given to the library">,
    Option<"dispatch", "dispatch", "bool", /*default=*/"false",
           "Branch on a dynamic row count: below min-rows, generated code">
  ];
  let dependentDialects = ["::mlir::tcc::tcc_lib::TCCLibDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def HostLibraryCallsToLLVMPass
    : Pass<"tcc-host-library-calls-to-llvm", "ModuleOp"> {
  let summary = "Library calls without a stream become host runtime calls";
  let description = [{
    The cpu pipeline's `tcc_lib` ops (no async token: the host computes
    them, on host buffers) become calls of the host runtime with the same
    descriptors the cuda pipeline passes (include/tcc/Runtime/ConvCall.h,
    GemmCall.h): `tcc_lib.conv2d` -> `tccHostConv(null, desc)` (lib/Runtime/
    DNNLConv.cpp, oneDNN), `tcc_lib.gemm` -> `tccHostGemm(null, desc)`
    (DNNLGemm.cpp). Memref operands are converted through
    unrealized casts, which the memref-to-llvm conversion resolves.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TCC_CONVERSION_PASSES_TD
