//===- ExecutionEngine.cpp - JIT-compiled tcc functions for the C API -----===//

#include "tcc-c/ExecutionEngine.h"

#include "CAPIUtils.h"
#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/Runtime/HostTensor.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/Support/JSON.h"


using ::tcc::runtime::DType;
using ::tcc::runtime::HostTensor;

static mlir::tcc::CPUExecutable *unwrap(TccCPUExecutable exe) {
  return static_cast<mlir::tcc::CPUExecutable *>(exe.ptr);
}

TccCPUExecutable tccCPUExecutableCreate(MlirModule module,
                                        MlirStringRef options,
                                        MlirStringCallback errorCallback,
                                        void *userData) {
  std::string error;
  auto parsed =
      mlir::tcc::capi::parseOptions<mlir::tcc::CPUPipelineOptions>(unwrap(options), error);
  std::unique_ptr<mlir::tcc::CPUExecutable> exe;
  if (parsed)
    exe = mlir::tcc::CPUExecutable::compile(unwrap(module), *parsed, error);
  if (!exe) {
    mlir::tcc::capi::report(error, errorCallback, userData);
    return {nullptr};
  }
  return {exe.release()};
}

void tccCPUExecutableDestroy(TccCPUExecutable exe) { delete unwrap(exe); }

int tccCPUExecutableGetArity(TccCPUExecutable exe, MlirStringRef name,
                             int *numInputs, int *numResults) {
  const mlir::tcc::FunctionSignature *sig = unwrap(exe)->lookup(unwrap(name));
  if (!sig) {
    // A bucketed entry: its versions share the signature.
    auto versions = unwrap(exe)->versions(unwrap(name));
    if (versions.empty())
      return 1;
    sig = versions.front();
  }
  *numInputs = static_cast<int>(sig->inputs.dtypes.size());
  *numResults = static_cast<int>(sig->results.dtypes.size());
  return 0;
}

static llvm::json::Array tensorsJSON(const mlir::tcc::TensorSignature &sig) {
  llvm::json::Array out;
  for (size_t i = 0; i < sig.dtypes.size(); ++i) {
    llvm::json::Array shape;
    for (int64_t d : sig.shapes[i])
      shape.push_back(mlir::ShapedType::isDynamic(d) ? int64_t(-1) : d);
    out.push_back(llvm::json::Object{
        {"dtype", ::tcc::runtime::dtypeName(sig.dtypes[i])},
        {"shape", std::move(shape)}});
  }
  return out;
}

void tccCPUExecutableGetSignatures(TccCPUExecutable exe,
                                   MlirStringCallback callback,
                                   void *userData) {
  llvm::json::Object all;
  for (const mlir::tcc::FunctionSignature *sig : unwrap(exe)->entries())
    all[sig->entry] = llvm::json::Object{{"inputs", tensorsJSON(sig->inputs)},
                                         {"results", tensorsJSON(sig->results)}};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(all));
  mlir::tcc::capi::report(text, callback, userData);
}

int tccCPUExecutableRun(TccCPUExecutable exe, MlirStringRef name,
                        const tcc_tensor *inputs, int numInputs,
                        tcc_tensor *results, int numResults,
                        MlirStringCallback errorCallback, void *userData) {
  auto fail = [&](int code, const std::string &message) {
    mlir::tcc::capi::report(message, errorCallback, userData);
    return code;
  };
  int expectedInputs, expectedResults;
  if (tccCPUExecutableGetArity(exe, name, &expectedInputs, &expectedResults))
    return fail(1, "no function '" + unwrap(name).str() + "'");
  if (numResults != expectedResults)
    return fail(2, "function '" + unwrap(name).str() + "' has " +
                       std::to_string(expectedResults) + " results, " +
                       std::to_string(numResults) + " requested");
  if (numInputs < 0 || (numInputs && !inputs) || (numResults && !results))
    return fail(2, "bad input or result array");
  std::vector<mlir::tcc::TensorView> views(numInputs);
  for (int i = 0; i < numInputs; ++i) {
    const tcc_tensor &t = inputs[i];
    std::string what = "input " + std::to_string(i) + ": ";
    if (t.dtype < TCC_F32 || t.dtype >= TCC_NUM_DTYPES || t.rank < 0 ||
        t.rank > TCC_MAX_RANK)
      return fail(2, what + "bad dtype or rank in its tcc_tensor");
    int64_t elements = 1;
    for (int d = 0; d < t.rank; ++d) {
      if (t.shape[d] < 0)
        return fail(2, what + "negative size " + std::to_string(t.shape[d]) +
                           " in dim " + std::to_string(d));
      elements *= t.shape[d];
    }
    if (elements && !t.data)
      return fail(2, what + "no data");
    views[i] = {static_cast<DType>(t.dtype),
                std::vector<int64_t>(t.shape, t.shape + t.rank), t.data};
  }
  // Count, dtypes and ranks first: tcc_run's code 2, apart from the size
  // checks' 3.
  std::string error;
  std::vector<std::vector<int64_t>> shapes;
  for (const mlir::tcc::TensorView &v : views)
    shapes.push_back(v.shape);
  const mlir::tcc::FunctionSignature *sig =
      unwrap(exe)->dispatch(unwrap(name), shapes, error);
  if (!sig || failed(mlir::tcc::CPUExecutable::checkInputs(*sig, views, error,
                                                      /*shapes=*/false)))
    return fail(2, error);
  // tcc_tensor holds TCC_MAX_RANK dims.
  for (size_t r = 0; r < sig->results.shapes.size(); ++r)
    if (sig->results.shapes[r].size() > TCC_MAX_RANK)
      return fail(2, "result " + std::to_string(r) + " has rank " +
                         std::to_string(sig->results.shapes[r].size()) +
                         ", above tcc_tensor's " +
                         std::to_string(TCC_MAX_RANK));
  std::vector<HostTensor> out;
  if (failed(unwrap(exe)->call(unwrap(name), views, out, error)))
    return fail(3, error);
  for (int r = 0; r < numResults; ++r) {
    auto *owned = new HostTensor(std::move(out[r]));
    tcc_tensor &t = results[r];
    t.data = owned->data.data();
    t.dtype = static_cast<int32_t>(owned->dtype);
    t.rank = static_cast<int32_t>(owned->shape.size());
    for (int d = 0; d < t.rank; ++d)
      t.shape[d] = owned->shape[d];
    t.owner = owned;
  }
  return 0;
}

double tccCPUExecutableGetLastRunSeconds(TccCPUExecutable exe) {
  return unwrap(exe)->getLastCompiledSeconds();
}

void tccTensorRelease(tcc_tensor *result) {
  if (!result || !result->owner)
    return;
  delete static_cast<HostTensor *>(result->owner);
  *result = tcc_tensor{};
}
