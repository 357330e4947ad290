//===- LayoutAndLibraryFlags.h - flags of tcc-run and tcc-compile -*- C++ -*-===//
//
// The cpu pipeline's layout and library switches (docs/layout.md), declared
// once for the two tools that compile for the CPU. Included by one source
// file per tool.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_LAYOUTANDLIBRARYFLAGS_H
#define TCC_TOOLS_LAYOUTANDLIBRARYFLAGS_H

#include "tcc/Pipelines/Pipelines.h"

#include "llvm/Support/CommandLine.h"

namespace tcc_tools {

inline llvm::cl::opt<bool> noLibrary(
    "no-library",
    llvm::cl::desc("CPU: compile convolutions, linears and matmuls to "
                   "generated code instead of oneDNN calls"),
    llvm::cl::init(false));
inline llvm::cl::opt<int64_t> gemmLibraryMinMacs(
    "gemm-library-min-macs",
    llvm::cl::desc("CPU: the smallest linear or matmul (multiply-adds, "
                   "per call where sizes are open) that calls oneDNN "
                   "(default 262144, docs/layout.md)"),
    llvm::cl::init(-1));
inline llvm::cl::opt<bool> noSelectLayout(
    "no-select-layout",
    llvm::cl::desc("Keep every convolution in the layout it has (no "
                   "--select-layout)"),
    llvm::cl::init(false));

/// The flags' effect on a cpu pipeline's options.
inline void applyLayoutAndLibraryFlags(mlir::tcc::CPUPipelineOptions &options) {
  if (noLibrary) {
    options.convLibrary = false;
    options.gemmLibrary = false;
  }
  if (gemmLibraryMinMacs >= 0)
    options.gemmLibraryMinMacs = gemmLibraryMinMacs;
  if (noSelectLayout)
    options.selectLayout = false;
}

} // namespace tcc_tools

#endif // TCC_TOOLS_LAYOUTANDLIBRARYFLAGS_H
