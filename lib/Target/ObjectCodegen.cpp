//===- ObjectCodegen.cpp - LLVM IR to objects, in parallel parts -*- C++ -*-===//
//
// See include/tcc/Target/ObjectCodegen.h. The split follows LLVM's
// SplitModule (externalize what crosses parts, CloneModule with a
// predicate) but balances the parts by instructions rather than by counts
// of globals, keeps local helpers beside their one caller and copies small
// constants instead of linking to them, so that O3 folds their loads as it
// did in one module.
//
//===----------------------------------------------------------------------===//

#include "tcc/Target/ObjectCodegen.h"
#include "tcc/Target/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A local constant at most this large is copied into every part (LLVM
/// folds loads of it: shapes, strides, small tables).
constexpr uint64_t kCopiedConstantBytes = 4096;
/// A module of fewer instructions stays whole: a part's clone and bitcode
/// round trip would cost more than the thread saves.
constexpr uint64_t kMinSplitInstructions = 4000;
/// Bytes of constant data (weights) that cost LLVM about as much as one
/// instruction: they are only written out.
constexpr uint64_t kBytesPerInstruction = 65536;

using GlobalSet = llvm::SmallPtrSet<const llvm::GlobalValue *, 4>;

uint64_t instructionCount(const llvm::Function &f) {
  uint64_t n = 0;
  for (const llvm::BasicBlock &block : f)
    n += block.size();
  return n;
}

/// The definitions that refer to `value`: functions whose instructions do
/// and globals whose initializers do, through constant expressions too.
void collectUsers(const llvm::Value *value, GlobalSet &users) {
  for (const llvm::User *user : value->users()) {
    if (auto *inst = dyn_cast<llvm::Instruction>(user))
      users.insert(inst->getFunction());
    else if (auto *global = dyn_cast<llvm::GlobalValue>(user))
      users.insert(global);
    else if (auto *constant = dyn_cast<llvm::Constant>(user))
      collectUsers(constant, users);
  }
}

/// Whether some call names `f` as its callee (LLVM may then inline it);
/// a function only passed by address (an OpenMP region's outlined body,
/// handed to the runtime's fork call) is compiled on its own.
bool calledDirectly(const llvm::Function &f) {
  return llvm::any_of(f.uses(), [](const llvm::Use &use) {
    auto *call = dyn_cast<llvm::CallBase>(use.getUser());
    return call && call->isCallee(&use);
  });
}

/// Whether `c` refers to a global (then a copy would need it in every part).
bool refersToGlobals(const llvm::Constant *c) {
  if (isa<llvm::GlobalValue>(c))
    return true;
  if (isa<llvm::ConstantData>(c))
    return false;
  return llvm::any_of(c->operands(), [](const llvm::Use &use) {
    return refersToGlobals(cast<llvm::Constant>(use.get()));
  });
}

/// What the split cannot handle yet: it then leaves the module whole.
bool splittable(const llvm::Module &m) {
  if (!m.alias_empty() || !m.ifunc_empty() ||
      !m.getModuleInlineAsm().empty() || !m.getComdatSymbolTable().empty())
    return false;
  for (const llvm::GlobalVariable &g : m.globals())
    if (g.hasAppendingLinkage() && g.getName() != "llvm.global_ctors" &&
        g.getName() != "llvm.global_dtors")
      return false; // llvm.used and friends must see definitions
  for (const llvm::Function &f : m)
    for (const llvm::BasicBlock &block : f)
      if (block.hasAddressTaken())
        return false;
  return true;
}

/// Which part defines each global.
struct Partition {
  unsigned parts = 1;
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> home;
  /// Small local constants every part gets a copy of.
  GlobalSet copied;
  /// The part compiled in the module itself (it holds the most data, which
  /// then needs no copy).
  unsigned inPlace = 0;
  uint64_t instructions = 0;
  /// Each part's cost (instructions, and weights by their bytes).
  SmallVector<uint64_t> load;
  /// Each part's largest function, in instructions.
  SmallVector<uint64_t> largestFunction;
};

/// Union-find over definitions, by pointer.
struct Clusters {
  llvm::DenseMap<const llvm::GlobalValue *, const llvm::GlobalValue *> parent;
  const llvm::GlobalValue *find(const llvm::GlobalValue *v) {
    while (parent.lookup(v) != v) {
      const llvm::GlobalValue *up = parent.lookup(parent.lookup(v));
      parent[v] = up;
      v = up;
    }
    return v;
  }
  void join(const llvm::GlobalValue *a, const llvm::GlobalValue *b) {
    parent[find(a)] = find(b);
  }
};

