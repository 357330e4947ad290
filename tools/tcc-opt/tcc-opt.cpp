//===- tcc-opt.cpp - tcc's opt-style driver ---------------------*- C++ -*-===//
//
// `tcc-opt model.mlir --fuse --plan-memory`: parses, runs the requested passes
// and prints the result, like mlir-opt, with tcc's dialects, passes and
// pipelines registered next to upstream MLIR's.
//
//===----------------------------------------------------------------------===//

#include "tcc/InitAll.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tcc::registerAllDialects(registry);
  mlir::registerAllPasses();
  mlir::tcc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcc optimizer driver\n", registry));
}
