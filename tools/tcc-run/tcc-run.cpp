//===- tcc-run.cpp - run a tcc function on the CPU --------------*- C++ -*-===//
//
// Follows iree-run-module's conventions:
//   tcc-run FILE.mlir [--function=NAME] [--input=@x.npy | --input="2x3xf32=1 2 3 4 5 6"]...
//           [--output=@y.npy]... [--expected_output=@y.npy]... [--benchmark=N]
//           [--reference]
// Compiles FILE with the CPU pipeline (or evaluates it with the reference
// evaluator; or, with --device=cuda, builds it into a cuda library in
// process, lib/AOT, and runs it on the GPU), calls the function on the
// inputs and prints, saves or checks the results. Every user error is a
// message and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "../ToolOptions.h"
#include "tcc/AOT/LibraryWriter.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/InitAll.h"
#include "tcc/Reference/Evaluator.h"
#include "tcc/Runtime/CachingAllocator.h"
#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/MLIRTypes.h"
#include "tcc/Runtime/ModelLibrary.h"
#include "tcc/Runtime/Npy.h"
#include "tcc/Runtime/TensorUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace mlir;
using namespace ::tcc::runtime;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required);
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function to call (default: the only public one, "
                          "else 'main')"),
                 cl::init(""));
static cl::list<std::string>
    inputSpecs("input",
               cl::desc("An input, in argument order: @file.npy, "
                        "\"2x3xf32=1 2 3 4 5 6\", \"2x3xf32=random\""));
static cl::list<std::string>
    outputSpecs("output", cl::desc("Save result i to @file.npy (in order)"));
static cl::list<std::string> expectedSpecs(
    "expected_output",
    cl::desc("Compare result i with an expected value (@file.npy or an "
             "inline tensor); exit 1 on mismatch"));
static cl::opt<double> relTol(
    "rtol",
    cl::desc("Relative tolerance (default 1e-4; 2e-2 for f16/bf16 results)"),
    cl::init(-1));
static cl::opt<double> absTol(
    "atol",
    cl::desc("Absolute tolerance (default 1e-5; 2e-2 for f16/bf16 results)"),
    cl::init(-1));
static cl::opt<bool> checkReference(
    "check-reference",
    cl::desc("Run compiled code and the reference evaluator on the same "
             "inputs and compare; exit 1 on mismatch"),
    cl::init(false));
static cl::opt<unsigned> benchmark(
    "benchmark", cl::desc("Time N calls after warm-up; print median/p90/p99"),
    cl::init(0));
static cl::opt<bool> useReference(
    "reference", cl::desc("Evaluate with the reference evaluator instead of "
                          "compiled code"),
    cl::init(false));
static cl::opt<std::string> libraryPath(
    "library", cl::value_desc("libNAME.so"),
    cl::desc("Run the function from a library built by tcc-compile (the "
             "file still gives the reference and the signature)"),
    cl::init(""));
enum class Device { CPU, CUDA };
static cl::opt<Device> device(
    "device", cl::desc("Where the compiled function runs"),
    cl::values(
        clEnumValN(Device::CPU, "cpu", "this CPU, JIT-compiled (default)"),
        clEnumValN(Device::CUDA, "cuda",
                   "an NVIDIA GPU: the function is built into a temporary "
                   "cuda library (as tcc-compile --target=cuda builds it), "
                   "run through the CUDA driver (inputs copied to the "
                   "device, results back)")),
    cl::init(Device::CPU));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of 'random' inputs"),
                              cl::init(0));
static cl::opt<bool> printChecksums(
    "checksum", cl::desc("Print sum and sum of |x| of each result"),
    cl::init(false));
static cl::opt<bool> randomInputs(
    "random-inputs",
    cl::desc("Without --input: make seeded random inputs from the function "
             "signature (dynamic dims get --dim-size)"),
    cl::init(false));
static cl::opt<int64_t> dimSize("dim-size",
                                cl::desc("Size of dynamic dims for "
                                         "--random-inputs"),
                                cl::init(1));
static cl::list<std::string> symbolSizes(
    "sizes", cl::CommaSeparated,
    cl::desc("Sizes of named dims for --random-inputs (--sizes=B=8,S=197); "
             "other size symbols get --dim-size"));
