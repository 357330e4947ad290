//===- tcc-run.cpp - run a tcc function on the CPU --------------*- C++ -*-===//
//
// Follows iree-run-module's conventions:
//   tcc-run FILE.mlir [--function=NAME] [--input=@x.npy | --input="2x3xf32=1 2 3 4 5 6"]...
//           [--output=@y.npy]... [--expected_output=@y.npy]... [--benchmark=N]
//           [--reference]
// Compiles FILE with the CPU pipeline (or evaluates it with the reference
// evaluator; or, with --device=cuda, builds it with tcc-compile
// --target=cuda and runs it on the GPU), calls the function on the inputs
// and prints, saves or checks the results. Every user error is a message
// and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Runtime/CachingAllocator.h"
#include "tcc/ExecutionEngine/CPUExecutable.h"
#include "tcc/InitAll.h"
#include "tcc/Reference/Evaluator.h"
#include "tcc/Runtime/InputSpec.h"
#include "tcc/Runtime/ModelLibrary.h"
#include "tcc/Runtime/MLIRTypes.h"
#include "tcc/Runtime/Npy.h"
#include "tcc/Runtime/TensorUtils.h"
#include "../LayoutAndLibraryFlags.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/InitLLVM.h"
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
                   "an NVIDIA GPU: tcc-compile --target=cuda builds the "
                   "function into a temporary library, run through the "
                   "CUDA driver (inputs copied to the device, results "
                   "back)")),
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
                 cl::desc("Target the fusion cost model weighs for (cpu, "
                          "cuda); the code still runs on this CPU"),
                 cl::init("cpu"));
static cl::opt<bool> noFuse("no-fuse", cl::desc("Compile without fusion: every op a kernel of its own, by the same code generator"),
                            cl::init(false));
static cl::opt<bool> noVectorize("no-vectorize",
                                 cl::desc("Compile without tiling and "
                                          "vectorization"),
                                 cl::init(false));
static cl::opt<bool> noParallel("no-parallel",
                                cl::desc("Compile single-threaded"),
                                cl::init(false));
static cl::opt<bool> noPlan("no-plan-memory",
                            cl::desc("Compile without the memory plan"),
                            cl::init(false));
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
static cl::list<std::string> specialize(
    "specialize", cl::CommaSeparated,
    cl::desc("Fix size symbols to values (--specialize=B=8,S=197): a static "
             "compile; the entry checks the inputs have those sizes"));
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

/// Tolerances for comparing a result of `dtype`: the flags when given, else
/// per-type defaults (halves round every op output, so they need more).
static std::pair<double, double> tolerances(DType dtype) {
  bool half = dtype == DType::F16 || dtype == DType::BF16;
  double r = relTol >= 0 ? relTol : (half ? 2e-2 : 1e-4);
  double a = absTol >= 0 ? absTol : (half ? 2e-2 : 1e-5);
  return {r, a};
}

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

/// --device=cuda: `module` (the function to run and what it calls) built
/// by tcc-compile, the tool beside this one, into a cuda library in a
/// fresh directory `dir`; the library's path. tcc-compile's diagnostics go
/// to stderr as they are.
static FailureOr<std::string> compileForCUDA(ModuleOp module,
                                             const char *argv0,
                                             SmallString<128> &dir,
                                             std::string &error) {
  if (llvm::sys::fs::createUniqueDirectory("tcc-run-cuda", dir)) {
    error = "cannot create a temporary directory";
    return failure();
  }
  SmallString<128> source(dir), library(dir);
  llvm::sys::path::append(source, "model.mlir");
  llvm::sys::path::append(library, "libmodel.so");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(source, ec);
    if (ec) {
      error = "cannot write " + source.str().str();
      return failure();
    }
    module.print(os);
  }
  SmallString<128> compiler(llvm::sys::path::parent_path(
      llvm::sys::fs::getMainExecutable(argv0, (void *)&fail)));
  llvm::sys::path::append(compiler, "tcc-compile");
  std::vector<std::string> args = {compiler.str().str(), source.str().str(),
                                   "--target=cuda", "-o",
                                   library.str().str()};
  if (noFuse)
    args.push_back("--no-fuse");
  if (!specialize.empty())
    args.push_back("--specialize=" + llvm::join(specialize, ","));
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::string runError;
  int rc = llvm::sys::ExecuteAndWait(compiler, argRefs, std::nullopt, {}, 0,
                                     0, &runError);
  if (rc != 0) {
    error = "compiling for --device=cuda failed (" +
            (runError.empty() ? "tcc-compile exited with " + std::to_string(rc)
                              : runError) +
            ")";
    return failure();
  }
  return library.str().str();
}

