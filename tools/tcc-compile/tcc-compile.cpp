//===- tcc-compile.cpp - ahead-of-time shared libraries ---------*- C++ -*-===//
//
//   tcc-compile model.mlir -o libmodel.so [--target=cpu|cuda] [--mcpu=host]
//       [--chip=sm_90] [--no-fuse] [--weights=auto|embed|file] ...
//
// Compiles every public function of the module with the same pipeline the
// JIT (tcc-run) uses and writes a shared library exporting the C ABI of
// include/tcc/Runtime/tcc_model.h, with its manifest (libmodel.json)
// beside it: lib/AOT does the work, in process.
//
//===----------------------------------------------------------------------===//

#include "../ToolOptions.h"
#include "tcc/AOT/LibraryWriter.h"
#include "tcc/InitAll.h"
#include "tcc/Target/ObjectCodegen.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required);
static cl::opt<std::string> outputFile("o", cl::desc("Output library (.so)"),
                                       cl::value_desc("libNAME.so"),
                                       cl::Required);
static cl::opt<std::string> target(
    "target",
    cl::desc("What the library runs on: cpu (the CPU --mcpu names) or cuda "
             "(NVIDIA GPUs of --chip, host code for this CPU: tensors are "
             "device pointers); default: the module's #tcc.target, else "
             "cpu"),
    cl::init(""));
static cl::opt<std::string> keepObject(
    "keep-object", cl::value_desc("FILE.o"),
    cl::desc("Also keep the object file and the generated entry table"));
static cl::opt<mlir::tcc::WeightsPlacement> weights(
    "weights",
    cl::desc("Where the weights go (default: auto)"),
    cl::values(
        clEnumValN(mlir::tcc::WeightsPlacement::Auto, "auto",
                   "beside the library (libNAME.weights) when they exceed "
                   "64 MiB, else inside"),
        clEnumValN(mlir::tcc::WeightsPlacement::Embedded, "embed",
                   "inside the library"),
        clEnumValN(mlir::tcc::WeightsPlacement::File, "file",
                   "in libNAME.weights beside the library, mapped when it "
                   "is loaded")),
    cl::init(mlir::tcc::WeightsPlacement::Auto));
static cl::opt<std::string> compiler(
    "cc", cl::desc("C compiler that links the library"), cl::init("cc"));

static int fail(const std::string &message) {
  llvm::errs() << "tcc-compile: error: " << message << "\n";
  return 1;
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
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("could not parse " + inputFile);
  mlir::tcc::reportStageTime("parsing " + inputFile, start);

  FailureOr<mlir::tcc::TargetAttr> kind =
      tcc_tools::applyTarget(*module, target, error);
  if (failed(kind))
    return fail("--target: " + error);
  // The options parsed once; the lowering runs only on a cache miss.
  std::unique_ptr<mlir::tcc::CUDAPipelineOptions> cuda;
  std::unique_ptr<mlir::tcc::CPUPipelineOptions> cpu;
  std::string pipeline;
  llvm::raw_string_ostream printed(pipeline);
  if (kind->isCUDA()) {
    cuda = tcc_tools::cudaPipelineOptions("--target=cpu", error);
    if (!cuda)
      return fail(error);
    printed << "cuda ";
    cuda->print(printed);
  } else {
    cpu = tcc_tools::cpuPipelineOptions(error);
    if (!cpu)
      return fail(error);
    printed << "cpu ";
    cpu->print(printed);
  }
  auto lower = [&]() -> FailureOr<mlir::tcc::LoweredModule> {
    FailureOr<mlir::tcc::LoweredModule> lowered =
        cuda ? mlir::tcc::lowerForCUDA(*module, *cuda, error)
             : mlir::tcc::lowerForCPU(*module, *cpu, error);
    if (succeeded(lowered) && lowered->signatures.empty()) {
      error = inputFile + " has no public function to export";
      return failure();
    }
    return lowered;
  };
  mlir::tcc::LibraryWriterOptions library;
  library.outputPath = outputFile;
  library.keepObject = keepObject;
  library.compiler = compiler;
  library.weights = weights;
  library.useCache = !(cpu && cpu->writesFiles());
  if (failed(mlir::tcc::buildOrReuseSharedLibrary(*module, pipeline, lower,
                                                  library, error)))
    return fail(error);
  return 0;
}
