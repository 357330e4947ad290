//===- TensorUtils.cpp - Printing and comparing host tensors ----*- C++ -*-===//
//
// Integer elements are read at full width (not through getDouble) wherever
// exactness matters, so i64 values above 2^53 print and compare correctly.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/TensorUtils.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace tcc::runtime {

namespace {

int64_t getInt(const HostTensor &t, int64_t i) { return t.getInt64(i); }

std::string formatDouble(double v, const char *fmt) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

/// One element as formatTensor prints it (%g) or, with \p precise, with
/// enough digits to tell near values apart in allClose reports.
std::string formatElement(const HostTensor &t, int64_t i,
                          bool precise = false) {
  if (isFloatDType(t.dtype))
    return formatDouble(t.getDouble(i), precise ? "%.9g" : "%g");
  if (t.dtype == DType::U64)
    return std::to_string(static_cast<uint64_t>(getInt(t, i)));
  return std::to_string(getInt(t, i));
}

std::string formatIndex(const std::vector<int64_t> &index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(index[i]);
  }
  return s + "]";
}

/// Recursive IREE-style printer. \p budget counts elements still allowed;
/// \p truncated stops everything once "..." has been emitted.
void formatRecursive(const HostTensor &t, const std::vector<int64_t> &shape,
                     size_t dim, int64_t offset, int64_t &budget,
                     bool &truncated, std::string &out) {
  if (dim + 1 == shape.size()) {
    const int64_t n = shape[dim];
    const int64_t count = budget < 0 ? n : std::min(budget, n);
    for (int64_t i = 0; i < count; ++i) {
      if (i)
        out += ' ';
      out += formatElement(t, offset + i);
    }
    if (budget >= 0)
      budget -= count;
    if (count < n) {
      out += "...";
      truncated = true;
    }
    return;
  }
  int64_t stride = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    stride *= shape[d];
  for (int64_t i = 0; i < shape[dim] && !truncated; ++i) {
    if (budget == 0 && stride != 0) {
      out += "...";
      truncated = true;
      return;
    }
    out += '[';
    formatRecursive(t, shape, dim + 1, offset + i * stride, budget, truncated,
                    out);
    out += ']';
  }
}

} // namespace

std::vector<int64_t> delinearize(int64_t linear,
                                 const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0)
      continue;
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

std::string formatTensor(const HostTensor &t, int64_t maxElements) {
  std::string out = t.typeString() + "=";
  // Rank 0 prints like a one-element vector.
  const std::vector<int64_t> shape =
      t.shape.empty() ? std::vector<int64_t>{1} : t.shape;
  int64_t budget = maxElements < 0 ? -1 : maxElements;
  bool truncated = false;
  formatRecursive(t, shape, 0, 0, budget, truncated, out);
  return out;
}

bool allClose(const HostTensor &actual, const HostTensor &expected, double rtol,
              double atol, std::string &report) {
  if (actual.dtype != expected.dtype) {
    report = "element type mismatch: actual " + actual.typeString() +
             ", expected " + expected.typeString();
    return false;
  }
  if (actual.shape != expected.shape) {
    report = "shape mismatch: actual " + actual.typeString() + ", expected " +
             expected.typeString();
    return false;
  }
  const int64_t n = actual.numElements();
  if (actual.data.size() != expected.data.size() ||
      actual.data.size() != static_cast<size_t>(n) * dtypeSize(actual.dtype)) {
    report = "corrupt tensor: data size does not match " + actual.typeString();
    return false;
  }

  constexpr int64_t kMaxListed = 10;
  const bool isFloat = isFloatDType(actual.dtype);
  int64_t mismatches = 0;
  double maxAbs = 0.0, maxRel = 0.0;
  int64_t maxAbsAt = -1, maxRelAt = -1;
  std::string listed;

  for (int64_t i = 0; i < n; ++i) {
    bool close;
    double diff = 0.0, mag = 0.0;
    bool finite = true;
    if (isFloat) {
      const double a = actual.getDouble(i), e = expected.getDouble(i);
      if (std::isnan(a) || std::isnan(e)) {
        close = std::isnan(a) && std::isnan(e);
        finite = false;
      } else if (std::isinf(a) || std::isinf(e)) {
        close = a == e;
        finite = false;
      } else {
        diff = std::fabs(a - e);
        mag = std::fabs(e);
        close = diff <= atol + rtol * mag;
      }
    } else {
      const int64_t a = getInt(actual, i), e = getInt(expected, i);
      // Unsigned difference cannot overflow; ui64 compares its bits
      // unsigned.
      const bool u64 = actual.dtype == DType::U64;
      const bool aFirst = u64 ? uint64_t(a) >= uint64_t(e) : a >= e;
      const uint64_t ud =
          aFirst ? uint64_t(a) - uint64_t(e) : uint64_t(e) - uint64_t(a);
      diff = static_cast<double>(ud);
      mag = u64 ? static_cast<double>(uint64_t(e))
                : std::fabs(static_cast<double>(e));
      close = a == e || diff <= atol + rtol * mag;
    }
    if (finite) {
      const double rel =
          mag != 0.0 ? diff / mag : (diff != 0.0 ? INFINITY : 0.0);
      if (diff > maxAbs || maxAbsAt < 0) {
        maxAbs = diff;
        maxAbsAt = i;
      }
      if (rel > maxRel || maxRelAt < 0) {
        maxRel = rel;
        maxRelAt = i;
      }
    }
    if (!close) {
      if (mismatches < kMaxListed)
        listed += "\n  " + formatIndex(delinearize(i, actual.shape)) +
                  ": actual " + formatElement(actual, i, true) + ", expected " +
                  formatElement(expected, i, true);
      ++mismatches;
    }
  }

  auto at = [&](int64_t i) {
    return i < 0 ? std::string()
                 : " at " + formatIndex(delinearize(i, actual.shape));
  };
  std::string stats = "(rtol=" + formatDouble(rtol, "%g") +
                      ", atol=" + formatDouble(atol, "%g") +
                      "); max abs error " + formatDouble(maxAbs, "%.6g") +
                      at(maxAbsAt) + ", max rel error " +
                      formatDouble(maxRel, "%.6g") + at(maxRelAt);
  if (mismatches == 0) {
    report = "all " + std::to_string(n) + " elements of " +
             actual.typeString() + " are close " + stats;
    return true;
  }
  report = std::to_string(mismatches) + " of " + std::to_string(n) +
           " elements of " + actual.typeString() + " differ " + stats;
  report += mismatches > kMaxListed
                ? "\nfirst " + std::to_string(kMaxListed) + " mismatches:"
                : std::string("\nmismatches:");
  report += listed;
  return false;
}

Tolerances defaultTolerances(DType dtype, double rtol, double atol) {
  bool half = dtype == DType::F16 || dtype == DType::BF16;
  return {rtol >= 0 ? rtol : (half ? 2e-2 : 1e-4),
          atol >= 0 ? atol : (half ? 2e-2 : 1e-5)};
}

Checksum checksum(const HostTensor &t) {
  Checksum c;
  const int64_t n = t.numElements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = t.getDouble(i);
    c.sum += v;
    c.absSum += std::fabs(v);
  }
  return c;
}

} // namespace tcc::runtime
