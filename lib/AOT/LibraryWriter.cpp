//===- LibraryWriter.cpp - ahead-of-time shared libraries -------*- C++ -*-===//
//
// The object files are compiled for the module's #tcc.target, in parallel
// parts (Target/ObjectCodegen.h; a cuda target's host code for this
// machine, without optimization: it only sets up descriptors and calls the
// runtime). The entry table (ModelTable.h)
// has one trampoline per entry calling `_mlir_ciface_<name>`; only the C
// ABI and those interfaces are exported. The library needs no MLIR: libc,
// libstdc++, libomp where tile loops run in parallel, oneDNN (cpu) or the
// CUDA driver (cuda).
//
//===----------------------------------------------------------------------===//

#include "tcc/AOT/LibraryWriter.h"
#include "tcc/AOT/ExternalWeights.h"
#include "tcc/Pipelines/CompileCache.h"
#include "tcc/Runtime/ParallelRegions.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Target/ObjectCodegen.h"
#include "tcc/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A C string literal of `text`.
std::string cString(StringRef text) {
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
llvm::json::Array shapesOf(SymbolicShapeAnalysis &shapes, ValueRange values) {
  llvm::json::Array out;
  for (Value v : values) {
    llvm::json::Array dims;
    for (AffineExpr e : shapes.getShape(v))
      dims.push_back(printSymbolicExpr(e, shapes.getNames()));
    out.push_back(std::move(dims));
  }
  return out;
}

/// The manifest: what a caller needs to know without MLIR.
llvm::json::Object manifest(ModuleOp source,
                            ArrayRef<FunctionSignature> signatures,
                            TargetAttr target, StringRef weightsFile) {
  bool cuda = target.isCUDA();
  llvm::json::Array entries;
  for (const FunctionSignature &sig : signatures) {
    auto func = source.lookupSymbol<func::FuncOp>(sig.name);
    llvm::json::Object entry{{"name", sig.name}};
    auto tensors = [&](const TensorSignature &t, llvm::json::Array shapes) {
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
      FailureOr<SymbolicShapeAnalysis> shapes = SymbolicShapeAnalysis::run(func);
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
                         {"target", target.getKind()},
                         {"memory", cuda ? "device" : "host"},
                         {"abi", "include/tcc/Runtime/tcc_model.h"},
                         {"workspace_bytes", 0},
                         {"entries", std::move(entries)}};
  if (cuda)
    out["chip"] = target.getArch();
  if (!weightsFile.empty())
    out["weights"] = weightsFile;
  return out;
}

/// The entry table (ModelTable.h) and one trampoline per entry that calls
/// `_mlir_ciface_<name>` with the right number of arguments.
std::string entryTable(ArrayRef<FunctionSignature> signatures,
                       const std::string &manifestText, bool cuda,
                       const ExternalWeights &weights) {
  std::string c = "/* Generated by tcc (lib/AOT). */\n"
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
  if (cuda)
    c += "#include \"tcc/Runtime/CUDARuntime.h\"\n"
         "const tcc_memory_ops tcc_memory_ = {1, tccCudaFree, tccCudaAlloc, "
         "tccCudaCopy, tccCudaTakeError, tccCudaBeginCapture, "
         "tccCudaEndCapture, tccCudaGraphLaunch, tccCudaGraphDestroy, "
         "tccCudaSetStream, tccCudaGraphLaunchOn};\n";
  else
    c += "extern void tccFree(void *);\nextern void *tccMalloc(size_t);\n"
         "const tcc_memory_ops tcc_memory_ = {0, tccFree, tccMalloc, 0, 0, "
         "0, 0, 0, 0, 0, 0};\n";
  c += "const uint64_t tcc_weights_id_ = " + std::to_string(weights.id) +
       "ull;\nconst uint64_t tcc_weights_bytes_ = " +
       std::to_string(weights.bytes) + "ull;\n";
  c += "const int32_t tcc_entry_count_ = " +
       std::to_string(signatures.size()) + ";\n";
  c += "const char tcc_manifest_[] = " + cString(manifestText) + ";\n";
  return c;
}

/// The lowered module as LLVM IR, optimized and compiled for `target` into
/// object files (parts compiled in parallel: Target/ObjectCodegen.h);
/// `usesOpenMP` says whether they call libomp.
FailureOr<SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
emitObjects(ModuleOp lowered, TargetAttr target, bool &usesOpenMP,
            std::string &error) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerAllToLLVMIRTranslations(registry); // gpu.binary, launch_func
  lowered->getContext()->appendDialectRegistry(registry);

  auto start = std::chrono::steady_clock::now();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, llvmContext, "tcc_model");
  if (!module) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  reportStageTime("translation to LLVM IR", start);
  // The compiled code's heap: the caching allocator, as under the JIT.
  for (auto [from, to] : {std::pair{"malloc", "tccMalloc"},
                          {"free", "tccFree"},
                          {"calloc", "tccCalloc"},
                          {"realloc", "tccRealloc"}})
    if (llvm::Function *f = module->getFunction(from))
      f->setName(to);
  usesOpenMP = llvm::any_of(module->functions(), [](llvm::Function &f) {
    return f.getName().starts_with("__kmpc_");
  });
  // Parallel regions on the process's GNU OpenMP pool
  // (Runtime/ParallelRegions.h).
  int count;
  const ::tcc::runtime::ParallelRegionEntry *entries =
      ::tcc::runtime::parallelRegionEntries(count);
  for (int i = 0; i < count; ++i)
    if (llvm::Function *f = module->getFunction(entries[i].kmpcName))
      f->setName(entries[i].tccName);

  // A cuda target's host code only sets up descriptors and calls the
  // runtime (the kernels are compiled apart): IR and codegen without
  // optimization keep the build fast (ViT-B/16's host code: 0.2 s instead
  // of 0.45 s with IR at O1 and 0.9 s at CodeGenOptLevel::Less).
  ObjectCodegenOptions codegen;
  if (target.isCUDA()) {
    codegen.optLevel = 0;
    codegen.codegenLevel = llvm::CodeGenOptLevel::None;
  }
  return compileToObjects(std::move(module), target, codegen, error);
}

