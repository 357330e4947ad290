//===- Passes.td - tcc transformation passes ----------------*- tablegen -*-===//
#ifndef TCC_TRANSFORMS_PASSES_TD
#define TCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusePass : Pass<"tcc-fuse", "ModuleOp"> {
  let summary = "Forms fusion groups: the ops that become one kernel";
  let description = [{
    Prepares the graph, then grows groups backwards from consumers by a
    cost model of bytes moved, recomputation and on-chip pressure for the
    `target` (`cpu` or `cuda`; include/tcc/Transforms/FusionCostModel.h).
    docs/fusion.md has the rules and the report format.

    Preparation (include/tcc/Transforms/RecognizeComposites.h and
    FusionPreparation.h):
    - hand-written softmax, log_softmax, layer_norm, rms_norm and attention
      chains become their tcc ops (the patterns of
      `tcc-recognize-composites`), each then one group;
    - transposes sink below the slices and unit-dim reshapes after them;
    - linears (matmuls) that read the same input merge into one wider op
      plus slices when the bytes saved beat packing the weights;
    - a cheap elementwise producer used by several groups is cloned into
      each when that moves fewer bytes than writing it out.

    Groups, starting at the last op not yet in a group:
    - a chain of elementwise ops (including broadcasts and casts) forms one
      `pointwise` group;
    - a reduction, normalization or softmax absorbs the elementwise ops that
      feed it and those that consume it (`reduction`);
    - a matmul, linear or conv absorbs its elementwise epilogue: bias,
      activation, residual add, scaling, cast (`matmul` / `conv`);
    - attention absorbs the transposes of its q, k, v and of its result,
      which the lowering folds into its indexing maps (`attention`);
    - pooling forms `pool` groups; transposes, concats and gathers that
      write new buffers form `copy` groups.

    A producer joins when every use of its result is inside the group (as
    an elementwise or reduction operand: a producer is never recomputed per
    tile of a contraction), or, in pointwise and reduction groups, when its
    other uses come after the group: the group then yields it too
    (multi-output). Reshapes and slices are views and stay outside.

    ```mlir
    %0 = tcc.linear %x, %w, %b : ...
    %1 = tcc.gelu %0 : ...
    // becomes
    %1 = fusion.group "matmul" (%x, %w, %b : ...) -> ... {
      ^bb0(...): linear; gelu; fusion.yield
    }
    ```

    `report-file` writes the groups, their inputs and outputs with size
    expressions, and the bytes each reads and writes, as JSON; `dot-file`
    writes the grouped graph for Graphviz.
  }];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           "::mlir::tcc::fusion::FusionDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Weigh for this kind of target (cpu, cuda) instead of the "
           "module's #tcc.target">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print one line per group (kind, ops, decisions) and the totals "
           "to stderr">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"\"",
           "Write the fusion report (JSON) to this file">,
    Option<"dotFile", "dot-file", "std::string", /*default=*/"\"\"",
           "Write the grouped graph (Graphviz DOT) to this file">,
    ListOption<"reportSizes", "report-sizes", "std::string",
               "NAME=VALUE sizes at which the report also evaluates bytes">,
    Option<"multiOutput", "multi-output", "bool", /*default=*/"true",
           "Let pointwise and reduction groups also yield values used "
           "after them">,
    Option<"horizontal", "horizontal", "bool", /*default=*/"true",
           "Merge linears/matmuls that share an input">,
    Option<"recompute", "recompute", "bool", /*default=*/"true",
           "Clone cheap elementwise producers into each consumer group">,
    Option<"singletons", "singletons", "bool", /*default=*/"false",
           "No fusion: every kernel op becomes a group of its own (the "
           "unfused baseline, compiled by the same code generator)">,
    Option<"recognize", "recognize", "bool", /*default=*/"true",
           "Replace hand-written softmax, log_softmax, layer_norm, rms_norm "
           "and attention by their tcc ops first (tcc-recognize-composites)">,
    Option<"sinkTransposes", "sink-transposes", "bool", /*default=*/"true",
           "Move transposes below slices and unit-dim reshapes">,
    Option<"patchConvs", "patch-convs", "bool", /*default=*/"true",
           "Convolutions whose stride is their kernel become linears over "
           "the patches">,
    Option<"flattenRows", "flatten-rows", "bool", /*default=*/"true",
           "Linears and matmuls by a 2-D weight over inputs of rank 4 and "
           "more (or a static batch) take their rows as one dim">
  ];
  let statistics = [
    Statistic<"numGroups", "num-groups", "Number of fusion groups formed">,
    Statistic<"numFusedOps", "num-fused-ops", "Number of ops placed in groups">,
    Statistic<"numHorizontal", "num-horizontal", "Horizontal merges made">,
    Statistic<"numRecomputed", "num-recomputed", "Producers cloned for recomputation">
  ];
}

