//===- TCCModule.cpp - the tcc Python extension (_tcc) --------------------===//
//
// A thin layer over tcc's C API (include/tcc-c/) and MLIR's: contexts with
// tcc's dialects, modules parsed and printed, pass pipelines by string, the
// ONNX importer, JIT-compiled functions called on numpy arrays or DLPack
// tensors (PyTorch's), and ahead-of-time libraries built in process. Failures return None / False and leave the
// diagnostics in the context; the Python package (tcc/__init__.py) turns
// them into TCCError. Only C headers: this file is built with exceptions
// and RTTI, LLVM without.
//
//===----------------------------------------------------------------------===//

#include "tcc-c/AOT.h"
#include "tcc-c/Dialects.h"
#include "tcc-c/ExecutionEngine.h"
#include "tcc-c/Import.h"
#include "tcc-c/Pipelines.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

MlirStringRef ref(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

void appendTo(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

/// An MLIR context with tcc's dialects loaded and a handler that keeps the
/// diagnostics (errors, warnings, remarks with their locations) for Python.
class Context {
public:
  Context() {
    ctx = mlirContextCreateWithThreading(false);
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    tccRegisterAllDialects(registry);
    mlirContextAppendDialectRegistry(ctx, registry);
    mlirDialectRegistryDestroy(registry);
    mlirContextLoadAllAvailableDialects(ctx);
    tccRegisterAllPasses();
    mlirContextAttachDiagnosticHandler(ctx, &Context::handle, this, nullptr);
  }
  ~Context() { mlirContextDestroy(ctx); }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MlirContext get() const { return ctx; }

  /// The diagnostics since the last call, oldest first.
  std::vector<std::string> takeDiagnostics() {
    return std::exchange(diagnostics, {});
  }

private:
  static MlirLogicalResult handle(MlirDiagnostic diag, void *userData) {
    auto *self = static_cast<Context *>(userData);
    std::string text;
    MlirLocation loc = mlirDiagnosticGetLocation(diag);
    mlirLocationPrint(loc, appendTo, &text);
    text += ": ";
    switch (mlirDiagnosticGetSeverity(diag)) {
    case MlirDiagnosticError: text += "error: "; break;
    case MlirDiagnosticWarning: text += "warning: "; break;
    case MlirDiagnosticNote: text += "note: "; break;
    case MlirDiagnosticRemark: text += "remark: "; break;
    }
    mlirDiagnosticPrint(diag, appendTo, &text);
    for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diag); i < e; ++i) {
      std::string note;
      mlirDiagnosticPrint(mlirDiagnosticGetNote(diag, i), appendTo, &note);
      // The op dump MLIR attaches to pass failures is the whole module in
      // generic form: noise in a Python exception.
      if (note.rfind("see current operation", 0) == 0)
        continue;
      text += "\n  note: " + note;
    }
    self->diagnostics.push_back(std::move(text));
    return mlirLogicalResultSuccess();
  }

  MlirContext ctx;
  std::vector<std::string> diagnostics;
};

/// A module; keeps its context alive.
class Module {
public:
  Module(std::shared_ptr<Context> context, MlirModule module)
      : context(std::move(context)), module(module) {}
  ~Module() { mlirModuleDestroy(module); }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  static std::shared_ptr<Module> parse(std::shared_ptr<Context> context,
                                       const std::string &text) {
    MlirModule m = mlirModuleCreateParse(context->get(), ref(text));
    if (mlirModuleIsNull(m))
      return nullptr;
    return std::make_shared<Module>(std::move(context), m);
  }

  std::string str() const {
    std::string text;
    mlirOperationPrint(mlirModuleGetOperation(module), appendTo, &text);
    return text;
  }

  std::shared_ptr<Module> clone() const {
    MlirOperation op = mlirOperationClone(mlirModuleGetOperation(module));
    return std::make_shared<Module>(context, mlirModuleFromOperation(op));
  }

  bool verify() const {
    return mlirOperationVerify(mlirModuleGetOperation(module));
  }