/// Where an installed tcc keeps what the libraries link: PREFIX/lib and
/// PREFIX/include, PREFIX being the parent of the folder holding the binary
/// or shared object this code is in (bin/tcc-compile, lib/libTCCCAPI.so);
/// else the build tree's (its headers stay in the source tree).
struct RuntimePieces {
  std::string prefix;

  RuntimePieces() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&writeSharedLibrary), &info) &&
        info.dli_fname) {
      SmallString<256> path(info.dli_fname);
      llvm::sys::fs::make_absolute(path);
      prefix = llvm::sys::path::parent_path(llvm::sys::path::parent_path(path))
                   .str();
    }
  }
  /// The installed copy of the library built at `built`, if there is one.
  std::string lib(StringRef built) const {
    SmallString<256> installed(prefix);
    llvm::sys::path::append(installed, "lib", llvm::sys::path::filename(built));
    return !prefix.empty() && llvm::sys::fs::exists(installed)
               ? std::string(installed)
               : built.str();
  }
  std::string includeDir() const {
    SmallString<256> header(prefix);
    llvm::sys::path::append(header, "include/tcc/Runtime/tcc_model.h");
    if (!prefix.empty() && llvm::sys::fs::exists(header))
      return prefix + "/include";
    return TCC_INCLUDE_DIR;
  }
};

/// `options` read from `text`; `error` has the parser's message.
template <typename Options>
LogicalResult parsePipelineOptions(Options &options, StringRef text,
                                   StringRef pipeline, std::string &error) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(options.parseFromString(text, os)))
    return success();
  error = "invalid " + pipeline.str() + " pipeline options '" + text.str() +
          "'" + (message.empty() ? "" : ": " + message);
  return failure();
}

} // namespace