static double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  size_t i = std::min(v.size() - 1, (size_t)(p * (v.size() - 1) + 0.5));
  return v[i];
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tcc: run a function on the CPU\n");
  std::signal(SIGABRT, onRuntimeCheckFailure);

  DialectRegistry registry;
  mlir::tcc::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("could not parse " + inputFile);

  // Pick the function.
  std::string name = functionName;
  if (name.empty()) {
    SmallVector<func::FuncOp> publics;
    for (auto f : module->getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal())
        publics.push_back(f);
    if (publics.size() == 1)
      name = publics.front().getName().str();
    else
      name = "main";
  }
  auto func = module->lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    return fail("no function named '" + name + "' in " + inputFile +
                " (use --function=NAME)");

  // Compile only what the call needs: drop the other functions nobody
  // references (a broken neighbour does not break this run, and compile time
  // does not grow with the file).
  for (auto other : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (other != func && SymbolTable::symbolKnownUseEmpty(other, *module))
      other.erase();

  // Inputs.
  std::vector<HostTensor> inputs;
  for (auto [i, spec] : llvm::enumerate(inputSpecs)) {
    HostTensor t;
    std::string error;
    if (!parseInputSpec(spec, i, seed, t, error))
      return fail(error);
    inputs.push_back(std::move(t));
  }

  if (randomInputs) {
    if (!inputSpecs.empty())
      return fail("--random-inputs and --input are exclusive");
    if (dimSize < 0)
      return fail("--dim-size must be >= 0");
    // Sizes follow the function's size symbols, so tied dims agree and
    // derived dims (a conv output fed back in) are computed.
    FailureOr<mlir::tcc::SymbolicShapeAnalysis> shapes =
        mlir::tcc::SymbolicShapeAnalysis::run(func);
    if (failed(shapes))
      return fail("--random-inputs: the function's shapes do not check");
    std::vector<int64_t> values(shapes->getNames().size(), dimSize.getValue());
    for (const std::string &item : symbolSizes) {
      auto [name, value] = StringRef(item).split('=');
      auto it = llvm::find(shapes->getNames(), name.trim().str());
      int64_t v;
      if (value.trim().getAsInteger(10, v) || v < 0)
        return fail("--sizes: expected NAME=VALUE, got '" + item + "'");
      if (it == shapes->getNames().end())
        return fail("--sizes: no dim is named " + name.trim().str());
      values[it - shapes->getNames().begin()] = v;
    }
    for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
      auto t = dyn_cast<RankedTensorType>(arg.getType());
      std::optional<DType> dt =
          t ? dtypeFromMLIRType(t.getElementType()) : std::nullopt;
      if (!dt)
        return fail("--random-inputs: argument " + std::to_string(i) +
                    " is not a tensor of a supported element type");
      SmallVector<AffineExpr> dims = shapes->getShape(arg);
      std::vector<int64_t> shape;
      for (int64_t d = 0; d < t.getRank(); ++d) {
        std::optional<int64_t> v =
            t.isDynamicDim(d)
                ? mlir::tcc::evaluateSymbolicExpr(dims[d], values)
                : std::optional<int64_t>(t.getDimSize(d));
        shape.push_back(v && *v >= 0 ? *v : dimSize.getValue());
      }
      HostTensor h(*dt, shape);
      fillRandom(h, seed, i);
      inputs.push_back(std::move(h));
    }
  }

  std::vector<HostTensor> results;
  std::function<LogicalResult(std::string &)> invoke;
  struct FreeDeleter {
    void operator()(char *p) const { std::free(p); }
  };
  // Declared before the executable: it must outlive it.
  std::unique_ptr<char, FreeDeleter> callerWorkspace;
  std::unique_ptr<mlir::tcc::CPUExecutable> exe;
  std::unique_ptr<::tcc::runtime::ModelLibrary> library;
  std::string runLibrary = libraryPath;
  SmallString<128> cudaDir;
  llvm::scope_exit removeCudaDir([&] {
    if (!cudaDir.empty())
      llvm::sys::fs::remove_directories(cudaDir);
  });
  if (device == Device::CUDA) {
    if (!libraryPath.empty() || useReference)
      return fail("--device=cuda compiles and runs the function: not with "
                  "--library or --reference");
    // What only the CPU pipeline and its JIT have.
    for (const cl::Option *cpuOnly :
         std::initializer_list<const cl::Option *>{
             &noVectorize, &noParallel, &noPlan, &workspaceOpt,
             &memoryReorder, &buckets, &countAllocations, &memoryReport,
             &memoryPlanSvg, &fusionReport, &fusionDot, &printLLVMDialect,
             &noHostShapeChecks, &verbose})
      if (cpuOnly->getNumOccurrences())
        return fail("--" + cpuOnly->ArgStr.str() +
                    " applies to --device=cpu only");
    std::string error;
    FailureOr<std::string> built =
        compileForCUDA(*module, argv[0], cudaDir, error);
    if (failed(built))
      return fail(error);
    runLibrary = *built;
  }
  if (!runLibrary.empty()) {
    if (useReference)
      return fail("--library and --reference are exclusive");
    std::string error;
    library = ::tcc::runtime::ModelLibrary::open(runLibrary, error);
    if (!library)
      return fail(error);
    invoke = [&](std::string &err) {
      return success(library->call(name, inputs, results, err));
    };
  } else if (useReference) {
    invoke = [&](std::string &error) -> LogicalResult {
      auto r = ::tcc::reference::evaluateFunction(func, inputs, error);
      if (failed(r))
        return failure();
      results = std::move(*r);
      return success();
    };
  } else {
    mlir::tcc::CPUPipelineOptions options;
    options.fuse = !noFuse;
    options.planMemory = !noPlan;
    options.vectorize = !noVectorize;
    options.parallel = !noParallel;
    tcc_tools::applyLayoutAndLibraryFlags(options);
    for (const std::string &s : specialize)
      options.specialize.push_back(s);
    options.fusionTarget = fusionTarget;
    options.fusionReport = fusionReport;
    options.fusionDot = fusionDot;
    options.memoryReport = memoryReport;
    options.memoryPlanSvg = memoryPlanSvg;
    options.memoryReorder = memoryReorder;
    uint64_t workspaceBytes = 0;
    if (!workspaceOpt.empty()) {
      options.workspace = true;
      if (workspaceOpt != "grow" &&
          StringRef(workspaceOpt).getAsInteger(10, workspaceBytes))
        return fail("--workspace takes a byte count or 'grow', got '" +
                    workspaceOpt + "'");
    }
    // The report evaluates its byte expressions at this call's sizes: the
    // size symbols that name whole argument dims.
    for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
      auto shape = func.getArgAttrOfType<mlir::tcc::ShapeAttr>(
          i, mlir::tcc::kShapeAttr);
      if (!shape || i >= inputs.size())
        continue;
      for (auto [d, e] : llvm::enumerate(shape.getMap().getResults()))
        if (auto sym = dyn_cast<mlir::AffineSymbolExpr>(e))
          if (d < inputs[i].shape.size())
            options.fusionReportSizes.push_back(
                shape.getSymbols()[sym.getPosition()].str() + "=" +
                std::to_string(inputs[i].shape[d]));
    }
    std::string error, dump;
    std::optional<mlir::tcc::BucketSpec> bucketSpec;
    if (!buckets.empty()) {
      bucketSpec = mlir::tcc::BucketSpec::parse(buckets, error);
      if (!bucketSpec)
        return fail(error);
    }
    exe = mlir::tcc::CPUExecutable::compile(
        *module, options, error, printLLVMDialect ? &dump : nullptr,
        bucketSpec);
    if (!exe)
      return fail(error);
    if (workspaceBytes) {
      // 256-byte aligned, as a GPU plan would need; freed at exit.
      callerWorkspace.reset(static_cast<char *>(
          std::aligned_alloc(256, (workspaceBytes + 255) / 256 * 256)));
      exe->getWorkspace().setCallerBuffer(callerWorkspace.get(),
                                          workspaceBytes);
    }
    if (printLLVMDialect)
      llvm::errs() << dump << "\n";
    invoke = [&](std::string &err) {
      return exe->call(name, inputs, results, err, !noHostShapeChecks);
    };
    std::vector<std::vector<int64_t>> shapes;
    for (const HostTensor &t : inputs)
      shapes.push_back(t.shape);
    std::string dispatchError;
    if (verbose)
      if (const auto *sig = exe->dispatch(name, shapes, dispatchError)) {
        std::vector<int64_t> values = sig->guards.symbolValues(shapes);
        llvm::errs() << "tcc-run: running @" << sig->name;
        if (sig->bucketDim >= 0)
          llvm::errs() << " (bucket "
                       << (sig->bucketMax == INT64_MAX
                               ? std::string("any size")
                           : sig->bucketMin == sig->bucketMax
                               ? std::to_string(sig->bucketMin)
                               : std::to_string(sig->bucketMin) + ".." +
                                     std::to_string(sig->bucketMax))
                       << ")";
        for (size_t i = 0; i < values.size(); ++i)
          llvm::errs() << (i ? ", " : " with ") << sig->guards.names[i]
                       << " = " << values[i];
        llvm::errs() << "\n";
      }
  }

  std::string error;
  if (failed(invoke(error)))
    return fail(error);

  if (countAllocations && exe) {
    // Steady state: the first call above has compiled nothing lazily, so
    // each of these calls allocates what every call does.
    constexpr int kCalls = 4;
    uint64_t before = ::tcc::runtime::allocationCount();
    for (int i = 0; i < kCalls; ++i)
      if (failed(invoke(error)))
        return fail(error);
    uint64_t perCall = (::tcc::runtime::allocationCount() - before) / kCalls;
    llvm::outs() << "heap allocations per call: " << perCall << " (results: "
                 << results.size() << ")\n";
    if (!workspaceOpt.empty())
      llvm::outs() << "arena bytes per call: "
                   << exe->getWorkspace().lastRequestBytes() << "\n";
  }

  if (benchmark > 0) {
    for (int i = 0; i < 3; ++i)
      (void)invoke(error);
    std::vector<double> times, compiled;
    for (unsigned i = 0; i < benchmark; ++i) {
      auto start = std::chrono::steady_clock::now();
      (void)invoke(error);
      auto end = std::chrono::steady_clock::now();
      times.push_back(
          std::chrono::duration<double, std::micro>(end - start).count());
      if (exe)
        compiled.push_back(exe->getLastCompiledSeconds() * 1e6);
      else if (library)
        compiled.push_back(library->getLastCallSeconds() * 1e6);
    }
    llvm::outs() << llvm::format(
        "benchmark: %u calls, median %.1f us, p90 %.1f us, p99 %.1f us\n",
        benchmark.getValue(), percentile(times, 0.5), percentile(times, 0.9),
        percentile(times, 0.99));
    // The compiled code alone: without the host-side checks and the copy
    // of the results into host tensors.
    if (exe || library)
      llvm::outs() << llvm::format(
          "compiled code: median %.1f us, p90 %.1f us, p99 %.1f us\n",
          percentile(compiled, 0.5), percentile(compiled, 0.9),
          percentile(compiled, 0.99));
  }

  if (checkReference) {
    if (useReference)
      return fail("--check-reference compares compiled code with the "
                  "reference; do not combine it with --reference");
    auto expected = ::tcc::reference::evaluateFunction(func, inputs, error);
    if (failed(expected))
      return fail("reference evaluator: " + error);
    bool ok = expected->size() == results.size();
    for (size_t i = 0; ok && i < results.size(); ++i) {
      std::string report;
      auto [rt, at] = tolerances((*expected)[i].dtype);
      if (!allClose(results[i], (*expected)[i], rt, at, report)) {
        llvm::outs() << "[FAILED] result[" << i << "] differs from the "
                     << "reference: " << report << "\n";
        ok = false;
      } else {
        llvm::outs() << "[SUCCESS] result[" << i << "] matches the reference ("
                     << results[i].typeString() << ")\n";
      }
    }
    return ok ? 0 : 1;
  }

  if (outputSpecs.size() > results.size())
    return fail(std::to_string(outputSpecs.size()) +
                " --output given but the function has " +
                std::to_string(results.size()) + " results");
  for (auto [i, spec] : llvm::enumerate(outputSpecs)) {
    if (spec.empty() || spec[0] != '@')
      return fail("--output must be @file.npy, got '" + spec + "'");
    if (!writeNpy(spec.substr(1), results[i], error))
      return fail(error);
  }
  if (outputSpecs.empty() && expectedSpecs.empty() && !printChecksums &&
      !checkReference)
    for (auto [i, r] : llvm::enumerate(results))
      llvm::outs() << "result[" << i << "]: " << formatTensor(r) << "\n";
  if (printChecksums)
    for (auto [i, r] : llvm::enumerate(results)) {
      Checksum c = checksum(r);
      llvm::outs() << llvm::format("result[%zu]: %s sum=%.6g abs_sum=%.6g\n",
                                   i, r.typeString().c_str(), c.sum,
                                   c.absSum);
    }

  if (!expectedSpecs.empty()) {
    if (expectedSpecs.size() != results.size())
      return fail(std::to_string(expectedSpecs.size()) +
                  " --expected_output given but the function has " +
                  std::to_string(results.size()) + " results");
    bool ok = true;
    for (auto [i, spec] : llvm::enumerate(expectedSpecs)) {
      HostTensor expected;
      if (!parseInputSpec(spec, i, seed, expected, error))
        return fail("expected output " + std::to_string(i) + ": " + error);
      std::string report;
      auto [rt, at] = tolerances(expected.dtype);
      if (!allClose(results[i], expected, rt, at, report)) {
        llvm::outs() << "[FAILED] result[" << i << "]: " << report << "\n";
        ok = false;
      } else {
        llvm::outs() << "[SUCCESS] result[" << i << "] matches ("
                     << results[i].typeString() << ")\n";
      }
    }
    return ok ? 0 : 1;
  }
  return 0;
}