Partition planPartition(llvm::Module &m, unsigned maxParts, bool jitLinked) {
  Partition plan;
  uint64_t largest = 0;
  for (const llvm::Function &f : m) {
    uint64_t n = instructionCount(f);
    plan.instructions += n;
    largest = std::max(largest, n);
  }
  plan.load = {plan.instructions};
  plan.largestFunction = {largest};
  if (maxParts < 2 || plan.instructions < kMinSplitInstructions ||
      !splittable(m))
    return plan;
  const llvm::DataLayout &layout = m.getDataLayout();
  for (const llvm::GlobalVariable &g : m.globals())
    if (g.hasLocalLinkage() && g.isConstant() && g.hasInitializer() &&
        layout.getTypeAllocSize(g.getValueType()) <= kCopiedConstantBytes &&
        !refersToGlobals(g.getInitializer()))
      plan.copied.insert(&g);

  SmallVector<llvm::GlobalValue *> definitions;
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      definitions.push_back(&f);
  for (llvm::GlobalVariable &g : m.globals())
    if (!g.isDeclaration() && !plan.copied.contains(&g))
      definitions.push_back(&g);

  // A function LLVM may inline goes with its callers (the entry with its C
  // interface, bufferization's dealloc helper); the outlined kernels, kept
  // from inlining, and OpenMP's outlined bodies, only passed by address,
  // are what there is to spread.
  // A local global only one definition reads goes with it.
  Clusters clusters;
  for (llvm::GlobalValue *gv : definitions)
    clusters.parent[gv] = gv;
  for (llvm::GlobalValue *gv : definitions) {
    auto *f = dyn_cast<llvm::Function>(gv);
    if (f && (f->hasFnAttribute(llvm::Attribute::NoInline) ||
              !calledDirectly(*f)))
      continue;
    if (!f && !gv->hasLocalLinkage())
      continue;
    GlobalSet users;
    collectUsers(gv, users);
    if (!f && users.size() != 1)
      continue;
    for (const llvm::GlobalValue *user : users)
      if (clusters.parent.count(user))
        clusters.join(gv, user);
  }

  // Each cluster's cost; clusters in module order, then by cost.
  llvm::MapVector<const llvm::GlobalValue *, std::pair<uint64_t, uint64_t>>
      costs; // root -> (cost, data bytes)
  for (llvm::GlobalValue *gv : definitions) {
    auto &[cost, bytes] = costs[clusters.find(gv)];
    if (auto *f = dyn_cast<llvm::Function>(gv)) {
      cost += instructionCount(*f);
    } else {
      uint64_t size = layout.getTypeAllocSize(
          cast<llvm::GlobalVariable>(gv)->getValueType());
      cost += size / kBytesPerInstruction;
      bytes += size;
    }
  }
  auto order = costs.takeVector();
  llvm::stable_sort(order, [](const auto &a, const auto &b) {
    return a.second.first > b.second.first;
  });
  unsigned parts = std::min<unsigned>(
      maxParts, llvm::count_if(order, [](const auto &c) {
        return c.second.first > 0;
      }));
  if (parts < 2)
    return plan;

  // Longest processing time first: each cluster into the lightest part.
  SmallVector<uint64_t> load(parts, 0), data(parts, 0);
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> rootHome;
  for (const auto &[root, cost] : order) {
    unsigned lightest = std::min_element(load.begin(), load.end()) -
                        load.begin();
    rootHome[root] = lightest;
    load[lightest] += cost.first;
    data[lightest] += cost.second;
  }
  plan.parts = parts;
  plan.load = load;
  plan.inPlace = std::max_element(data.begin(), data.end()) - data.begin();
  plan.largestFunction.assign(parts, 0);
  for (llvm::GlobalValue *gv : definitions) {
    unsigned home = rootHome.lookup(clusters.find(gv));
    plan.home[gv] = home;
    if (auto *f = dyn_cast<llvm::Function>(gv))
      plan.largestFunction[home] =
          std::max(plan.largestFunction[home], instructionCount(*f));
  }

  // What is used across parts becomes a hidden external symbol.
  for (llvm::GlobalValue *gv : definitions) {
    if (!gv->hasLocalLinkage())
      continue;
    GlobalSet users;
    collectUsers(gv, users);
    unsigned home = plan.home.lookup(gv);
    if (llvm::all_of(users, [&](const llvm::GlobalValue *user) {
          auto it = plan.home.find(user);
          return it != plan.home.end() && it->second == home;
        }))
      continue;
    if (!gv->hasName())
      gv->setName("tcc.part.symbol");
    gv->setLinkage(llvm::GlobalValue::ExternalLinkage);
    if (!jitLinked) {
      gv->setVisibility(llvm::GlobalValue::HiddenVisibility);
      gv->setDSOLocal(true);
    }
  }
  return plan;
}