  /// Runs a textual pipeline ("builtin.module(fuse,plan-memory)") in place;
  /// false with the parse error in `error` or the diagnostics in the
  /// context.
  bool runPipeline(const std::string &pipeline, std::string &error) {
    MlirPassManager pm = mlirPassManagerCreate(context->get());
    MlirLogicalResult parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm), ref(pipeline), appendTo,
        &error);
    bool ok = mlirLogicalResultIsSuccess(parsed) &&
              mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(
                  pm, mlirModuleGetOperation(module)));
    mlirPassManagerDestroy(pm);
    return ok;
  }

  /// Binds arguments of `function` to the arrays' bytes (tccFreezeArguments);
  /// false with the diagnostics in the context.
  bool freezeArguments(const std::string &function,
                       const std::vector<intptr_t> &indices,
                       const std::vector<nb::ndarray<nb::ro, nb::c_contig,
                                                     nb::device::cpu>> &values) {
    if (indices.size() != values.size())
      return false;
    std::vector<const void *> data;
    std::vector<intptr_t> bytes;
    std::vector<MlirType> types;
    for (const auto &v : values) {
      data.push_back(v.data());
      bytes.push_back(static_cast<intptr_t>(v.nbytes()));
      types.push_back(elementTypeOf(v.dtype()));
    }
    return mlirLogicalResultIsSuccess(tccFreezeArguments(
        module, ref(function), static_cast<intptr_t>(indices.size()),
        indices.data(), data.data(), bytes.data(), types.data()));
  }

  std::shared_ptr<Context> context;
  MlirModule module;

private:
  /// The MLIR element type of an array's dtype as tcc's tensors spell it
  /// (unsigned integers as ui8 ..., bool as i1); a null type for one tcc
  /// has not (the freeze then checks only the byte count).
  MlirType elementTypeOf(nb::dlpack::dtype dt) const {
    using Code = nb::dlpack::dtype_code;
    MlirContext ctx = context->get();
    auto code = static_cast<Code>(dt.code);
    if (dt.lanes != 1)
      return MlirType{nullptr};
    switch (code) {
    case Code::Float:
      return dt.bits == 32   ? mlirF32TypeGet(ctx)
             : dt.bits == 64 ? mlirF64TypeGet(ctx)
             : dt.bits == 16 ? mlirF16TypeGet(ctx)
                             : MlirType{nullptr};
    case Code::Bfloat:
      return dt.bits == 16 ? mlirBF16TypeGet(ctx) : MlirType{nullptr};
    case Code::Bool:
      return mlirIntegerTypeGet(ctx, 1);
    case Code::Int:
      return mlirIntegerTypeGet(ctx, dt.bits);
    case Code::UInt:
      return mlirIntegerTypeUnsignedGet(ctx, dt.bits);
    default:
      return MlirType{nullptr};
    }
  }
};

/// The tcc dtype of an ndarray's element type, or -1.
int dtypeOf(nb::dlpack::dtype dt) {
  using Code = nb::dlpack::dtype_code;
  auto code = static_cast<Code>(dt.code);
  if (dt.lanes != 1)
    return -1;
  if (code == Code::Float)
    return dt.bits == 32 ? TCC_F32 : dt.bits == 64 ? TCC_F64
                                   : dt.bits == 16 ? TCC_F16 : -1;
  if (code == Code::Bfloat && dt.bits == 16)
    return TCC_BF16;
  if (code == Code::Bool && dt.bits == 8)
    return TCC_I1;
  if (code == Code::Int)
    return dt.bits == 8    ? TCC_I8
           : dt.bits == 16 ? TCC_I16
           : dt.bits == 32 ? TCC_I32
           : dt.bits == 64 ? TCC_I64
                           : -1;
  if (code == Code::UInt)
    return dt.bits == 8    ? TCC_U8
           : dt.bits == 16 ? TCC_U16
           : dt.bits == 32 ? TCC_U32
           : dt.bits == 64 ? TCC_U64
                           : -1;
  return -1;
}

