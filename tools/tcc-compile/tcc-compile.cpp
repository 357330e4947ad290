//===- tcc-compile.cpp - ahead-of-time shared libraries ---------*- C++ -*-===//
//
//   tcc-compile model.mlir -o libmodel.so [--target=cpu] [--mcpu=native]
//
// Compiles every public function of the module with the same pipeline the
// JIT (tcc-run) uses, emits an object file for the target CPU, and links it
// with tcc's model runtime into a shared library exporting the C ABI of
// include/tcc/Runtime/tcc_model.h. Beside the library it writes the
// manifest (libmodel.json): entries, inputs and results with dtypes and
// symbolic shapes, size symbols and the constraints the entry checks.
// The library needs no MLIR: libc, libstdc++ and (parallel builds) libomp.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/InitAll.h"
#include "tcc/Runtime/HostTensor.h"
#include "../LayoutAndLibraryFlags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
namespace cl = llvm::cl;
using ::tcc::runtime::DType;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required);
static cl::opt<std::string> outputFile("o", cl::desc("Output library (.so)"),
                                       cl::value_desc("libNAME.so"),
                                       cl::Required);
enum class Target { CPU, CUDA };
static cl::opt<Target> target(
    "target", cl::desc("What the library runs on"),
    cl::values(clEnumValN(Target::CPU, "cpu", "the host CPU (x86-64)"),
               clEnumValN(Target::CUDA, "cuda",
                          "NVIDIA GPUs (kernels for --chip, host code for "
                          "this CPU): tensors are device pointers")),
    cl::init(Target::CPU));
static cl::opt<std::string> chip("chip",
                                 cl::desc("GPU architecture (--target=cuda)"),
                                 cl::init("sm_90"));
static cl::opt<std::string>
    mcpu("mcpu", cl::desc("CPU to generate code for (default: this machine's)"),
         cl::init("native"));
static cl::opt<bool> noFuse("no-fuse", cl::desc("Compile without fusion"),
                            cl::init(false));
static cl::opt<bool> noParallel(
    "no-parallel", cl::desc("Run on one thread (no libomp dependency)"),
    cl::init(false));
static cl::list<std::string> specialize(
    "specialize", cl::CommaSeparated,
    cl::desc("Compile for fixed sizes: NAME=VALUE,... (size symbols)"));
static cl::opt<std::string> keepObject(
    "keep-object", cl::value_desc("FILE.o"),
    cl::desc("Also keep the object file and the generated entry table"));
static cl::opt<std::string> compiler(
    "cc", cl::desc("C compiler that links the library"), cl::init("cc"));

static int fail(const std::string &message) {
  llvm::errs() << "tcc-compile: error: " << message << "\n";
  return 1;
}

/// A C string literal of `text`.
static std::string cString(StringRef text) {
  std::string s = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      s += '\\', s += c;
    else if (c == '\n')
      s += "\\n";
    else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\%03o", c);
      s += buf;
    } else
      s += c;
  }
  return s + "\"";
}

/// Symbolic shapes of a function's arguments and results, as text ("B",
/// "768", "S * 3"), from --symbolic-shapes' analysis of the source.
static llvm::json::Array shapesOf(mlir::tcc::SymbolicShapeAnalysis &shapes,
                                  ValueRange values) {
  llvm::json::Array out;
  for (Value v : values) {
    llvm::json::Array dims;
    for (AffineExpr e : shapes.getShape(v))
      dims.push_back(mlir::tcc::printSymbolicExpr(e, shapes.getNames()));
    out.push_back(std::move(dims));
  }
  return out;
}

