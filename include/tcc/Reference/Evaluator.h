//===- Evaluator.h - Reference evaluator ------------------------*- C++ -*-===//
//
// A plain interpreter of tcc programs on HostTensors, used as the oracle of
// the integration tests. Every op is computed in double precision and rounded
// to the result element type at each op output; clarity beats speed.
//
// It works on generic mlir::Operation*s (dispatching on the op name and
// reading attributes by name), so it does not depend on the ODS classes of
// the tcc and fusion dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_REFERENCE_EVALUATOR_H
#define TCC_REFERENCE_EVALUATOR_H

#include "tcc/Runtime/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tcc::reference {

/// Interprets `func` on `inputs` (in argument order). The inputs are checked
/// against the function signature (count, element types, static dims). On
/// failure returns failure() and sets `error` to a message naming the op (its
/// name and location) and the problem.
mlir::FailureOr<std::vector<runtime::HostTensor>>
evaluateFunction(mlir::func::FuncOp func,
                 llvm::ArrayRef<runtime::HostTensor> inputs,
                 std::string &error);

/// Evaluates the single op `op` on `operands` and stores one HostTensor per
/// op result in `results`. Region ops (fusion.group) and func.call work too;
/// terminators just forward their operands. Unknown ops fail with
/// "reference evaluator does not support op 'X'".
mlir::LogicalResult evaluateOp(mlir::Operation *op,
                               llvm::ArrayRef<runtime::HostTensor> operands,
                               std::vector<runtime::HostTensor> &results,
                               std::string &error);

} // namespace tcc::reference

#endif // TCC_REFERENCE_EVALUATOR_H
