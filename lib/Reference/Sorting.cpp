//===- Sorting.cpp - Reference kernels of sort, topk and nms ----*- C++ -*-===//
//
// tcc.sort and tcc.topk: a std::stable_sort of the positions of each row
// (its first k for topk), written apart from the lowering's keyed sorting
// network and selection passes so that it can check them: floats compare
// as doubles with NaN above everything (below when descending) and -0.0
// equal to 0.0, integers exactly. tcc.nms:
// onnxruntime's greedy loop over a stable descending sort of each (batch,
// class) row, IoU in the boxes' type (float for f16 and bf16, as compiled
// code computes it) so that values on the threshold decide alike.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace tcc::reference::detail {

/// The first `k` (every position when k < 0) of each row's stable sort.
static mlir::LogicalResult sortRows(OpState &s, int64_t rawAxis,
                                    bool descending, int64_t k) {
  const HostTensor &x = s.operands[0];
  mlir::FailureOr<int64_t> axis = s.normalizeAxis(rawAxis, x.rank());
  if (failed(axis))
    return mlir::failure();
  int64_t len = x.shape[*axis];
  if (k < 0)
    k = len;
  if (k > len)
    return s.fail("k = " + std::to_string(k) + " exceeds the dim " +
                  std::to_string(len) + " along the axis");
  std::vector<int64_t> outShape = x.shape;
  outShape[*axis] = k;
  HostTensor *values = s.makeResult(0, outShape);
  HostTensor *indices = values ? s.makeResult(1, outShape) : nullptr;
  if (!indices)
    return mlir::failure();
  int64_t inner = 1;
  for (int64_t d = *axis + 1; d < x.rank(); ++d)
    inner *= x.shape[d];
  int64_t outer = len == 0 || inner == 0 ? 0 : x.numElements() / (len * inner);
  bool isInt = isIntDType(x.dtype);
  bool isU64 = x.dtype == DType::U64;
  std::vector<int64_t> order(len);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t p) { return (o * len + p) * inner + i; };
      auto out = [&](int64_t p) { return (o * k + p) * inner + i; };
      // a before b, strictly (equal elements keep their order).
      auto before = [&](int64_t a, int64_t b) {
        if (isU64) { // Its bits: compare unsigned.
          uint64_t va = getInt(x, at(a)), vb = getInt(x, at(b));
          return descending ? va > vb : va < vb;
        }
        if (isInt) {
          int64_t va = getInt(x, at(a)), vb = getInt(x, at(b));
          return descending ? va > vb : va < vb;
        }
        double va = x.getDouble(at(a)), vb = x.getDouble(at(b));
        bool na = std::isnan(va), nb = std::isnan(vb);
        if (na || nb) // NaN is the largest value.
          return descending ? na && !nb : !na && nb;
        return descending ? va > vb : va < vb;
      };
      std::iota(order.begin(), order.end(), int64_t(0));
      std::stable_sort(order.begin(), order.end(), before);
      for (int64_t p = 0; p < k; ++p) {
        setInt(*indices, out(p), order[p]);
        copyElement(x, at(order[p]), *values, out(p));
      }
    }
  }
  return mlir::success();
}

static mlir::LogicalResult evalSort(OpState &s) {
  if (failed(s.checkArity(1, 1, 2)))
    return mlir::failure();
  mlir::FailureOr<int64_t> axis = s.getInt("axis", -1);
  mlir::FailureOr<bool> descending = s.getBool("descending", false);
  if (failed(axis) || failed(descending))
    return mlir::failure();
  return sortRows(s, *axis, *descending, -1);
}

static mlir::LogicalResult evalTopK(OpState &s) {
  if (failed(s.checkArity(1, 1, 2)))
    return mlir::failure();
  mlir::FailureOr<int64_t> axis = s.getInt("axis", -1);
  mlir::FailureOr<int64_t> k = s.getInt("k");
  mlir::FailureOr<bool> largest = s.getBool("largest", true);
  if (failed(axis) || failed(k) || failed(largest))
    return mlir::failure();
  if (*k < 0)
    return s.fail("k = " + std::to_string(*k) + " is negative");
  return sortRows(s, *axis, *largest, *k);
}