/// The manifest: what a caller needs to know without MLIR.
static llvm::json::Object
manifest(ModuleOp source, ArrayRef<mlir::tcc::FunctionSignature> signatures,
         std::string &error) {
  bool cuda = target == Target::CUDA;
  llvm::json::Array entries;
  for (const mlir::tcc::FunctionSignature &sig : signatures) {
    auto func = source.lookupSymbol<func::FuncOp>(sig.name);
    llvm::json::Object entry{{"name", sig.name}};
    auto tensors = [&](const mlir::tcc::TensorSignature &t,
                       llvm::json::Array shapes) {
      llvm::json::Array list;
      for (size_t i = 0; i < t.dtypes.size(); ++i) {
        llvm::json::Object o{{"dtype", ::tcc::runtime::dtypeName(t.dtypes[i])},
                             {"rank", (int64_t)t.shapes[i].size()}};
        if (i < shapes.size())
          o["shape"] = std::move(shapes[i]);
        list.push_back(std::move(o));
      }
      return list;
    };
    llvm::json::Array argShapes, resultShapes;
    llvm::json::Array symbols;
    if (func) {
      FailureOr<mlir::tcc::SymbolicShapeAnalysis> shapes =
          mlir::tcc::SymbolicShapeAnalysis::run(func);
      if (succeeded(shapes)) {
        argShapes = shapesOf(*shapes, func.getArguments());
        auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
        resultShapes = shapesOf(*shapes, ret.getOperands());
      }
    }
    for (auto [i, name] : llvm::enumerate(sig.guards.names)) {
      auto [input, dim] = sig.guards.definitions[i];
      symbols.push_back(llvm::json::Object{
          {"name", name}, {"input", (int64_t)input}, {"dim", dim}});
    }
    llvm::json::Array constraints;
    for (size_t k = 0; k < sig.guards.guards.size(); ++k)
      constraints.push_back(sig.guards.describe(k));
    entry["inputs"] = tensors(sig.inputs, std::move(argShapes));
    entry["results"] = tensors(sig.results, std::move(resultShapes));
    entry["symbols"] = std::move(symbols);
    entry["checks"] = std::move(constraints);
    entries.push_back(std::move(entry));
  }
  llvm::json::Object out{{"format", "tcc-model-1"},
                         {"target", cuda ? "cuda" : "cpu"},
                         {"memory", cuda ? "device" : "host"},
                         {"abi", "include/tcc/Runtime/tcc_model.h"},
                         {"workspace_bytes", 0},
                         {"entries", std::move(entries)}};
  if (cuda)
    out["chip"] = chip;
  return out;
}