def RecognizeCompositesPass
    : Pass<"tcc-recognize-composites", "func::FuncOp"> {
  let summary = "Replaces hand-written softmax, norms and attention by the "
                "composite tcc ops";
  let description = [{
    Captured graphs often spell composite ops out of elementwise ops,
    reductions and matmuls. This pass finds those chains and replaces each
    by the composite op, so fusion makes it one group (the patterns are
    public: `populateRecognizeCompositesPatterns` in
    include/tcc/Transforms/RecognizeComposites.h). Reductions must keep
    dims; axes may be negative; element types are floats.

    | chain | becomes |
    |-------|---------|
    | `e / reduce_sum(e, [a])`, `e = exp(x - reduce_max(x, [a]))` or `exp(x)` | `tcc.softmax %x {axis = a}` |
    | `d - log(reduce_sum(exp(d), [a]))`, `d = x - reduce_max(x, [a])` or `x` | `tcc.log_softmax %x {axis = a}` |
    | `d * rsqrt(reduce_mean(d * d) + eps)` or `d / sqrt(...)`, `d = x - reduce_mean(x)`, means over dims a..rank-1, then optionally `* w`, `+ b` | `tcc.layer_norm %x, %w, %b {axis = a, epsilon = eps}` |
    | `x * rsqrt(reduce_mean(x * x) + eps)` or `x / sqrt(...)`, optionally `* w` | `tcc.rms_norm %x, %w {axis = a, epsilon = eps}` |
    | `matmul(softmax(matmul(q, transpose(k)) * c + mask, -1), v)` | `tcc.attention %q, %k, %v, %mask {scale = c}` |

    - A chain is replaced only when every value it computes, except its
      result, is used only inside it; its inputs may have other users. When
      a softmax's max-subtraction or a layer norm's mean-subtraction is
      still used elsewhere, it stays, and the rest becomes the softmax /
      log_softmax / rms_norm of the difference (the same values).
    - A square is `d * d` or `pow(d, 2.0)`; `eps`, the attention scale `c`
      (`* c` or `/ c`, giving 1/c; absent gives 1.0) and the exponent are
      scalar float constants (rank 0 or every dim 1).
    - Norm weights and biases must have exactly the type of the normalized
      dims (otherwise the match ends before them); missing ones become
      constant ones / zeros, which needs static normalized dims.
    - Attention needs q [..., Sq, D], k [..., Sk, D], v [..., Sk, Dv] of
      equal rank >= 3 with identical leading dims, the transpose swapping
      the last two dims, the softmax on the last axis, and a float mask
      that broadcasts to the scores; the softmax may itself be written out.
    - Full-size intermediates must have the input's exact type, so no
      broadcast changes a shape.

    ```mlir
    %m = tcc.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
    %d = tcc.sub %x, %m : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
    %e = tcc.exp %d : (tensor<?x768xf32>) -> tensor<?x768xf32>
    %s = tcc.reduce_sum %e {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
    %y = tcc.div %e, %s : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
    // becomes
    %y = tcc.softmax %x {axis = 1 : i64} : (tensor<?x768xf32>) -> tensor<?x768xf32>
    ```
  }];
}

def SelectLayoutPass : Pass<"tcc-select-layout", "func::FuncOp"> {
  let summary = "Chooses data layouts per op by cost: NCHW or channels-last";
  let description = [{
    Layouts are attributes of the ops whose kernels depend on them
    (`tcc.conv2d` and the pools: `layout` NCHW or NHWC; `tcc.batch_norm`:
    its channel `axis`); every relayout is an explicit `tcc.transpose`.
    A convolution turned channels-last is wrapped in transposes (input and
    weight to NHWC / OHWI, the result back to NCHW); propagation patterns
    then sink each transpose below the elementwise ops, batch norms, pools
    and reductions that follow it, where inverse transposes cancel and
    transposes of constants fold (frozen weights are relaid out at compile
    time). Ops whose layouts already agree are left alone.

    The choice is the target's cost model: modeled convolution time (the
    kernels' measured multiply-adds per second in each layout: oneDNN or
    generated code on `cpu`, cuDNN on `cuda`, where f16/bf16 Tensor Core
    kernels want NHWC) plus the bytes the remaining transposes move. Each
    assignment is judged on a propagated clone; the search starts from
    every convolution in its faster layout and reverts one at a time while
    that lowers the total. docs/layout.md has the figures.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Choose for this kind of target's kernels (cpu, cuda) instead "
           "of the module's #tcc.target">,
    Option<"library", "library", "bool", /*default=*/"true",
           "Convolutions run in the target's library (oneDNN on cpu, "
           "cuDNN on cuda); false: generated code">
  ];
  // The #tcc.target it reads.
  let dependentDialects = ["::mlir::tcc::TCCDialect"];
}

