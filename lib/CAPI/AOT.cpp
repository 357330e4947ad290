//===- AOT.cpp - ahead-of-time shared libraries for the C API -------------===//

#include "tcc-c/AOT.h"

#include "CAPIUtils.h"
#include "tcc/AOT/LibraryWriter.h"
#include "tcc/Target/Target.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

int tccBuildLibrary(MlirModule module, MlirStringRef target,
                    MlirStringRef options, MlirStringRef outputPath,
                    MlirStringCallback errorCallback, void *userData) {
  mlir::ModuleOp source = unwrap(module);
  std::string error;
  // The target's CPU or chip comes from the pipeline's options (mcpu,
  // chip): a module that names its own keeps it.
  mlir::tcc::LibraryWriterOptions library;
  library.outputPath = unwrap(outputPath).str();
  if (failed(mlir::tcc::buildSharedLibrary(source, unwrap(target),
                                           unwrap(options), library, error))) {
    mlir::tcc::capi::report(error, errorCallback, userData);
    return 1;
  }
  return 0;
}
