//===- Passes.td - NVIDIA GPU code generation passes -------*- tablegen -*-===//
#ifndef TCC_CODEGEN_CUDA_PASSES_TD
#define TCC_CODEGEN_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def SerialLinalgToKernelsPass
    : Pass<"tcc-serial-linalg-to-kernels", "func::FuncOp"> {
  let summary = "Linalg ops on buffers without a parallel dim become "
                "one-thread loops for the GPU";
  let description = [{
    In the cuda pipeline, a linalg op on buffers in host code whose loops
    are all reductions, or that has no loops (a full reduction to a 0-d
    result, a 0-d fill or elementwise op), would become plain loops on
    the host, which read and write device memory. Such an op is wrapped in
    a single-iteration `scf.parallel`, so convert-linalg-to-parallel-loops
    lowers it inside and tcc-parallel-loops-to-gpu makes it a one-thread
    kernel (named `<func>_serial_N`). Correct, not fast: a large full
    reduction runs in one thread (a tree reduction over blocks is the
    better form). Ops with a parallel dim, and ops already inside loops,
    are left alone. Run it after tcc-row-groups-to-gpu and
    tcc-row-reductions-to-gpu and before convert-linalg-to-parallel-loops.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def RowGroupsToGPUPass : Pass<"tcc-row-groups-to-gpu", "func::FuncOp"> {
  let summary = "A run of row ops with a reduction: one kernel, a block per row";
  let description = [{
    Consecutive `linalg.generic`s on buffers over the same rows, at least one
    of them a reduction of the innermost loop (softmax: max, exp, sum,
    scale; layer_norm: mean, variance, normalize), become one `gpu.launch`
    with a block per row. Elementwise ops over rows x columns, reductions
    whose accumulator is combined once by an op with a neutral element
    (32-bit: add, mul, max, min, and, or) and per-row scalar ops may join;
    allocations, dims and pure ops between them stay before the kernel, and
    a `linalg.fill` of a reduction's accumulator is folded into it. Each
    thread owns the columns `tid, tid + B, ...` (coalesced). With a static
    row length the block has enough threads (a multiple of 32, up to 1024)
    that each holds at most 4 runs of 16 bytes of the widest element (16
    f32 or 32 bf16 columns; at least 16: fewer threads per row keep more
    rows in flight while blocks wait in their reductions), and every
    buffer's columns stay in
    registers from op to op: an input read by several ops is loaded once, a
    value another op of the run overwrites or that only the run uses is not
    stored. Dynamic row lengths loop over memory with `block-size` threads.
    Where a row is whole runs of `lanes` consecutive columns (16 bytes of
    the widest element read or written along the rows; the threads, at
    least as many, chosen so), a thread's columns are such runs, `lanes x
    threads` apart, and buffers read or written along the row whose layout
    keeps the runs aligned take one vector load or store per run; the
    kernel checks their base pointers' alignment once and otherwise runs
    the same group with scalar accesses.
    Reductions are warp shuffles plus one shared-memory exchange, after
    which every thread has the row's result. Other reductions are left to
    tcc-row-reductions-to-gpu.

    Before grouping, a bufferization copy of a just-filled buffer becomes
    a fill, and a `linalg.transpose` into a buffer only generic ops read is
    folded into their indexing maps (a linear's weight transposed for a
    (k, n) matmul on every call is read as (n, k) again), so a matmul keeps
    the loop order and forms a row group over K with its epilogue: a block
    per output element.

    An op joins only when it cannot observe another thread's unfinished
    work: rows x columns buffers the run writes are allocations read back
    with the same indexing (by the thread that wrote them), and per-row
    values reach other threads only through reductions and row ops, whose
    results every thread computes.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block for rows of dynamic length (a multiple of 32)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def RowReductionsToGPUPass
    : Pass<"tcc-row-reductions-to-gpu", "func::FuncOp"> {
  let summary = "A reduction over the innermost dim: one block per row";
  let description = [{
    A `linalg.generic` on buffers whose only reduction is its innermost
    loop, with projected-permutation maps, and whose accumulator is
    combined once by an associative, commutative op (add, mul, max, min,
    and, or) becomes a `gpu.launch` with one block per output element (a
    row): the block's `block-size` threads each fold the row's elements
    `t, t + block-size, ...` (consecutive threads, consecutive elements:
    coalesced), then the partials are combined by a tree in shared memory
    and thread 0 folds the result into the accumulator (into the fill
    value, when a `linalg.fill` of the accumulator comes right before: the
    fill is then no kernel of its own). The element work
    before the combine (softmax's exp(x - max)) runs in the threads.
    Other reductions are left to tcc-parallel-loops-to-gpu (a row per
    thread).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (a power of two)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ParallelLoopsToGPUPass
    : Pass<"tcc-parallel-loops-to-gpu", "func::FuncOp"> {
  let summary = "Each outermost scf.parallel becomes one gpu.launch";
  let description = [{
    The cuda pipeline's kernels: every outermost `scf.parallel` of a host
    function (one per fused linalg op after
    convert-linalg-to-parallel-loops) becomes a `gpu.launch` over its
    iteration space flattened row-major: thread `blockIdx.x * block-size +
    threadIdx.x` computes iteration `i` (delinearized into the loop's
    indices), so consecutive threads touch consecutive innermost elements
    and global memory accesses coalesce. Threads past the end do nothing.
    Loops inside the body (a reduction's `scf.for`) run within the thread.
    Parallel loops with reductions of their own are rejected with an error.

    A loop whose body has no loops of its own and whose static innermost
    trip count is a multiple of U x block-size (U the largest of
    `elements-per-thread`, ..., 2 that divides it) gives each block one
    chunk of U x block-size columns of a row and each thread U iterations
    a block-size apart (the body repeated, one delinearization for all):
    one element per thread leaves too few loads in flight to cover HBM's
    latency, and iterations a block apart keep every access coalesced.

    With `vectorize` (default), such a loop that starts at 0 with step 1
    and only loads and stores whole-byte elements gives each thread
    instead `lanes` consecutive innermost iterations, 16 bytes of the
    widest element (4 f32, 8 bf16), in blocks of the largest multiple of
    32 threads up to block-size that divides the row's vectors (768 f32
    columns: 192 threads of 4). Its loads and stores indexed by the innermost induction
    variable in the last dim only, on memrefs whose contiguous last dim,
    static offset and strides keep them aligned, become one
    `vector.load`/`vector.store` each (ld/st.global.v4 in PTX): a quarter
    or an eighth of the memory instructions. The kernel checks, once and
    uniformly, that those memrefs' base pointers are aligned too (a
    caller's tensor or view may not be), and runs the scalar body
    otherwise. Each thread takes U such vectors a block apart (U the
    largest of `vectors-per-thread`, ..., 2 whose U x lanes x threads
    columns divide the row).

    A thread's U iterations are emitted op by op (each op for all U before
    the next): their loads are all issued before the first store, which
    the compiler could not move them past (it cannot tell the buffers
    apart).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"elementsPerThread", "elements-per-thread", "int64_t",
           /*default=*/"4",
           "Iterations per thread a block apart, where they divide "
           "the static innermost trip count (without vector accesses)">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "16-byte vector loads and stores of consecutive innermost "
           "elements, where layouts allow">,
    Option<"vectorsPerThread", "vectors-per-thread", "int64_t",
           /*default=*/"2",
           "16-byte vectors per thread a block apart, where they divide "
           "the static innermost trip count">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def HostAllocationsToDevicePass
    : Pass<"tcc-host-allocations-to-device", "func::FuncOp"> {
  let summary = "Buffers of host functions in GPU memory (gpu.alloc)";
  let description = [{
    In the cuda pipeline every tensor lives in device memory: the host
    function's `memref.alloc`s become `gpu.alloc`, its `memref.dealloc`s
    `gpu.dealloc`, and `memref.copy` between buffers `gpu.memcpy` (a copy
    from or to a strided view becomes an `scf.parallel` copy loop, which
    tcc-parallel-loops-to-gpu then makes a kernel: run this pass between
    convert-linalg-to-parallel-loops and it); a
    constant (`memref.get_global`, host memory) is copied into a device
    buffer where it is read, freed at the returns unless returned. The ops
    are synchronous; gpu-async-region later chains them and the launches on
    one stream. Inside
    `gpu.launch` and `scf.parallel` bodies nothing changes. `memref.alloca`
    on the host (a
    small scratch buffer) is rejected: kernels cannot reach host stack.
    The shape buffer of a `memref.reshape` stays in host memory (the host
    reads it), and so does a constant that host code loads from.

    Host code that loads from or stores to device memory (a function
    argument, which is a device pointer in the cuda ABI, or a buffer this
    pass moved to the device: a shape operand read on the host, a count a
    one-thread kernel wrote, tcc.nonzero's data-dependent host loop) works
    on host copies: before the access (or the host loop holding it, staged
    once as a whole) each device buffer it touches is copied into a host
    buffer of the same type by a `gpu.memcpy`, and the access goes through
    the same views of the copy. A copy serves the next accesses until an op
    that may touch memory otherwise (a kernel, a device copy, a call, a
    free, the block's end); before it, what the host wrote goes back to the
    device and the copies are freed. A host loop that also launches kernels
    is staged block by block. A host access of a strided argument (not one
    block to copy) is an error naming it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def DeduplicateKernelsPass : Pass<"tcc-deduplicate-kernels", "ModuleOp"> {
  let summary = "One kernel for each set of identical outlined kernels";
  let description = [{
    After gpu-kernel-outlining, kernels of one `gpu.module` whose bodies,
    types and attributes (the name aside) are identical are merged: the
    first is kept and every `gpu.launch_func` of the others launches it.
    A transformer's blocks repeat the same kernels (ViT-B/16: 12 copies of
    each block's kernels): NVPTX and ptxas then compile each once, which
    is most of the cuda pipeline's compile time, and profiles add up the
    blocks' time per kernel.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ApproximateGPUMathPass
    : Pass<"tcc-approximate-gpu-math", "gpu::GPUModuleOp"> {
  let summary = "GELU's 1 + erf(x) in kernels from the GPU's fast "
                "reciprocal and exp2";
  let description = [{
    In outlined kernels, an f32 `1 + erf(x)` whose erf has no other use
    (GELU's form, 0.5 x (1 + erf(x / sqrt 2))) becomes

      y = P(t) * exp2(-x^2 * log2 e),  t = 1 / (1 + p |x|)
      1 + erf(x) = x >= 0 ? 2 - y : y

    with Abramowitz and Stegun's 7.1.26 (erfc to 1.5e-7 absolute), the
    reciprocal as `nvvm.rcp.approx.ftz.f` and exp2 as libdevice's (one
    `ex2.approx`): about 16 instructions, two on the special-function
    unit, where libdevice's erff and the add take about 30. The result is
    a sum with 1, so erf's own absolute error is what matters (for GELU,
    below 1e-6 of x); NaN stays NaN and +-inf give 2 and 0. A bf16 GELU
    is compute-bound on the H200 with erff (67 % of the copy bandwidth).
    Other uses of erf keep libdevice's erff, accurate relative to erf's
    value near 0.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect"];
}

def AttachNVVMTargetPass : Pass<"tcc-attach-nvvm-target", "ModuleOp"> {
  let summary = "Kernel modules get the #nvvm.target of the module's #tcc.target";
  let description = [{
    Every `gpu.module` gets an `#nvvm.target` with the chip and PTX
    version of the module's `#tcc.target` (which must be a cuda target)
    and `libdevice` linked in (math functions such as `__nv_expf` would
    otherwise stay unresolved). Upstream's `nvvm-attach-target` does the
    same from options; reading the target instead keeps the kernels, the
    cost models and the library's manifest on one chip.
  }];
  let options = [
    Option<"libdevice", "libdevice", "std::string", /*default=*/"\"\"",
           "libdevice bitcode to link into every kernel module">
  ];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TCC_CODEGEN_CUDA_PASSES_TD
