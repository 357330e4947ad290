//===- ToolOptions.h - the compile flags tcc-run and tcc-compile share -*- C++ -*-===//
//
// One flag table for the tools that compile: `--pipeline-options` (the
// pipeline's own option text, as tcc-opt's `--tcc-cpu-pipeline=...` and
// the C API take it) and the short flags users know (`--no-fuse`,
// `--specialize=B=8`, ...), applied on top of it. The target flags
// (`--mcpu`, `--chip`) become a #tcc.target through the one target
// builder (include/tcc/Target/Target.h).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TOOLOPTIONS_H
#define TCC_TOOLS_TOOLOPTIONS_H

#include "tcc/Codegen/CPU/Pipeline.h"
#include "tcc/Codegen/CUDA/Pipeline.h"
#include "tcc/Target/Target.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc_tools {

/// The #tcc.target `module` is compiled for, put on it: the module's own
/// unless the command line names one (`kind` from --target or --device,
/// --mcpu, --chip), else the target those flags describe (by default
/// the host CPU). The tools take the CPU and chip from these flags, not
/// from --pipeline-options.
mlir::FailureOr<mlir::tcc::TargetAttr>
applyTarget(mlir::ModuleOp module, llvm::StringRef kind, std::string &error);

/// The cpu pipeline's options: --pipeline-options, then the flags. Null
/// with `error` set when the text does not parse.
std::unique_ptr<mlir::tcc::CPUPipelineOptions>
cpuPipelineOptions(std::string &error);

/// The cuda pipeline's options: --pipeline-options, then the flags that
/// apply to it (--no-fuse, --specialize, --chip). The flags only the cpu
/// pipeline has are an error here ("--no-vectorize applies to
/// `cpuFlag` only": the tool's way of choosing the cpu).
std::unique_ptr<mlir::tcc::CUDAPipelineOptions>
cudaPipelineOptions(llvm::StringRef cpuFlag, std::string &error);

} // namespace tcc_tools

#endif // TCC_TOOLS_TOOLOPTIONS_H