static cl::opt<std::string> fusionReport(
    "fusion-report", cl::value_desc("FILE"),
    cl::desc("Write the fusion report (JSON) to FILE; bytes are also "
             "evaluated at this call's sizes"),
    cl::init(""));
static cl::opt<std::string>
    fusionDot("fusion-dot", cl::value_desc("FILE"),
              cl::desc("Write the grouped graph (Graphviz DOT) to FILE"),
              cl::init(""));
static cl::opt<std::string>
    fusionTarget("fusion-target",
                 cl::desc("Weigh fusion for this kind of target (cpu, "
                          "cuda); the code still runs on this CPU"),
                 cl::init(""));
static cl::opt<std::string> memoryReport(
    "memory-report", cl::value_desc("FILE"),
    cl::desc("Write the memory plan (JSON) to FILE; bytes are also "
             "evaluated at this call's sizes"),
    cl::init(""));
static cl::opt<std::string>
    memoryPlanSvg("memory-plan-svg", cl::value_desc("FILE"),
                  cl::desc("Draw the memory plan (SVG) to FILE, at this "
                           "call's sizes"),
                  cl::init(""));
static cl::opt<bool> countAllocations(
    "count-allocations",
    cl::desc("Print the compiled code's heap allocations per call (after a "
             "warm-up call): with a memory plan, one arena plus the results"),
    cl::init(false));
static cl::opt<std::string> workspaceOpt(
    "workspace", cl::value_desc("BYTES|grow"),
    cl::desc("Compile so that the arena comes from a workspace instead of a "
             "per-call allocation: BYTES, a buffer of that size tcc-run "
             "passes (a call needing more fails with both sizes); grow, "
             "one the executable grows once and reuses"),
    cl::init(""));
static cl::opt<bool> memoryReorder(
    "memory-reorder",
    cl::desc("Reorder independent ops when that lowers the arena's peak"),
    cl::init(false));
static cl::opt<std::string> buckets(
    "buckets",
    cl::desc("Shape buckets: --buckets=B:1,8,64 compiles versions for "
             "B = 1, 2..8 and 9..64 plus one for any B, and runs the first "
             "that holds B"));
static cl::opt<bool> noHostShapeChecks(
    "no-host-shape-checks",
    cl::desc("Leave the size checks to the compiled entry's guards (for "
             "testing them; messages are the same)"));
static cl::opt<bool> verbose(
    "verbose", cl::desc("Say which compiled version ran and the sizes of "
                        "its symbols"));
static cl::opt<bool> printLLVMDialect(
    "print-llvm-dialect", cl::desc("Print the lowered module to stderr"),
    cl::init(false));

static int fail(const std::string &message) {
  llvm::errs() << "tcc-run: error: " << message << "\n";
  return 1;
}

/// Runtime checks in compiled code (dynamic dims that must agree, gather
/// indices) print their message and abort; turn that into an error report
/// and exit code 1 instead of a crash dump. (Any other abort lands here too,
/// so the message does not claim more than it knows.)
static void onRuntimeCheckFailure(int) {
  std::fflush(stdout);
  static const char msg[] =
      "tcc-run: error: compiled code aborted: a runtime check failed (its "
      "message is above) or the process hit an internal error\n";
  (void)!write(2, msg, sizeof(msg) - 1);
  _exit(1);
}

static double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  size_t i = std::min(v.size() - 1, (size_t)(p * (v.size() - 1) + 0.5));
  return v[i];
}

