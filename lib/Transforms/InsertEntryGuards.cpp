//===- InsertEntryGuards.cpp - input size checks at entry -------*- C++ -*-===//
//
// The guard list comes from ShapeGuards (the same list the host runtime uses
// to word the error), evaluated on memref.dim of the arguments with
// affine.apply for expressions. The status selects the first failing guard;
// a cond_br skips the whole body when it is not 0.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/ShapeGuards.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_INSERTENTRYGUARDSPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// i1 that is true when `guard` holds.
Value emitGuard(OpBuilder &b, Location loc, const ShapeGuard &guard,
                func::FuncOp func, ArrayRef<Value> symbolValues) {
  auto dimOf = [&](unsigned input, int64_t d) -> Value {
    return memref::DimOp::create(b, loc, func.getArgument(input), d);
  };
  auto eval = [&](AffineExpr e) -> Value {
    auto map = AffineMap::get(0, symbolValues.size(), e);
    return affine::AffineApplyOp::create(b, loc, map, symbolValues);
  };
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value l, Value r) -> Value {
    return arith::CmpIOp::create(b, loc, p, l, r);
  };
  using P = arith::CmpIPredicate;
  switch (guard.kind) {
  case ShapeGuard::Kind::StaticDim:
    return cmp(P::eq, dimOf(guard.input, guard.dim), cst(guard.value));
  case ShapeGuard::Kind::SameDim:
    return cmp(P::eq, dimOf(guard.input, guard.dim),
               dimOf(guard.refInput, guard.refDim));
  case ShapeGuard::Kind::DimExpr:
    return cmp(P::eq, dimOf(guard.input, guard.dim), eval(guard.lhs));
  case ShapeGuard::Kind::Range: {
    Value v = eval(guard.lhs);
    Value ok = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    if (guard.min != INT64_MIN)
      ok = cmp(P::sge, v, cst(guard.min));
    if (guard.max != INT64_MAX)
      ok = arith::AndIOp::create(b, loc, ok, cmp(P::sle, v, cst(guard.max)));
    return ok;
  }
  case ShapeGuard::Kind::Divisible: {
    Value rem = arith::RemSIOp::create(b, loc, eval(guard.lhs), cst(guard.divisor));
    return cmp(P::eq, rem, cst(0));
  }
  case ShapeGuard::Kind::Equal:
    return cmp(P::eq, eval(guard.lhs), eval(guard.rhs));
  }
  llvm_unreachable("unknown guard kind");
}

