//===- FusionReport.h - what --fuse decided, as JSON and DOT ---*- C++ -*-===//
//
// The fusion pass explains itself: per group its kind, ops, inputs and
// outputs with their size expressions, and the bytes it reads and writes;
// per function the kernels and bytes before and after fusion. Bytes are
// size expressions over the function's size symbols (`3072*B*S + 6144`),
// also evaluated where the caller gave sizes (`report-sizes=B=1,S=197`).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_FUSIONREPORT_H
#define TCC_TRANSFORMS_FUSIONREPORT_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tcc {

/// A size in bytes: its expression and, where every symbol was given a
/// value, that value.
struct ReportBytes {
  std::string expr;
  std::optional<int64_t> value;
};

struct ReportValue {
  std::string name;  // SSA name, or the argument's tcc.name
  std::string type;  // tensor<?x768xf32>
  std::string shape; // [B, S, 768]
  ReportBytes bytes;
};

struct ReportGroup {
  unsigned id = 0;
  std::string kind;
  std::vector<std::string> ops;
  std::vector<ReportValue> inputs, outputs;
  ReportBytes bytesRead, bytesWritten;
  /// Kernels these ops would be without fusion, and what they would move.
  unsigned unfusedKernels = 0;
  ReportBytes unfusedBytes;
  /// Decisions worth reading: horizontal merges, recomputed producers,
  /// folded permutations, extra outputs.
  std::vector<std::string> notes;
  /// Producers of the inputs: group ids, or argument names ("arg:x").
  std::vector<std::string> producers;
};

struct ReportFunction {
  std::string name;
  std::vector<ReportGroup> groups;
  unsigned kernelsBefore = 0, kernelsAfter = 0;
  ReportBytes bytesBefore, bytesAfter, bytesSaved;
  /// Names of returned values' producers (for the graph's sink).
  std::vector<std::string> returned;
};

struct FusionReport {
  std::string target;
  std::map<std::string, int64_t> sizes;
  std::vector<ReportFunction> functions;

  void writeJSON(llvm::raw_ostream &os) const;
  void writeDot(llvm::raw_ostream &os) const;
};

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_FUSIONREPORT_H