/// The function to run: --function, else the only public one, else main.
static func::FuncOp pickFunction(ModuleOp module, std::string &name) {
  name = functionName;
  if (name.empty()) {
    SmallVector<func::FuncOp> publics;
    for (auto f : module.getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal())
        publics.push_back(f);
    name = publics.size() == 1 ? publics.front().getName().str() : "main";
  }
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    return nullptr;
  // Compile only what the call needs: drop the other functions nobody
  // references (a broken neighbour does not break this run, and compile
  // time does not grow with the file).
  for (auto other : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (other != func && SymbolTable::symbolKnownUseEmpty(other, module))
      other.erase();
  return func;
}

/// Seeded random inputs from `func`'s signature: sizes follow its size
/// symbols (--sizes, else --dim-size), so tied dims agree and derived dims
/// (a conv output fed back in) are computed.
static LogicalResult makeRandomInputs(func::FuncOp func,
                                      std::vector<HostTensor> &inputs,
                                      std::string &error) {
  if (dimSize < 0) {
    error = "--dim-size must be >= 0";
    return failure();
  }
  FailureOr<mlir::tcc::SymbolicShapeAnalysis> shapes =
      mlir::tcc::SymbolicShapeAnalysis::run(func);
  if (failed(shapes)) {
    error = "--random-inputs: the function's shapes do not check";
    return failure();
  }
  std::vector<int64_t> values(shapes->getNames().size(), dimSize.getValue());
  for (const std::string &item : symbolSizes) {
    std::optional<mlir::tcc::SizeBinding> size = mlir::tcc::parseSizeBinding(item);
    if (!size) {
      error = "--sizes: expected NAME=VALUE, got '" + item + "'";
      return failure();
    }
    auto it = llvm::find(shapes->getNames(), size->name);
    if (it == shapes->getNames().end()) {
      error = "--sizes: no dim is named " + size->name;
      return failure();
    }
    values[it - shapes->getNames().begin()] = size->value;
  }
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    std::optional<DType> dt =
        t ? dtypeFromMLIRType(t.getElementType()) : std::nullopt;
    if (!dt) {
      error = "--random-inputs: argument " + std::to_string(i) +
              " is not a tensor of a supported element type";
      return failure();
    }
    SmallVector<AffineExpr> dims = shapes->getShape(arg);
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      std::optional<int64_t> v =
          t.isDynamicDim(d) ? mlir::tcc::evaluateSymbolicExpr(dims[d], values)
                            : std::optional<int64_t>(t.getDimSize(d));
      shape.push_back(v && *v >= 0 ? *v : dimSize.getValue());
    }
    HostTensor h(*dt, shape);
    fillRandom(h, seed, i);
    inputs.push_back(std::move(h));
  }
  return success();
}

/// The flags only the CPU JIT has, given with --device=cuda.
static std::vector<std::string> jitOnlyFlagsGiven() {
  std::vector<std::string> given;
  for (const cl::Option *o : std::initializer_list<const cl::Option *>{
           &workspaceOpt, &memoryReorder, &buckets, &countAllocations,
           &memoryReport, &memoryPlanSvg, &fusionReport, &fusionDot,
           &fusionTarget, &printLLVMDialect, &noHostShapeChecks, &verbose})
    if (o->getNumOccurrences())
      given.push_back("--" + o->ArgStr.str());
  return given;
}

/// --device=cuda: `module` built into a cuda library in a fresh directory
/// `dir`; the library's path.
static FailureOr<std::string> buildCUDALibrary(ModuleOp module,
                                               SmallString<128> &dir,
                                               std::string &error) {
  std::unique_ptr<mlir::tcc::CUDAPipelineOptions> options =
      tcc_tools::cudaPipelineOptions("--device=cpu", error);
  if (!options)
    return failure();
  if (llvm::sys::fs::createUniqueDirectory("tcc-run-cuda", dir)) {
    error = "cannot create a temporary directory";
    return failure();
  }
  mlir::tcc::LibraryWriterOptions library;
  SmallString<128> path(dir);
  llvm::sys::path::append(path, "libmodel.so");
  library.outputPath = path.str().str();
  std::string pipeline;
  llvm::raw_string_ostream printed(pipeline);
  printed << "cuda ";
  options->print(printed);
  if (failed(mlir::tcc::buildOrReuseSharedLibrary(
          module, pipeline,
          [&] { return mlir::tcc::lowerForCUDA(module, *options, error); },
          library, error))) {
    error = "compiling for --device=cuda failed: " + error;
    return failure();
  }
  return library.outputPath;
}

/// The cpu pipeline's options from the flags, with the reports evaluated
/// at this call's sizes (the size symbols that name whole argument dims).
static std::unique_ptr<mlir::tcc::CPUPipelineOptions>
jitOptions(func::FuncOp func, const std::vector<HostTensor> &inputs,
           std::string &error) {
  std::unique_ptr<mlir::tcc::CPUPipelineOptions> options =
      tcc_tools::cpuPipelineOptions(error);
  if (!options)
    return nullptr;
  options->fusionTarget = fusionTarget;
  options->fusionReport = fusionReport;
  options->fusionDot = fusionDot;
  options->memoryReport = memoryReport;
  options->memoryPlanSvg = memoryPlanSvg;
  if (memoryReorder)
    options->memoryReorder = true;
  if (!workspaceOpt.empty())
    options->workspace = true;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    auto shape = func.getArgAttrOfType<mlir::tcc::ShapeAttr>(i, mlir::tcc::kShapeAttr);
    if (!shape || i >= inputs.size())
      continue;
    for (auto [d, e] : llvm::enumerate(shape.getMap().getResults()))
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        if (d < inputs[i].shape.size())
          options->fusionReportSizes.push_back(
              shape.getSymbols()[sym.getPosition()].str() + "=" +
              std::to_string(inputs[i].shape[d]));
  }
  return options;
}

