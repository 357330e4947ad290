//===- CPUExecutable.cpp - JIT-compiled tcc functions on the CPU -*- C++ -*-===//
//
// Calls go through MLIR's C interface: `_mlir_ciface_<name>(results*, args*)`
// where each tensor is a memref descriptor {allocated, aligned, offset,
// sizes[rank], strides[rank]} of 64-bit words. Results are allocated by the
// compiled code (malloc) and owned by the caller, which copies and frees them.
//
//===----------------------------------------------------------------------===//

#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/Runtime/CachingAllocator.h"
#include "tcc/Runtime/HostLibrary.h"
#include "tcc/Runtime/MLIRTypes.h"
#include "tcc/Runtime/ParallelRegions.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Target/Target.h"
#include "tcc/Pipelines/CompileCache.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tcc;
using ::tcc::runtime::DType;
using ::tcc::runtime::HostTensor;

static std::string shapeString(const std::vector<int64_t> &shape, DType dt) {
  std::string s;
  for (int64_t d : shape)
    s += (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d)) +
         "x";
  return s + ::tcc::runtime::dtypeName(dt);
}

CPUExecutable::~CPUExecutable() {
#ifdef TCC_HAVE_DNNL
  tccHostForgetPackedWeights();
#endif
}

namespace {

/// What the compiled code calls in this process: malloc and free of the
/// caching allocator (large blocks, results and the arena, are reused
/// across calls instead of being faulted in again), the workspace, the
/// library calls.
std::vector<std::pair<const char *, llvm::orc::ExecutorAddr>>
runtimeSymbols() {
  using namespace ::tcc::runtime;
  std::vector<std::pair<const char *, llvm::orc::ExecutorAddr>> symbols = {
      {"malloc", llvm::orc::ExecutorAddr::fromPtr(&tccMalloc)},
      {"free", llvm::orc::ExecutorAddr::fromPtr(&tccFree)},
      {"calloc", llvm::orc::ExecutorAddr::fromPtr(&tccCalloc)},
      {"realloc", llvm::orc::ExecutorAddr::fromPtr(&tccRealloc)},
      {"_mlir_ciface_tcc_workspace",
       llvm::orc::ExecutorAddr::fromPtr(&_mlir_ciface_tcc_workspace)},
#ifdef TCC_HAVE_DNNL
      // Library convolutions and matrix products (oneDNN).
      {"tccHostConv", llvm::orc::ExecutorAddr::fromPtr(&tccHostConv)},
      {"tccHostGemm", llvm::orc::ExecutorAddr::fromPtr(&tccHostGemm)},
#endif
  };
  // Parallel regions on the process's GNU OpenMP pool
  // (Runtime/ParallelRegions.h), not libomp's own.
  int count;
  const ParallelRegionEntry *entries = parallelRegionEntries(count);
  for (int i = 0; i < count; ++i)
    symbols.push_back({entries[i].kmpcName,
                       llvm::orc::ExecutorAddr::fromPtr(entries[i].address)});
  return symbols;
}

/// memref.copy of strided views calls memrefCopy from MLIR's C runner
/// utilities; libomp comes in for the parallel regions' GOMP_parallel
/// where the process has no GNU OpenMP yet.
SmallVector<StringRef, 2> runtimeLibraries(bool parallel) {
  SmallVector<StringRef, 2> libs = {TCC_C_RUNNER_UTILS_PATH};
  if (parallel)
    libs.push_back(TCC_OPENMP_RUNTIME_PATH);
  return libs;
}

/// The cache key of a JIT compile, or "" where the compile must run
/// (the cache is off, or the options write reports as they compile).
std::string jitCacheKey(ModuleOp module, const CPUPipelineOptions &options,
                        const std::optional<BucketSpec> &buckets,
                        bool dumpsLLVMDialect) {
  if (!CompileCache::get().enabled() || dumpsLLVMDialect ||
      options.writesFiles())
    return {};
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  os << "cpu-jit ";
  options.print(os);
  if (buckets) {
    os << " buckets=" << buckets->symbol;
    for (int64_t b : buckets->upperBounds)
      os << "," << b;
  }
  return CompileCache::key(module, pipeline);
}

/// Keeps the engine's object code in the cache (it compiles every entry
/// now, which its first call would otherwise do).
void storeObject(ExecutionEngine &engine, const std::string &key) {
  SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("tcc-jit", "o", path))
    return;
  engine.dumpToObjectFile(path);
  if (auto object = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false))
    CompileCache::get().store(key + ".o", (*object)->getBuffer());
  llvm::sys::fs::remove(path);
}

} // namespace