struct InsertEntryGuardsPass
    : tcc::impl::InsertEntryGuardsPassBase<InsertEntryGuardsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || !func.isPublic())
        continue;
      if (!SymbolTable::symbolKnownUseEmpty(func, module)) {
        func.emitError() << "public function @" << func.getName()
                         << " is called from the module: entry points "
                            "cannot be called internally";
        return signalPassFailure();
      }
      std::string error;
      FailureOr<ShapeGuards> guards = ShapeGuards::build(func, error);
      if (failed(guards)) {
        func.emitError() << error;
        return signalPassFailure();
      }
      guard(func, *guards);
      // Consumed: the shape facts have no meaning in LLVM IR.
      func->removeAttr(kConstraintsAttr);
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        func.removeArgAttr(i, kShapeAttr);
        func.removeArgAttr(i, kArgNameAttr);
        func.removeArgAttr(i, kDimNamesAttr);
      }
    }
  }

  /// `cast` (a dynamic argument back to its type) as a reinterpret_cast,
  /// which canonicalization does not fold into the users the way it folds a
  /// memref.cast: they would see the dynamic type again (GPU row kernels
  /// need the static row length). Dynamic sizes, and the strides they make,
  /// are the argument's own.
  static void replaceWithReinterpretCast(memref::CastOp cast) {
    OpBuilder b(cast);
    Location loc = cast.getLoc();
    Value arg = cast.getSource();
    auto t = llvm::cast<MemRefType>(cast.getType());
    SmallVector<OpFoldResult> sizes(t.getRank()), strides(t.getRank());
    OpFoldResult stride = b.getIndexAttr(1);
    for (int64_t d = t.getRank() - 1; d >= 0; --d) {
      sizes[d] = t.isDynamicDim(d)
                     ? OpFoldResult(
                           memref::DimOp::create(b, loc, arg, d).getResult())
                     : OpFoldResult(b.getIndexAttr(t.getDimSize(d)));
      strides[d] = stride;
      std::optional<int64_t> a = getConstantIntValue(stride);
      std::optional<int64_t> s = getConstantIntValue(sizes[d]);
      if (a && s)
        stride = b.getIndexAttr(*a * *s);
      else
        stride = arith::MulIOp::create(
                     b, loc, getValueOrCreateConstantIndexOp(b, loc, stride),
                     getValueOrCreateConstantIndexOp(b, loc, sizes[d]))
                     .getResult();
    }
    auto reinterpret = memref::ReinterpretCastOp::create(
        b, loc, t, arg, b.getIndexAttr(0), sizes, strides);
    cast.replaceAllUsesWith(reinterpret.getResult());
    cast.erase();
  }

  void guard(func::FuncOp func, const ShapeGuards &guards) {
    MLIRContext *ctx = func.getContext();
    Location loc = func.getLoc();
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Type i64 = b.getI64Type();

    // memref.dim of a static dim folds to the type's size, so the guards
    // would check nothing: arguments take fully dynamic types and are cast
    // back to their static types once the guards have passed.
    SmallVector<Type> argTypes(func.getArgumentTypes());
    SmallVector<Operation *> casts;
    for (BlockArgument arg : entry.getArguments()) {
      auto t = dyn_cast<MemRefType>(arg.getType());
      if (!t || t.getNumDynamicDims() == t.getRank())
        continue;
      auto dynamic = MemRefType::get(
          SmallVector<int64_t>(t.getRank(), ShapedType::kDynamic),
          t.getElementType(), MemRefLayoutAttrInterface(), t.getMemorySpace());
      if (!t.getLayout().isIdentity())
        continue; // bufferization gives identity layouts at function boundaries
      arg.setType(dynamic);
      argTypes[arg.getArgNumber()] = dynamic;
      auto cast = memref::CastOp::create(b, loc, t, arg);
      arg.replaceAllUsesExcept(cast, cast);
      casts.push_back(cast);
    }

    SmallVector<Value> symbols;
    for (auto [input, dim] : guards.definitions)
      symbols.push_back(input == ~0u
                            ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                            : memref::DimOp::create(b, loc,
                                                    func.getArgument(input), dim)
                                  .getResult());
    // status = index + 1 of the first failing guard, else 0.
    Value status = arith::ConstantIntOp::create(b, loc, i64, 0);
    for (int64_t k = (int64_t)guards.guards.size() - 1; k >= 0; --k) {
      Value ok = emitGuard(b, loc, guards.guards[k], func, symbols);
      Value code = arith::ConstantIntOp::create(b, loc, i64, k + 1);
      status = arith::SelectOp::create(b, loc, ok, status, code);
    }
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value pass = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       status, zero);

    // entry: guards; cond_br body / fail. body: the original ops.
    Block *body = entry.splitBlock(pass.getDefiningOp()->getNextNode());
    for (Operation *cast : llvm::reverse(casts))
      cast->moveBefore(&body->front());
    for (Operation *cast : casts)
      replaceWithReinterpretCast(llvm::cast<memref::CastOp>(cast));
    Block *fail = new Block();
    func.getBody().push_back(fail);
    b.setInsertionPointToEnd(&entry);
    cf::CondBranchOp::create(b, loc, pass, body, ValueRange(), fail,
                             ValueRange());

    b.setInsertionPointToEnd(fail);
    SmallVector<Value> failResults = {status};
    for (Type t : func.getResultTypes())
      failResults.push_back(ub::PoisonOp::create(b, loc, t));
    func::ReturnOp::create(b, loc, failResults);

    func.walk([&](func::ReturnOp ret) {
      if (ret->getBlock() == fail)
        return;
      OpBuilder rb(ret);
      SmallVector<Value> operands = {
          arith::ConstantIntOp::create(rb, loc, i64, 0)};
      llvm::append_range(operands, ret.getOperands());
      ret->setOperands(operands);
    });
    SmallVector<Type> results = {i64};
    llvm::append_range(results, func.getResultTypes());
    // Result attributes (if any) shift by one.
    ArrayAttr resAttrs = func.getAllResultAttrs();
    func.setType(FunctionType::get(ctx, argTypes, results));
    if (resAttrs) {
      SmallVector<Attribute> shifted = {DictionaryAttr::get(ctx)};
      llvm::append_range(shifted, resAttrs);
      func.setAllResultAttrs(shifted);
    }
  }
};
} // namespace