LogicalResult mlir::tcc::writeSharedLibrary(ModuleOp source,
                                            LoweredModule &lowered,
                                            const LibraryWriterOptions &options,
                                            std::string &error) {
  StringRef outputFile = options.outputPath;
  if (!outputFile.ends_with(".so")) {
    error = "-o: expected a shared library name ending in .so, got '" +
            outputFile.str() + "'";
    return failure();
  }
  if (lowered.signatures.empty()) {
    error = "the module has no public function to export";
    return failure();
  }
  TargetAttr target = lookupTarget(*lowered.module);
  bool cuda = target.isCUDA();
#ifndef TCC_CUDA_RUNTIME_LIB
  if (cuda) {
    error = "--target=cuda: this tcc was built without the CUDA toolkit "
            "(configure with -DTCC_CUDA_PATH=...)";
    return failure();
  }
#endif

  // Large weights beside the library, written straight from the module.
  auto start = std::chrono::steady_clock::now();
  std::string weightsPath = weightsPathOf(outputFile);
  ExternalWeights weights;
  constexpr uint64_t kSmallConstantBytes = 4096; // shapes, tables: inside
  if (options.weights != WeightsPlacement::Embedded) {
    uint64_t minTotal = options.weights == WeightsPlacement::Auto
                            ? options.weightsFileMinBytes
                            : 0;
    FailureOr<ExternalWeights> moved = moveWeightsToFile(
        *lowered.module, weightsPath, kSmallConstantBytes, minTotal, error);
    if (failed(moved))
      return failure();
    weights = *moved;
    if (weights.id)
      reportStageTime("writing the weights file", start);
  }
  if (!weights.id)
    llvm::sys::fs::remove(weightsPath); // a stale one from an earlier build

  // The manifest reads the shapes of the (specialized) source.
  std::string manifestText;
  llvm::raw_string_ostream(manifestText) << llvm::formatv(
      "{0:2}", llvm::json::Value(manifest(
                   source, lowered.signatures, target,
                   weights.id ? llvm::sys::path::filename(weightsPath)
                              : StringRef())));

  SmallString<128> objectPath, tablePath, exportsPath;
  if (!options.keepObject.empty()) {
    objectPath = options.keepObject;
    tablePath = options.keepObject + ".entries.c";
    exportsPath = options.keepObject + ".exports";
  } else if (llvm::sys::fs::createTemporaryFile("tcc-model", "o", objectPath) ||
             llvm::sys::fs::createTemporaryFile("tcc-model", "c", tablePath) ||
             llvm::sys::fs::createTemporaryFile("tcc-model", "exports",
                                                exportsPath)) {
    error = "cannot create temporary files";
    return failure();
  }
  llvm::scope_exit cleanup([&] {
    if (options.keepObject.empty()) {
      llvm::sys::fs::remove(objectPath);
      llvm::sys::fs::remove(tablePath);
      llvm::sys::fs::remove(exportsPath);
    }
  });
  bool usesOpenMP = false;
  auto objects = emitObjects(*lowered.module, target, usesOpenMP, error);
  if (failed(objects))
    return failure();
  start = std::chrono::steady_clock::now();
  // The first part at objectPath, the others beside it (FILE.o.1.o, ...).
  SmallVector<std::string> objectPaths;
  for (size_t i = 0; i < objects->size(); ++i)
    objectPaths.push_back(i ? (objectPath + "." + Twine(i) + ".o").str()
                            : objectPath.str().str());
  llvm::scope_exit removeParts([&] {
    if (options.keepObject.empty())
      for (size_t i = 1; i < objectPaths.size(); ++i)
        llvm::sys::fs::remove(objectPaths[i]);
  });
  for (size_t i = 0; i < objects->size(); ++i) {
    std::error_code ec;
    llvm::raw_fd_ostream os(objectPaths[i], ec, llvm::sys::fs::OF_None);
    if (!ec)
      os << (*objects)[i]->getBuffer();
    if (ec || os.has_error()) {
      error = "cannot write " + objectPaths[i];
      os.clear_error();
      return failure();
    }
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tablePath, ec);
    if (ec) {
      error = "cannot write " + tablePath.str().str();
      return failure();
    }
    os << entryTable(lowered.signatures, manifestText, cuda, weights);
    // Only the C ABI and the entries' own C interfaces are exported; the
    // runtime's C++ symbols stay inside.
    llvm::raw_fd_ostream exports(exportsPath, ec);
    if (ec) {
      error = "cannot write " + exportsPath.str().str();
      return failure();
    }
    exports << "{\n  global:\n    tcc_run; tcc_release; tcc_last_error;\n"
               "    tcc_manifest; tcc_num_entries; tcc_entry_name;\n"
               "    tcc_entry_arity; tcc_graph_create; tcc_graph_launch;\n"
               "    tcc_graph_destroy; tcc_run_on_stream;\n"
               "    tcc_graph_launch_on_stream;\n";
    for (const FunctionSignature &sig : lowered.signatures)
      exports << "    _mlir_ciface_" << sig.name << ";\n";
    exports << "  local: *;\n};\n";
  }

  reportStageTime("writing the objects", start);

  // Link: object + entry table + model runtime (+ libomp, oneDNN or the
  // CUDA driver).
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName(options.compiler);
  if (!cc) {
    error = "no C compiler '" + options.compiler + "' on PATH (use --cc=...)";
    return failure();
  }
  RuntimePieces pieces;
  std::vector<std::string> args = {*cc,
                                   "-shared",
                                   "-fPIC",
                                   "-O2",
                                   "-x",
                                   "c",
                                   "-I" + pieces.includeDir(),
                                   tablePath.str().str(),
                                   "-x",
                                   "none",
                                   "-Wl,--whole-archive",
                                   pieces.lib(TCC_MODEL_RUNTIME_LIB),
                                   "-Wl,--no-whole-archive",
                                   pieces.lib(TCC_RUNTIME_LIB),
                                   "-Wl,--version-script=" +
                                       exportsPath.str().str(),
                                   "-lstdc++",
                                   "-lm",
                                   "-Wl,--no-undefined",
                                   "-o",
                                   outputFile.str()};
  args.insert(args.begin() + 10, objectPaths.begin(), objectPaths.end());
  if (cuda) {
#ifdef TCC_CUDA_RUNTIME_LIB
    // The driver API: the stub to link, libcuda.so.1 where it runs.
    args.insert(args.end() - 2, pieces.lib(TCC_CUDA_RUNTIME_LIB));
    args.insert(args.end() - 2, TCC_CUDA_DRIVER_STUB);
#endif
  } else {
    // libomp before oneDNN: it serves oneDNN's GNU OpenMP calls too (one
    // thread pool; see lib/Runtime/CMakeLists.txt).
    if (usesOpenMP)
      args.insert(args.end() - 2, TCC_OPENMP_RUNTIME_PATH);
#ifdef TCC_DNNL_RUNTIME_LIB
    // Library convolutions: the runtime, and oneDNN where it runs.
    args.insert(args.end() - 2, pieces.lib(TCC_DNNL_RUNTIME_LIB));
    args.insert(args.end() - 2, TCC_DNNL_LIB);
#endif
  }
  // lld (else gold) links in a fraction of ld.bfd's time (0.7 s for
  // ViT-B/16's cuda library, most of the build's time after codegen).
  for (const char *linker : {"lld", "gold"})
    if (llvm::sys::findProgramByName(std::string("ld.") + linker)) {
      args.insert(args.begin() + 1, std::string("-fuse-ld=") + linker);
      break;
    }
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::string linkError;
  int rc = llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0,
                                     &linkError);
  if (rc != 0) {
    error = "linking " + outputFile.str() + " failed" +
            (linkError.empty() ? "" : ": " + linkError) +
            " (command: " + llvm::join(args, " ") + ")";
    return failure();
  }
  reportStageTime("linking", start);

  // The manifest beside the library: libNAME.so -> libNAME.json.
  SmallString<128> manifestPath(outputFile);
  llvm::sys::path::replace_extension(manifestPath, "json");
  std::error_code ec;
  llvm::raw_fd_ostream os(manifestPath, ec);
  if (ec) {
    error = "cannot write " + manifestPath.str().str();
    return failure();
  }
  os << manifestText << "\n";
  return success();
}

