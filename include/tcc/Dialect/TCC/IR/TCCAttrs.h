//===- TCCAttrs.h - tcc dialect attributes ----------------------*- C++ -*-===//
//
// #tcc.shape and the text form of symbolic size expressions, shared by the
// attribute's parser, the constraint strings on functions and the size
// bindings of options (`B=8`); #tcc.target, the machine a module is
// compiled for (built in tcc/Target/Target.h).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DIALECT_TCC_IR_TCCATTRS_H
#define TCC_DIALECT_TCC_IR_TCCATTRS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "tcc/Dialect/TCC/IR/TCCDialect.h"

#include <string>

#define GET_ATTRDEF_CLASSES
#include "tcc/Dialect/TCC/IR/TCCAttrs.h.inc"

namespace mlir::tcc {

/// Prints `expr` with symbol s<i> spelled `names[i]`.
std::string printSymbolicExpr(AffineExpr expr, ArrayRef<std::string> names);

/// Parses one expression over named symbols (names missing from `names` are
/// appended). On failure `error` says what was expected where.
FailureOr<AffineExpr> parseSymbolicExpr(StringRef text, MLIRContext *ctx,
                                        SmallVectorImpl<std::string> &names,
                                        std::string &error);

/// A function-level fact about symbols, in the form users write it in
/// `tcc.constraints`: `lo <= B <= hi`, `B <= hi`, `B >= lo`, `B % k == 0`,
/// or `lhs == rhs` between two expressions.
struct SymbolConstraint {
  enum class Kind { Range, Divisible, Equal } kind;
  AffineExpr lhs, rhs;              // Equal: lhs == rhs; else lhs is the subject
  int64_t min = INT64_MIN, max = INT64_MAX; // Range (inclusive; unbounded)
  int64_t divisor = 1;              // Divisible
};

/// Parses one constraint string (see SymbolConstraint).
FailureOr<SymbolConstraint>
parseSymbolConstraint(StringRef text, MLIRContext *ctx,
                      SmallVectorImpl<std::string> &names, std::string &error);

/// A size symbol's value as options and flags write it: `NAME=VALUE`
/// (`--specialize=B=8`, `--sizes=S=197`, report sizes).
struct SizeBinding {
  std::string name;
  int64_t value;
};

/// Parses `NAME=VALUE` (a non-empty name, a non-negative integer; spaces
/// around either are ignored); std::nullopt otherwise.
std::optional<SizeBinding> parseSizeBinding(StringRef text);

/// Evaluates `expr` with s<i> = values[i]; std::nullopt on division by zero
/// or an unset symbol (values[i] < 0).
std::optional<int64_t> evaluateSymbolicExpr(AffineExpr expr,
                                            ArrayRef<int64_t> values);

} // namespace mlir::tcc

#endif // TCC_DIALECT_TCC_IR_TCCATTRS_H