/// For objects that ORC's JIT links: it may place them farther apart than
/// a 32-bit displacement reaches, so what one part reads of another goes
/// through the GOT (and calls through stubs), as for a symbol of another
/// shared object.
void referenceThroughGOT(llvm::Module &part, const llvm::Module &whole) {
  for (llvm::GlobalValue &gv : part.global_values())
    if (gv.isDeclaration())
      if (const llvm::GlobalValue *def = whole.getNamedValue(gv.getName());
          def && !def->isDeclaration())
        gv.setDSOLocal(false);
}

/// Turns `m` into part `part` of `plan`: every other part's definitions
/// become declarations.
void keepPart(llvm::Module &m, const Partition &plan, unsigned part,
              bool jitLinked) {
  auto elsewhere = [&](const llvm::GlobalValue &gv) {
    auto it = plan.home.find(&gv);
    return it != plan.home.end() && it->second != part;
  };
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && elsewhere(f)) {
      f.deleteBody(); // external linkage
      if (jitLinked)
        f.setDSOLocal(false);
    }
  for (llvm::GlobalVariable &g : m.globals())
    if (!g.isDeclaration() && elsewhere(g)) {
      g.setInitializer(nullptr);
      g.setLinkage(llvm::GlobalValue::ExternalLinkage);
      if (jitLinked)
        g.setDSOLocal(false);
    }
}

struct Machine {
  std::string cpu, features;
};

/// O`optLevel` and machine code for one part; `seconds` says how long.
LogicalResult optimizeAndEmit(llvm::Module &m, const Machine &machine,
                              const ObjectCodegenOptions &options,
                              llvm::CodeGenOptLevel codegenLevel,
                              SmallVectorImpl<char> &object,
                              std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(
      machine.cpu, machine.features, codegenLevel, error);
  if (!tm)
    return failure();
  m.setDataLayout(tm->createDataLayout());
  m.setTargetTriple(tm->getTargetTriple());
  if (llvm::Error e =
          makeOptimizingTransformer(options.optLevel, 0, tm.get())(&m)) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(e));
    return failure();
  }
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit object files";
    return failure();
  }
  pm.run(m);
  return success();
}

/// One part's work, done on a thread of the pool.
struct PartJob {
  llvm::CodeGenOptLevel codegenLevel;
  SmallVector<char, 0> bitcode;
  SmallVector<char, 0> object;
  std::string error;
  double seconds = 0;
};

void compileBitcode(PartJob &job, const Machine &machine,
                    const ObjectCodegenOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> m = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(StringRef(job.bitcode.data(), job.bitcode.size()),
                            "tcc-part"),
      context);
  if (!m) {
    job.error = "reading a part back: " + llvm::toString(m.takeError());
    return;
  }
  job.bitcode = {};
  (void)optimizeAndEmit(**m, machine, options, job.codegenLevel, job.object,
                        job.error);
  job.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

} // namespace

bool mlir::tcc::timingRequested() {
  const char *timing = std::getenv("TCC_TIMING");
  return timing && *timing && StringRef(timing) != "0";
}

void mlir::tcc::reportStageTime(StringRef stage,
                                std::chrono::steady_clock::time_point &start) {
  auto now = std::chrono::steady_clock::now();
  if (timingRequested())
    llvm::errs() << llvm::formatv(
        "tcc-timing: {0} {1:f2} s\n", stage,
        std::chrono::duration<double>(now - start).count());
  start = now;
}

