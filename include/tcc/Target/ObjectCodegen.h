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

#include <chrono>
#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tcc {

/// What compileToObjects did, for tests and reports.
struct ObjectCodegenReport {
  /// Per part: whether its machine code was generated at
  /// CodeGenOptLevel::None (see fastCodegenInstructions).
  llvm::SmallVector<bool> fastCodegen;
};

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
  /// A part holding a function of more instructions than this (before
  /// optimization) gets its machine code at CodeGenOptLevel::None: the
  /// optimizer's O`optLevel` still runs, but instruction selection,
  /// scheduling and register allocation are the fast ones. Such a function
  /// is an entry of straight-line glue (a detector's: 39k instructions of
  /// descriptors, library calls and small loops) where the full machine
  /// passes grow faster than its size and took 9-13 s of a 13-16 s
  /// compile, for no measurable gain per call. 0: never.
  uint64_t fastCodegenInstructions = 16384;
  /// Filled in when set.
  ObjectCodegenReport *report = nullptr;
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

/// Whether TCC_TIMING asks for a report of where compile time goes.
bool timingRequested();

/// Under TCC_TIMING, a line on stderr: `stage` took the time since
/// `start`; `start` is then reset to now.
void reportStageTime(llvm::StringRef stage,
                     std::chrono::steady_clock::time_point &start);

/// The threads compileToObjects uses for `requested` (0: the default).
unsigned codegenThreads(unsigned requested);

} // namespace mlir::tcc

#endif // TCC_TARGET_OBJECTCODEGEN_H
