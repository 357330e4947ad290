//===- CPUExecutable.h - JIT-compiled tcc functions on the CPU --*- C++ -*-===//
//
// Compiles a module of tcc functions with the CPU pipeline, links its
// object code in ORC's JIT, and calls entry points on HostTensors. Inputs are
// checked against the function signature before any compiled code runs.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_EXECUTIONENGINE_CPUEXECUTABLE_H
#define TCC_EXECUTIONENGINE_CPUEXECUTABLE_H

#include "tcc/Runtime/Workspace.h"
#include "tcc/Pipelines/Lowering.h"
#include "tcc/Runtime/HostTensor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "mlir/IR/BuiltinOps.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mlir::tcc {

/// A caller's dense row-major tensor, read in place (no copy): what the C
/// API and the Python bindings pass.
struct TensorView {
  ::tcc::runtime::DType dtype = ::tcc::runtime::DType::F32;
  std::vector<int64_t> shape;
  const void *data = nullptr;

  static TensorView of(const ::tcc::runtime::HostTensor &t) {
    return {t.dtype, t.shape, t.data.data()};
  }
  /// "2x3xf32" (rank 0: "f32").
  std::string typeString() const;
};

class CPUExecutable {
public:
  /// Lowers (a clone of) `module` with the CPU pipeline and JIT-compiles it.
  /// Diagnostics go to the context's handler; `error` gets a summary.
  /// With `buckets`, every public function is compiled once per bucket and
  /// calls dispatch on the bucket symbol's value.
  static std::unique_ptr<CPUExecutable>
  compile(ModuleOp module, const CPUPipelineOptions &options,
          std::string &error, std::string *llvmDialectDump = nullptr,
          const std::optional<BucketSpec> &buckets = std::nullopt);

  /// Signature of the compiled function `name` (a public function, or one
  /// bucket version), or nullptr.
  const FunctionSignature *lookup(StringRef name) const;

  /// The compiled function that a call of entry `name` on inputs of these
  /// shapes runs (the bucket holding the symbol's value), or nullptr with
  /// `error` set.
  const FunctionSignature *
  dispatch(StringRef name, const std::vector<std::vector<int64_t>> &shapes,
           std::string &error) const;

  /// Calls `name`; thread-safe (calls of an executable compiled with
  /// `workspace` run one at a time). Fails with a message naming the input and dim when the
  /// inputs do not match the signature or its size constraints; nothing runs
  /// in that case. With `hostChecks` false only the compiled entry's own
  /// guards check the sizes (count, dtypes and ranks are always checked
  /// here: the calling convention depends on them).
  LogicalResult call(StringRef name,
                     const std::vector<::tcc::runtime::HostTensor> &inputs,
                     std::vector<::tcc::runtime::HostTensor> &results,
                     std::string &error, bool hostChecks = true);
  /// The same on views of the caller's memory: inputs are not copied.
  LogicalResult call(StringRef name, const std::vector<TensorView> &inputs,
                     std::vector<::tcc::runtime::HostTensor> &results,
                     std::string &error, bool hostChecks = true);

  /// Seconds the compiled code of the last call ran (without the input
  /// checks and the copy of the results into HostTensors); with concurrent
  /// calls, one of them.
  double getLastCompiledSeconds() const { return lastCompiledSeconds; }

  /// The workspace calls take their arena from when compiled with
  /// CPUPipelineOptions::workspace: give it a buffer with setCallerBuffer,
  /// or leave it to grow a block of its own.
  ::tcc::runtime::Workspace &getWorkspace() { return workspace; }

  /// One signature per public entry (its first version with buckets).
  std::vector<const FunctionSignature *> entries() const;

  /// The versions compiled for entry `name` (one without buckets).
  std::vector<const FunctionSignature *> versions(StringRef name) const;

  /// Checks `inputs` against `sig`: count, dtypes, ranks, then the shape
  /// guards (static dims, equal dims, ranges, divisibility).
  static LogicalResult checkInputs(const FunctionSignature &sig,
                                   const std::vector<TensorView> &inputs,
                                   std::string &error,
                                   bool shapes = true);

  /// Library state keyed by the compiled code's addresses (oneDNN's
  /// repacked constant weights) goes with the code: another module could
  /// later be loaded at the same addresses.
  ~CPUExecutable();

private:
  CPUExecutable() = default;
  /// The executable of a compile cache entry (the objects compiled from
  /// `module` earlier), or nullptr where it does not load.
  static std::unique_ptr<CPUExecutable>
  fromCachedObjects(ModuleOp module, const CPUPipelineOptions &options,
                    const std::optional<BucketSpec> &buckets,
                    const llvm::MemoryBuffer &entry);
  /// Calls the packed wrapper `_mlir_<name>`.
  llvm::Error invokePacked(StringRef name, MutableArrayRef<void *> args);

  /// The code: object files (Target/ObjectCodegen.h, or the cache's)
  /// linked in ORC's JIT.
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// Packed wrappers already looked up: a JIT lookup goes through ORC's
  /// session (locks, a condition variable) and cost about 2 ms a call.
  using PackedFn = void (*)(void **);
  llvm::StringMap<PackedFn> packedEntries;
  std::mutex packedEntriesMutex;
  std::atomic<double> lastCompiledSeconds{0};
  std::vector<FunctionSignature> signatures;
  /// Compiled with CPUPipelineOptions::workspace: calls share `workspace`
  /// and run one at a time.
  bool usesWorkspace = false;
  std::mutex workspaceMutex;
  ::tcc::runtime::Workspace workspace;
};

} // namespace mlir::tcc

#endif // TCC_EXECUTIONENGINE_CPUEXECUTABLE_H
