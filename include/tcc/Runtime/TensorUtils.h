//===- TensorUtils.h - Printing and comparing host tensors ------*- C++ -*-===//
//
// Helpers shared by tcc-run and the tests: IREE-compatible printing (so
// outputs can be diffed against iree-run-module), numpy-style closeness
// checks with a diagnostic report, and cheap checksums for large outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_TENSORUTILS_H
#define TCC_RUNTIME_TENSORUTILS_H

#include "tcc/Runtime/HostTensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc::runtime {

/// Formats like iree-run-module: "2x3xf32=[1 2 3][4 5 6]". The outermost
/// dimension is not bracketed ("3xf32=1 2 3", rank 0: "f32=3.5"), floats use
/// %g, i1 prints 0/1. After \p maxElements elements (negative: no limit)
/// prints "..." and closes the open brackets.
std::string formatTensor(const HostTensor &t, int64_t maxElements = 1024);

/// numpy.allclose semantics: |a - e| <= atol + rtol * |e| element-wise, NaN
/// equals NaN, infinities equal when they have the same sign. Dtype and shape
/// must match. \p report always receives a summary (mismatch count, max abs
/// and rel error, the first mismatches with their indices).
bool allClose(const HostTensor &actual, const HostTensor &expected, double rtol,
              double atol, std::string &report);

/// The tolerances every tool compares a result of `dtype` with unless told
/// otherwise (a negative `rtol` / `atol` is "not told"): 1e-4 / 1e-5, and
/// 2e-2 / 2e-2 for f16 and bf16 (halves round every op's output).
struct Tolerances {
  double rtol, atol;
};
Tolerances defaultTolerances(DType dtype, double rtol = -1, double atol = -1);

struct Checksum {
  double sum = 0.0;
  double absSum = 0.0;
};
/// Sum and sum of absolute values of all elements (as doubles).
Checksum checksum(const HostTensor &t);

/// Row-major linear index -> multi-dimensional index for \p shape.
std::vector<int64_t> delinearize(int64_t linear,
                                 const std::vector<int64_t> &shape);

} // namespace tcc::runtime

#endif // TCC_RUNTIME_TENSORUTILS_H