template <typename T>
static mlir::LogicalResult nmsIn(OpState &s, const HostTensor &boxes,
                                 const HostTensor &scores, double iouThreshold,
                                 std::optional<double> scoreThreshold,
                                 std::optional<int64_t> maxPerClass,
                                 bool center) {
  int64_t nb = scores.shape[0], nc = scores.shape[1], n = scores.shape[2];
  struct Box {
    T lo0, lo1, hi0, hi1, area;
  };
  auto boxOf = [&](int64_t b, int64_t i) {
    T c[4];
    for (int k = 0; k < 4; ++k)
      c[k] = static_cast<T>(boxes.getDouble((b * n + i) * 4 + k));
    Box r;
    if (center) {
      T w = c[2] * T(0.5), h = c[3] * T(0.5);
      r = {c[0] - w, c[1] - h, c[0] + w, c[1] + h, 0};
    } else {
      r = {std::min(c[0], c[2]), std::min(c[1], c[3]), std::max(c[0], c[2]),
           std::max(c[1], c[3]), 0};
    }
    r.area = (r.hi0 - r.lo0) * (r.hi1 - r.lo1);
    return r;
  };
  auto suppresses = [&](const Box &a, const Box &b) {
    T w = std::min(a.hi0, b.hi0) - std::max(a.lo0, b.lo0);
    T h = std::min(a.hi1, b.hi1) - std::max(a.lo1, b.lo1);
    if (!(w > 0) || !(h > 0))
      return false;
    T inter = w * h;
    T uni = a.area + b.area - inter;
    if (!(a.area > 0) || !(b.area > 0) || !(uni > 0))
      return false;
    return inter / uni > static_cast<T>(iouThreshold);
  };
  std::vector<int64_t> rows;
  std::vector<int64_t> order(n);
  for (int64_t b = 0; b < nb; ++b) {
    for (int64_t c = 0; c < nc; ++c) {
      auto score = [&](int64_t i) { return scores.getDouble((b * nc + c) * n + i); };
      std::iota(order.begin(), order.end(), int64_t(0));
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        double sx = score(x), sy = score(y);
        if (std::isnan(sx) || std::isnan(sy))
          return std::isnan(sx) && !std::isnan(sy);
        return sx > sy;
      });
      std::vector<Box> selected;
      for (int64_t i : order) {
        if (maxPerClass && int64_t(selected.size()) >= *maxPerClass)
          break;
        if (scoreThreshold &&
            !(static_cast<T>(score(i)) > static_cast<T>(*scoreThreshold)))
          continue;
        Box box = boxOf(b, i);
        bool keep = true;
        for (const Box &other : selected)
          if (suppresses(box, other)) {
            keep = false;
            break;
          }
        if (!keep)
          continue;
        selected.push_back(box);
        rows.insert(rows.end(), {b, c, i});
      }
    }
  }
  HostTensor *out = s.makeResult(0, {int64_t(rows.size() / 3), 3});
  if (!out)
    return mlir::failure();
  for (size_t k = 0; k < rows.size(); ++k)
    setInt(*out, k, rows[k]);
  return mlir::success();
}

static mlir::LogicalResult evalNms(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return mlir::failure();
  const HostTensor &boxes = s.operands[0], &scores = s.operands[1];
  if (boxes.rank() != 3 || scores.rank() != 3 || boxes.shape[2] != 4 ||
      boxes.shape[0] != scores.shape[0] || boxes.shape[1] != scores.shape[2])
    return s.fail("expects boxes [B, N, 4] and scores [B, C, N], got " +
                  shapeToString(boxes.shape) + " and " +
                  shapeToString(scores.shape));
  mlir::FailureOr<double> iou = s.getFloat("iou_threshold");
  mlir::FailureOr<bool> center = s.getBool("center_point_box", false);
  if (failed(iou) || failed(center))
    return mlir::failure();
  std::optional<double> scoreThreshold;
  if (s.op->hasAttr("score_threshold")) {
    mlir::FailureOr<double> t = s.getFloat("score_threshold");
    if (failed(t))
      return mlir::failure();
    scoreThreshold = *t;
  }
  std::optional<int64_t> maxPerClass;
  if (s.op->hasAttr("max_output_per_class")) {
    mlir::FailureOr<int64_t> m = s.getInt("max_output_per_class");
    if (failed(m))
      return mlir::failure();
    maxPerClass = *m;
  }
  if (boxes.dtype == DType::F64)
    return nmsIn<double>(s, boxes, scores, *iou, scoreThreshold, maxPerClass,
                         *center);
  return nmsIn<float>(s, boxes, scores, *iou, scoreThreshold, maxPerClass,
                      *center);
}

void registerSortingKernels(KernelTable &t) {
  t["tcc.sort"] = evalSort;
  t["tcc.topk"] = evalTopK;
  t["tcc.nms"] = evalNms;
}

} // namespace tcc::reference::detail
