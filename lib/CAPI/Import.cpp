//===- Import.cpp - importers and frozen weights for the C API ------------===//

#include "tcc-c/Import.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "tcc/Transforms/FreezeArguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

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

MlirLogicalResult tccFreezeArguments(MlirModule module,
                                     MlirStringRef functionName,
                                     intptr_t count, const intptr_t *argIndices,
                                     const void *const *data,
                                     const intptr_t *numBytes,
                                     const MlirType *elementTypes) {
  ModuleOp m = unwrap(module);
  auto func = m.lookupSymbol<func::FuncOp>(unwrap(functionName));
  if (!func) {
    emitError(m.getLoc()) << "no function '" << unwrap(functionName)
                          << "' to freeze arguments of";
    return mlirLogicalResultFailure();
  }
  SmallVector<mlir::tcc::FrozenArgument> values;
  for (intptr_t i = 0; i < count; ++i) {
    if (argIndices[i] < 0 || argIndices[i] > INT32_MAX || numBytes[i] < 0) {
      func.emitError() << "argument index " << argIndices[i]
                       << " or byte count " << numBytes[i]
                       << " out of range";
      return mlirLogicalResultFailure();
    }
    values.push_back({static_cast<unsigned>(argIndices[i]),
                      ArrayRef<char>(static_cast<const char *>(data[i]),
                                     static_cast<size_t>(numBytes[i])),
                      elementTypes ? unwrap(elementTypes[i]) : Type()});
  }
  return wrap(mlir::tcc::freezeArguments(func, values));
}
