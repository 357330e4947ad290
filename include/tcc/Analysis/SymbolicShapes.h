//===- SymbolicShapes.h - size expressions of every tensor dim --*- C++ -*-===//
//
// Every dim of every tensor value in a function gets an expression over
// named size symbols (AffineExpr, symbol i = names[i]). Symbols come from
// function arguments: named by the user with `tcc.shape = #tcc.shape<[B,
// 256]>` or, for unnamed dynamic dims, named s0, s1, ... here. Ops propagate
// them: elementwise ops, contractions, concat and attention unify dims
// (equalities, kept in a union-find of bindings); conv, pool, slice and
// reshape give affine and floordiv expressions. Sizes that depend on data
// (or on ops the analysis cannot see through) get fresh symbols u0, u1, ...
// that are known only at run time.
//
// Facts: `tcc.constraints = ["1 <= B <= 64", "B % 8 == 0", "S == T"]` on the
// function bounds symbols, and `fixed` (the pass's `specialize` option)
// binds symbols to values. A mismatch that is provable at compile time is an
// error naming both sides; one that is not becomes an equality that the
// entry guards check (ShapeGuards.h).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_ANALYSIS_SYMBOLICSHAPES_H
#define TCC_ANALYSIS_SYMBOLICSHAPES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::tcc {

/// Attribute names (on function arguments, ops and functions).
constexpr llvm::StringLiteral kShapeAttr = "tcc.shape";
constexpr llvm::StringLiteral kShapesAttr = "tcc.shapes"; // multi-result ops
constexpr llvm::StringLiteral kConstraintsAttr = "tcc.constraints";
constexpr llvm::StringLiteral kArgNameAttr = "tcc.name";
/// Names of argument dims that were fixed to constants (for messages).
constexpr llvm::StringLiteral kDimNamesAttr = "tcc.dim_names";

/// What is known about one size symbol.
struct SizeSymbol {
  std::string name;
  int64_t min = 0, max = INT64_MAX, divisor = 1;
  /// False for sizes known only at run time (data-dependent results).
  bool fromInputs = true;
  /// Named by the user (not s0, s1, ... or u0, ...).
  bool userNamed = false;
};

class SymbolicShapeAnalysis {
public:
  /// Derives the shapes in `func`. `fixed` binds named symbols to values.
  /// Errors are emitted on the offending op (or the function) and make the
  /// result a failure.
  static FailureOr<SymbolicShapeAnalysis>
  run(func::FuncOp func,
      ArrayRef<std::pair<std::string, int64_t>> fixed = {});

  /// The resolved, simplified expressions of `v`'s dims (empty when `v` is
  /// not a ranked tensor).
  SmallVector<AffineExpr> getShape(Value v);
  ArrayRef<std::string> getNames() const { return names; }
  const SizeSymbol &getSymbol(unsigned id) const { return symbols[id]; }

  /// Writes the result into the IR: `tcc.shape` on arguments and on ops with
  /// dynamic results, the canonical `tcc.constraints`, and static types
  /// wherever a dim's expression is a constant.
  void annotate(func::FuncOp func);

private:
  explicit SymbolicShapeAnalysis(MLIRContext *ctx) : ctx(ctx) {}
  class Deriver;

  unsigned addSymbol(StringRef name, bool fromInputs);
  AffineExpr resolve(AffineExpr e);
  LogicalResult unify(AffineExpr a, AffineExpr b, Operation *op,
                      const std::function<std::string()> &what);
  LogicalResult addFacts(AffineExpr e, int64_t min, int64_t max,
                         int64_t divisor, Operation *where);
  std::pair<int64_t, int64_t> bounds(AffineExpr e);
  std::string str(AffineExpr e) const;
  LogicalResult checkResolvedFacts(Operation *where);
  /// Whether every symbol of `e` is read from the inputs (so the entry
  /// guards can evaluate it).
  bool isInputExpr(AffineExpr e) const;

  MLIRContext *ctx;
  bool trustFacts = true;
  SmallVector<std::string> names;
  SmallVector<SizeSymbol> symbols;
  SmallVector<AffineExpr> binding; // null: free
  /// Facts on expressions that are not a single free symbol.
  struct ExprFact {
    AffineExpr expr;
    int64_t min, max, divisor;
  };
  SmallVector<ExprFact> exprFacts;
  SmallVector<std::pair<AffineExpr, AffineExpr>> equalities;
  llvm::DenseMap<Value, SmallVector<AffineExpr>> shapes;
};

/// Reads the `tcc.shape` written by the analysis on `v` (its defining op or
/// its function argument), with symbols numbered by `names` (extended as
/// needed). std::nullopt when there is none.
std::optional<SmallVector<AffineExpr>>
readShapeAnnotation(Value v, SmallVectorImpl<std::string> &names);

/// Largest k known to divide `e`, from the divisibility facts in the
/// function's `tcc.constraints` (symbol ids as in `names`).
int64_t knownDivisor(AffineExpr e, func::FuncOp func,
                     SmallVectorImpl<std::string> &names);

/// Whether two size expressions are provably equal (the same expression,
/// or the same product of symbols in another order: B * S == S * B).
bool provablyEqualSizes(AffineExpr a, AffineExpr b);

/// Lower and upper bounds of `e` (symbol ids as in `names`) under the
/// ranges in the function's `tcc.constraints`; sizes are never negative, so
/// an unconstrained symbol is [0, INT64_MAX].
std::pair<int64_t, int64_t> sizeBounds(AffineExpr e, func::FuncOp func,
                                       SmallVectorImpl<std::string> &names);

/// Whether the dims `dims` of `v` (product) are expected to be at least
/// `threshold` at run time, for codegen strategy choices: static sizes
/// decide exactly; otherwise the bounds from the constraints decide (a
/// bounded range reaching the threshold counts as large when its lower end
/// is at least threshold / 8); otherwise a product of several size symbols
/// or dims (batch x sequence) is taken as large and a lone batch dim as
/// small.
bool expectAtLeast(Value v, ArrayRef<int64_t> dims, int64_t threshold);

} // namespace mlir::tcc

#endif // TCC_ANALYSIS_SYMBOLICSHAPES_H
