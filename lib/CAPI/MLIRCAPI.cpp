//===- MLIRCAPI.cpp - libTCCMLIRCAPI.so -----------------------------------===//
//
// MLIR's C API, taken whole from Debian's static libMLIRCAPIIR.a (see
// CMakeLists.txt); this file only gives the library a source of its own.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"

extern "C" MLIR_CAPI_EXPORTED int tccMLIRCAPIVersion(void) { return 1; }
