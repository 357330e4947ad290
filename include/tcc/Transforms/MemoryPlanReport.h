//===- MemoryPlanReport.h - the memory plan as JSON and SVG -----*- C++ -*-===//
//
// What --plan-memory decided, for people and tools: per function the arena's
// peak, the lower bound (the largest sum of live bytes at any point of the
// order the plan follows), the bytes without reuse, and per buffer its size,
// offset and live range. Sizes are expressions of the size symbols, also
// evaluated where a binding was given (`report-sizes=B=32`).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_MEMORYPLANREPORT_H
#define TCC_TRANSFORMS_MEMORYPLANREPORT_H

#include "tcc/Transforms/FusionReport.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::tcc {

struct MemoryPlanBuffer {
  std::string name; // "3:matmul": top-level op index and group kind / op
  unsigned region = 0;
  ReportBytes size, offset; // offset from the arena's start
  int64_t firstUse = 0, lastUse = 0;
  std::optional<std::string> inPlaceOf; // the buffer it overwrites
};

struct MemoryPlanRegion {
  std::string scale;
  int64_t sizeUnits = 0, naiveUnits = 0, lowerBoundUnits = 0;
};

struct MemoryPlanFunction {
  std::string name;
  std::string strategy;  // placement that won
  bool reordered = false;
  int64_t alignment = 64;
  int64_t numOps = 0;
  ReportBytes peak, lowerBound, naive;
  std::vector<MemoryPlanRegion> regions;
  std::vector<MemoryPlanBuffer> buffers;
};

struct MemoryPlanReport {
  std::map<std::string, int64_t> sizes; // the binding the numbers use
  std::vector<MemoryPlanFunction> functions;

  void writeJSON(llvm::raw_ostream &os) const;
  /// Time (top-level op index) across, offset up, one labelled box per
  /// buffer; one panel per function. Needs numbers: symbols without a value
  /// in the binding are drawn at 1.
  void writeSVG(llvm::raw_ostream &os) const;
};

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_MEMORYPLANREPORT_H
