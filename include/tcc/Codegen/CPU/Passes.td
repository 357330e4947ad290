//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//
#ifndef TCC_CODEGEN_CPU_PASSES_TD
#define TCC_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerVectorsPass : Pass<"tcc-lower-vectors", "func::FuncOp"> {
  let summary = "Register-resident accumulators and AVX-512-sized vector ops";
  let description = [{
    Runs after bufferization. A contraction tile reads its accumulator at the
    top of the K loop and writes it back at the bottom; hoisting the pair out
    of the loop keeps the accumulator in registers for the whole K loop.
    Then n-D vector ops are lowered to 1-D ones: contractions to
    broadcast-FMA outer products, multi-reductions to inner reductions, and
    transfers with permutation maps to plain loads and stores. f32 math
    functions become polynomials (with AVX-512, erf and exp from small
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
    Option<"avx512", "avx512", "::mlir::tcc::AVX512Mode",
           /*default=*/"::mlir::tcc::AVX512Mode::Auto",
           "Use AVX-512-only instructions as LLVM's x86 intrinsics "
           "(vpermps / vpermi2ps tables in erf and exp, vscalefps in exp): "
           "auto, where the module's #tcc.target has AVX-512; on; off",
           [{::llvm::cl::values(
               clEnumValN(::mlir::tcc::AVX512Mode::Auto, "auto",
                          "where the target CPU has AVX-512"),
               clEnumValN(::mlir::tcc::AVX512Mode::On, "on", "always"),
               clEnumValN(::mlir::tcc::AVX512Mode::Off, "off", "never"))}]>
  ];
  let dependentDialects = ["::mlir::tcc::TCCDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def OutlineKernelsPass : Pass<"tcc-outline-kernels", "ModuleOp"> {
  let summary = "Each loop nest a function, one for each set of identical "
                "nests";
  let description = [{
    Runs after bufferization. Every loop nest at a function's top level
    (a group's tile loops) with a parallel tile loop or a copy, or with
    vector code and at least `min-ops` operations, becomes a
    private function of the values it reads from outside (buffers, sizes;
    constants are cloned in), called in its place. With `dedup`, functions
    equal but for their names are then merged and every call calls the
    one kept (the ops, types and attributes must match: the same group at
    the same shapes, reading other buffers).

    A transformer's blocks repeat their groups (ViT-B/16: twelve copies of
    each): the later loop passes and LLVM then compile each kernel once.
    The functions are marked `noinline` (LLVM passthrough): each kernel is a function of its
    own to LLVM, which optimizes and generates code per function, so the
    largest function is one kernel, not the whole model. A call costs a
    few nanoseconds per group per run.
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"8",
           "Smallest nest (operations, nested ones included) outlined, "
           "unless it has a parallel tile loop or a copy">,
    Option<"dedup", "dedup", "bool", /*default=*/"true",
           "Merge functions equal but for their names">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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

#endif // TCC_CODEGEN_CPU_PASSES_TD
