//===- Reductions.cpp - Reference reductions and norms ----------*- C++ -*-===//
//
// Kernels of reduce_sum/mean/max/min, softmax, log_softmax, the
// normalizations (layer_norm, rms_norm, batch_norm) and the running sum
// (cumsum). Accumulation is in double (exact int64 for integer
// sum/max/min/cumsum).
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tcc::reference::detail {

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
enum class ReduceKind { Sum, Mean, Max, Min, Prod };
} // namespace

template <ReduceKind kind> static LogicalResult evalReduce(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<Shape> axes = s.getIntArray("axes", Shape());
  FailureOr<bool> keepDims = s.getBool("keep_dims", false);
  if (failed(axes) || failed(keepDims))
    return failure();

  // Empty axes reduce everything.
  std::vector<bool> reduced(x.rank(), axes->empty());
  for (int64_t axis : *axes) {
    FailureOr<int64_t> a = s.normalizeAxis(axis, x.rank());
    if (failed(a))
      return failure();
    if (reduced[*a])
      return s.fail("axis " + llvm::Twine(axis) + " is reduced twice");
    reduced[*a] = true;
  }

  // `keptShape` has size-1 reduced dims, which makes indexing uniform; the
  // result shape drops them unless keep_dims.
  Shape keptShape, outShape;
  int64_t count = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    keptShape.push_back(reduced[d] ? 1 : x.shape[d]);
    if (!reduced[d] || *keepDims)
      outShape.push_back(keptShape.back());
    if (reduced[d])
      count *= x.shape[d];
  }
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();
  if ((kind == ReduceKind::Max || kind == ReduceKind::Min) && count == 0 &&
      out->numElements() > 0)
    return s.fail("cannot take the max/min of an empty reduction");

  int64_t n = out->numElements();
  bool intPath =
      kind != ReduceKind::Mean && isIntDType(x.dtype) && isIntDType(out->dtype);
  std::vector<double> acc(n, kind == ReduceKind::Prod ? 1.0 : 0.0);
  std::vector<int64_t> intAcc(n, kind == ReduceKind::Prod ? 1 : 0);
  std::vector<bool> seen(n, false);
  Shape index;
  for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
    unravelIndex(i, x.shape, index);
    int64_t o = broadcastSourceIndex(index, keptShape);
    if (intPath) {
      int64_t v = getInt(x, i);
      if (kind == ReduceKind::Sum)
        intAcc[o] = static_cast<int64_t>(static_cast<uint64_t>(intAcc[o]) +
                                         static_cast<uint64_t>(v));
      else if (kind == ReduceKind::Prod)
        intAcc[o] = static_cast<int64_t>(static_cast<uint64_t>(intAcc[o]) *
                                         static_cast<uint64_t>(v));
      else if (!seen[o])
        intAcc[o] = v;
      else if (x.dtype == DType::U64) // Its bits: compare unsigned.
        intAcc[o] = static_cast<int64_t>(
            kind == ReduceKind::Max
                ? std::max(uint64_t(intAcc[o]), uint64_t(v))
                : std::min(uint64_t(intAcc[o]), uint64_t(v)));
      else // Narrower unsigned types are zero-extended: signed is right.
        intAcc[o] = kind == ReduceKind::Max ? std::max(intAcc[o], v)
                                            : std::min(intAcc[o], v);
    } else {
      double v = x.getDouble(i);
      if (kind == ReduceKind::Sum || kind == ReduceKind::Mean)
        acc[o] += v;
      else if (kind == ReduceKind::Prod)
        acc[o] *= v;
      else if (!seen[o] || std::isnan(v))
        acc[o] = v;
      else if (!std::isnan(acc[o])) // NaN propagates.
        acc[o] =
            kind == ReduceKind::Max ? std::max(acc[o], v) : std::min(acc[o], v);
    }
    seen[o] = true;
  }
  for (int64_t o = 0; o < n; ++o) {
    if (intPath)
      setInt(*out, o, intAcc[o]);
    else if (kind == ReduceKind::Mean)
      out->setDouble(o, acc[o] / static_cast<double>(count)); // 0/0 is NaN.
    else
      out->setDouble(o, acc[o]);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// Splits `shape` around `axis` into outer * size * inner, so element
/// (o, k, i) is at (o * size + k) * inner + i.
static void splitAroundAxis(ArrayRef<int64_t> shape, int64_t axis,
                            int64_t &outer, int64_t &size, int64_t &inner) {
  outer = numElementsOf(shape.take_front(axis));
  size = shape[axis];
  inner = numElementsOf(shape.drop_front(axis + 1));
}

template <bool isLog> static LogicalResult evalSoftmax(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<int64_t> axisAttr = s.getInt("axis");
  if (failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = s.normalizeAxis(*axisAttr, x.rank());
  if (failed(axis))
    return failure();
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();

  int64_t outer, size, inner;
  splitAroundAxis(x.shape, *axis, outer, size, inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return (o * size + k) * inner + i; };
      // Subtracting the max keeps exp() in range.
      double maxValue = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < size; ++k)
        maxValue = std::max(maxValue, x.getDouble(at(k)));
      double sum = 0.0;
      for (int64_t k = 0; k < size; ++k)
        sum += std::exp(x.getDouble(at(k)) - maxValue);
      for (int64_t k = 0; k < size; ++k) {
        double shifted = x.getDouble(at(k)) - maxValue;
        out->setDouble(at(k), isLog ? shifted - std::log(sum)
                                    : std::exp(shifted) / sum);
      }
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// Checks that an affine parameter has exactly shape `expected`.
static LogicalResult checkParamShape(OpState &s, unsigned operand,
                                     StringRef name,
                                     ArrayRef<int64_t> expected) {
  const HostTensor &p = s.operands[operand];
  if (ArrayRef<int64_t>(p.shape) != expected)
    return s.fail(name + " must have shape " + shapeToString(expected) +
                  ", got " + p.typeString());
  return success();
}

/// layer_norm (isRms = false) and rms_norm (isRms = true) over dims
/// axis..rank-1; weight (and bias) have shape x.shape[axis:] and are
/// optional trailing operands.
template <bool isRms> static LogicalResult evalNorm(OpState &s) {
  if (failed(s.checkArity(1, isRms ? 2 : 3)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<int64_t> axisAttr = s.getInt("axis", -1);
  FailureOr<double> epsilon = s.getFloat("epsilon", 1e-5);
  if (failed(axisAttr) || failed(epsilon))
    return failure();
  FailureOr<int64_t> axis = s.normalizeAxis(*axisAttr, x.rank());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> normShape = ArrayRef<int64_t>(x.shape).drop_front(*axis);
  bool hasWeight = s.operands.size() >= 2, hasBias = s.operands.size() >= 3;
  if ((hasWeight && failed(checkParamShape(s, 1, "weight", normShape))) ||
      (hasBias && failed(checkParamShape(s, 2, "bias", normShape))))
    return failure();
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();

  int64_t inner = numElementsOf(normShape);
  int64_t outer = x.numElements() / std::max<int64_t>(inner, 1);
  for (int64_t o = 0; o < outer; ++o) {
    int64_t base = o * inner;
    double mean = 0.0, meanSquare = 0.0;
    for (int64_t i = 0; i < inner; ++i) {
      double v = x.getDouble(base + i);
      mean += v;
      meanSquare += v * v;
    }
    mean /= inner;
    meanSquare /= inner;
    double variance = 0.0; // Biased: divide by N.
    for (int64_t i = 0; i < inner; ++i) {
      double d = x.getDouble(base + i) - mean;
      variance += d * d;
    }
    variance /= inner;
    double invStd = isRms ? 1.0 / std::sqrt(meanSquare + *epsilon)
                          : 1.0 / std::sqrt(variance + *epsilon);
    for (int64_t i = 0; i < inner; ++i) {
      double v = x.getDouble(base + i);
      double y = isRms ? v * invStd : (v - mean) * invStd;
      if (hasWeight)
        y *= s.operands[1].getDouble(i);
      if (hasBias)
        y += s.operands[2].getDouble(i);
      out->setDouble(base + i, y);
    }
  }
  return success();
}

/// Inference batch norm, channels at dim `axis` (default 1).
static LogicalResult evalBatchNorm(OpState &s) {
  if (failed(s.checkArity(5, 5)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<double> epsilon = s.getFloat("epsilon", 1e-5);
  FailureOr<int64_t> axis = s.getInt("axis", 1);
  if (failed(epsilon) || failed(axis))
    return failure();
  if (x.rank() < 2)
    return s.fail("input must have rank >= 2, got " + x.typeString());
  if (*axis < 1 || *axis >= x.rank())
    return s.fail("channel axis " + llvm::Twine(*axis) +
                  " is outside [1, " + llvm::Twine(x.rank()) + ")");
  int64_t channels = x.shape[*axis];
  static const char *const names[] = {"scale", "bias", "mean", "var"};
  for (unsigned i = 1; i < 5; ++i)
    if (failed(checkParamShape(s, i, names[i - 1], {channels})))
      return failure();
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();

  int64_t outer, size, inner;
  splitAroundAxis(x.shape, *axis, outer, size, inner);
  for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
    int64_t c = (i / inner) % channels;
    double scale = s.operands[1].getDouble(c),
           bias = s.operands[2].getDouble(c), mean = s.operands[3].getDouble(c),
           var = s.operands[4].getDouble(c);
    out->setDouble(
        i, (x.getDouble(i) - mean) / std::sqrt(var + *epsilon) * scale + bias);
  }
  return success();
}

/// Running sum along `axis`: inclusive or exclusive, forward or reverse.
static LogicalResult evalCumsum(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<int64_t> rawAxis = s.getInt("axis");
  if (failed(rawAxis))
    return failure();
  FailureOr<int64_t> axis = s.normalizeAxis(*rawAxis, x.rank());
  FailureOr<bool> exclusive = s.getBool("exclusive", false);
  FailureOr<bool> reverse = s.getBool("reverse", false);
  if (failed(axis) || failed(exclusive) || failed(reverse))
    return failure();
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();
  int64_t len = x.shape[*axis];
  int64_t inner = 1;
  for (int64_t d = *axis + 1; d < x.rank(); ++d)
    inner *= x.shape[d];
  int64_t outer = len == 0 ? 0 : x.numElements() / (len * inner);
  bool isInt = isIntDType(x.dtype);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t intSum = 0;
      double sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        int64_t pos = *reverse ? len - 1 - k : k;
        int64_t at = (o * len + pos) * inner + i;
        if (*exclusive) {
          isInt ? setInt(*out, at, intSum) : out->setDouble(at, sum);
        }
        if (isInt)
          intSum = (int64_t)((uint64_t)intSum + (uint64_t)getInt(x, at));
        else
          sum += x.getDouble(at);
        if (!*exclusive) {
          isInt ? setInt(*out, at, intSum) : out->setDouble(at, sum);
        }
      }
    }
  }
  return success();
}

void registerReductionKernels(KernelTable &t) {
  t["tcc.reduce_sum"] = evalReduce<ReduceKind::Sum>;
  t["tcc.reduce_prod"] = evalReduce<ReduceKind::Prod>;
  t["tcc.reduce_mean"] = evalReduce<ReduceKind::Mean>;
  t["tcc.reduce_max"] = evalReduce<ReduceKind::Max>;
  t["tcc.reduce_min"] = evalReduce<ReduceKind::Min>;
  t["tcc.softmax"] = evalSoftmax<false>;
  t["tcc.log_softmax"] = evalSoftmax<true>;
  t["tcc.layer_norm"] = evalNorm<false>;
  t["tcc.rms_norm"] = evalNorm<true>;
  t["tcc.batch_norm"] = evalBatchNorm;
  t["tcc.cumsum"] = evalCumsum;
}

} // namespace tcc::reference::detail
