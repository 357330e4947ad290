//===- ShapeGuards.h - what an entry point checks before it runs -*- C++ -*-===//
//
// The checks a compiled entry point makes on its inputs' sizes before it
// touches memory, derived from the function's signature and the facts that
// --symbolic-shapes wrote (`tcc.shape` on arguments, `tcc.constraints`):
//
//   StaticDim  input i dim d is the constant c
//   SameDim    input i dim d equals the dim that defined its symbol
//   DimExpr    input i dim d equals an expression of other symbols
//   Range      a symbol (or expression) lies in [min, max]
//   Divisible  a symbol (or expression) is a multiple of k
//   Equal      two expressions are equal
//
// Each symbol is defined by the first input dim that is exactly that symbol.
// The compiled code evaluates the guards in order and returns the index of
// the first one that fails (InsertEntryGuards); the host runtime turns that
// index into a message with `check`, which evaluates the same list.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_ANALYSIS_SHAPEGUARDS_H
#define TCC_ANALYSIS_SHAPEGUARDS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcc {

struct ShapeGuard {
  enum class Kind { StaticDim, SameDim, DimExpr, Range, Divisible, Equal };
  Kind kind;
  unsigned input = 0;
  int64_t dim = 0;
  unsigned refInput = 0; // SameDim: the dim that defined the symbol
  int64_t refDim = 0;
  AffineExpr lhs, rhs; // over the symbols of ShapeGuards::names
  int64_t value = 0, min = 0, max = INT64_MAX, divisor = 1;
  std::string name; // StaticDim: the size symbol the dim was fixed from
};

class ShapeGuards {
public:
  /// Reads the guards of `func` (tensor or memref arguments). Fails, with
  /// `error` set, on constraints over sizes no input defines.
  static FailureOr<ShapeGuards> build(FunctionOpInterface func,
                                      std::string &error);

  /// The first failing guard for inputs of these shapes (ranks must match
  /// the signature): its index and a message naming input, dim, expectation
  /// and actual value. std::nullopt when every guard holds.
  std::optional<std::pair<size_t, std::string>>
  check(const std::vector<std::vector<int64_t>> &shapes) const;

  /// What guard `index` requires, without values ("input 0 (x) dim 1 ==
  /// 768 (D)", "B % 8 == 0"): for runtimes that report a failed guard
  /// without MLIR (tcc-compile's libraries).
  std::string describe(size_t index) const;

  /// The symbols' values for these shapes (-1 where undefined).
  std::vector<int64_t>
  symbolValues(const std::vector<std::vector<int64_t>> &shapes) const;

  /// "input 0 (x) dim 1": how messages name an input dim.
  std::string inputDim(unsigned input, int64_t dim) const;

  std::vector<std::string> names;                        // symbol i
  std::vector<std::pair<unsigned, int64_t>> definitions; // symbol i's dim
  std::vector<std::string> inputNames;                   // tcc.name or ""
  std::vector<ShapeGuard> guards;
};

} // namespace mlir::tcc

#endif // TCC_ANALYSIS_SHAPEGUARDS_H