/// numpy's element type for a tcc dtype; bf16 comes back as its bits
/// (uint16), as tcc-run's .npy files hold it.
nb::dlpack::dtype numpyDtypeOf(int dtype) {
  switch (dtype) {
  case TCC_F32: return nb::dtype<float>();
  case TCC_F64: return nb::dtype<double>();
  case TCC_F16: return {uint8_t(nb::dlpack::dtype_code::Float), 16, 1};
  case TCC_BF16: return nb::dtype<uint16_t>();
  case TCC_I1: return nb::dtype<bool>();
  case TCC_I8: return nb::dtype<int8_t>();
  case TCC_I32: return nb::dtype<int32_t>();
  case TCC_I16: return nb::dtype<int16_t>();
  case TCC_U8: return nb::dtype<uint8_t>();
  case TCC_U16: return nb::dtype<uint16_t>();
  case TCC_U32: return nb::dtype<uint32_t>();
  case TCC_U64: return nb::dtype<uint64_t>();
  default: return nb::dtype<int64_t>();
  }
}

// Read-only arrays (memory-mapped weights) are fine: inputs are never
// written.
using Array = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
using NumpyArray = nb::ndarray<nb::numpy>;

/// A module JIT-compiled for this CPU.
class Executable {
public:
  explicit Executable(TccCPUExecutable exe) : exe(exe) {}
  ~Executable() { tccCPUExecutableDestroy(exe); }
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  std::string signatures() const {
    std::string json;
    tccCPUExecutableGetSignatures(exe, appendTo, const_cast<std::string *>(&json));
    return json;
  }

  /// Calls `name`; raises ValueError (wrong inputs) or RuntimeError (a
  /// failed call) with tcc's message.
  std::vector<NumpyArray> run(const std::string &name,
                              const std::vector<Array> &inputs) {
    int numInputs, numResults;
    if (tccCPUExecutableGetArity(exe, ref(name), &numInputs, &numResults))
      throw nb::value_error(("no function '" + name + "'").c_str());
    std::vector<tcc_tensor> in(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Array &a = inputs[i];
      int dtype = dtypeOf(a.dtype());
      if (dtype < 0)
        throw nb::type_error(("input " + std::to_string(i) +
                              ": element type not supported by tcc")
                                 .c_str());
      if (a.ndim() > TCC_MAX_RANK)
        throw nb::value_error(("input " + std::to_string(i) +
                               ": rank above " +
                               std::to_string(TCC_MAX_RANK))
                                  .c_str());
      in[i].data = const_cast<void *>(a.data());
      in[i].dtype = dtype;
      in[i].rank = static_cast<int32_t>(a.ndim());
      for (size_t d = 0; d < a.ndim(); ++d)
        in[i].shape[d] = static_cast<int64_t>(a.shape(d));
    }
    std::vector<tcc_tensor> out(numResults);
    std::string error;
    int code;
    {
      nb::gil_scoped_release release;
      code = tccCPUExecutableRun(exe, ref(name), in.data(), (int)in.size(),
                                 out.data(), numResults, appendTo, &error);
    }
    if (code == 1 || code == 2)
      throw nb::value_error(error.c_str());
    if (code != 0)
      throw std::runtime_error(error);
    std::vector<NumpyArray> results;
    for (tcc_tensor &t : out) {
      auto *owned = new tcc_tensor(t);
      nb::capsule owner(owned, [](void *p) noexcept {
        auto *t = static_cast<tcc_tensor *>(p);
        tccTensorRelease(t);
        delete t;
      });
      std::vector<size_t> shape(t.shape, t.shape + t.rank);
      results.emplace_back(t.data, shape.size(), shape.data(), owner,
                           /*strides=*/nullptr, numpyDtypeOf(t.dtype));
    }
    return results;
  }

  double lastRunSeconds() const {
    return tccCPUExecutableGetLastRunSeconds(exe);
  }

private:
  TccCPUExecutable exe;
};

} // namespace

