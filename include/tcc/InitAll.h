//===- InitAll.h - register everything tcc provides -------------*- C++ -*-===//
#ifndef TCC_INITALL_H
#define TCC_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::tcc {

/// The tcc and fusion dialects plus every upstream dialect and interface
/// extension the pipelines create (bufferization and tiling models included).
void registerAllDialects(DialectRegistry &registry);

/// tcc's passes and named pipelines.
void registerAllPasses();

} // namespace mlir::tcc

#endif // TCC_INITALL_H