std::string mlir::tcc::weightsPathOf(StringRef library) {
  SmallString<128> path(library);
  llvm::sys::path::replace_extension(path, "weights");
  return std::string(path);
}

/// libNAME.so -> libNAME.json.
static SmallString<128> manifestPathOf(StringRef library) {
  SmallString<128> path(library);
  llvm::sys::path::replace_extension(path, "json");
  return path;
}

/// Whether the manifest `text` names a weights file beside the library.
static bool hasWeightsFile(StringRef text) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return false;
  }
  const llvm::json::Object *object = json->getAsObject();
  return object && object->getString("weights");
}

static bool writeWhole(StringRef path, StringRef bytes, bool executable) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << bytes;
  os.close();
  if (os.has_error()) {
    os.clear_error();
    return false;
  }
  if (executable)
    llvm::sys::fs::setPermissions(path, llvm::sys::fs::perms(0755));
  return true;
}

LogicalResult mlir::tcc::buildOrReuseSharedLibrary(
    ModuleOp source, StringRef pipeline,
    llvm::function_ref<FailureOr<LoweredModule>()> lower,
    const LibraryWriterOptions &options, std::string &error) {
  CompileCache &cache = CompileCache::get();
  std::string key;
  std::string weightsPath = weightsPathOf(options.outputPath);
  if (cache.enabled() && options.useCache && options.keepObject.empty() &&
      StringRef(options.outputPath).ends_with(".so")) {
    key = CompileCache::key(
        source, llvm::formatv("library cc={0} weights={1}:{2} {3}",
                              options.compiler, int(options.weights),
                              options.weightsFileMinBytes, pipeline)
                    .str());
    std::unique_ptr<llvm::MemoryBuffer> library = cache.lookup(key + ".so");
    std::unique_ptr<llvm::MemoryBuffer> manifest =
        library ? cache.lookup(key + ".json") : nullptr;
    bool weightsBeside =
        manifest && hasWeightsFile(manifest->getBuffer());
    std::unique_ptr<llvm::MemoryBuffer> weights =
        weightsBeside ? cache.lookup(key + ".weights") : nullptr;
    if (library && manifest && (weights || !weightsBeside) &&
        (!weights ||
         writeWhole(weightsPath, weights->getBuffer(), false)) &&
        writeWhole(options.outputPath, library->getBuffer(), true) &&
        writeWhole(manifestPathOf(options.outputPath), manifest->getBuffer(),
                   false)) {
      if (!weights)
        llvm::sys::fs::remove(weightsPath);
      return success();
    }
  }
  FailureOr<LoweredModule> lowered = lower();
  if (failed(lowered) ||
      failed(writeSharedLibrary(source, *lowered, options, error)))
    return failure();
  if (!key.empty()) {
    auto library = llvm::MemoryBuffer::getFile(options.outputPath, false, false);
    auto manifest = llvm::MemoryBuffer::getFile(
        manifestPathOf(options.outputPath), false, false);
    // The weights first and the manifest last: a library without its
    // manifest is a miss, and a manifest naming weights needs them.
    bool stored = library && manifest;
    if (stored && hasWeightsFile((*manifest)->getBuffer())) {
      auto weights = llvm::MemoryBuffer::getFile(weightsPath, false, false);
      stored = weights && cache.store(key + ".weights", (*weights)->getBuffer());
    }
    if (stored && cache.store(key + ".so", (*library)->getBuffer()))
      cache.store(key + ".json", (*manifest)->getBuffer());
  }
  return success();
}

