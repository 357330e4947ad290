//===- ExternalWeights.h - a library's weights in a file beside it -*- C++ -*-===//
//
// A model's weights (ViT-B/16: 344 MB) embedded in its library go through
// LLVM as one constant, into the object file, through the linker and into
// the library: four copies and most of a cuda build's time. Moved out, they
// are written once, straight from the module's blobs, into libNAME.weights
// beside libNAME.so, which maps the file when it is loaded
// (lib/Runtime/ModelRuntime.cpp), as IREE's parameter archives and
// AOTInductor's external constants do. The file's layout is ModelTable.h's
// (TCC_WEIGHTS_*).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_AOT_EXTERNALWEIGHTS_H
#define TCC_AOT_EXTERNALWEIGHTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir::tcc {

/// The symbol, defined by the model runtime, that holds the address of the
/// mapped weights.
constexpr llvm::StringLiteral kWeightsBaseSymbol = "tcc_weights_base_";

/// What moveWeightsToFile moved.
struct ExternalWeights {
  /// Globals moved and their bytes (alignment padding included).
  unsigned globals = 0;
  uint64_t bytes = 0;
  /// A hash of the layout and the contents: the library checks the file's.
  uint64_t id = 0;
};

/// Moves the data of every constant global of `lowered` (the LLVM
/// dialect) larger than `minBytes` into the file `path`, when together
/// they exceed `minTotalBytes`: each is erased and every address of it
/// becomes an offset from kWeightsBaseSymbol. A global whose address
/// another global's initializer takes stays. Nothing moved: no file.
FailureOr<ExternalWeights> moveWeightsToFile(ModuleOp lowered,
                                             StringRef path,
                                             uint64_t minBytes,
                                             uint64_t minTotalBytes,
                                             std::string &error);

} // namespace mlir::tcc

#endif // TCC_AOT_EXTERNALWEIGHTS_H