std::unique_ptr<CPUExecutable> CPUExecutable::fromCachedObject(
    ModuleOp module, const CPUPipelineOptions &options,
    const std::optional<BucketSpec> &buckets,
    std::unique_ptr<llvm::MemoryBuffer> object) {
  std::string ignored;
  FailureOr<std::vector<FunctionSignature>> signatures = [&] {
    // Diagnostics would repeat when the compile runs after all.
    ScopedDiagnosticHandler silence(module.getContext(),
                                    [](Diagnostic &) { return success(); });
    return entrySignaturesForCPU(module, options, ignored, buckets);
  }();
  if (failed(signatures))
    return nullptr;
  auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return nullptr;
  }
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*machine))
                 .create();
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return nullptr;
  }
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (const auto &[name, address] : runtimeSymbols())
    symbols[interner(name)] = {address, llvm::JITSymbolFlags::Exported};
  llvm::Error err = main.define(llvm::orc::absoluteSymbols(std::move(symbols)));
  for (StringRef lib : runtimeLibraries(options.parallel)) {
    if (err)
      break;
    auto generator =
        llvm::orc::DynamicLibrarySearchGenerator::Load(lib.str().c_str(), prefix);
    if (!generator)
      err = generator.takeError();
    else
      main.addGenerator(std::move(*generator));
  }
  if (!err) {
    auto process =
        llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
    if (!process)
      err = process.takeError();
    else
      main.addGenerator(std::move(*process));
  }
  if (!err)
    err = (*jit)->addObjectFile(std::move(object));
  // Link now: an entry that does not resolve is a miss, not a failed call.
  for (const FunctionSignature &sig : *signatures) {
    if (err)
      break;
    auto address = (*jit)->lookup("_mlir__mlir_ciface_" + sig.name);
    if (!address)
      err = address.takeError();
  }
  if (err) {
    llvm::consumeError(std::move(err));
    return nullptr;
  }
  auto exe = std::unique_ptr<CPUExecutable>(new CPUExecutable());
  exe->signatures = std::move(*signatures);
  exe->usesWorkspace = options.workspace;
  exe->cachedJit = std::move(*jit);
  return exe;
}

llvm::Error CPUExecutable::invokePacked(StringRef name,
                                        MutableArrayRef<void *> args) {
  PackedFn fn = nullptr;
  {
    // The first lookup generates the machine code (under the lock, so
    // concurrent first calls wait for one compile).
    std::lock_guard<std::mutex> lock(packedEntriesMutex);
    auto it = packedEntries.find(name);
    if (it != packedEntries.end()) {
      fn = it->second;
    } else if (engine) {
      auto found = engine->lookupPacked(name);
      if (!found)
        return found.takeError();
      fn = packedEntries[name] = *found;
    } else {
      auto address = cachedJit->lookup(("_mlir_" + name).str());
      if (!address)
        return address.takeError();
      fn = packedEntries[name] = address->toPtr<PackedFn>();
    }
  }
  fn(args.data());
  return llvm::Error::success();
}

