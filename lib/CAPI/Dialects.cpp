//===- Dialects.cpp - tcc's dialects and passes for the C API -------------===//

#include "tcc-c/Dialects.h"

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"
#include "tcc/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/InitAllPasses.h"

#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TCC, tcc, mlir::tcc::TCCDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fusion, fusion,
                                      mlir::tcc::fusion::FusionDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TCCLib, tcc_lib,
                                      mlir::tcc::tcc_lib::TCCLibDialect)

void tccRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::tcc::registerAllDialects(*unwrap(registry));
}

void tccRegisterAllPasses(void) {
  // The pass registry rejects a second registration of a name.
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    mlir::tcc::registerAllPasses();
  });
}
