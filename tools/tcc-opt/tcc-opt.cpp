//===- tcc-opt.cpp - tcc's opt-style driver ---------------------*- C++ -*-===//
//
// `tcc-opt model.mlir --fuse --plan-memory`: parses, runs the requested passes
// and prints the result, like mlir-opt, with tcc's dialects, passes and
// pipelines registered next to upstream MLIR's.
//
// `--fusion-report=FILE.json` and `--fusion-dot=FILE.dot` set the report
// options of the `fuse` pass wherever the pipeline runs it (--fuse, or the
// tcc-to-linalg / tcc-cpu-pipeline pipelines); `--memory-report=FILE.json`,
// `--memory-plan-svg=FILE.svg` and `--memory-report-sizes=B=32,S=197` those
// of the `plan-memory` pass.
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

static llvm::cl::opt<std::string> memoryReport(
    "memory-report",
    llvm::cl::desc("Write the memory plan (JSON) of the pipeline's "
                   "plan-memory pass to this file"),
    llvm::cl::value_desc("FILE"), llvm::cl::init(""));
static llvm::cl::opt<std::string> memoryPlanSvg(
    "memory-plan-svg",
    llvm::cl::desc("Draw the memory plan (SVG) of the pipeline's plan-memory "
                   "pass to this file"),
    llvm::cl::value_desc("FILE"), llvm::cl::init(""));
static llvm::cl::opt<std::string> memoryReportSizes(
    "memory-report-sizes",
    llvm::cl::desc("NAME=VALUE,... sizes at which the memory report "
                   "evaluates bytes (B=32,S=197)"),
    llvm::cl::value_desc("SIZES"), llvm::cl::init(""));

/// Adds `options` to every top-level pass named `argument` in `pm`.
static LogicalResult configurePasses(PassManager &pm, StringRef argument,
                                     StringRef options, StringRef flags) {
  bool found = false;
  for (Pass &pass : pm.getPasses()) {
    if (pass.getArgument() != argument)
      continue;
    found = true;
    if (failed(pass.initializeOptions(options, [](const Twine &msg) {
          llvm::errs() << "tcc-opt: " << msg << "\n";
          return failure();
        })))
      return failure();
  }
  if (!found)
    llvm::errs() << "tcc-opt: warning: " << flags
                 << " given, but the pipeline runs no " << argument
                 << " pass\n";
  return success();
}

/// Sets the report options of the pipeline's tcc-fuse and tcc-plan-memory.
static LogicalResult configureReports(PassManager &pm) {
  if (!fusionReport.empty() || !fusionDot.empty()) {
    std::string options;
    if (!fusionReport.empty())
      options += "report-file=" + fusionReport + " ";
    if (!fusionDot.empty())
      options += "dot-file=" + fusionDot;
    if (failed(configurePasses(pm, "tcc-fuse", options,
                               "--fusion-report/--fusion-dot")))
      return failure();
  }
  if (!memoryReport.empty() || !memoryPlanSvg.empty()) {
    std::string options;
    if (!memoryReport.empty())
      options += "report-file=" + memoryReport + " ";
    if (!memoryPlanSvg.empty())
      options += "svg-file=" + memoryPlanSvg + " ";
    if (!memoryReportSizes.empty())
      options += "report-sizes=" + memoryReportSizes;
    if (failed(configurePasses(pm, "tcc-plan-memory", options,
                               "--memory-report/--memory-plan-svg")))
      return failure();
  }
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
  if (!fusionReport.empty() || !fusionDot.empty() || !memoryReport.empty() ||
      !memoryPlanSvg.empty()) {
    MlirOptMainConfig parsed = config;
    config.setPassPipelineSetupFn([parsed](PassManager &pm) {
      if (failed(parsed.setupPassPipeline(pm)))
        return failure();
      return configureReports(pm);
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