/// --verbose: which compiled version a call on `inputs` runs.
static void printDispatch(const mlir::tcc::CPUExecutable &exe, StringRef name,
                          const std::vector<HostTensor> &inputs) {
  std::vector<std::vector<int64_t>> shapes;
  for (const HostTensor &t : inputs)
    shapes.push_back(t.shape);
  std::string dispatchError;
  const mlir::tcc::FunctionSignature *sig = exe.dispatch(name, shapes, dispatchError);
  if (!sig)
    return;
  std::vector<int64_t> values = sig->guards.symbolValues(shapes);
  llvm::errs() << "tcc-run: running @" << sig->name;
  if (sig->bucketDim >= 0)
    llvm::errs() << " (bucket "
                 << (sig->bucketMax == INT64_MAX ? std::string("any size")
                     : sig->bucketMin == sig->bucketMax
                         ? std::to_string(sig->bucketMin)
                         : std::to_string(sig->bucketMin) + ".." +
                               std::to_string(sig->bucketMax))
                 << ")";
  for (size_t i = 0; i < values.size(); ++i)
    llvm::errs() << (i ? ", " : " with ") << sig->guards.names[i] << " = "
                 << values[i];
  llvm::errs() << "\n";
}

/// What runs the function: the JIT, a library (given or built for cuda),
/// or the reference evaluator; and the state the call needs.
struct Runner {
  struct FreeDeleter {
    void operator()(char *p) const { std::free(p); }
  };
  // Declared before the executable: it must outlive it.
  std::unique_ptr<char, FreeDeleter> callerWorkspace;
  std::unique_ptr<mlir::tcc::CPUExecutable> exe;
  std::unique_ptr<ModelLibrary> library;
  SmallString<128> cudaDir;
  std::function<LogicalResult(std::string &)> invoke;

  ~Runner() {
    library.reset();
    if (!cudaDir.empty())
      llvm::sys::fs::remove_directories(cudaDir);
  }

  /// The compiled code's own time of the last call, in microseconds.
  std::optional<double> lastCompiledMicros() const {
    if (exe)
      return exe->getLastCompiledSeconds() * 1e6;
    if (library)
      return library->getLastCallSeconds() * 1e6;
    return std::nullopt;
  }
};

