//===- Lowering.h - a module lowered by one of tcc's pipelines --*- C++ -*-===//
//
// What the JIT (CPUExecutable), the shared-library writer (lib/AOT), the C
// API and Python run before they generate code: a clone of the module with
// its shapes derived (sizes specialized, shape buckets split), the entry
// points' signatures and guards recorded, then the cpu or cuda pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_PIPELINES_LOWERING_H
#define TCC_PIPELINES_LOWERING_H

#include "tcc/Analysis/ShapeGuards.h"
#include "tcc/Codegen/CPU/Pipeline.h"
#include "tcc/Codegen/CUDA/Pipeline.h"
#include "tcc/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcc {

/// The tensor signature of one entry point, recorded before lowering.
struct TensorSignature {
  std::vector<::tcc::runtime::DType> dtypes;
  std::vector<std::vector<int64_t>> shapes; // ShapedType::kDynamic for `?`
};

/// Shape buckets: the size symbol `symbol` split at `upperBounds`.
/// "B:1,8,64" compiles versions for B = 1, 2 <= B <= 8, 9 <= B <= 64 and
/// B >= 65; a version whose range is one value is a static compile.
struct BucketSpec {
  std::string symbol;
  std::vector<int64_t> upperBounds;
  /// Parses "NAME:b1,b2,..." (increasing, non-negative bounds).
  static std::optional<BucketSpec> parse(llvm::StringRef text,
                                         std::string &error);
};

struct FunctionSignature {
  std::string name;
  /// The public function this is a version of (== name without buckets),
  /// the range of the bucket symbol it serves, and the input dim that
  /// defines that symbol.
  std::string entry;
  int64_t bucketMin = 0, bucketMax = INT64_MAX;
  unsigned bucketInput = 0;
  int64_t bucketDim = -1; // -1: not bucketed
  TensorSignature inputs, results;
  /// The size checks the compiled entry makes (and the host repeats to word
  /// the error).
  ShapeGuards guards;
};

/// A module lowered to the LLVM dialect by the CPU pipeline, with the
/// signatures of its entry points (read before lowering).
struct LoweredModule {
  OwningOpRef<ModuleOp> module;
  std::vector<FunctionSignature> signatures;
};

/// Lowers (a clone of) `module` with the CPU pipeline: what the JIT
/// (CPUExecutable::compile) and tcc-compile's libraries both run. With
/// `buckets`, every public function is compiled once per bucket.
FailureOr<LoweredModule>
lowerForCPU(ModuleOp module, const CPUPipelineOptions &options,
            std::string &error,
            const std::optional<BucketSpec> &buckets = std::nullopt);

/// The entry signatures lowerForCPU records, without lowering: what a
/// compile served from the cache (CompileCache.h) still needs.
FailureOr<std::vector<FunctionSignature>>
entrySignaturesForCPU(ModuleOp module, const CPUPipelineOptions &options,
                      std::string &error,
                      const std::optional<BucketSpec> &buckets = std::nullopt);

/// Lowers (a clone of) `module` with the cuda pipeline: host code in the
/// LLVM dialect with the kernels embedded (tcc-compile --target=cuda).
FailureOr<LoweredModule> lowerForCUDA(ModuleOp module,
                                      const CUDAPipelineOptions &options,
                                      std::string &error);

} // namespace mlir::tcc

#endif // TCC_PIPELINES_LOWERING_H
