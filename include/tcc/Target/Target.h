//===- Target.h - the machine a module is compiled for ----------*- C++ -*-===//
//
// The one place that turns `--target=cpu|cuda`, `--mcpu` and `--chip` (or
// the host) into a #tcc.target, and the lookups passes use to read it. No
// pass parses a target name itself: a pass option naming one (`--fuse=
// target=cuda`) is resolved here too, so every cost model reads its
// figures from the same attribute.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_TARGET_H
#define TCC_TARGET_TARGET_H

#include "tcc/Dialect/TCC/IR/TCCAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CodeGen.h"

#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace mlir::tcc {

/// The module attribute holding the target.
constexpr llvm::StringLiteral kTargetAttr = "tcc.target";

/// What a user says about the target: the tools' flags and the pipelines'
/// options.
struct TargetOptions {
  /// "cpu" or "cuda".
  std::string kind = "cpu";
  /// The CPU to generate code for: "host" (this machine, its features) or
  /// an LLVM CPU name ("x86-64-v3", "znver4", "skylake-avx512"). A cuda
  /// target's host code is always compiled for this machine.
  std::string mcpu = "host";
  /// The GPU architecture of a cuda target.
  std::string chip = "sm_90";
  /// The PTX version of a cuda target, as an LLVM feature.
  std::string ptxFeatures = "+ptx80";
};

/// The target `options` describe; `error` says what is wrong with them
/// (an unknown kind, a CPU name LLVM does not know).
FailureOr<TargetAttr> buildTarget(MLIRContext *ctx, const TargetOptions &options,
                                  std::string &error);

/// The default target of `kind` ("cpu": the host; "cuda": sm_90).
FailureOr<TargetAttr> buildTarget(MLIRContext *ctx, llvm::StringRef kind,
                                  std::string &error);

/// This machine's CPU.
TargetAttr getHostTarget(MLIRContext *ctx);

/// The target `op` is compiled for: the `tcc.target` of its nearest module
/// that has one, else the host CPU.
TargetAttr lookupTarget(Operation *op);

/// For passes whose `target` option may name a kind ("cpu", "cuda"): that
/// kind's default target when the option is set, else lookupTarget(op).
FailureOr<TargetAttr> resolveTarget(Operation *op, llvm::StringRef override,
                                    std::string &error);

/// An LLVM target machine for the code a module with `target` runs on the
/// host (a cuda target's host code: this machine). Position-independent,
/// as a shared library needs and ORC's JIT links on x86-64.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(TargetAttr target, llvm::CodeGenOptLevel level,
                    std::string &error);

/// The same for an LLVM CPU name and feature string (no MLIR context: safe
/// on any thread).
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(llvm::StringRef cpu, llvm::StringRef features,
                    llvm::CodeGenOptLevel level, std::string &error);

} // namespace mlir::tcc

#endif // TCC_TARGET_TARGET_H
