//===- CPUExecutable.h - JIT-compiled tcc functions on the CPU --*- C++ -*-===//
//
// Compiles a module of tcc functions with the CPU pipeline, JITs it with
// MLIR's ExecutionEngine, and calls entry points on HostTensors. Inputs are
// checked against the function signature before any compiled code runs.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_EXECUTIONENGINE_CPUEXECUTABLE_H
#define TCC_EXECUTIONENGINE_CPUEXECUTABLE_H

#include "tcc/Analysis/ShapeGuards.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Runtime/HostTensor.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tcc {

/// The tensor signature of one entry point, recorded before lowering.
struct TensorSignature {
  std::vector<::tcc::runtime::DType> dtypes;
  std::vector<std::vector<int64_t>> shapes; // ShapedType::kDynamic for `?`
};

struct FunctionSignature {
  std::string name;
  TensorSignature inputs, results;
  /// The size checks the compiled entry makes (and the host repeats to word
  /// the error).
  ShapeGuards guards;
};

class CPUExecutable {
public:
  /// Lowers (a clone of) `module` with the CPU pipeline and JIT-compiles it.
  /// Diagnostics go to the context's handler; `error` gets a summary.
  static std::unique_ptr<CPUExecutable>
  compile(ModuleOp module, const CPUPipelineOptions &options,
          std::string &error, std::string *llvmDialectDump = nullptr);

  /// Signature of `name`, or nullptr when there is no such public function.
  const FunctionSignature *lookup(StringRef name) const;

  /// Calls `name`. Fails with a message naming the input and dim when the
  /// inputs do not match the signature or its size constraints; nothing runs
  /// in that case. With `hostChecks` false only the compiled entry's own
  /// guards check the sizes (count, dtypes and ranks are always checked
  /// here: the calling convention depends on them).
  LogicalResult call(StringRef name,
                     const std::vector<::tcc::runtime::HostTensor> &inputs,
                     std::vector<::tcc::runtime::HostTensor> &results,
                     std::string &error, bool hostChecks = true);

  /// Checks `inputs` against `sig`: count, dtypes, ranks, then the shape
  /// guards (static dims, equal dims, ranges, divisibility).
  static LogicalResult checkInputs(const FunctionSignature &sig,
                                   const std::vector<::tcc::runtime::HostTensor> &inputs,
                                   std::string &error,
                                   bool shapes = true);

private:
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<FunctionSignature> signatures;
};

} // namespace mlir::tcc

#endif // TCC_EXECUTIONENGINE_CPUEXECUTABLE_H
