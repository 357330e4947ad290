//===- FunctionEquivalence.h - functions equal but for their names -*- C++ -*-===//
//
// Outlined kernels repeat: a transformer's blocks produce the same kernels
// once per block. The code generators keep one function of each set of
// identical ones (tcc-deduplicate-kernels for gpu.func kernels,
// tcc-outline-kernels for the CPU's loop nests) and compile it once.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_FUNCTIONEQUIVALENCE_H
#define TCC_TRANSFORMS_FUNCTIONEQUIVALENCE_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tcc {

/// A cheap fingerprint: the function's type and its body's op names and
/// arities in order (equivalent functions have equal fingerprints).
llvm::hash_code functionFingerprint(FunctionOpInterface fn);

/// Whether `a` and `b` are the same function under different names: equal
/// types, attributes (the symbol name aside) and bodies (locations aside).
bool areEquivalentFunctions(FunctionOpInterface a, FunctionOpInterface b);

/// Functions kept, one of each set of equivalent ones (fingerprints first,
/// bodies compared only within a fingerprint).
class EquivalentFunctions {
public:
  /// The kept function equivalent to `fn`, or null after keeping `fn`.
  FunctionOpInterface findOrKeep(FunctionOpInterface fn);

private:
  llvm::DenseMap<llvm::hash_code, llvm::SmallVector<FunctionOpInterface>>
      kept;
};

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_FUNCTIONEQUIVALENCE_H