/// The entry table (ModelTable.h) and one trampoline per entry that calls
/// `_mlir_ciface_<name>` with the right number of arguments.
static std::string entryTable(ArrayRef<mlir::tcc::FunctionSignature> signatures,
                              const std::string &manifestText) {
  std::string c = "/* Generated by tcc-compile. */\n"
                  "#include \"tcc/Runtime/ModelTable.h\"\n\n";
  auto ints = [](auto range) {
    std::string s = "{";
    for (auto v : range)
      s += std::to_string(v) + ",";
    return s + "0}"; // never empty
  };
  for (auto [k, sig] : llvm::enumerate(signatures)) {
    std::string n = std::to_string(k);
    size_t numIn = sig.inputs.dtypes.size();
    bool statusOnly = sig.results.dtypes.empty();
    std::string params, argList;
    for (size_t i = 0; i < numIn; ++i) {
      params += std::string(i || !statusOnly ? ", " : "") + "void *";
      argList += std::string(i || !statusOnly ? ", " : "") + "args[" +
                 std::to_string(i) + "]";
    }
    std::string fn = "_mlir_ciface_" + sig.name;
    if (statusOnly) {
      c += "extern int64_t " + fn + "(" + (params.empty() ? "void" : params) +
           ");\n";
      c += "static void call_" + n + "(int64_t *r, void **args) {\n"
           "  (void)args;\n  r[0] = " + fn + "(" + argList + ");\n}\n";
    } else {
      c += "extern void " + fn + "(void *" + params + ");\n";
      c += "static void call_" + n + "(int64_t *r, void **args) {\n"
           "  (void)args;\n  " + fn + "(r" + argList + ");\n}\n";
    }
    std::vector<int> inDt, inRank, resDt, resRank;
    for (size_t i = 0; i < numIn; ++i) {
      inDt.push_back((int)sig.inputs.dtypes[i]);
      inRank.push_back((int)sig.inputs.shapes[i].size());
    }
    for (size_t i = 0; i < sig.results.dtypes.size(); ++i) {
      resDt.push_back((int)sig.results.dtypes[i]);
      resRank.push_back((int)sig.results.shapes[i].size());
    }
    c += "static const int32_t in_dt_" + n + "[] = " + ints(inDt) + ";\n";
    c += "static const int32_t in_rank_" + n + "[] = " + ints(inRank) + ";\n";
    c += "static const int32_t res_dt_" + n + "[] = " + ints(resDt) + ";\n";
    c += "static const int32_t res_rank_" + n + "[] = " + ints(resRank) +
         ";\n";
    c += "static const char *const guards_" + n + "[] = {";
    for (size_t g = 0; g < sig.guards.guards.size(); ++g)
      c += cString(sig.guards.describe(g)) + ", ";
    c += "0};\n\n";
  }
  c += "const tcc_entry_desc tcc_entries_[] = {\n";
  for (auto [k, sig] : llvm::enumerate(signatures)) {
    std::string n = std::to_string(k);
    c += "  {" + cString(sig.name) + ", call_" + n + ", " +
         std::to_string(sig.inputs.dtypes.size()) + ", " +
         std::to_string(sig.results.dtypes.size()) + ", in_dt_" + n +
         ", in_rank_" + n + ", res_dt_" + n + ", res_rank_" + n + ", " +
         std::to_string(sig.guards.guards.size()) + ", guards_" + n + "},\n";
  }
  if (signatures.empty())
    c += "  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},\n";
  c += "};\n";
  if (target == Target::CUDA)
    c += "#include \"tcc/Runtime/CUDARuntime.h\"\n"
         "const tcc_memory_ops tcc_memory_ = {1, tccCudaFree, tccCudaAlloc, "
         "tccCudaCopy, tccCudaTakeError, tccCudaBeginCapture, "
         "tccCudaEndCapture, tccCudaGraphLaunch, tccCudaGraphDestroy, "
         "tccCudaSetStream, tccCudaGraphLaunchOn};\n";
  else
    c += "extern void tccFree(void *);\nextern void *tccMalloc(size_t);\n"
         "const tcc_memory_ops tcc_memory_ = {0, tccFree, tccMalloc, 0, 0, "
         "0, 0, 0, 0, 0, 0};\n";
  c += "const int32_t tcc_entry_count_ = " +
       std::to_string(signatures.size()) + ";\n";
  c += "const char tcc_manifest_[] = " + cString(manifestText) + ";\n";
  return c;
}

/// The machine --mcpu names (this one's, features included, by default).
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string lookupError;
  const llvm::Target *t =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!t) {
    error = lookupError;
    return nullptr;
  }
  std::string cpu = mcpu == "native" ? llvm::sys::getHostCPUName().str()
                                     : mcpu.getValue();
  std::string features;
  if (mcpu == "native") {
    llvm::SubtargetFeatures f;
    for (auto &[name, on] : llvm::sys::getHostCPUFeatures())
      f.AddFeature(name, on);
    features = f.getString();
  }
  llvm::TargetOptions options;
  // Constructors (the kernel modules' loaders) in .init_array: lld does not
  // run a .ctors section.
  options.UseInitArray = true;
  // With --target=cuda the host code only sets up descriptors and calls
  // the runtime (the kernels are compiled apart): IR and codegen without
  // optimization (fast instruction selection and register allocation)
  // keep tcc-compile fast: ViT-B/16's host code takes 0.2 s instead of
  // 0.45 s with IR at O1 and 0.9 s at CodeGenOptLevel::Less.
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      target == Target::CUDA ? llvm::CodeGenOptLevel::None
                             : llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    error = "no target machine for " + triple.str() + " / " + cpu;
  return tm;
}

/// Whether the CPU the library is compiled for has AVX-512 (the pipeline
/// may then use its instructions).
static FailureOr<bool> targetHasAVX512(std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(error);
  if (!tm)
    return failure();
  return tm->getMCSubtargetInfo()->checkFeatures("+avx512f");
}

