//===- Sorting.cpp - Reference kernel of tcc.sort ---------------*- C++ -*-===//
//
// A stable std::stable_sort of the positions of each row, written apart
// from the lowering's keyed sorting network so that it can check it:
// floats compare as doubles with NaN above everything (below when
// descending) and -0.0 equal to 0.0, integers exactly.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tcc::reference::detail {

static mlir::LogicalResult evalSort(OpState &s) {
  if (failed(s.checkArity(1, 1, 2)))
    return mlir::failure();
  const HostTensor &x = s.operands[0];
  mlir::FailureOr<int64_t> rawAxis = s.getInt("axis", -1);
  if (failed(rawAxis))
    return mlir::failure();
  mlir::FailureOr<int64_t> axis = s.normalizeAxis(*rawAxis, x.rank());
  mlir::FailureOr<bool> descending = s.getBool("descending", false);
  if (failed(axis) || failed(descending))
    return mlir::failure();
  HostTensor *values = s.makeResult(0, x.shape);
  HostTensor *indices = values ? s.makeResult(1, x.shape) : nullptr;
  if (!indices)
    return mlir::failure();
  int64_t len = x.shape[*axis];
  int64_t inner = 1;
  for (int64_t d = *axis + 1; d < x.rank(); ++d)
    inner *= x.shape[d];
  int64_t outer = len == 0 || inner == 0 ? 0 : x.numElements() / (len * inner);
  bool isInt = isIntDType(x.dtype);
  std::vector<int64_t> order(len);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return (o * len + k) * inner + i; };
      // a before b, strictly (equal elements keep their order).
      auto before = [&](int64_t a, int64_t b) {
        if (isInt) {
          int64_t va = getInt(x, at(a)), vb = getInt(x, at(b));
          return *descending ? va > vb : va < vb;
        }
        double va = x.getDouble(at(a)), vb = x.getDouble(at(b));
        bool na = std::isnan(va), nb = std::isnan(vb);
        if (na || nb) // NaN is the largest value.
          return *descending ? na && !nb : !na && nb;
        return *descending ? va > vb : va < vb;
      };
      std::iota(order.begin(), order.end(), int64_t(0));
      std::stable_sort(order.begin(), order.end(), before);
      for (int64_t k = 0; k < len; ++k) {
        setInt(*indices, at(k), order[k]);
        copyElement(x, at(order[k]), *values, at(k));
      }
    }
  }
  return mlir::success();
}

void registerSortingKernels(KernelTable &t) { t["tcc.sort"] = evalSort; }

} // namespace tcc::reference::detail