def PlanMemoryPass : Pass<"tcc-plan-memory", "ModuleOp"> {
  let summary = "Assigns intermediate buffers to offsets in one arena";
  let description = [{
    Every value produced at the top level of a function (a fusion group
    result or an unfused op) that is not returned is an intermediate buffer.
    Its live range runs from its definition to its last use in program order
    (uses through reshapes and slices, which are views, and inside nested
    regions count). Function arguments and returned values never live in the
    arena.

    Placement: buffers are sorted (by size, by breadth: the largest total
    live at any point of their range, by duration, by size x duration, or
    in program order) and each is put first-fit at the lowest aligned offset
    free of the buffers live at the same time. Every order is tried and the
    smallest arena kept (`strategy=best`), or only the one named.

    In place: a pointwise group writes its result over an input of the same
    size that dies there, when that input reaches the result only through
    elementwise ops of its own shape (element i of the result depends on
    element i of the input alone; see mayWriteInPlace in
    include/tcc/Transforms/MemoryPlan.h).

    `reorder`: independent top-level ops are list-scheduled to free the most
    bytes first; the new order is kept when the largest sum of live bytes
    (symbols at the report binding, else 64) goes down.

    Symbolic sizes: sizes are expressions of the size symbols of
    --symbolic-shapes; buffers that are a constant times the same expression
    (`B * S`) are planned together in units of it, one region per
    expression, so the plan holds for every size by construction.

    The plan is written into the IR (encoding in
    include/tcc/Transforms/MemoryPlan.h): `tcc.buffer` on defining ops,
    `tcc.arena`, `tcc.arena_symbols`, `tcc.arena_alignment` and
    `tcc.naive_size` on the function. Lowering honours it: one arena
    allocation per call, every planned buffer a view into it.

    `report-file` writes JSON (per function `peak_bytes`,
    `lower_bound_bytes`: the largest sum of live bytes at any op of the
    chosen order, `naive_bytes`, and per buffer its name, size, offset,
    first and last use; sizes as expressions, and numbers where
    `report-sizes` binds every symbol); `svg-file` draws the plan.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"0",
           "Byte alignment of every buffer offset (0: the target's, 64 for "
           "cpu and 256 for cuda)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Plan for this kind of target (cpu, cuda) instead of the "
           "module's #tcc.target">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"best\"",
           "Placement order: best (try all, keep the smallest), size, "
           "breadth, duration, area, order">,
    Option<"inPlace", "in-place", "bool", /*default=*/"true",
           "Let a pointwise group overwrite an input that dies there">,
    Option<"reorder", "reorder", "bool", /*default=*/"false",
           "Reorder independent ops when that lowers the peak">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print the arena's size, lower bound and no-reuse size to stderr">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the plan as JSON to this file">,
    Option<"svgFile", "svg-file", "std::string", /*default=*/"",
           "Draw the plan (SVG) to this file">,
    ListOption<"reportSizes", "report-sizes", "std::string",
               "NAME=VALUE sizes at which the report evaluates bytes">
  ];
  // The #tcc.target it reads.
  let dependentDialects = ["::mlir::tcc::TCCDialect"];
}

def VerifyMemoryPlanPass : Pass<"tcc-verify-memory-plan", "func::FuncOp"> {
  let summary = "Checks that no two buffers live at the same time overlap";
  let description = [{
    Reads the plan --plan-memory wrote (tcc.buffer, tcc.arena,
    tcc.arena_alignment) and recomputes the live ranges from the IR. Errors
    when a planned value is returned, an offset is not aligned, a buffer
    runs past its region's size, a region's scale does not match the
    buffer's size expression, or two buffers of one region whose live
    ranges meet share a byte, unless the later one is marked in place of
    the earlier, which dies where it is defined, and the in-place rule
    holds. Regions are disjoint by construction (each starts where the
    previous one's size x scale ends), so a plan that passes is safe for
    every value of the size symbols.
  }];
}

def AttachTargetPass : Pass<"tcc-attach-target", "ModuleOp"> {
  let summary = "Puts the #tcc.target the options name on a module without one";
  let description = [{
    The first pass of the cpu and cuda pipelines. A module without a
    `tcc.target` attribute gets the target the options describe: for
    `kind=cpu`, the CPU `mcpu` names (`host`: this machine, its features;
    or an LLVM CPU name such as `x86-64-v3`), for `kind=cuda` the chip and
    PTX version. Every pass that depends on the machine reads this
    attribute (include/tcc/Target/Target.h). A module that already has a
    target keeps it; one of another kind than the pipeline's is an error.

    ```mlir
    // tcc-opt --tcc-attach-target="mcpu=x86-64-v3"
    module attributes {tcc.target = #tcc.target<"cpu", arch = "x86-64-v3",
        features = "+avx,+avx2,...", vector_bits = 256, ...>} {...}
    ```
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"cpu\"",
           "What the module runs on: cpu or cuda">,
    Option<"mcpu", "mcpu", "std::string", /*default=*/"\"host\"",
           "CPU to compile for: host or an LLVM CPU name (kind=cpu)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "GPU architecture (kind=cuda)">,
    Option<"ptx", "ptx", "std::string", /*default=*/"\"+ptx80\"",
           "PTX ISA version as an LLVM feature (kind=cuda)">
  ];
  // The #tcc.target it reads.
  let dependentDialects = ["::mlir::tcc::TCCDialect"];
}

def SymbolicShapesPass : Pass<"tcc-symbolic-shapes", "func::FuncOp"> {
  let summary = "Derives a size expression for every dim of every tensor";
  let description = [{
    Users name dims on function arguments and bound them on the function:

    ```mlir
    func.func @f(%obs: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>,
                                          tcc.name = "obs"})
        attributes {tcc.constraints = ["1 <= B <= 64", "B % 8 == 0"]}
    ```

    Equal names are equal sizes; unnamed dynamic dims are named s0, s1, ...
    Every op propagates the expressions (elementwise ops, contractions,
    concat and attention unify dims; conv, pool, slice and reshape compute
    affine/floordiv expressions) and the pass writes the result back:
    `tcc.shape` on every op with a dynamic result, canonical
    `tcc.constraints` (ranges, divisibility, equalities the entry guards
    check), and static types wherever an expression is a constant.
    A mismatch provable at compile time is an error naming both sides.

    `specialize=B=8,S=197` fixes symbols to values: the function becomes a
    static one and its entry guards check the values.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
  let options = [
    ListOption<"specialize", "specialize", "std::string",
               "NAME=VALUE pairs that fix size symbols (B=8)">
  ];
}

def InsertEntryGuardsPass : Pass<"tcc-insert-entry-guards", "ModuleOp"> {
  let summary = "Makes public functions check their input sizes first";
  let description = [{
    Runs on bufferized functions (memref arguments). Each public function
    gets an i64 status as its first result: 0 when the inputs satisfy every
    guard of include/tcc/Analysis/ShapeGuards.h (static dims, equal dims,
    dims computed from other dims, ranges, divisibility, equalities), else
    the 1-based index of the first guard that fails, in which case nothing
    else runs and the other results are poison. The guards read only the
    memref descriptors, never the data.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::ub::UBDialect"];
}

def ExpandRecurrencesPass : Pass<"tcc-expand-recurrences", "ModuleOp"> {
  let summary = "Expands tcc.lstm, tcc.gru and tcc.rnn into an input "
                "projection and a loop over a cell function";
  let description = [{
    Recurrences have no fused-kernel form of their own: each tcc.lstm,
    tcc.gru and tcc.rnn becomes
    - one `tcc.linear` of every step's input with `w_ih` and the input-side
      bias ([T, B, G*H] with G = 4, 3, 1 gates: a plain GEMM the library or
      the code generator takes whole),
    - an `scf.for` over the steps (from the end with `reverse`; T may be
      dynamic) that carries the state (h, and c for an LSTM) and the output
      y (the new state copied into the carried buffers) and calls
    - a private cell function of tcc ops, `h @ w_hh^T` (with b_hh for a
      GRU) plus the step's projection, the gate activations and the state
      update, which the rest of the pipeline fuses (the recurrent product
      with its epilogue) and vectorizes like any function.
    One cell function serves every recurrence of the same kind, attributes
    and types. It runs
    first in the cpu and cuda pipelines; `tcc-opt` can run it alone.
  }];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def PrepareFunctionABIPass : Pass<"tcc-prepare-abi", "ModuleOp"> {
  let summary = "Marks public functions for tcc's calling convention";
  let description = [{
    tcc's compiled entry points never write their inputs and are called
    through MLIR's C interface (`_mlir_ciface_<name>`, memref descriptors
    passed by pointer, results returned through the first argument). This
    pass adds `llvm.emit_c_interface` to every public function with a body
    and `bufferization.writable = false` to every tensor argument, so
    bufferization copies rather than overwrite a caller's buffer.
  }];
}

#endif // TCC_TRANSFORMS_PASSES_TD
