//===- FusionCostModel.h - what --fuse weighs before fusing ----*- C++ -*-===//
//
// The fusion pass decides with bytes: a value that crosses a group boundary
// is written once and read by every consumer group, a value inside a group
// stays in registers or on-chip memory. Beside bytes the model knows the
// target's balance (how many flops cost as much as one byte of memory
// traffic), what one kernel launch costs (expressed in bytes the memory
// system could have moved meanwhile), and how much on-chip memory a group
// may keep live (a reduction's rows, register tiles).
//
// Sizes that are dynamic count as a typical value (kDynamicDimEstimate, or
// the bound from the function's constraints): decisions must be made once
// for every size, and the report shows exact size expressions anyway.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_FUSIONCOSTMODEL_H
#define TCC_TRANSFORMS_FUSIONCOSTMODEL_H

#include "tcc/Dialect/TCC/IR/TCCAttrs.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"


namespace mlir::tcc {

/// What a dynamic dim counts as when no constraint bounds it.
constexpr int64_t kDynamicDimEstimate = 64;

/// The machine the fusion decisions are made for, in the model's units
/// (derived from the #tcc.target's figures).
struct FusionTarget {
  llvm::StringRef name;
  /// Flops that cost as much time as moving one byte to or from memory.
  double flopsPerByte;
  /// A kernel launch (CPU: a call plus an OpenMP fork; GPU: a launch), in
  /// bytes of memory traffic of the same duration.
  double launchBytes;
  /// On-chip memory one group may keep live per row block (CPU: the L2 of
  /// one core; GPU: shared memory of one SM).
  int64_t onChipBytes;
  /// Distinct tensors one fused loop body may stream (CPU: vector
  /// registers and prefetch streams; GPU: registers per thread).
  int64_t maxGroupInputs;
  /// Whether packing a merged contraction's weights happens inside its
  /// group (CPU: copies in the group's loops), or costs a kernel per packed
  /// tensor (GPU: each strided copy is a launch).
  bool packsInGroup;

  /// The model's view of `target`.
  static FusionTarget of(TargetAttr target);
};

/// Estimated elements of `v` (dynamic dims: the constraint's upper bound
/// when small, else kDynamicDimEstimate); 0 for non-tensors.
int64_t estimateElements(Value v);
/// Estimated bytes of `v` (i1 counts one byte per element).
int64_t estimateBytes(Value v);
/// Arithmetic cost of one result element of `op` in flops (transcendentals
/// count more), used to price recomputation.
double flopsPerElement(Operation *op);

/// Whether computing elementwise `producer` again inside each of its `uses`
/// consumer groups moves fewer bytes (plus the extra flops) than writing
/// its result once and reading it `uses` times.
bool isRecomputeProfitable(Operation *producer, unsigned uses,
                           const FusionTarget &target);

/// Whether merging `ops` (linears/matmuls reading the same input) into one
/// wider op saves more than it costs: every op but one no longer reads the
/// shared input nor launches, while weights that are not constants must be
/// packed (read and written, `packedTensors` copies of `packedWeightBytes`
/// in all) on every call.
bool isHorizontalMergeProfitable(llvm::ArrayRef<Operation *> ops,
                                 int64_t packedWeightBytes,
                                 int64_t packedTensors,
                                 const FusionTarget &target);

/// Whether a reduction group (softmax, a norm) over rows of `rowElements`
/// elements of `elementBytes` each, keeping `liveRows` rows live, fits the
/// target's on-chip memory, so consumers can be fused without spilling.
bool reductionRowsFitOnChip(int64_t rowElements, int64_t elementBytes,
                            int64_t liveRows, const FusionTarget &target);

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_FUSIONCOSTMODEL_H