static LogicalResult setUpRunner(Runner &runner, ModuleOp module,
                                 func::FuncOp func, const std::string &name,
                                 const std::vector<HostTensor> &inputs,
                                 std::vector<HostTensor> &results,
                                 std::string &error) {
  std::string runLibrary = libraryPath;
  if (device == Device::CUDA) {
    if (!libraryPath.empty() || useReference) {
      error = "--device=cuda compiles and runs the function: not with "
              "--library or --reference";
      return failure();
    }
    std::vector<std::string> jitOnly = jitOnlyFlagsGiven();
    if (!jitOnly.empty()) {
      error = llvm::join(jitOnly, ", ") + " applies to --device=cpu only";
      return failure();
    }
    FailureOr<std::string> built =
        buildCUDALibrary(module, runner.cudaDir, error);
    if (failed(built))
      return failure();
    runLibrary = *built;
  }
  if (!runLibrary.empty()) {
    if (useReference) {
      error = "--library and --reference are exclusive";
      return failure();
    }
    runner.library = ModelLibrary::open(runLibrary, error);
    if (!runner.library)
      return failure();
    runner.invoke = [&runner, &name, &inputs, &results](std::string &err) {
      return success(runner.library->call(name, inputs, results, err));
    };
    return success();
  }
  if (useReference) {
    runner.invoke = [func, &inputs, &results](std::string &err) {
      auto r = ::tcc::reference::evaluateFunction(func, inputs, err);
      if (failed(r))
        return failure();
      results = std::move(*r);
      return success();
    };
    return success();
  }

  std::unique_ptr<mlir::tcc::CPUPipelineOptions> options =
      jitOptions(func, inputs, error);
  if (!options)
    return failure();
  uint64_t workspaceBytes = 0;
  if (!workspaceOpt.empty() && workspaceOpt != "grow" &&
      StringRef(workspaceOpt).getAsInteger(10, workspaceBytes)) {
    error = "--workspace takes a byte count or 'grow', got '" + workspaceOpt +
            "'";
    return failure();
  }
  std::optional<mlir::tcc::BucketSpec> bucketSpec;
  if (!buckets.empty()) {
    bucketSpec = mlir::tcc::BucketSpec::parse(buckets, error);
    if (!bucketSpec)
      return failure();
  }
  std::string dump;
  runner.exe = mlir::tcc::CPUExecutable::compile(
      module, *options, error, printLLVMDialect ? &dump : nullptr, bucketSpec);
  if (!runner.exe)
    return failure();
  if (workspaceBytes) {
    // 256-byte aligned, as a GPU plan would need; freed at exit.
    runner.callerWorkspace.reset(static_cast<char *>(
        std::aligned_alloc(256, (workspaceBytes + 255) / 256 * 256)));
    runner.exe->getWorkspace().setCallerBuffer(runner.callerWorkspace.get(),
                                               workspaceBytes);
  }
  if (printLLVMDialect)
    llvm::errs() << dump << "\n";
  runner.invoke = [&runner, &name, &inputs, &results](std::string &err) {
    return runner.exe->call(name, inputs, results, err, !noHostShapeChecks);
  };
  if (verbose)
    printDispatch(*runner.exe, name, inputs);
  return success();
}

/// --count-allocations: the compiled code's heap allocations per call in
/// the steady state (the first call has compiled nothing lazily).
static LogicalResult countHeapAllocations(Runner &runner, size_t numResults,
                                          std::string &error) {
  constexpr int kCalls = 4;
  uint64_t before = allocationCount();
  for (int i = 0; i < kCalls; ++i)
    if (failed(runner.invoke(error)))
      return failure();
  uint64_t perCall = (allocationCount() - before) / kCalls;
  llvm::outs() << "heap allocations per call: " << perCall
               << " (results: " << numResults << ")\n";
  if (!workspaceOpt.empty())
    llvm::outs() << "arena bytes per call: "
                 << runner.exe->getWorkspace().lastRequestBytes() << "\n";
  return success();
}

/// --benchmark: N timed calls after 3 warm-up ones.
static void runBenchmark(Runner &runner) {
  std::string error;
  for (int i = 0; i < 3; ++i)
    (void)runner.invoke(error);
  std::vector<double> times, compiled;
  for (unsigned i = 0; i < benchmark; ++i) {
    auto start = std::chrono::steady_clock::now();
    (void)runner.invoke(error);
    auto end = std::chrono::steady_clock::now();
    times.push_back(
        std::chrono::duration<double, std::micro>(end - start).count());
    if (std::optional<double> c = runner.lastCompiledMicros())
      compiled.push_back(*c);
  }
  llvm::outs() << llvm::format(
      "benchmark: %u calls, median %.1f us, p90 %.1f us, p99 %.1f us\n",
      benchmark.getValue(), percentile(times, 0.5), percentile(times, 0.9),
      percentile(times, 0.99));
  // The compiled code alone: without the host-side checks and the copy of
  // the results into host tensors.
  if (!compiled.empty())
    llvm::outs() << llvm::format(
        "compiled code: median %.1f us, p90 %.1f us, p99 %.1f us\n",
        percentile(compiled, 0.5), percentile(compiled, 0.9),
        percentile(compiled, 0.99));
}

/// Compares `results` with `expected`, one line per result; whether all
/// match.
static bool compareResults(const std::vector<HostTensor> &results,
                           const std::vector<HostTensor> &expected,
                           StringRef against) {
  bool ok = expected.size() == results.size();
  for (size_t i = 0; ok && i < results.size(); ++i) {
    std::string report;
    Tolerances tol = defaultTolerances(expected[i].dtype, relTol, absTol);
    if (!allClose(results[i], expected[i], tol.rtol, tol.atol, report)) {
      llvm::outs() << "[FAILED] result[" << i << "]"
                   << (against.empty() ? "" : " differs from ") << against
                   << ": " << report << "\n";
      ok = false;
    } else {
      llvm::outs() << "[SUCCESS] result[" << i << "] matches"
                   << (against.empty() ? "" : " ") << against << " ("
                   << results[i].typeString() << ")\n";
    }
  }
  return ok;
}

