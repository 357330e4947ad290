//===- tcc-opt.cpp - tcc's opt-style driver ---------------------*- C++ -*-===//
//
// `tcc-opt model.mlir --fuse --plan-memory`: parses, runs the requested passes
// and prints the result, like mlir-opt, with tcc's dialects, passes and
// pipelines registered next to upstream MLIR's.
//
// `--fusion-report=FILE.json` and `--fusion-dot=FILE.dot` set the report
// options of the `fuse` pass wherever the pipeline runs it (--fuse, or the
// tcc-to-linalg / tcc-cpu-pipeline pipelines).
//
//===----------------------------------------------------------------------===//

#include "tcc/InitAll.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    fusionReport("fusion-report",
                 llvm::cl::desc("Write the fusion report (JSON) of the "
                                "pipeline's fuse pass to this file"),
                 llvm::cl::value_desc("FILE"), llvm::cl::init(""));
static llvm::cl::opt<std::string>
    fusionDot("fusion-dot",
              llvm::cl::desc("Write the grouped graph (Graphviz DOT) of the "
                             "pipeline's fuse pass to this file"),
              llvm::cl::value_desc("FILE"), llvm::cl::init(""));

/// Sets the report options of every top-level `fuse` pass in `pm`.
static LogicalResult configureFusionReports(PassManager &pm) {
  std::string options;
  if (!fusionReport.empty())
    options += "report-file=" + fusionReport + " ";
  if (!fusionDot.empty())
    options += "dot-file=" + fusionDot;
  bool found = false;
  for (Pass &pass : pm.getPasses()) {
    if (pass.getArgument() != "fuse")
      continue;
    found = true;
    if (failed(pass.initializeOptions(options, [](const Twine &msg) {
          llvm::errs() << "tcc-opt: " << msg << "\n";
          return failure();
        })))
      return failure();
  }
  if (!found)
    llvm::errs() << "tcc-opt: warning: --fusion-report/--fusion-dot given, "
                    "but the pipeline runs no fuse pass\n";
  return success();
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  registerAllPasses();
  tcc::registerAllPasses();
  auto [inputFile, outputFile] =
      registerAndParseCLIOptions(argc, argv, "tcc optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (!fusionReport.empty() || !fusionDot.empty()) {
    MlirOptMainConfig parsed = config;
    config.setPassPipelineSetupFn([parsed](PassManager &pm) {
      if (failed(parsed.setupPassPipeline(pm)))
        return failure();
      return configureFusionReports(pm);
    });
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
