//===- ToolOptions.cpp - the compile flags tcc-run and tcc-compile share ---===//

#include "ToolOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;
using namespace mlir::tcc;

namespace {

cl::OptionCategory category("Compile options (tcc-run, tcc-compile)");

cl::opt<std::string> pipelineOptions(
    "pipeline-options", cl::value_desc("TEXT"),
    cl::desc("The pipeline's own options, as tcc-opt's --tcc-cpu-pipeline= "
             "or --tcc-cuda-pipeline= take them (\"fuse=false "
             "gemm-library-min-macs=0\"); the flags below apply on top"),
    cl::cat(category));
cl::opt<std::string>
    mcpu("mcpu",
         cl::desc("CPU to generate code for: host (this machine's, the "
                  "default) or an LLVM CPU name (x86-64-v3, znver4)"),
         cl::init(""), cl::cat(category));
cl::opt<std::string> chip("chip",
                          cl::desc("GPU architecture of a cuda build "
                                   "(default sm_90)"),
                          cl::init(""), cl::cat(category));
cl::opt<bool> noFuse("no-fuse",
                     cl::desc("Compile without fusion: every op a kernel of "
                              "its own, by the same code generator"),
                     cl::init(false), cl::cat(category));
cl::list<std::string> specialize(
    "specialize", cl::CommaSeparated,
    cl::desc("Fix size symbols to values (--specialize=B=8,S=197): a static "
             "compile; the entry checks the inputs have those sizes"),
    cl::cat(category));
// The cpu pipeline's own.
cl::opt<bool> noParallel("no-parallel",
                         cl::desc("CPU: run on one thread (no libomp)"),
                         cl::init(false), cl::cat(category));
cl::opt<bool> noVectorize("no-vectorize",
                          cl::desc("CPU: compile without tiling and "
                                   "vectorization"),
                          cl::init(false), cl::cat(category));
cl::opt<bool> noPlan("no-plan-memory",
                     cl::desc("CPU: compile without the memory plan"),
                     cl::init(false), cl::cat(category));
cl::opt<bool> noLibrary(
    "no-library",
    cl::desc("CPU: compile convolutions, linears and matmuls to generated "
             "code instead of oneDNN calls"),
    cl::init(false), cl::cat(category));
cl::opt<int64_t> gemmLibraryMinMacs(
    "gemm-library-min-macs",
    cl::desc("CPU: the smallest linear or matmul (multiply-adds, per call "
             "where sizes are open) that calls oneDNN (default 262144, "
             "docs/layout.md)"),
    cl::init(-1), cl::cat(category));
cl::opt<bool> noSelectLayout(
    "no-select-layout",
    cl::desc("CPU: keep every convolution in the layout it has (no "
             "--select-layout)"),
    cl::init(false), cl::cat(category));

/// The cpu-only flags given on this command line.
std::vector<std::string> cpuOnlyFlagsGiven() {
  std::vector<std::string> given;
  for (const cl::Option *o : std::initializer_list<const cl::Option *>{
           &mcpu, &noParallel, &noVectorize, &noPlan, &noLibrary,
           &gemmLibraryMinMacs, &noSelectLayout})
    if (o->getNumOccurrences())
      given.push_back("--" + o->ArgStr.str());
  return given;
}

/// The value of `key=value` in --pipeline-options' text, or "".
std::string pipelineOption(llvm::StringRef key) {
  llvm::SmallVector<llvm::StringRef> words;
  llvm::StringRef(pipelineOptions).split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef w : words)
    if (w.consume_front(key) && w.consume_front("="))
      return w.trim("\"'").str();
  return "";
}

} // namespace

mlir::FailureOr<TargetAttr> tcc_tools::applyTarget(mlir::ModuleOp module,
                                                  llvm::StringRef kind,
                                                  std::string &error) {
  auto existing = module->getAttrOfType<TargetAttr>(kTargetAttr);
  // --mcpu / --chip, else the pipeline's own mcpu= / chip= (the target is
  // attached here, before the pipeline, whose options would otherwise only
  // apply to a module without one).
  std::string cpu = !mcpu.empty() ? mcpu.getValue() : pipelineOption("mcpu");
  std::string gpu = !chip.empty() ? chip.getValue() : pipelineOption("chip");
  bool named = !kind.empty() || !cpu.empty() || !gpu.empty();
  if (existing && !named)
    return existing;
  TargetOptions options;
  options.kind = !kind.empty() ? kind.str()
                 : existing    ? existing.getKind().str()
                               : std::string("cpu");
  if (!cpu.empty())
    options.mcpu = cpu;
  if (!gpu.empty())
    options.chip = gpu;
  mlir::FailureOr<TargetAttr> target =
      buildTarget(module.getContext(), options, error);
  if (mlir::succeeded(target))
    module->setAttr(kTargetAttr, *target);
  return target;
}

std::unique_ptr<CPUPipelineOptions>
tcc_tools::cpuPipelineOptions(std::string &error) {
  if (chip.getNumOccurrences()) {
    error = "--chip applies to cuda builds only";
    return nullptr;
  }
  std::unique_ptr<CPUPipelineOptions> options =
      CPUPipelineOptions::createFromString(pipelineOptions);
  if (!options) {
    error = "--pipeline-options: not options of the cpu pipeline: '" +
            pipelineOptions + "'";
    return nullptr;
  }
  if (!mcpu.empty())
    options->mcpu = mcpu;
  if (noFuse)
    options->fuse = false;
  if (noParallel)
    options->parallel = false;
  if (noVectorize)
    options->vectorize = false;
  if (noPlan)
    options->planMemory = false;
  if (noLibrary) {
    options->convLibrary = false;
    options->gemmLibrary = false;
  }
  if (gemmLibraryMinMacs >= 0)
    options->gemmLibraryMinMacs = gemmLibraryMinMacs;
  if (noSelectLayout)
    options->selectLayout = false;
  for (const std::string &s : specialize)
    options->specialize.push_back(s);
  return options;
}

std::unique_ptr<CUDAPipelineOptions>
tcc_tools::cudaPipelineOptions(llvm::StringRef cpuFlag, std::string &error) {
  std::vector<std::string> cpuOnly = cpuOnlyFlagsGiven();
  if (!cpuOnly.empty()) {
    error = llvm::join(cpuOnly, ", ") + " applies to " + cpuFlag.str() +
            " only";
    return nullptr;
  }
  std::unique_ptr<CUDAPipelineOptions> options =
      CUDAPipelineOptions::createFromString(pipelineOptions);
  if (!options) {
    error = "--pipeline-options: not options of the cuda pipeline: '" +
            pipelineOptions + "'";
    return nullptr;
  }
  if (!chip.empty())
    options->chip = chip;
  if (noFuse)
    options->fuse = false;
  for (const std::string &s : specialize)
    options->specialize.push_back(s);
  return options;
}