/// --output, then the printed results or checksums.
static LogicalResult emitResults(const std::vector<HostTensor> &results,
                                 std::string &error) {
  if (outputSpecs.size() > results.size()) {
    error = std::to_string(outputSpecs.size()) +
            " --output given but the function has " +
            std::to_string(results.size()) + " results";
    return failure();
  }
  for (auto [i, spec] : llvm::enumerate(outputSpecs)) {
    if (spec.empty() || spec[0] != '@') {
      error = "--output must be @file.npy, got '" + spec + "'";
      return failure();
    }
    if (!writeNpy(spec.substr(1), results[i], error))
      return failure();
  }
  if (outputSpecs.empty() && expectedSpecs.empty() && !printChecksums)
    for (auto [i, r] : llvm::enumerate(results))
      llvm::outs() << "result[" << i << "]: " << formatTensor(r) << "\n";
  if (printChecksums)
    for (auto [i, r] : llvm::enumerate(results)) {
      Checksum c = checksum(r);
      llvm::outs() << llvm::format("result[%zu]: %s sum=%.6g abs_sum=%.6g\n",
                                   i, r.typeString().c_str(), c.sum,
                                   c.absSum);
    }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tcc: run a function on the CPU\n");
  std::signal(SIGABRT, onRuntimeCheckFailure);

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

  std::string name;
  func::FuncOp func = pickFunction(*module, name);
  if (!func)
    return fail("no function named '" + name + "' in " + inputFile +
                " (use --function=NAME)");
  if (!useReference && libraryPath.empty()) {
    StringRef kind = !device.getNumOccurrences() ? ""
                     : device == Device::CUDA    ? "cuda"
                                                 : "cpu";
    if (failed(tcc_tools::applyTarget(*module, kind, error)))
      return fail(error);
  }

  std::vector<HostTensor> inputs;
  for (auto [i, spec] : llvm::enumerate(inputSpecs)) {
    HostTensor t;
    if (!parseInputSpec(spec, i, seed, t, error))
      return fail(error);
    // bf16 data in .npy files is its bits in uint16.
    if (i < func.getNumArguments())
      if (auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]))
        if (auto dtype = dtypeFromMLIRType(type.getElementType()))
          adoptAsBF16IfBits(t, *dtype);
    inputs.push_back(std::move(t));
  }
  if (randomInputs) {
    if (!inputSpecs.empty())
      return fail("--random-inputs and --input are exclusive");
    if (failed(makeRandomInputs(func, inputs, error)))
      return fail(error);
  }

  std::vector<HostTensor> results;
  Runner runner;
  if (failed(setUpRunner(runner, *module, func, name, inputs, results, error)))
    return fail(error);
  if (failed(runner.invoke(error)))
    return fail(error);
  if (countAllocations && runner.exe &&
      failed(countHeapAllocations(runner, results.size(), error)))
    return fail(error);
  if (benchmark > 0)
    runBenchmark(runner);

  if (checkReference) {
    if (useReference)
      return fail("--check-reference compares compiled code with the "
                  "reference; do not combine it with --reference");
    auto expected = ::tcc::reference::evaluateFunction(func, inputs, error);
    if (failed(expected))
      return fail("reference evaluator: " + error);
    return compareResults(results, *expected, "the reference") ? 0 : 1;
  }
  if (failed(emitResults(results, error)))
    return fail(error);
  if (expectedSpecs.empty())
    return 0;
  if (expectedSpecs.size() != results.size())
    return fail(std::to_string(expectedSpecs.size()) +
                " --expected_output given but the function has " +
                std::to_string(results.size()) + " results");
  std::vector<HostTensor> expected;
  for (auto [i, spec] : llvm::enumerate(expectedSpecs)) {
    HostTensor t;
    if (!parseInputSpec(spec, i, seed, t, error))
      return fail("expected output " + std::to_string(i) + ": " + error);
    adoptAsBF16IfBits(t, results[i].dtype);
    expected.push_back(std::move(t));
  }
  return compareResults(results, expected, "") ? 0 : 1;
}
