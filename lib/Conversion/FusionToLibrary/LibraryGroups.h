//===- LibraryGroups.h - taking an op out of its fusion group ---*- C++ -*-===//
//
// What tcc-conv-to-library and tcc-linear-to-library share: an op of a
// fusion group (with the epilogue that follows it) is computed by a library
// call before the group, into a new buffer, and the group reads the result
// as a new input.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CONVERSION_LOOPSTOGPU_LIBRARYGROUPS_H
#define TCC_LIB_CONVERSION_LOOPSTOGPU_LIBRARYGROUPS_H

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {

/// Whether `v` is a block argument of `group`'s body.
bool isGroupArgument(Value v, fusion::GroupOp group);

/// Whether the group input behind block argument `arg` is a constant
/// (frozen weights).
bool isConstantGroupInput(fusion::GroupOp group, Value arg);

/// `v`'s one user, or null.
Operation *onlyUser(Value v);

/// The add that is `v`'s one use and adds a group input of `v`'s own type
/// to it (a residual, no broadcast), which the library takes into its
/// epilogue, with that input in `residual`; null otherwise.
AddOp residualAddOf(Value v, fusion::GroupOp group, BlockArgument &residual);

/// A read-only buffer (fully dynamic strides) of the group input behind
/// block argument `arg`, built before the group.
Value readGroupInput(OpBuilder &b, Location loc, fusion::GroupOp group,
                     BlockArgument arg);

/// A run-time check (cf.assert with `message`) that dim `dx` of buffer `x`
/// equals `factor` times dim `dy` of buffer `y`, where their types leave
/// either open: what the generated lowering checks, the library's call
/// must check too (it would read past a buffer's end).
void assertDimsAgree(OpBuilder &b, Location loc, Value x, int64_t dx, Value y,
                     int64_t dy, StringRef message, int64_t factor = 1);

/// `bytes` of host library scratch (oneDNN's scratchpad) for one call, as
/// an i8 buffer allocated before it (tcc-place-scratch-buffers moves it to
/// the stack or the arena); null when `bytes` is 0.
Value allocateLibraryScratch(OpBuilder &b, Location loc, int64_t bytes);

/// The library wrote `out`; `computed` is it as a tensor (built before the
/// group). The group reads `computed` in place of `replaced`, and `erase`
/// (the ops the library computed, users first; nulls skipped) go. A group
/// left with nothing to compute is replaced by its inputs, its size
/// expressions and its place in the memory plan moving to `computed` and
/// `out`; otherwise it becomes `pointwise`.
void computeOutsideGroup(IRRewriter &b, fusion::GroupOp group, Value replaced,
                         ArrayRef<Operation *> erase, Value computed,
                         memref::AllocOp out);

} // namespace mlir::tcc

#endif // TCC_LIB_CONVERSION_LOOPSTOGPU_LIBRARYGROUPS_H
