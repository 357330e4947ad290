//===- LinearToLibrary.cpp - linears and matmuls to oneDNN ----------------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
// The product leaves its group as a host tcc_gpu.gemm (no async token)
// that computes it, with the bias, a residual add and the activation that
// follow it, into a new buffer; the rest of the group reads that buffer
// (LibraryGroups.h).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"

#include "LibraryGroups.h"

#ifdef TCC_HAVE_DNNL
#include "tcc/Runtime/GemmCall.h"
#include "tcc/Runtime/HostLibrary.h"

#include <array>
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LINEARTOLIBRARYPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A matrix product the library computes, and the epilogue it takes along.
struct LibraryGemm {
  Operation *product;     // tcc.linear or tcc.matmul
  Value a, b, bias;       // block arguments; b is [N, K] for a linear
  bool transposedB;       // a linear's weight
  AddOp residualAdd;      // product + residual, or null
  BlockArgument residual; // the residual's block argument, if any
  Operation *activation;  // relu or gelu, or null
  StringRef epilogue;     // the gemm's
  Value result;           // the last value the library computes
};

/// The group's linear or matmul, if the library computes it: f32, its
/// operands the group's inputs, `a` of rank 2 or 3 and `b` (the weight) of
/// rank 2, at least `minMacs` multiply-adds (sizes the types leave open
/// count as 1). The epilogue: `activation?(product + residual?)`.
std::optional<LibraryGemm> libraryGemm(fusion::GroupOp group,
                                       int64_t minMacs) {
  Operation *product = nullptr;
  for (Operation &op : group.getBodyBlock()) {
    if (!isa<LinearOp, MatmulOp>(op))
      continue;
    if (product)
      return std::nullopt;
    product = &op;
  }
  if (!product)
    return std::nullopt;
  LibraryGemm g{product, product->getOperand(0), product->getOperand(1),
                nullptr, isa<LinearOp>(product), nullptr, nullptr, nullptr,
                "none", product->getResult(0)};
  if (auto linear = dyn_cast<LinearOp>(product))
    g.bias = linear.getBias();
  auto a = cast<RankedTensorType>(g.a.getType());
  auto b = cast<RankedTensorType>(g.b.getType());
  if (!a.getElementType().isF32() || !b.getElementType().isF32() ||
      (a.getRank() != 2 && a.getRank() != 3) || b.getRank() != 2)
    return std::nullopt;
  for (Value v : {g.a, g.b, g.bias})
    if (v && !isGroupArgument(v, group))
      return std::nullopt;

  int64_t k = a.getShape().back();
  int64_t n = b.getDimSize(g.transposedB ? 0 : 1);
  int64_t macs = 1;
  for (int64_t size : a.getShape().drop_back())
    macs *= ShapedType::isDynamic(size) ? 1 : size;
  for (int64_t size : {k, n})
    macs *= ShapedType::isDynamic(size) ? 1 : size;
  if (macs < minMacs)
    return std::nullopt;

  if (auto add = dyn_cast_or_null<AddOp>(onlyUser(g.result))) {
    Value other = add.getLhs() == g.result ? add.getRhs() : add.getLhs();
    // The same shape (no broadcast), read straight from the group's input.
    if (other != g.result && isGroupArgument(other, group) &&
        other.getType() == g.result.getType() &&
        add.getType() == g.result.getType()) {
      g.residualAdd = add;
      g.residual = cast<BlockArgument>(other);
      g.result = add.getResult();
    }
  }
  Operation *next = onlyUser(g.result);
  if (isa_and_nonnull<ReluOp>(next)) {
    g.activation = next;
    g.epilogue = "relu";
  } else if (auto gelu = dyn_cast_or_null<GeluOp>(next)) {
    g.activation = next;
    g.epilogue = gelu.getApproximate() == "tanh" ? "gelu_tanh" : "gelu";
  }
  if (g.activation)
    g.result = g.activation->getResult(0);
  return g;
}

