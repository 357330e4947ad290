//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// After bufferization, the cpu pipeline's own passes: vectors and math for
// the target's registers, scratch buffers, memory traffic (streaming
// stores, prefetches, pipelined row stores) and threads.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_CPU_PASSES_H
#define TCC_CODEGEN_CPU_PASSES_H

#include "tcc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::tcc {

/// Whether code may use AVX-512-only instructions: where the target CPU
/// has them (auto), always, or never.
enum class AVX512Mode { Auto, On, Off };

#define GEN_PASS_DECL
#include "tcc/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/CPU/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_CODEGEN_CPU_PASSES_H
