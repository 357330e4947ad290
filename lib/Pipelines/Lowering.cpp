//===- Lowering.cpp - a module lowered by one of tcc's pipelines -*- C++ -*-===//
//
// Signatures and guards are read after --symbolic-shapes (specialization
// makes types static, the pass names every dynamic dim), before the
// pipeline turns tensors into memrefs.
//
//===----------------------------------------------------------------------===//

#include "tcc/Pipelines/Lowering.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Runtime/MLIRTypes.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

using namespace mlir;
using namespace mlir::tcc;
using ::tcc::runtime::DType;

static LogicalResult recordSignature(func::FuncOp func, FunctionSignature &sig,
                                     std::string &error) {
  sig.name = func.getName().str();
  auto record = [&](TypeRange types, TensorSignature &out,
                    StringRef what) -> LogicalResult {
    for (auto [i, t] : llvm::enumerate(types)) {
      auto tt = dyn_cast<RankedTensorType>(t);
      std::optional<DType> dt =
          tt ? ::tcc::runtime::dtypeFromMLIRType(tt.getElementType()) : std::nullopt;
      if (!dt) {
        std::string ts;
        llvm::raw_string_ostream os(ts);
        os << t;
        error = "function '" + sig.name + "': " + what.str() + " " +
                std::to_string(i) + " has unsupported type " + ts;
        return failure();
      }
      out.dtypes.push_back(*dt);
      out.shapes.emplace_back(tt.getShape().begin(), tt.getShape().end());
    }
    return success();
  };
  if (failed(record(func.getArgumentTypes(), sig.inputs, "argument")) ||
      failed(record(func.getResultTypes(), sig.results, "result")))
    return failure();
  return success();
}

std::optional<BucketSpec> BucketSpec::parse(StringRef text,
                                            std::string &error) {
  auto [name, list] = text.split(':');
  BucketSpec spec;
  spec.symbol = name.trim().str();
  SmallVector<StringRef> items;
  list.split(items, ',', -1, false);
  for (StringRef item : items) {
    int64_t v;
    if (item.trim().getAsInteger(10, v) || v < 0 ||
        (!spec.upperBounds.empty() && v <= spec.upperBounds.back())) {
      error = "--buckets: expected NAME:b1,b2,... with increasing "
              "non-negative bounds, got '" + text.str() + "'";
      return std::nullopt;
    }
    spec.upperBounds.push_back(v);
  }
  if (spec.symbol.empty() || spec.upperBounds.empty()) {
    error = "--buckets: expected NAME:b1,b2,..., got '" + text.str() + "'";
    return std::nullopt;
  }
  return spec;
}

/// Replaces each public function of `module` by one version per bucket:
/// copies named `<f>__<S><lo>_<hi>` with the bucket's range added to their
/// constraints (an equality when the range is one value). Returns the
/// (entry, symbol's input dim, range) of each version by name.
static LogicalResult
splitIntoBuckets(ModuleOp module, const BucketSpec &spec,
                 std::map<std::string, FunctionSignature> &versions,
                 std::string &error) {
  Builder b(module.getContext());
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || !func.isPublic())
      continue;
    FailureOr<ShapeGuards> guards = ShapeGuards::build(func, error);
    if (failed(guards))
      return failure();
    auto it = llvm::find(guards->names, spec.symbol);
    if (it == guards->names.end()) {
      error = "--buckets: function '" + func.getName().str() +
              "' has no dim named " + spec.symbol + " (names: " +
              llvm::join(guards->names, ", ") + ")";
      return failure();
    }
    auto [input, dim] = guards->definitions[it - guards->names.begin()];
    // [1, b1], [b1 + 1, b2], ..., then the function as it was (every other
    // size, 0 included): dispatch tries the versions in this order.
    int64_t lo = 1;
    SmallVector<std::pair<int64_t, int64_t>> ranges;
    for (int64_t hi : spec.upperBounds) {
      if (hi >= lo)
        ranges.push_back({lo, hi});
      lo = hi + 1;
    }
    ranges.push_back({0, INT64_MAX});
    for (auto [min, max] : ranges) {
      auto copy = cast<func::FuncOp>(func->clone());
      std::string name =
          func.getName().str() + "__" + spec.symbol +
          (max == INT64_MAX ? std::string("_any")
                            : std::to_string(min) +
                                  (min == max ? "" : "_" + std::to_string(max)));
      copy.setName(name);
      SmallVector<Attribute> constraints;
      if (auto old = copy->getAttrOfType<ArrayAttr>(kConstraintsAttr))
        llvm::append_range(constraints, old);
      if (min == max)
        constraints.push_back(b.getStringAttr(spec.symbol + " == " +
                                              std::to_string(min)));
      else if (max != INT64_MAX)
        constraints.push_back(b.getStringAttr(
            std::to_string(min) + " <= " + spec.symbol +
            " <= " + std::to_string(max)));
      copy->setAttr(kConstraintsAttr, b.getArrayAttr(constraints));
      module.push_back(copy);
      FunctionSignature &v = versions[name];
      v.entry = func.getName().str();
      v.bucketMin = min;
      v.bucketMax = max;
      v.bucketInput = input;
      v.bucketDim = dim;
    }
    func.erase();
  }
  return success();
}

