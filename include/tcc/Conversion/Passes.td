//===- Passes.td - tcc conversion passes --------------------*- tablegen -*-===//
#ifndef TCC_CONVERSION_PASSES_TD
#define TCC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTCCToLinalgPass : Pass<"convert-tcc-to-linalg", "func::FuncOp"> {
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
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::scf::SCFDialect"
  ];
}

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
           "x lanes. 0: from the host CPU (16 with AVX-512, 8 with AVX2)">
  ];
  let dependentDialects = [
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

def ParallelizeTileLoopsPass
    : Pass<"tcc-parallelize-tile-loops", "func::FuncOp"> {
  let summary = "Runs the marked tile loop of each group on all cores";
  let description = [{
    tcc-lower-fusion-groups marks one tile loop per large group with
    `tcc.parallel` (the outermost with a static trip count >= 4, else the
    outermost): its iterations write disjoint tiles of the result and keep
    their temporaries inside the iteration (producers whose slice does not
    move with the tiles are computed before the loop, not fused), so
    after bufferization (when the loop carries no values) it becomes an
    `scf.parallel`, which convert-scf-to-openmp turns into an OpenMP
    parallel region. Loops that still carry values stay serial.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def LowerVectorsPass : Pass<"tcc-lower-vectors", "func::FuncOp"> {
  let summary = "Register-resident accumulators and AVX-512-sized vector ops";
  let description = [{
    Runs after bufferization. A contraction tile reads its accumulator at the
    top of the K loop and writes it back at the bottom; hoisting the pair out
    of the loop keeps the accumulator in registers for the whole K loop.
    Then n-D vector ops are lowered to 1-D ones: contractions to
    broadcast-FMA outer products, multi-reductions to inner reductions, and
    transfers with permutation maps to plain loads and stores. f32 math
    functions become polynomials (with `avx512`, erf and exp from small
    tables read by AVX-512 permutes: fewer FMAs, no division), and a maximumf / minimumf allowed to
    ignore NaN and the sign of zero (fastmath nnan, nsz: softmax's row max)
    a compare and select, one vmaxps / vminps instead of the NaN-propagating
    expansion's four instructions. Float sums and products across a
    vector's lanes (`vector.reduction <add>` / `<mul>`) are marked
    `reassoc`: each lane holds a partial result of an already reordered
    loop, and without the flag LLVM adds the lanes one after another (a
    64-lane row sum was a chain of 64 dependent adds). A per-row value
    broadcast across its row (as the vectorizer reads a row's max or mean:
    through a transpose, or a transfer_read broadcasting its innermost dim)
    becomes one element read and one splat per row, instead of shuffles
    over the whole block or a scalar load and insert per lane. `memref.copy` with a contiguous innermost dim becomes
    vector loads and stores: whole when small, else a loop over rows and
    over 256-lane chunks of each row (a vector<2048> per row, unrolled by
    LLVM, made thousands of straight-line moves).
  }];
  let options = [
    Option<"avx512", "avx512", "bool", /*default=*/"false",
           "Use AVX-512-only instructions as LLVM's x86 intrinsics "
           "(vpermps / vpermi2ps tables in erf and exp, vscalefps in exp); "
           "the cpu pipeline sets it when the host CPU has AVX-512">
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PlaceScratchBuffersPass
    : Pass<"tcc-place-scratch-buffers", "func::FuncOp"> {
  let summary = "Groups' own temporaries on the stack or in the arena";
  let description = [{
    Runs after bufferization and buffer deallocation. Lowering a group
    leaves temporaries the memory plan never saw: per-tile scratch (a
    softmax row block's exp, a reduction's partial accumulator) allocated
    and freed in every iteration of the tile loops, and whole-group ones
    (a weight panel transposed once before the tile loops). Each would be a
    heap allocation on every call or every tile.

    A temporary allocated and freed in one block, with a static size or a
    size with a constant upper bound (an edge tile's `affine.min`), becomes:
    - when it takes at most `max-stack-bytes` (and its scope's total stays
      within `max-scope-bytes`): one `memref.alloca` at the start of the
      nearest enclosing parallel tile loop body (each thread its own), or of
      the function's block, reused by every iteration of the loops inside;
    - when it is larger and sits at the function's top level (or in
      scf.ifs there, which run at most once per call: a per-call library
      dispatch): a slice of the arena (appended after the plan's regions;
      temporaries whose alloc-to-free spans in that block are disjoint
      share bytes), or of a new one when the function has no plan.
    Dynamic sizes without a constant bound stay heap allocations. A stack
    buffer of 4 KiB or more starts on a page, as the runtime's large heap
    blocks do: a pass that loads x[j] and then stores scratch[j] stalls
    when the scratch sits a little above the input modulo 4 KiB (the
    core's 4K-aliasing check holds back the next loads).
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "int64_t", /*default=*/"131072",
           "Largest temporary put on the stack">,
    Option<"maxScopeBytes", "max-scope-bytes", "int64_t", /*default=*/"1048576",
           "Most stack bytes one scope (loop body or function) takes">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def LowerFunctionLevelIfsPass
    : Pass<"tcc-lower-function-level-ifs", "func::FuncOp"> {
  let summary = "scf.ifs directly in a function's body become branches";
  let description = [{
    The cpu pipeline runs it before the OpenMP conversion. That conversion
    lowers the code around its parallel regions to LLVM too, and a
    `cf.assert` it turns into branches cannot stay in a single-block
    `scf.if` region: a per-call library dispatch (tcc-linear-to-library)
    holds the generated group, with its runtime checks, in such a region.
    Only the function body's own scf.ifs become `cf` blocks; the loops and
    the ifs inside them (in `memref.alloca_scope`s, which take one block)
    stay structured.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
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

def UseWorkspacePass : Pass<"tcc-use-workspace", "ModuleOp"> {
  let summary = "Takes the arena from the caller's workspace";
  let description = [{
    Runs after tcc-place-scratch-buffers. The arena's allocation (the
    `memref.alloc` marked `tcc.arena_alloc`, sized for this call's inputs)
    becomes a call of `@tcc_workspace(bytes) -> memref<?xi8>` (C interface;
    the runtime's, include/tcc/Runtime/Workspace.h), and its free goes: the
    workspace belongs to the caller, so a call allocates only its results.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def StreamingStoresPass : Pass<"tcc-streaming-stores", "func::FuncOp"> {
  let summary = "Non-temporal stores for results too large to stay in cache";
  let description = [{
    Runs after vector transfers are 1-D. A full-vector, in-bounds write into
    a buffer of at least `min-bytes` (a 256 MiB result, say) bypasses the
    caches: an ordinary store first reads the line it writes (the
    read-for-ownership), a non-temporal one does not, so a memory-bound
    kernel moves a third less. Only writes whose address is provably
    aligned to the vector's size are changed (x86's streaming stores need
    it): the buffer is a 64-byte aligned allocation with an identity layout,
    its innermost dim a multiple of the vector length, and the innermost
    index a multiple of it.

    ```mlir
    vector.transfer_write %v, %out[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<16384x4096xf32>
    // becomes
    vector.store %v, %out[%i, %j] {alignment = 64 : i64, nontemporal = true} : memref<16384x4096xf32>, vector<16xf32>
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"64 << 20",
           "Smallest buffer (bytes) whose writes stream past the caches">
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def PrefetchRowsPass : Pass<"tcc-prefetch-rows", "func::FuncOp"> {
  let summary = "Software prefetch of the next tile's rows in row loops";
  let description = [{
    A row loop of a group (the `tcc.parallel` tile loop) reads a tile of
    rows of an input per iteration (a subview `[iv, c] [R, N]`, rows of at
    least 1 KiB), often in several passes (max, exp-sum, normalize): the
    first waits on memory while the others compute, and the hardware
    prefetcher of a virtual machine does not run far enough ahead to hide
    it. This pass prefetches the tile `distance` iterations ahead
    (`memref.prefetch`, one per cache line), interleaved with a column loop
    over the tile: each iteration of the loop over columns `[j, j + step)`
    prefetches the same columns of the next tile's rows, so memory and
    arithmetic overlap. Rows are clamped to the last row of the buffer, so
    no address leaves it.

    The prefetches go into the pass over the tile's columns with the most
    arithmetic per column (`busiest`, the default): softmax's exp pass, not
    its max pass. That is where memory would otherwise idle; in a short
    pass, prefetches are limited by the core's line-fill buffers and stall
    it, then memory waits while the long pass computes. Any loop over
    exactly the tile's columns qualifies, also one that does not read the
    tile (a normalize pass reading a scratch row). With `busiest=false`
    the first pass reading the tile prefetches. A tile read without a
    column loop is prefetched at the top of the iteration.
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"1",
           "How many tiles ahead to prefetch">,
    Option<"locality", "locality", "uint32_t", /*default=*/"2",
           "Cache level hint: 3 = all levels (prefetcht0), 2 = L2 (prefetcht1), 1 = L3, 0 = non-temporal">,
    Option<"busiest", "busiest", "bool", /*default=*/"true",
           "Prefetch in the pass over the tile's columns with the most arithmetic per column (false: the first pass reading the tile)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}


def PipelineRowStoresPass : Pass<"tcc-pipeline-row-stores", "func::FuncOp"> {
  let summary = "Stream a row's result out during the next row's arithmetic";
  let description = [{
    A row group with several passes over each row (softmax: max; exp,
    stored and summed; scale) writes its result in the last pass only,
    with streaming stores (`tcc-streaming-stores`). Those 16 KiB of a
    4096-wide f32 row then leave the core in one burst, during which it
    does little else, while the arithmetic of the other passes runs with
    the memory's write side idle.

    This pass runs each row's last pass during the next row's busiest pass
    over the same columns (the one `tcc-prefetch-rows` gave the next row's
    prefetches, else the largest): a software pipeline of depth two. The
    row loop (a one-dimensional `scf.parallel`) becomes a parallel loop
    over chunks of up to `chunk-rows` consecutive rows (fewer when there
    are fewer than 64 chunks' worth), each an `scf.for` over its rows.
    - The last pass's scratch rows (stack buffers) are double-buffered.
    - The row's scalars it reads (softmax's 1 / sum) are carried to the
      next iteration.
    - Views and indices are computed again for the previous row.
    - The chunk's first row runs the busiest pass alone; its last row's
      store pass runs after the loop.
    - In the fused loop the previous row's stores come last, after the
      current row's work: issued first, they held softmax [16384, 4096]
      at 72-84 % of a copy's bandwidth, against 93-101 % issued last
      (benchmarks/kernel_vs_copy.c, the same runs).

    Applies when:
    - the last pass is an `scf.for` whose only writes are streaming vector
      stores into buffers allocated outside the row loop (results), which
      nothing else in the loop reads or writes, and which allocates no
      stack buffer itself;
    - another pass has the same induction type, bounds and step, with
      bounds that do not depend on the row (constants or values from
      outside the loop);
    - every stack buffer of the loop has sizes known outside it, and the
      scratch the last pass reads is static and at most 256 KiB (its
      second copy);
    - no value the last pass reads is an address into a buffer the loop
      allocates (only its one copy would survive to the next row);
    - there are at least 128 rows when their number is known.
    Otherwise the loop is left as it is.
  }];
  let options = [
    Option<"chunkRows", "chunk-rows", "int64_t", /*default=*/"64",
           "Most rows per chunk (each chunk's last row is not overlapped)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
}


//===----------------------------------------------------------------------===//
// GPU (cuda target)
//===----------------------------------------------------------------------===//

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

def AttentionToLibraryPass
    : Pass<"tcc-attention-to-library", "func::FuncOp"> {
  let summary = "Attention groups become the runtime's fused attention "
                "kernel (tcc_gpu.attention)";
  let description = [{
    Runs on tcc ops and fusion groups, before the lowering to linalg (the
    cuda pipeline runs it). A `fusion.group "attention"` that holds only a
    `tcc.attention` and transposes, with f16 or bf16 q, k and v of rank 3 or
    4, a static head dim of 64 or 128 (f32: 64, the runtime's CUDA-core
    kernel) and no mask, becomes one
    `tcc_gpu.attention`: the runtime's flash-attention kernel, whose scores
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
  let dependentDialects = ["::mlir::tcc::tcc_gpu::TCCGPUDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvToLibraryPass : Pass<"tcc-conv-to-library", "func::FuncOp"> {
  let summary = "Convolutions in fusion groups become library calls "
                "(tcc_gpu.conv2d: cuDNN on cuda, oneDNN on cpu)";
  let description = [{
    Runs on tcc ops and fusion groups, before the lowering to linalg (the
    cuda pipeline runs it with option `cudnn`, the cpu pipeline with
    `conv-library`). A `tcc.conv2d` whose input, weight and bias are inputs
    of its group and whose padding is the same on both sides of each dim
    becomes a `tcc_gpu.conv2d` into a new buffer, computed by the target's
    library: cuDNN for f32, f16 and bf16 (`target=cuda`; the generic
    lowering is a direct loop nest, one output element per thread), oneDNN
    for f32 (`target=cpu`; the op has no async token there, and
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
    Option<"target", "target", "std::string", /*default=*/"\"cuda\"",
           "Library the calls go to: cuda (cuDNN) or cpu (oneDNN)">
  ];
  let dependentDialects = ["::mlir::tcc::tcc_gpu::TCCGPUDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def LinearToLibraryPass : Pass<"tcc-linear-to-library", "func::FuncOp"> {
  let summary = "Linears and matmuls in fusion groups become oneDNN calls "
                "(host tcc_gpu.gemm)";
  let description = [{
    The cpu pipeline's counterpart of tcc-conv-to-library for matrix
    products (option `gemm-library`; the cuda pipeline's products go to
    cuBLASLt later, through tcc-contractions-to-gemms). Runs on tcc ops and
    fusion groups, before the lowering to linalg. A `tcc.linear` or
    `tcc.matmul` of f32 whose operands are inputs of its group, with `a`
    (the linear's `x`) of rank 2 or 3 and `b` (the weight) of rank 2,
    becomes a `tcc_gpu.gemm` without async token into a new buffer, which
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
  let dependentDialects = ["::mlir::tcc::tcc_gpu::TCCGPUDialect",
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
    each operand's dims in any order, becomes a `tcc_gpu.gemm`: batch dims
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
  let dependentDialects = ["::mlir::tcc::tcc_gpu::TCCGPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def HostLibraryCallsToLLVMPass
    : Pass<"tcc-host-library-calls-to-llvm", "ModuleOp"> {
  let summary = "Library calls without a stream become host runtime calls";
  let description = [{
    The cpu pipeline's `tcc_gpu` ops (no async token: the host computes
    them, on host buffers) become calls of the host runtime with the same
    descriptors the cuda pipeline passes (include/tcc/Runtime/ConvCall.h,
    GemmCall.h): `tcc_gpu.conv2d` -> `tccHostConv(null, desc)` (lib/Runtime/
    DNNLConv.cpp, oneDNN), `tcc_gpu.gemm` -> `tccHostGemm(null, desc)`
    (DNNLGemm.cpp). Memref operands are converted through
    unrealized casts, which the memref-to-llvm conversion resolves.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TCC_CONVERSION_PASSES_TD