/// LLVM IR of the lowered module, optimized and compiled for `cpu` into an
/// object file at `path`.
static LogicalResult emitObject(ModuleOp lowered, StringRef path,
                                std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerAllToLLVMIRTranslations(registry); // gpu.binary, launch_func
  lowered->getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, llvmContext, "tcc_model");
  if (!module) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  // The compiled code's heap: the caching allocator, as under the JIT.
  for (auto [from, to] : {std::pair{"malloc", "tccMalloc"},
                          {"free", "tccFree"},
                          {"calloc", "tccCalloc"},
                          {"realloc", "tccRealloc"}})
    if (llvm::Function *f = module->getFunction(from))
      f->setName(to);

  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(error);
  if (!tm)
    return failure();
  module->setDataLayout(tm->createDataLayout());
  module->setTargetTriple(triple);
  if (llvm::Error e = makeOptimizingTransformer(
          target == Target::CUDA ? 0 : 3, 0, tm.get())(module.get())) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(e));
    return failure();
  }
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write " + path.str() + ": " + ec.message();
    return failure();
  }
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out.os(), nullptr,
                              llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit object files";
    return failure();
  }
  pm.run(*module);
  out.keep();
  return success();
}

/// PREFIX/`relative` for this tool at PREFIX/bin/tcc-compile: where an
/// installed tcc keeps what the libraries link (the build tree's bin/ and
/// lib/ have the same layout; its headers stay in the source tree).
static std::string besideTool(const char *argv0, StringRef relative) {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  SmallString<256> path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv, "tcc: compile a module into a shared library\n");

  DialectRegistry registry;
  mlir::tcc::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("could not parse " + inputFile);
  if (!StringRef(outputFile).ends_with(".so"))
    return fail("-o: expected a shared library name ending in .so, got '" +
                outputFile + "'");

  FailureOr<mlir::tcc::LoweredModule> lowered = failure();
  if (target == Target::CUDA) {
#ifndef TCC_CUDA_RUNTIME_LIB
    return fail("--target=cuda: this tcc was built without the CUDA toolkit "
                "(configure with -DTCC_CUDA_PATH=...)");
#else
    mlir::tcc::CUDAPipelineOptions options;
    options.fuse = !noFuse;
    options.chip = chip;
    for (const std::string &s : specialize)
      options.specialize.push_back(s);
    lowered = mlir::tcc::lowerForCUDA(*module, options, error);
#endif
  } else {
    mlir::tcc::CPUPipelineOptions options;
    options.fuse = !noFuse;
    options.parallel = !noParallel;
    tcc_tools::applyLayoutAndLibraryFlags(options);
    for (const std::string &s : specialize)
      options.specialize.push_back(s);
    FailureOr<bool> avx512 = targetHasAVX512(error);
    if (failed(avx512))
      return fail(error);
    options.avx512 = *avx512 ? mlir::tcc::CPUPipelineOptions::AVX512::On
                             : mlir::tcc::CPUPipelineOptions::AVX512::Off;
    lowered = mlir::tcc::lowerForCPU(*module, options, error);
  }
  if (failed(lowered))
    return fail(error);
  if (lowered->signatures.empty())
    return fail(inputFile + " has no public function to export");

  // The manifest reads the shapes of the (specialized) source.
  llvm::json::Object json = manifest(*module, lowered->signatures, error);
  std::string manifestText;
  llvm::raw_string_ostream(manifestText)
      << llvm::formatv("{0:2}", llvm::json::Value(std::move(json)));

  SmallString<128> objectPath, tablePath, exportsPath;
  if (!keepObject.empty()) {
    objectPath = keepObject;
    tablePath = keepObject + ".entries.c";
    exportsPath = keepObject + ".exports";
  } else {
    if (llvm::sys::fs::createTemporaryFile("tcc-model", "o", objectPath) ||
        llvm::sys::fs::createTemporaryFile("tcc-model", "c", tablePath) ||
        llvm::sys::fs::createTemporaryFile("tcc-model", "exports",
                                           exportsPath))
      return fail("cannot create temporary files");
  }
  llvm::scope_exit cleanup([&] {
    if (keepObject.empty()) {
      llvm::sys::fs::remove(objectPath);
      llvm::sys::fs::remove(tablePath);
      llvm::sys::fs::remove(exportsPath);
    }
  });
  if (failed(emitObject(*lowered->module, objectPath, error)))
    return fail(error);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tablePath, ec);
    if (ec)
      return fail("cannot write " + tablePath.str().str());
    os << entryTable(lowered->signatures, manifestText);
    // Only the C ABI and the entries' own C interfaces are exported; the
    // runtime's C++ symbols stay inside.
    llvm::raw_fd_ostream exports(exportsPath, ec);
    if (ec)
      return fail("cannot write " + exportsPath.str().str());
    exports << "{\n  global:\n    tcc_run; tcc_release; tcc_last_error;\n"
               "    tcc_manifest; tcc_num_entries; tcc_entry_name;\n"
               "    tcc_entry_arity; tcc_graph_create; tcc_graph_launch;\n"
               "    tcc_graph_destroy; tcc_run_on_stream;\n"
               "    tcc_graph_launch_on_stream;\n";
    for (const mlir::tcc::FunctionSignature &sig : lowered->signatures)
      exports << "    _mlir_ciface_" << sig.name << ";\n";
    exports << "  local: *;\n};\n";
  }

  // Link: object + entry table + model runtime (+ libomp).
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName(compiler);
  if (!cc)
    return fail("no C compiler '" + compiler + "' on PATH (use --cc=...)");
  auto lib = [&](const char *built) {
    std::string installed = besideTool(
        argv[0], ("lib/" + llvm::sys::path::filename(built)).str());
    return llvm::sys::fs::exists(installed) ? installed : std::string(built);
  };
  std::string includeDir =
      llvm::sys::fs::exists(
          besideTool(argv[0], "include/tcc/Runtime/tcc_model.h"))
          ? besideTool(argv[0], "include")
          : std::string(TCC_INCLUDE_DIR);
  std::vector<std::string> args = {*cc,
                                   "-shared",
                                   "-fPIC",
                                   "-O2",
                                   "-x",
                                   "c",
                                   "-I" + includeDir,
                                   tablePath.str().str(),
                                   "-x",
                                   "none",
                                   objectPath.str().str(),
                                   "-Wl,--whole-archive",
                                   lib(TCC_MODEL_RUNTIME_LIB),
                                   "-Wl,--no-whole-archive",
                                   lib(TCC_RUNTIME_LIB),
                                   "-Wl,--version-script=" +
                                       exportsPath.str().str(),
                                   "-lstdc++",
                                   "-lm",
                                   "-Wl,--no-undefined",
                                   "-o",
                                   outputFile};
  if (target == Target::CUDA) {
#ifdef TCC_CUDA_RUNTIME_LIB
    // The driver API: the stub to link, libcuda.so.1 where it runs.
    args.insert(args.end() - 2, lib(TCC_CUDA_RUNTIME_LIB));
    args.insert(args.end() - 2, TCC_CUDA_DRIVER_STUB);
#endif
  } else {
    // libomp before oneDNN: it serves oneDNN's GNU OpenMP calls too (one
    // thread pool; see lib/Runtime/CMakeLists.txt).
    if (!noParallel)
      args.insert(args.end() - 2, TCC_OPENMP_RUNTIME_PATH);
#ifdef TCC_DNNL_RUNTIME_LIB
    // Library convolutions: the runtime, and oneDNN where it runs.
    args.insert(args.end() - 2, lib(TCC_DNNL_RUNTIME_LIB));
    args.insert(args.end() - 2, TCC_DNNL_LIB);
#endif
  }
  // lld (else gold) links in a fraction of ld.bfd's time (0.7 s for
  // ViT-B/16's cuda library, most of tcc-compile's time after codegen).
  for (const char *linker : {"lld", "gold"})
    if (llvm::sys::findProgramByName(std::string("ld.") + linker)) {
      args.insert(args.begin() + 1, std::string("-fuse-ld=") + linker);
      break;
    }
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::string linkError;
  int rc = llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0,
                                     &linkError);
  if (rc != 0)
    return fail("linking " + outputFile + " failed" +
                (linkError.empty() ? "" : ": " + linkError) +
                " (command: " + llvm::join(args, " ") + ")");

  // The manifest beside the library: libNAME.so -> libNAME.json.
  SmallString<128> manifestPath(outputFile);
  llvm::sys::path::replace_extension(manifestPath, "json");
  std::error_code ec;
  llvm::raw_fd_ostream os(manifestPath, ec);
  if (ec)
    return fail("cannot write " + manifestPath.str().str());
  os << manifestText << "\n";
  return 0;
}