/// Clones `module`, derives shapes (specializing `specialize`), splits
/// buckets and records the entry signatures: everything before the
/// pipeline.
static FailureOr<LoweredModule>
prepareLowering(ModuleOp module, ArrayRef<std::string> specializeSizes,
                std::string &error, const std::optional<BucketSpec> &buckets) {
  LoweredModule result;
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> lowered(module.clone());

  // Signatures and guards are read after --symbolic-shapes: specialization
  // makes types static and the pass names every dynamic dim.
  auto deriveShapes = [&](ArrayRef<std::string> specialize) {
    PassManager shapes(ctx);
    SymbolicShapesPassOptions shapeOptions;
    shapeOptions.specialize.assign(specialize.begin(), specialize.end());
    shapes.nest<func::FuncOp>().addPass(createSymbolicShapesPass(shapeOptions));
    if (failed(shapes.run(*lowered))) {
      error = "shape analysis failed (see the diagnostics above)";
      return failure();
    }
    return success();
  };
  SmallVector<std::string> specialize(specializeSizes.begin(),
                                      specializeSizes.end());
  if (failed(deriveShapes(specialize)))
    return failure();
  std::map<std::string, FunctionSignature> bucketed;
  if (buckets) {
    if (failed(splitIntoBuckets(*lowered, *buckets, bucketed, error)))
      return failure();
    // A bucket that contradicts the function's own constraints (B = 1
    // under B % 8 == 0) holds no valid size: it is dropped, not an error.
    for (auto func : llvm::to_vector(lowered->getOps<func::FuncOp>())) {
      if (!bucketed.count(func.getName().str()))
        continue;
      ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
      if (failed(SymbolicShapeAnalysis::run(func))) {
        bucketed.erase(func.getName().str());
        func.erase();
      }
    }
    if (failed(deriveShapes({})))
      return failure();
  }
  for (auto func : lowered->getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    FunctionSignature sig;
    auto b = bucketed.find(func.getName().str());
    if (b != bucketed.end())
      sig = b->second;
    else
      sig.entry = func.getName().str();
    if (failed(recordSignature(func, sig, error)))
      return failure();
    FailureOr<ShapeGuards> guards = ShapeGuards::build(func, error);
    if (failed(guards))
      return failure();
    sig.guards = std::move(*guards);
    result.signatures.push_back(std::move(sig));
  }

  result.module = std::move(lowered);
  return result;
}

/// prepareLowering, then `buildPipeline` on the clone.
static FailureOr<LoweredModule>
lowerWith(ModuleOp module, ArrayRef<std::string> specializeSizes,
          function_ref<void(OpPassManager &)> buildPipeline,
          std::string &error, const std::optional<BucketSpec> &buckets) {
  FailureOr<LoweredModule> prepared =
      prepareLowering(module, specializeSizes, error, buckets);
  if (failed(prepared))
    return failure();
  LoweredModule result = std::move(*prepared);
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> lowered = std::move(result.module);
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  PassManager pm(ctx);
  buildPipeline(pm);
  // TCC_TIMING=1: where the pipeline's time goes, pass by pass (MLIR's
  // timing report on stderr).
  if (const char *timing = std::getenv("TCC_TIMING");
      timing && *timing && StringRef(timing) != "0")
    pm.enableTiming();
  if (failed(pm.run(*lowered))) {
    error = "lowering to LLVM failed (see the diagnostics above)";
    return failure();
  }
  result.module = std::move(lowered);
  return result;
}

FailureOr<LoweredModule>
mlir::tcc::lowerForCPU(ModuleOp module, const CPUPipelineOptions &options,
                       std::string &error,
                       const std::optional<BucketSpec> &buckets) {
  SmallVector<std::string> specialize(options.specialize.begin(),
                                      options.specialize.end());
  // Specialization is done before the pipeline: it runs on the specialized
  // module, with every other option as given.
  return lowerWith(
      module, specialize,
      [&](OpPassManager &pm) {
        CPUPipelineOptions rest;
        rest.copyOptionValuesFrom(options);
        rest.specialize.clear();
        buildCPUPipeline(pm, rest);
      },
      error, buckets);
}

FailureOr<std::vector<FunctionSignature>>
mlir::tcc::entrySignaturesForCPU(ModuleOp module,
                                 const CPUPipelineOptions &options,
                                 std::string &error,
                                 const std::optional<BucketSpec> &buckets) {
  SmallVector<std::string> specialize(options.specialize.begin(),
                                      options.specialize.end());
  FailureOr<LoweredModule> prepared =
      prepareLowering(module, specialize, error, buckets);
  if (failed(prepared))
    return failure();
  return std::move(prepared->signatures);
}

FailureOr<LoweredModule>
mlir::tcc::lowerForCUDA(ModuleOp module, const CUDAPipelineOptions &options,
                        std::string &error) {
  SmallVector<std::string> specialize(options.specialize.begin(),
                                      options.specialize.end());
  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  module.getContext()->appendDialectRegistry(registry);
  return lowerWith(
      module, specialize,
      [&](OpPassManager &pm) {
        CUDAPipelineOptions rest;
        rest.copyOptionValuesFrom(options);
        rest.specialize.clear();
        buildCUDAPipeline(pm, rest);
      },
      error, std::nullopt);
}
