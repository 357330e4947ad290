//===- ObjectCodegen.h - LLVM IR to objects, in parallel parts -*- C++ -*-===//
//
// The last step of every CPU compile (the JIT's and tcc-compile's): LLVM's
// optimization pipeline and machine code. A model's module has one entry
// function and many outlined kernels, and LLVM spends most of a compile in
// them; here the module is split into parts that go through LLVM on all
// cores, each in a context of its own, as LLVM's own parallel code
// generation (llvm/CodeGen/ParallelCG.h) does for machine code alone.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_OBJECTCODEGEN_H
#define TCC_TARGET_OBJECTCODEGEN_H

#include "tcc/Dialect/TCC/IR/TCCAttrs.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tcc {

struct ObjectCodegenOptions {
  /// LLVM's IR pipeline: 0 to 3 (O0 to O3).
  unsigned optLevel = 3;
  llvm::CodeGenOptLevel codegenLevel = llvm::CodeGenOptLevel::Aggressive;
  /// Threads (and at most as many parts); 0: TCC_COMPILE_THREADS if set,
  /// else the machine's cores.
  unsigned threads = 0;
  /// The objects are linked by ORC's JIT rather than into one shared
  /// library: symbols that cross parts keep default visibility and are
  /// reached through the GOT (the JIT may load the parts far apart).
  bool jitLinked = false;
};

/// The object files of `module` for `target`'s CPU (a cuda target: the
/// host's). With more than one thread the module is split first: the
/// functions spread over the parts by size, with the local functions only
/// one function calls kept beside it; small local constants are copied into
/// every part, everything else is defined in one part and reached by name
/// (hidden symbols in a library, through the GOT under the JIT). The
/// objects together define what `module` did. Parts
/// are compiled in contexts of their own, so `module` is consumed.
FailureOr<llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
compileToObjects(std::unique_ptr<llvm::Module> module, TargetAttr target,
                 const ObjectCodegenOptions &options, std::string &error);

/// The threads compileToObjects uses for `requested` (0: the default).
unsigned codegenThreads(unsigned requested);

} // namespace mlir::tcc

#endif // TCC_TARGET_OBJECTCODEGEN_H
