//===- LibraryWriter.h - ahead-of-time shared libraries ---------*- C++ -*-===//
//
// A module lowered by the cpu or cuda pipeline (Pipelines/Lowering.h)
// becomes a shared library with the C ABI of include/tcc/Runtime/
// tcc_model.h: an object file for the module's #tcc.target, a generated
// entry table, tcc's model runtime, linked by the system's C compiler; and
// beside it the manifest (libNAME.json: entries, dtypes, symbolic shapes,
// size symbols, the checks each entry makes) and, for a large model, its
// weights (libNAME.weights: AOT/ExternalWeights.h). tcc-compile, tcc-run
// --device=cuda, the C API and Python call it in process.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_AOT_LIBRARYWRITER_H
#define TCC_AOT_LIBRARYWRITER_H

#include "tcc/Pipelines/Lowering.h"

#include <string>

namespace mlir::tcc {

/// Where a library's weights go (tcc-compile --weights).
enum class WeightsPlacement {
  /// Beside the library when they exceed LibraryWriterOptions::
  /// weightsFileMinBytes, else inside.
  Auto,
  /// Inside the library: one file to ship.
  Embedded,
  /// In libNAME.weights beside the library (AOT/ExternalWeights.h).
  File,
};

struct LibraryWriterOptions {
  /// The library to write, libNAME.so; the manifest goes beside it.
  std::string outputPath;
  /// Also keep the object file (and the entry table, FILE.o.entries.c).
  std::string keepObject;
  /// The C compiler that links the library (from PATH).
  std::string compiler = "cc";
  /// Whether buildOrReuseSharedLibrary may take the library from the
  /// compile cache (false where the compile writes reports).
  bool useCache = true;
  WeightsPlacement weights = WeightsPlacement::Auto;
  /// Auto's threshold: the weights' total bytes above which they go beside.
  uint64_t weightsFileMinBytes = uint64_t(64) << 20;
};

/// libNAME.so -> libNAME.weights.
std::string weightsPathOf(llvm::StringRef library);

/// Writes `lowered` (lowered from `source`, whose specialized shapes the
/// manifest reads) into a shared library. `error` says what failed.
LogicalResult writeSharedLibrary(ModuleOp source, LoweredModule &lowered,
                                 const LibraryWriterOptions &options,
                                 std::string &error);

/// Writes the library of `source` as writeSharedLibrary does, `lower`
/// running its pipeline, or copies it (and its manifest) from the compile
/// cache (tcc/Pipelines/CompileCache.h) under a key of `source`,
/// `pipeline` (the pipeline's name and printed options) and the C
/// compiler; a library built here is stored there. A kept object
/// (`keepObject`) always compiles.
LogicalResult
buildOrReuseSharedLibrary(ModuleOp source, llvm::StringRef pipeline,
                          llvm::function_ref<FailureOr<LoweredModule>()> lower,
                          const LibraryWriterOptions &options,
                          std::string &error);

/// Lowers `source` with the pipeline of `target` ("cpu" or "cuda", the
/// options as the pipeline's text: "fuse=false mcpu=x86-64-v3", "chip=sm_80")
/// and writes the library: what `tcc-compile` does.
LogicalResult buildSharedLibrary(ModuleOp source, llvm::StringRef target,
                                 llvm::StringRef pipelineOptions,
                                 const LibraryWriterOptions &options,
                                 std::string &error);

} // namespace mlir::tcc

#endif // TCC_AOT_LIBRARYWRITER_H
