//===- tcc-import-onnx.cpp - ONNX models to tcc IR --------------*- C++ -*-===//
//
//   tcc-import-onnx model.onnx|model.textproto [-o out.mlir|out.mlirbc]
//                  [--emit-bytecode] [--function=NAME]
//                  [--weights-as-arguments] [--bind-input=INDEX=FILE.pb]
//   tcc-import-onnx --tensor input_0.pb -o input_0.npy
//
// The first form writes the model as one func of tcc ops, weights as dense
// resources: as MLIR bytecode (the weights' bytes as they are) for an
// output ending in .mlirbc or with --emit-bytecode, else as text (the
// weights in hex at the end of the file, twice their size and parsed
// again by every tool that reads it). The second converts one of the ONNX
// backend tests' TensorProto files to .npy for tcc-run. Errors are
// diagnostics and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "tcc/Import/ONNX/ONNXImporter.h"
#include "tcc/Runtime/Npy.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"

#include <google/protobuf/text_format.h>
#include <onnx/onnx_pb.h>
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<model.onnx>"),
                                            llvm::cl::Required);
static llvm::cl::opt<std::string> outputFile("o",
                                             llvm::cl::desc("Output file"),
                                             llvm::cl::value_desc("FILE"),
                                             llvm::cl::init("-"));
static llvm::cl::opt<std::string>
    functionName("function", llvm::cl::desc("The imported function's name"),
                 llvm::cl::init("main"));
static llvm::cl::opt<bool> weightsAsArguments(
    "weights-as-arguments",
    llvm::cl::desc("Initializers become trailing function arguments instead "
                   "of constants"),
    llvm::cl::init(false));
static llvm::cl::list<std::string> bindInputs(
    "bind-input",
    llvm::cl::desc("INDEX=FILE.pb: graph input INDEX (counting the inputs "
                   "that are not initializers) becomes a constant with the "
                   "TensorProto's value"),
    llvm::cl::value_desc("INDEX=FILE.pb"));
static llvm::cl::opt<bool> textFormat(
    "text",
    llvm::cl::desc("The model is in protobuf text format (as tests write "
                   "them); default: binary, or text for a .textproto file"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> emitBytecode(
    "emit-bytecode",
    llvm::cl::desc("Write MLIR bytecode (the default for an output ending "
                   "in .mlirbc): weights as raw bytes, not hex text"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> tensorMode(
    "tensor",
    llvm::cl::desc("The input is a serialized TensorProto: write it as .npy"),
    llvm::cl::init(false));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "tcc ONNX importer\n");

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "tcc-import-onnx: " << error << "\n";
    return 1;
  }

  if (tensorMode) {
    ::tcc::runtime::HostTensor t;
    if (!mlir::tcc::onnx_import::readTensorProto(input->getBuffer(), t, error) ||
        !::tcc::runtime::writeNpy(outputFile, t, error)) {
      llvm::errs() << "tcc-import-onnx: " << inputFile << ": " << error
                   << "\n";
      return 1;
    }
    return 0;
  }

  // Text format: parsed here and handed on as binary.
  std::string bytes = input->getBuffer().str();
  if (textFormat || llvm::StringRef(inputFile).ends_with(".textproto")) {
    onnx::ModelProto model;
    if (!google::protobuf::TextFormat::ParseFromString(bytes, &model)) {
      llvm::errs() << "tcc-import-onnx: " << inputFile
                   << ": not an ONNX model in protobuf text format\n";
      return 1;
    }
    bytes = model.SerializeAsString();
  }

  MLIRContext context; // importModel loads the dialects it builds
  mlir::tcc::onnx_import::ImportOptions options;
  options.functionName = functionName;
  options.weightsAsArguments = weightsAsArguments;
  for (const std::string &bind : bindInputs) {
    size_t eq = bind.find('=');
    unsigned index = 0;
    if (eq == std::string::npos ||
        llvm::StringRef(bind).take_front(eq).getAsInteger(10, index)) {
      llvm::errs() << "tcc-import-onnx: --bind-input expects INDEX=FILE.pb, "
                      "got '"
                   << bind << "'\n";
      return 1;
    }
    std::unique_ptr<llvm::MemoryBuffer> file =
        openInputFile(bind.substr(eq + 1), &error);
    ::tcc::runtime::HostTensor t;
    if (!file || !mlir::tcc::onnx_import::readTensorProto(file->getBuffer(), t,
                                                          error)) {
      llvm::errs() << "tcc-import-onnx: " << bind.substr(eq + 1) << ": "
                   << error << "\n";
      return 1;
    }
    options.boundInputs[index] = std::move(t);
  }
  OwningOpRef<ModuleOp> module = mlir::tcc::onnx_import::importModel(
      &context, bytes, inputFile, options);
  if (!module)
    return 1;

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "tcc-import-onnx: " << error << "\n";
    return 1;
  }
  if (emitBytecode || llvm::StringRef(outputFile).ends_with(".mlirbc")) {
    if (failed(writeBytecodeToFile(*module, output->os()))) {
      llvm::errs() << "tcc-import-onnx: cannot write bytecode\n";
      return 1;
    }
  } else {
    module->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