/// The scratchpad oneDNN asks for `g` (0 without oneDNN), at the sizes its
/// types give, open rows taken as 1, every operand dense (a linear's weight
/// [N, K]): what the call will most likely be (a call that needs more uses
/// the runtime's own buffer). 0 when K or N is open.
int64_t hostScratchBytes(const LibraryGemm &g, bool constantB) {
#ifdef TCC_HAVE_DNNL
  namespace call = tcc_gemm;
  auto a = cast<RankedTensorType>(g.a.getType());
  auto b = cast<RankedTensorType>(g.b.getType());
  int64_t rank = a.getRank();
  auto orOne = [](int64_t v) { return ShapedType::isDynamic(v) ? 1 : v; };
  int64_t batch = rank == 3 ? orOne(a.getDimSize(0)) : 1;
  int64_t m = orOne(a.getDimSize(rank - 2)), k = a.getDimSize(rank - 1);
  int64_t n = b.getDimSize(g.transposedB ? 0 : 1);
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(n))
    return 0;
  std::array<int64_t, call::kFields> f{};
  auto set = [&](int base, int64_t rows, int64_t cols, int64_t rowStride,
                 int64_t colStride, bool batched) {
    f[base + call::kAddress] = 1; // present; the address is not read
    f[base + call::kRowStride] = rowStride;
    f[base + call::kColStride] = colStride;
    f[base + call::kBatchStride] = batched ? rows * cols : 0;
  };
  f[call::kElementType] = f[call::kInputType] = call::kF32;
  f[call::kEpilogue] = call::epilogueOf(g.epilogue.str());
  f[call::kBatch] = batch;
  f[call::kM] = m;
  f[call::kN] = n;
  f[call::kK] = k;
  set(call::kA, m, k, k, 1, rank == 3);
  if (g.transposedB)
    set(call::kB, k, n, 1, k, false);
  else
    set(call::kB, k, n, n, 1, false);
  set(call::kD, m, n, n, 1, rank == 3);
  if (g.residual)
    set(call::kC, m, n, n, 1, rank == 3);
  f[call::kBias] = g.bias ? 1 : 0;
  f[call::kBiasStride] = 1;
  f[call::kConstantB] = constantB;
  return tccHostGemmScratchpadBytes(f.data());
#else
  (void)g, (void)constantB;
  return 0;
#endif
}

struct LinearToLibraryPass
    : tcc::impl::LinearToLibraryPassBase<LinearToLibraryPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<fusion::GroupOp, LibraryGemm>> work;
    getOperation().walk([&](fusion::GroupOp group) {
      if (std::optional<LibraryGemm> g = libraryGemm(group, minMacs))
        work.push_back({group, *g});
    });
    for (auto &[group, g] : work)
      rewrite(group, g);
  }

  void rewrite(fusion::GroupOp group, LibraryGemm &g) {
    IRRewriter b(group);
    b.setInsertionPoint(group);
    Location loc = g.product->getLoc();
    auto read = [&](Value arg) -> Value {
      return arg ? readGroupInput(b, loc, group, cast<BlockArgument>(arg))
                 : Value();
    };
    Value a = read(g.a), weight = read(g.b), bias = read(g.bias);
    Value residual = read(g.residual);
    // The library's b is [K, N]: a linear's [N, K] weight, viewed
    // transposed.
    Value bMatrix = weight;
    if (g.transposedB)
      bMatrix = memref::TransposeOp::create(
          b, loc, weight,
          AffineMapAttr::get(AffineMap::getPermutationMap(
              ArrayRef<unsigned>{1, 0}, b.getContext())));

    // The result's sizes: a's leading dims, then N.
    auto resultType = cast<RankedTensorType>(g.result.getType());
    int64_t rank = resultType.getRank();
    auto size = [&](int64_t d) -> Value {
      if (!resultType.isDynamicDim(d))
        return arith::ConstantIndexOp::create(b, loc,
                                              resultType.getDimSize(d));
      if (d < rank - 1)
        return memref::DimOp::create(b, loc, a, d);
      return memref::DimOp::create(b, loc, bMatrix, 1);
    };
    SmallVector<Value> sizes, dynamic;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(size(d));
      if (resultType.isDynamicDim(d))
        dynamic.push_back(sizes.back());
    }
    // A residual whose dims the types leave open must match the result's.
    if (residual) {
      auto rt = cast<MemRefType>(residual.getType());
      for (int64_t d = 0; d < rank; ++d) {
        if (!rt.isDynamicDim(d) && !resultType.isDynamicDim(d))
          continue;
        Value eq = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            memref::DimOp::create(b, loc, residual, d), sizes[d]);
        cf::AssertOp::create(
            b, loc, eq,
            "tcc.add: the residual's shape differs from the product's");
      }
    }
    auto out = memref::AllocOp::create(
        b, loc,
        MemRefType::get(resultType.getShape(), resultType.getElementType()),
        dynamic);
    bool constantB = isConstantGroupInput(group, g.b);
    Value scratch =
        allocateLibraryScratch(b, loc, hostScratchBytes(g, constantB));
    tcc_gpu::GemmOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(), a,
                            bMatrix, residual, bias, out, scratch,
                            b.getStringAttr(g.epilogue),
                            /*constant_b=*/constantB);
    Value computed = bufferization::ToTensorOp::create(
        b, loc, resultType, out, /*restrict=*/true, /*writable=*/true);
    computeOutsideGroup(b, group, g.result,
                        {g.activation, g.residualAdd.getOperation(),
                         g.product},
                        computed, out);
  }
};

} // namespace
