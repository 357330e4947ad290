//===- Import.cpp - the ONNX importer for the C API -----------------------===//

#include "tcc-c/Import.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

#ifdef TCC_HAVE_ONNX
#include "tcc/Import/ONNX/ONNXImporter.h"
#endif

using namespace mlir;

bool tccHasONNXImporter(void) {
#ifdef TCC_HAVE_ONNX
  return true;
#else
  return false;
#endif
}

MlirModule tccImportONNX(MlirContext context, MlirStringRef bytes,
                         MlirStringRef source, MlirStringRef functionName,
                         bool weightsAsArguments) {
#ifdef TCC_HAVE_ONNX
  mlir::tcc::onnx_import::ImportOptions options;
  options.functionName = unwrap(functionName).str();
  options.weightsAsArguments = weightsAsArguments;
  OwningOpRef<ModuleOp> module = mlir::tcc::onnx_import::importModel(
      unwrap(context), unwrap(bytes), unwrap(source), options);
  return wrap(module.release());
#else
  emitError(UnknownLoc::get(unwrap(context)))
      << "this tcc was built without the ONNX importer (libonnx-dev)";
  return MlirModule{nullptr};
#endif
}