LogicalResult mlir::tcc::buildSharedLibrary(ModuleOp source, StringRef target,
                                            StringRef pipelineOptions,
                                            const LibraryWriterOptions &options,
                                            std::string &error) {
  // The kind picks the pipeline; the pipeline's options then name the
  // CPU or chip.
  FailureOr<TargetAttr> kind = buildTarget(source.getContext(), target, error);
  if (failed(kind))
    return failure();
  std::string printed;
  llvm::raw_string_ostream os(printed);
  if (kind->isCPU()) {
    CPUPipelineOptions cpu;
    if (failed(parsePipelineOptions(cpu, pipelineOptions, "cpu", error)))
      return failure();
    os << "cpu ";
    cpu.print(os);
    LibraryWriterOptions cached = options;
    cached.useCache = options.useCache && !cpu.writesFiles();
    return buildOrReuseSharedLibrary(
        source, printed, [&] { return lowerForCPU(source, cpu, error); },
        cached, error);
  }
#ifndef TCC_CUDA_RUNTIME_LIB
  error = "--target=cuda: this tcc was built without the CUDA toolkit "
          "(configure with -DTCC_CUDA_PATH=...)";
  return failure();
#else
  CUDAPipelineOptions gpu;
  if (failed(parsePipelineOptions(gpu, pipelineOptions, "cuda", error)))
    return failure();
  os << "cuda ";
  gpu.print(os);
  return buildOrReuseSharedLibrary(
      source, printed, [&] { return lowerForCUDA(source, gpu, error); },
      options, error);
#endif
}