std::unique_ptr<CPUExecutable>
CPUExecutable::compile(ModuleOp module, const CPUPipelineOptions &options,
                       std::string &error, std::string *llvmDialectDump,
                       const std::optional<BucketSpec> &buckets) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  std::string cacheKey =
      jitCacheKey(module, options, buckets, llvmDialectDump != nullptr);
  if (!cacheKey.empty())
    if (std::unique_ptr<llvm::MemoryBuffer> object =
            CompileCache::get().lookup(cacheKey + ".o"))
      if (auto exe = fromCachedObject(module, options, buckets,
                                      std::move(object)))
        return exe;
  FailureOr<LoweredModule> loweredModule =
      lowerForCPU(module, options, error, buckets);
  if (failed(loweredModule))
    return nullptr;
  auto exe = std::unique_ptr<CPUExecutable>(new CPUExecutable());
  exe->signatures = std::move(loweredModule->signatures);
  exe->usesWorkspace = options.workspace;
  OwningOpRef<ModuleOp> lowered = std::move(loweredModule->module);
  if (llvmDialectDump) {
    llvm::raw_string_ostream os(*llvmDialectDump);
    lowered->print(os);
  }

  // LLVM's O3 for the module's #tcc.target (CPU and features), as the
  // library writer does: without one, the IR passes cost everything with
  // generic x86 tables. Machine code is then generated by the engine's own
  // host target machine (ORC's JIT defaults: the code runs here).
  TargetAttr target = lookupTarget(*lowered);
  if (target.isCUDA()) {
    error = "the JIT compiles for the CPU, not for the module's cuda target";
    return nullptr;
  }
  llvm::orc::JITTargetMachineBuilder machineBuilder(
      llvm::Triple(llvm::sys::getProcessTriple()));
  machineBuilder.setCPU(target.getArch().str());
  SmallVector<StringRef> features;
  target.getFeatures().split(features, ',', -1, /*KeepEmpty=*/false);
  machineBuilder.addFeatures(
      std::vector<std::string>(features.begin(), features.end()));
  machineBuilder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = machineBuilder.createTargetMachine();
  if (!machine) {
    error = "no target machine for " + target.getArch().str() + ": " +
            llvm::toString(machine.takeError());
    return nullptr;
  }
  // The options hold a function_ref: the transformer must outlive them.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef, 2> libs = runtimeLibraries(options.parallel);
  engineOptions.sharedLibPaths = libs;
  engineOptions.enableObjectDump = !cacheKey.empty();
  auto engine = ExecutionEngine::create(*lowered, engineOptions);
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  exe->engine = std::move(*engine);
  exe->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : runtimeSymbols())
      symbols[interner(name)] = {address, llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  if (const char *timing = std::getenv("TCC_TIMING");
      timing && *timing && StringRef(timing) != "0") {
    // The engine generates machine code lazily, at an entry's first
    // lookup: forced here so that the report holds it.
    auto start = std::chrono::steady_clock::now();
    for (const FunctionSignature &sig : exe->signatures)
      if (auto fn = exe->engine->lookupPacked("_mlir_ciface_" + sig.name); !fn)
        llvm::consumeError(fn.takeError());
    llvm::errs() << llvm::formatv(
        "tcc-timing: LLVM (O3 and machine code) {0:f2} s\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  if (!cacheKey.empty())
    storeObject(*exe->engine, cacheKey);
  return exe;
}

std::vector<const FunctionSignature *>
CPUExecutable::versions(StringRef name) const {
  std::vector<const FunctionSignature *> out;
  for (const FunctionSignature &sig : signatures)
    if (sig.entry == name)
      out.push_back(&sig);
  return out;
}

std::vector<const FunctionSignature *> CPUExecutable::entries() const {
  std::vector<const FunctionSignature *> out;
  for (const FunctionSignature &sig : signatures)
    if (llvm::none_of(out, [&](const FunctionSignature *seen) {
          return seen->entry == sig.entry;
        }))
      out.push_back(&sig);
  return out;
}

const FunctionSignature *
CPUExecutable::dispatch(StringRef name,
                        const std::vector<std::vector<int64_t>> &shapes,
                        std::string &error) const {
  std::vector<const FunctionSignature *> all = versions(name);
  if (all.empty()) {
    error = "no public function named '" + name.str() + "'";
    return nullptr;
  }
  if (all.size() == 1 && all[0]->bucketDim < 0)
    return all[0];
  const FunctionSignature *first = all[0];
  if (first->bucketInput >= shapes.size() ||
      first->bucketDim >= (int64_t)shapes[first->bucketInput].size())
    return first; // the version's own checks report the rank/count problem
  int64_t value = shapes[first->bucketInput][first->bucketDim];
  for (const FunctionSignature *sig : all)
    if (value >= sig->bucketMin && value <= sig->bucketMax)
      return sig;
  error = "no compiled version for size " + std::to_string(value);
  return nullptr;
}

const FunctionSignature *CPUExecutable::lookup(StringRef name) const {
  for (const FunctionSignature &sig : signatures)
    if (sig.name == name)
      return &sig;
  return nullptr;
}

LogicalResult
CPUExecutable::checkInputs(const FunctionSignature &sig,
                           const std::vector<TensorView> &inputs,
                           std::string &error, bool shapes) {
  if (inputs.size() != sig.inputs.dtypes.size()) {
    error = "function '" + sig.name + "' expects " +
            std::to_string(sig.inputs.dtypes.size()) + " inputs, got " +
            std::to_string(inputs.size());
    return failure();
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto &shape = sig.inputs.shapes[i];
    DType dt = sig.inputs.dtypes[i];
    const TensorView &t = inputs[i];
    std::string expected = shapeString(shape, dt);
    if (t.dtype != dt) {
      error = "input " + std::to_string(i) + ": expected " + expected +
              ", got element type " + ::tcc::runtime::dtypeName(t.dtype);
      return failure();
    }
    if (t.shape.size() != shape.size()) {
      error = "input " + std::to_string(i) + ": expected rank " +
              std::to_string(shape.size()) + " (" + expected + "), got rank " +
              std::to_string(t.shape.size()) + " (" + t.typeString() + ")";
      return failure();
    }
  }
  if (!shapes)
    return success();
  std::vector<std::vector<int64_t>> actual;
  for (const TensorView &t : inputs)
    actual.push_back(t.shape);
  if (auto violation = sig.guards.check(actual)) {
    error = violation->second;
    return failure();
  }
  return success();
}

namespace {
/// A memref descriptor as 64-bit words.
struct Descriptor {
  std::vector<int64_t> words;
  static Descriptor forTensor(const TensorView &t) {
    Descriptor d;
    auto ptr = reinterpret_cast<int64_t>(t.data);
    d.words = {ptr, ptr, 0};
    int64_t stride = 1;
    std::vector<int64_t> strides(t.shape.size());
    for (int64_t i = (int64_t)t.shape.size() - 1; i >= 0; --i) {
      strides[i] = stride;
      stride *= t.shape[i];
    }
    d.words.insert(d.words.end(), t.shape.begin(), t.shape.end());
    d.words.insert(d.words.end(), strides.begin(), strides.end());
    return d;
  }
};
} // namespace

std::string TensorView::typeString() const {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + ::tcc::runtime::dtypeName(dtype);
}

LogicalResult CPUExecutable::call(StringRef name,
                                  const std::vector<HostTensor> &inputs,
                                  std::vector<HostTensor> &results,
                                  std::string &error, bool hostChecks) {
  std::vector<TensorView> views;
  views.reserve(inputs.size());
  for (const HostTensor &t : inputs)
    views.push_back(TensorView::of(t));
  return call(name, views, results, error, hostChecks);
}

LogicalResult CPUExecutable::call(StringRef name,
                                  const std::vector<TensorView> &inputs,
                                  std::vector<HostTensor> &results,
                                  std::string &error, bool hostChecks) {
  std::vector<std::vector<int64_t>> shapes;
  for (const TensorView &t : inputs)
    shapes.push_back(t.shape);
  const FunctionSignature *sig = lookup(name);
  if (!sig || sig->entry != name)
    sig = dispatch(name, shapes, error);
  if (!sig)
    return failure();
  name = sig->name;
  if (failed(checkInputs(*sig, inputs, error, hostChecks)))
    return failure();

  std::vector<Descriptor> descs;
  for (const TensorView &t : inputs)
    descs.push_back(Descriptor::forTensor(t));
  // Results: the guard status (i64), then one descriptor per tensor. With
  // no tensor results the status alone is returned by value, which the
  // packed wrapper stores through a trailing pointer.
  size_t resultWords = 1;
  for (const auto &shape : sig->results.shapes)
    resultWords += 3 + 2 * shape.size();
  std::vector<int64_t> resultStorage(resultWords, 0);

  std::vector<void *> pointers;
  pointers.reserve(descs.size() + 1);
  void *resultPtr = resultStorage.data();
  std::vector<void *> args;
  bool statusOnly = sig->results.shapes.empty();
  if (!statusOnly)
    args.push_back(&resultPtr);
  for (Descriptor &d : descs)
    pointers.push_back(d.words.data());
  for (void *&p : pointers)
    args.push_back(&p);
  if (statusOnly)
    args.push_back(resultStorage.data());

  // Calls may run concurrently (the arena of a call without a workspace is
  // its own allocation); the one workspace is shared, so calls that take
  // their arena from it run one at a time.
  std::unique_lock<std::mutex> workspaceLock(workspaceMutex, std::defer_lock);
  if (usesWorkspace) {
    workspaceLock.lock();
    workspace.beginCall();
    ::tcc::runtime::setCurrentWorkspace(&workspace);
  }
  auto start = std::chrono::steady_clock::now();
  llvm::Error err = invokePacked(("_mlir_ciface_" + name).str(), args);
  lastCompiledSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  bool workspaceTooSmall = false;
  if (usesWorkspace) {
    ::tcc::runtime::setCurrentWorkspace(nullptr);
    workspace.endCall();
    workspaceTooSmall = workspace.lastRequestTooLarge();
  }
  if (err) {
    error = "invocation failed: " + llvm::toString(std::move(err));
    return failure();
  }
  if (int64_t status = resultStorage[0]) {
    auto violation = sig->guards.check(shapes);
    error = violation ? violation->second
                      : "the compiled entry rejected its inputs (guard " +
                            std::to_string(status) + ")";
    return failure();
  }

  // Results may share an allocation (`return %0, %0`) or alias an input:
  // copy every result first, then free each distinct allocation once.
  std::set<int64_t> inputPtrs, toFree;
  for (const TensorView &t : inputs)
    inputPtrs.insert(reinterpret_cast<int64_t>(t.data));
  results.clear();
  size_t w = 1;
  for (size_t r = 0; r < sig->results.shapes.size(); ++r) {
    size_t rank = sig->results.shapes[r].size();
    int64_t allocated = resultStorage[w], aligned = resultStorage[w + 1],
            offset = resultStorage[w + 2];
    std::vector<int64_t> sizes(resultStorage.begin() + w + 3,
                               resultStorage.begin() + w + 3 + rank);
    std::vector<int64_t> strides(resultStorage.begin() + w + 3 + rank,
                                 resultStorage.begin() + w + 3 + 2 * rank);
    w += 3 + 2 * rank;
    HostTensor out(sig->results.dtypes[r], sizes);
    size_t elem = ::tcc::runtime::dtypeSize(out.dtype);
    const char *base = reinterpret_cast<const char *>(aligned);
    int64_t n = out.numElements();
    // Row-major contiguous (the usual case): one copy.
    bool contiguous = true;
    for (int64_t d = (int64_t)rank - 1, expect = 1; d >= 0; --d) {
      if (sizes[d] != 1 && strides[d] != expect)
        contiguous = false;
      expect *= sizes[d];
    }
    if (contiguous && n > 0)
      std::memcpy(out.data.data(), base + offset * elem, out.numBytes());
    std::vector<int64_t> idx(rank, 0);
    for (int64_t i = 0; !contiguous && i < n; ++i) {
      int64_t lin = offset;
      for (size_t d = 0; d < rank; ++d)
        lin += idx[d] * strides[d];
      std::memcpy(out.data.data() + i * elem, base + lin * elem, elem);
      for (int64_t d = (int64_t)rank - 1; d >= 0; --d) {
        if (++idx[d] < sizes[d])
          break;
        idx[d] = 0;
      }
    }
    results.push_back(std::move(out));
    if (allocated && !inputPtrs.count(allocated))
      toFree.insert(allocated);
  }
  for (int64_t p : toFree)
    ::tcc::runtime::tccFree(reinterpret_cast<void *>(p));
  if (workspaceTooSmall) {
    error = "the workspace passed has " +
            std::to_string(workspace.callerBytes()) +
            " bytes, this call needs " +
            std::to_string(workspace.lastRequestBytes()) +
            " (it ran on a temporary block instead)";
    return failure();
  }
  return success();
}
