//===- LinearToLibrary.cpp - linears and matmuls to oneDNN ----------------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
// The product leaves its group as a host tcc_lib.gemm (no async token)
// that computes it, with the bias, a residual add and the activation that
// follow it, into a new buffer; the rest of the group reads that buffer
// (LibraryGroups.h).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"

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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
/// rank 2. The epilogue: `activation?(product + residual?)`.
std::optional<LibraryGemm> libraryGemm(fusion::GroupOp group) {
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

  if ((g.residualAdd = residualAddOf(g.result, group, g.residual)))
    g.result = g.residualAdd.getResult();
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
    // Present, at an address of its own (c at d's address would mean
    // accumulating into d); the address is not read.
    f[base + call::kAddress] = 1 + base;
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
  f[call::kBiasStride] = g.bias ? 1 : 0;
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
      if (std::optional<LibraryGemm> g = libraryGemm(group))
        work.push_back({group, *g});
    });
    for (auto &[group, g] : work) {
      // The product's multiply-adds: the sizes the types give, times those
      // they leave open (the rows of a dynamic batch, say).
      auto a = cast<RankedTensorType>(g.a.getType());
      auto b = cast<RankedTensorType>(g.b.getType());
      SmallVector<std::pair<Value, int64_t>> open; // (tensor, dim)
      int64_t known = 1;
      for (int64_t d = 0; d < a.getRank(); ++d) {
        if (a.isDynamicDim(d))
          open.push_back({g.a, d});
        else
          known *= a.getDimSize(d);
      }
      int64_t nDim = g.transposedB ? 0 : 1;
      if (b.isDynamicDim(nDim))
        open.push_back({g.b, nDim});
      else
        known *= b.getDimSize(nDim);
      if (known >= minMacs)
        rewrite(group, g); // large at any size
      else if (!open.empty() && computesWholeGroup(group, g))
        dispatch(group, open, known); // large at some sizes
    }
  }

  /// Whether the library computes all `group` does: then the choice is
  /// between two ways of writing one planned buffer. (A group that keeps
  /// work of its own would leave the library's result a buffer of its own
  /// in one branch.)
  static bool computesWholeGroup(fusion::GroupOp group, const LibraryGemm &g) {
    auto yield = cast<fusion::YieldOp>(group.getBodyBlock().getTerminator());
    int64_t ops = 1 + (g.residualAdd ? 1 : 0) + (g.activation ? 1 : 0);
    return yield.getValues().size() == 1 && yield.getValues()[0] == g.result &&
           int64_t(group.getBodyBlock().getOperations().size()) == ops + 1;
  }

  /// The group when the product is small, the library when it is large,
  /// chosen per call: `scf.if (known * open sizes >= min-macs)`, the
  /// library's form in the then-branch, the group as it was in the else.
  void dispatch(fusion::GroupOp group,
                ArrayRef<std::pair<Value, int64_t>> open, int64_t known) {
    OpBuilder b(group);
    Location loc = group.getLoc();
    Value work = arith::ConstantIndexOp::create(b, loc, known);
    for (auto [arg, d] : open) {
      Value input =
          group.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
      work = arith::MulIOp::create(b, loc, work,
                                   tensor::DimOp::create(b, loc, input, d));
    }
    Value large = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, work,
        arith::ConstantIndexOp::create(b, loc, minMacs));
    auto choice = scf::IfOp::create(b, loc, group->getResultTypes(), large,
                                    /*withElseRegion=*/true);
    auto cloneInto = [&](Block *block) {
      OpBuilder inner = OpBuilder::atBlockBegin(block);
      Operation *clone = inner.clone(*group);
      scf::YieldOp::create(inner, loc, clone->getResults());
      return cast<fusion::GroupOp>(clone);
    };
    fusion::GroupOp library = cloneInto(choice.thenBlock());
    cloneInto(choice.elseBlock());
    group->replaceAllUsesWith(choice->getResults());
    group->erase();
    std::optional<LibraryGemm> g = libraryGemm(library);
    rewrite(library, *g);
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

    // What the types leave open and the generated lowering checks.
    int64_t rankA = cast<MemRefType>(a.getType()).getRank();
    assertDimsAgree(b, loc, a, rankA - 1, bMatrix, 0,
                    g.transposedB
                        ? "tcc.linear: input features differ at runtime"
                        : "tcc.matmul: contracting dims differ at runtime");
    if (bias)
      assertDimsAgree(b, loc, bias, 0, bMatrix, 1,
                      "tcc.linear: bias size differs from the output features");

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
    tcc_lib::GemmOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(), a,
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
