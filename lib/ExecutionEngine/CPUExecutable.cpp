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
#include "tcc/Target/ObjectCodegen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
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

/// The cache entry of a compile: its objects (one per part) as an ar
/// archive.
std::unique_ptr<llvm::MemoryBuffer>
archiveOf(ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) {
  std::vector<llvm::NewArchiveMember> members;
  for (const auto &object : objects)
    members.emplace_back(object->getMemBufferRef());
  auto archive = llvm::writeArchiveToBuffer(
      members, llvm::SymtabWritingMode::NoSymtab, llvm::object::Archive::K_GNU,
      /*Deterministic=*/true, /*Thin=*/false);
  if (!archive) {
    llvm::consumeError(archive.takeError());
    return nullptr;
  }
  return std::move(*archive);
}

/// The objects of a cache entry, or nothing where it is not an archive.
std::optional<SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
objectsOf(const llvm::MemoryBuffer &entry) {
  auto archive = llvm::object::Archive::create(entry.getMemBufferRef());
  if (!archive) {
    llvm::consumeError(archive.takeError());
    return std::nullopt;
  }
  SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  llvm::Error err = llvm::Error::success();
  for (const llvm::object::Archive::Child &child : (*archive)->children(err)) {
    auto member = child.getMemoryBufferRef();
    if (!member) {
      llvm::consumeError(member.takeError());
      llvm::consumeError(std::move(err));
      return std::nullopt;
    }
    objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        member->getBuffer(), member->getBufferIdentifier()));
  }
  if (err) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  return objects;
}

/// `_mlir_<f>(void **args)`: calls `f` on the values `args` points to and
/// stores its result through the slot after them. The packed convention
/// of MLIR's ExecutionEngine, which invokePacked calls.
void addPackedWrapper(llvm::Function &f) {
  llvm::Module &m = *f.getParent();
  llvm::IRBuilder<> b(m.getContext());
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), b.getPtrTy(), false),
      llvm::GlobalValue::ExternalLinkage, "_mlir_" + f.getName(), m);
  b.SetInsertPoint(llvm::BasicBlock::Create(m.getContext(), "", wrapper));
  llvm::Value *slots = wrapper->getArg(0);
  auto slot = [&](unsigned i) {
    return b.CreateLoad(b.getPtrTy(),
                        b.CreateConstGEP1_64(b.getPtrTy(), slots, i));
  };
  SmallVector<llvm::Value *> args;
  for (llvm::Argument &arg : f.args())
    args.push_back(b.CreateLoad(arg.getType(), slot(arg.getArgNo())));
  llvm::CallInst *call = b.CreateCall(&f, args);
  if (!call->getType()->isVoidTy())
    b.CreateStore(call, slot(f.arg_size()));
  b.CreateRetVoid();
}

/// A JIT holding `objects`, linked against the runtime (this process's
/// symbols, the runner utilities, libomp) with every entry resolved: an
/// entry that does not link is an error here, not at its first call.
std::unique_ptr<llvm::orc::LLJIT>
linkObjects(SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects,
            bool parallel, ArrayRef<FunctionSignature> signatures,
            std::string &error) {
  auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine) {
    error = llvm::toString(machine.takeError());
    return nullptr;
  }
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*machine))
                 .create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
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
  for (StringRef lib : runtimeLibraries(parallel)) {
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
  for (auto &object : objects)
    if (!err)
      err = (*jit)->addObjectFile(std::move(object));
  for (const FunctionSignature &sig : signatures) {
    if (err)
      break;
    auto address = (*jit)->lookup("_mlir__mlir_ciface_" + sig.name);
    if (!address)
      err = address.takeError();
  }
  if (err) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  return std::move(*jit);
}

} // namespace

std::unique_ptr<CPUExecutable> CPUExecutable::fromCachedObjects(
    ModuleOp module, const CPUPipelineOptions &options,
    const std::optional<BucketSpec> &buckets, const llvm::MemoryBuffer &entry) {
  std::string ignored;
  FailureOr<std::vector<FunctionSignature>> signatures = [&] {
    // Diagnostics would repeat when the compile runs after all.
    ScopedDiagnosticHandler silence(module.getContext(),
                                    [](Diagnostic &) { return success(); });
    return entrySignaturesForCPU(module, options, ignored, buckets);
  }();
  if (failed(signatures))
    return nullptr;
  auto objects = objectsOf(entry);
  if (!objects)
    return nullptr;
  auto jit = linkObjects(std::move(*objects), options.parallel, *signatures,
                         ignored);
  if (!jit)
    return nullptr;
  auto exe = std::unique_ptr<CPUExecutable>(new CPUExecutable());
  exe->signatures = std::move(*signatures);
  exe->usesWorkspace = options.workspace;
  exe->jit = std::move(jit);
  return exe;
}

llvm::Error CPUExecutable::invokePacked(StringRef name,
                                        MutableArrayRef<void *> args) {
  PackedFn fn = nullptr;
  {
    // A JIT lookup goes through ORC's session: once per entry.
    std::lock_guard<std::mutex> lock(packedEntriesMutex);
    auto it = packedEntries.find(name);
    if (it != packedEntries.end()) {
      fn = it->second;
    } else {
      auto address = jit->lookup(("_mlir_" + name).str());
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
    if (std::unique_ptr<llvm::MemoryBuffer> entry =
            CompileCache::get().lookup(cacheKey + ".a"))
      if (auto exe = fromCachedObjects(module, options, buckets, *entry))
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
  TargetAttr target = lookupTarget(*lowered);
  if (target.isCUDA()) {
    error = "the JIT compiles for the CPU, not for the module's cuda target";
    return nullptr;
  }

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  lowered->getContext()->appendDialectRegistry(registry);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered, llvmContext, "tcc_jit");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  for (const FunctionSignature &sig : exe->signatures) {
    llvm::Function *entry = llvmModule->getFunction("_mlir_ciface_" + sig.name);
    if (!entry || entry->isDeclaration()) {
      error = "no C interface for entry '" + sig.name + "'";
      return nullptr;
    }
    addPackedWrapper(*entry);
  }
  // O3 for the module's #tcc.target (CPU and features), in parallel parts,
  // as the library writer does.
  ObjectCodegenOptions codegen;
  codegen.jitLinked = true;
  auto objects =
      compileToObjects(std::move(llvmModule), target, codegen, error);
  if (failed(objects))
    return nullptr;
  if (!cacheKey.empty())
    if (std::unique_ptr<llvm::MemoryBuffer> entry = archiveOf(*objects))
      CompileCache::get().store(cacheKey + ".a", entry->getBuffer());
  exe->jit = linkObjects(std::move(*objects), options.parallel,
                         exe->signatures, error);
  if (!exe->jit) {
    error = "JIT linking failed: " + error;
    return nullptr;
  }
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