NB_MODULE(_tcc, m) {
  m.doc() = "tcc's compiler and runtime (see the tcc package)";
  // Compiled graphs live in module-level caches (tcc.dynamo) and in
  // torch.compile's wrappers until the interpreter exits; nanobind would
  // report those as leaks at shutdown.
  nb::set_leak_warnings(false);

  nb::class_<Context>(m, "Context")
      .def(nb::init<>())
      .def("take_diagnostics", &Context::takeDiagnostics,
           "The diagnostics since the last call, oldest first.");

  nb::class_<Module>(m, "Module")
      .def_static("parse", &Module::parse, nb::arg("context"),
                  nb::arg("text"),
                  "Parses MLIR text; None on failure (diagnostics in the "
                  "context).")
      .def("__str__", &Module::str)
      .def("clone", &Module::clone)
      .def("verify", &Module::verify)
      .def("freeze_arguments", &Module::freezeArguments,
           nb::arg("function"), nb::arg("indices"), nb::arg("values"),
           "Binds the arguments at `indices` to the arrays' bytes "
           "(constants; they leave the signature); False on failure "
           "(diagnostics in the context).")
      .def_prop_ro("context",
                   [](const Module &m) { return m.context; })
      .def(
          "run_pipeline",
          [](Module &m, const std::string &pipeline) {
            std::string error;
            bool ok = m.runPipeline(pipeline, error);
            return nb::make_tuple(ok, error);
          },
          nb::arg("pipeline"),
          "Runs a textual pass pipeline in place: (ok, parse error).");

  m.def(
      "import_onnx",
      [](std::shared_ptr<Context> context, nb::bytes data,
         const std::string &source, const std::string &function,
         bool weightsAsArguments) -> std::shared_ptr<Module> {
        MlirModule module = tccImportONNX(
            context->get(), mlirStringRefCreate(data.c_str(), data.size()),
            ref(source), ref(function), weightsAsArguments);
        if (mlirModuleIsNull(module))
          return nullptr;
        return std::make_shared<Module>(std::move(context), module);
      },
      nb::arg("context"), nb::arg("data"), nb::arg("source"),
      nb::arg("function"), nb::arg("weights_as_arguments"));
  m.def("has_onnx_importer", &tccHasONNXImporter);

  m.def("compile_cache_info", []() {
    MlirStringRef dir = tccCompileCacheDirectory();
    TccCompileCacheStats s = tccCompileCacheGetStats();
    return nb::make_tuple(std::string(dir.data, dir.length), s.hits, s.misses,
                          s.stores);
  });
  m.def("compile_cache_clear", &tccCompileCacheClear);

  nb::class_<Executable>(m, "Executable")
      .def("signatures", &Executable::signatures)
      .def("run", &Executable::run, nb::arg("function"), nb::arg("inputs"))
      .def_prop_ro("last_run_seconds", &Executable::lastRunSeconds);

  m.def(
      "compile_cpu",
      [](const Module &module, const std::string &options)
          -> nb::tuple {
        std::string error;
        TccCPUExecutable exe = tccCPUExecutableCreate(
            module.module, ref(options), appendTo, &error);
        if (tccCPUExecutableIsNull(exe))
          return nb::make_tuple(nb::none(), error);
        return nb::make_tuple(nb::cast(new Executable(exe),
                                       nb::rv_policy::take_ownership),
                              error);
      },
      nb::arg("module"), nb::arg("options"),
      "JIT-compiles for this CPU: (Executable or None, error summary).");

  m.def(
      "build_library",
      [](const Module &module, const std::string &target,
         const std::string &options, const std::string &output) -> nb::object {
        std::string error;
        if (tccBuildLibrary(module.module, ref(target), ref(options),
                            ref(output), appendTo, &error) == 0)
          return nb::none();
        return nb::str(error.c_str());
      },
      nb::arg("module"), nb::arg("target"), nb::arg("options"),
      nb::arg("output"),
      "Builds a shared library (tcc_model.h's ABI) at `output`: None, or "
      "the error summary.");
}