unsigned mlir::tcc::codegenThreads(unsigned requested) {
  if (requested)
    return requested;
  if (const char *env = std::getenv("TCC_COMPILE_THREADS")) {
    unsigned n = 0;
    if (!StringRef(env).getAsInteger(10, n) && n > 0)
      return n;
  }
  // At most 8: a part is a module in memory, and past a few parts the
  // entry function alone bounds the time.
  return std::clamp(llvm::hardware_concurrency().compute_thread_count(), 1u,
                    8u);
}

FailureOr<SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
mlir::tcc::compileToObjects(std::unique_ptr<llvm::Module> module,
                            TargetAttr target,
                            const ObjectCodegenOptions &options,
                            std::string &error) {
  auto start = std::chrono::steady_clock::now();
  // A cuda target's host code runs on this machine. The strings are read
  // here: the threads must not touch the MLIR context.
  TargetAttr host =
      target.isCPU() ? target : getHostTarget(target.getContext());
  Machine machine{host.getArch().str(), host.getFeatures().str()};
  {
    std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(
        machine.cpu, machine.features, options.codegenLevel, error);
    if (!tm)
      return failure();
    module->setDataLayout(tm->createDataLayout());
    module->setTargetTriple(tm->getTargetTriple());
  }
  unsigned threads = codegenThreads(options.threads);
  Partition plan = planPartition(*module, threads, options.jitLinked);

  SmallVector<PartJob> jobs(plan.parts);
  for (auto [job, largest] : llvm::zip_equal(jobs, plan.largestFunction))
    job.codegenLevel = options.fastCodegenInstructions &&
                               largest > options.fastCodegenInstructions
                           ? llvm::CodeGenOptLevel::None
                           : options.codegenLevel;
  {
    // The pool runs the other parts while this thread compiles its own.
    llvm::DefaultThreadPool pool(
        llvm::hardware_concurrency(std::max(1u, plan.parts - 1)));
    for (unsigned i = 0; i < plan.parts; ++i) {
      if (i == plan.inPlace)
        continue;
      llvm::ValueToValueMapTy map;
      std::unique_ptr<llvm::Module> part =
          llvm::CloneModule(*module, map, [&](const llvm::GlobalValue *gv) {
            if (plan.copied.contains(gv))
              return true;
            auto it = plan.home.find(gv);
            return it != plan.home.end() && it->second == i;
          });
      if (options.jitLinked)
        referenceThroughGOT(*part, *module);
      llvm::raw_svector_ostream os(jobs[i].bitcode);
      llvm::WriteBitcodeToFile(*part, os);
      part.reset();
      pool.async(
          [&, i] { compileBitcode(jobs[i], machine, options); });
    }
    if (plan.parts > 1)
      keepPart(*module, plan, plan.inPlace, options.jitLinked);
    auto ownStart = std::chrono::steady_clock::now();
    PartJob &own = jobs[plan.inPlace];
    (void)optimizeAndEmit(*module, machine, options, own.codegenLevel,
                          own.object, own.error);
    own.seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - ownStart)
                      .count();
    module.reset();
    pool.wait();
  }

  SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  double slowest = 0;
  for (PartJob &job : jobs) {
    if (!job.error.empty()) {
      error = job.error;
      return failure();
    }
    slowest = std::max(slowest, job.seconds);
    objects.push_back(std::make_unique<llvm::SmallVectorMemoryBuffer>(
        std::move(job.object), "tcc-part.o", /*RequiresNullTerminator=*/false));
  }
  if (timingRequested()) {
    llvm::errs() << llvm::formatv(
        "tcc-timing: LLVM (O{0} and machine code) {1:f2} s: {2} part(s) of "
        "{3} instructions on {4} thread(s), the slowest {5:f2} s\n",
        options.optLevel,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count(),
        plan.parts, plan.instructions, std::min(threads, plan.parts), slowest);
    for (unsigned i = 0; i < plan.parts; ++i)
      llvm::errs() << llvm::formatv(
          "tcc-timing:   part {0}: cost {1}, largest function {2}, "
          "{3:f2} s{4}\n",
          i, plan.load[i], plan.largestFunction[i], jobs[i].seconds,
          jobs[i].codegenLevel == options.codegenLevel
              ? ""
              : " (fast machine code)");
  }
  if (options.report) {
    options.report->fastCodegen.clear();
    for (const PartJob &job : jobs)
      options.report->fastCodegen.push_back(job.codegenLevel !=
                                            options.codegenLevel);
  }
  return objects;
}
