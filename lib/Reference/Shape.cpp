//===- Shape.cpp - Reference data-movement ops ------------------*- C++ -*-===//
//
// Kernels of the tcc ops that only move elements: transpose, reshape,
// broadcast_to, concat, slice, gather, and the data-dependent mask_select and
// nonzero; and iota, which makes the indices. Elements are copied
// bit-exactly (copyElement), so these ops never round.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;

namespace tcc::reference::detail {

/// Reads an optional 1-D integer shape operand with `rank` entries.
static FailureOr<std::optional<Shape>>
readShapeOperand(OpState &s, unsigned operand, int64_t rank) {
  if (s.operands.size() <= operand)
    return std::optional<Shape>();
  const HostTensor &t = s.operands[operand];
  if (!isIntDType(t.dtype) || t.rank() != 1 || t.shape[0] != rank)
    return s.fail("shape operand must be a 1-D integer tensor with " +
                  llvm::Twine(rank) + " entries, got " + t.typeString());
  Shape values;
  for (int64_t i = 0; i < rank; ++i)
    values.push_back(getInt(t, i));
  return std::optional<Shape>(values);
}

static LogicalResult evalTranspose(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<Shape> perm = s.getIntArray("permutation");
  if (failed(perm))
    return failure();
  if (static_cast<int64_t>(perm->size()) != x.rank())
    return s.fail("permutation has " + llvm::Twine(perm->size()) +
                  " entries for rank " + llvm::Twine(x.rank()));
  std::vector<bool> used(x.rank(), false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= x.rank() || used[p])
      return s.fail("invalid permutation");
    used[p] = true;
  }
  Shape outShape;
  for (int64_t p : *perm)
    outShape.push_back(x.shape[p]);
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  Shape outIndex, inIndex(x.rank());
  for (int64_t i = 0, e = out->numElements(); i < e; ++i) {
    unravelIndex(i, outShape, outIndex);
    for (int64_t d = 0; d < x.rank(); ++d)
      inIndex[(*perm)[d]] = outIndex[d];
    copyElement(x, linearIndex(inIndex, x.shape), *out, i);
  }
  return success();
}

/// Row-major reshape. Static result dims come from the type; a dynamic one
/// from the shape operand (entry >= 0) or is inferred (entry -1 / no shape
/// operand), at most one inferred.
static LogicalResult evalReshape(OpState &s) {
  if (failed(s.checkArity(1, 2)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<RankedTensorType> type = s.rankedResultType(0);
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  FailureOr<std::optional<Shape>> shapeOperand = readShapeOperand(s, 1, rank);
  if (failed(shapeOperand))
    return failure();

  Shape outShape(rank);
  int64_t inferred = -1, known = 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t entry = *shapeOperand ? (**shapeOperand)[d] : -1;
    if (entry < -1)
      return s.fail("invalid shape entry " + llvm::Twine(entry));
    if (!type->isDynamicDim(d)) {
      outShape[d] = type->getDimSize(d);
      if (entry >= 0 && entry != outShape[d])
        return s.fail("shape operand entry " + llvm::Twine(d) + " is " +
                      llvm::Twine(entry) + " but the result type has " +
                      llvm::Twine(outShape[d]));
    } else if (entry >= 0) {
      outShape[d] = entry;
    } else {
      if (inferred >= 0)
        return s.fail("more than one result dim to infer");
      inferred = d;
      continue;
    }
    known *= outShape[d];
  }
  if (inferred >= 0) {
    if (known == 0 || x.numElements() % known != 0)
      return s.fail("cannot reshape " + x.typeString() + " to " +
                    typeToString(*type));
    outShape[inferred] = x.numElements() / known;
  }
  if (numElementsOf(outShape) != x.numElements())
    return s.fail("cannot reshape " + x.typeString() + " (" +
                  llvm::Twine(x.numElements()) + " elements) to " +
                  shapeToString(outShape));
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();
  for (int64_t i = 0, e = x.numElements(); i < e; ++i)
    copyElement(x, i, *out, i);
  return success();
}

/// Numpy broadcast to the result type. A dynamic result dim comes from the
/// shape operand (entry >= 0) or from the aligned input dim.
static LogicalResult evalBroadcastTo(OpState &s) {
  if (failed(s.checkArity(1, 2)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<RankedTensorType> type = s.rankedResultType(0);
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  if (rank < x.rank())
    return s.fail("cannot broadcast " + x.typeString() + " to lower rank " +
                  typeToString(*type));
  FailureOr<std::optional<Shape>> shapeOperand = readShapeOperand(s, 1, rank);
  if (failed(shapeOperand))
    return failure();

  int64_t offset = rank - x.rank();
  Shape outShape(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t entry = *shapeOperand ? (**shapeOperand)[d] : -1;
    std::optional<int64_t> inDim;
    if (d >= offset)
      inDim = x.shape[d - offset];
    if (!type->isDynamicDim(d))
      outShape[d] = type->getDimSize(d);
    else if (entry >= 0)
      outShape[d] = entry;
    else if (inDim)
      outShape[d] = *inDim;
    else
      return s.fail("cannot infer result dim " + llvm::Twine(d));
    if (entry >= 0 && entry != outShape[d])
      return s.fail("shape operand entry " + llvm::Twine(d) + " is " +
                    llvm::Twine(entry) + " but the result type has " +
                    llvm::Twine(outShape[d]));
    if (inDim && *inDim != 1 && *inDim != outShape[d])
      return s.fail("cannot broadcast " + x.typeString() + " to " +
                    typeToString(*type));
  }
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();
  return forEachBroadcast(outShape, {&x},
                          [&](int64_t i, ArrayRef<int64_t> src) {
                            copyElement(x, src[0], *out, i);
                            return success();
                          });
}

static LogicalResult evalConcat(OpState &s) {
  if (s.operands.empty())
    return s.fail("expected at least one operand");
  if (failed(s.checkArity(1, s.operands.size())))
    return failure();
  const HostTensor &first = s.operands[0];
  FailureOr<int64_t> axisAttr = s.getInt("axis");
  if (failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = s.normalizeAxis(*axisAttr, first.rank());
  if (failed(axis))
    return failure();
  Shape outShape = first.shape;
  outShape[*axis] = 0;
  for (const HostTensor &t : s.operands) {
    bool ok = t.rank() == first.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == *axis || t.shape[d] == first.shape[d];
    if (!ok)
      return s.fail("cannot concatenate " + first.typeString() + " and " +
                    t.typeString() + " along axis " + llvm::Twine(*axis));
    outShape[*axis] += t.shape[*axis];
  }
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  // View every tensor as [outer, axisSize, inner].
  int64_t outer = numElementsOf(ArrayRef<int64_t>(outShape).take_front(*axis));
  int64_t inner =
      numElementsOf(ArrayRef<int64_t>(outShape).drop_front(*axis + 1));
  int64_t total = outShape[*axis], offset = 0;
  for (const HostTensor &t : s.operands) {
    int64_t size = t.shape[*axis];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < size; ++k)
        for (int64_t i = 0; i < inner; ++i)
          copyElement(t, (o * size + k) * inner + i, *out,
                      (o * total + offset + k) * inner + i);
    offset += size;
  }
  return success();
}

/// Python slicing with positive steps: negative bounds add the dim size,
/// then clamp to [0, dim].
static LogicalResult evalSlice(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<Shape> starts = s.getIntArray("starts");
  FailureOr<Shape> ends = s.getIntArray("ends");
  FailureOr<Shape> steps = s.getIntArray("steps", Shape(x.rank(), 1));
  if (failed(starts) || failed(ends) || failed(steps))
    return failure();
  size_t rank = x.shape.size();
  if (starts->size() != rank || ends->size() != rank || steps->size() != rank)
    return s.fail("starts, ends and steps must have one entry per dim (" +
                  llvm::Twine(rank) + ")");

  auto clampBound = [](int64_t v, int64_t dim) {
    if (v < 0)
      v += dim; // No overflow: v < 0 and dim >= 0.
    return std::min(std::max<int64_t>(v, 0), dim);
  };
  Shape begin(rank), outShape(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t step = (*steps)[d];
    if (step <= 0)
      return s.fail("step " + llvm::Twine(step) + " of dim " + llvm::Twine(d) +
                    " must be positive");
    begin[d] = clampBound((*starts)[d], x.shape[d]);
    int64_t end = clampBound((*ends)[d], x.shape[d]);
    // ceil((end - begin) / step) without overflow for huge steps.
    outShape[d] = end > begin[d] ? 1 + (end - begin[d] - 1) / step : 0;
  }
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  Shape outIndex, inIndex(rank);
  for (int64_t i = 0, e = out->numElements(); i < e; ++i) {
    unravelIndex(i, outShape, outIndex);
    for (size_t d = 0; d < rank; ++d)
      inIndex[d] = begin[d] + outIndex[d] * (*steps)[d];
    copyElement(x, linearIndex(inIndex, x.shape), *out, i);
  }
  return success();
}

/// The normalized `axis` of a gather-like op over (x, integer indices).
static FailureOr<int64_t> gatherAxis(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &x = s.operands[0], &indices = s.operands[1];
  if (!isIntDType(indices.dtype) || indices.dtype == DType::I1)
    return s.fail("indices must be integers, got " + indices.typeString());
  FailureOr<int64_t> axisAttr = s.getInt("axis", 0);
  if (failed(axisAttr))
    return failure();
  return s.normalizeAxis(*axisAttr, x.rank());
}

/// Index j of `indices` in [0, dim): negative ones wrap once, others
/// outside [-dim, dim) are an error.
static FailureOr<int64_t> wrappedIndex(OpState &s, const HostTensor &indices,
                                       int64_t j, int64_t dim, int64_t axis) {
  int64_t idx = getInt(indices, j);
  if (idx < -dim || idx >= dim)
    return s.fail("index " + llvm::Twine(idx) + " is out of range for axis " +
                  llvm::Twine(axis) + " of size " + llvm::Twine(dim));
  return idx < 0 ? idx + dim : idx;
}

/// numpy.take: result shape x.shape[:axis] + indices.shape +
/// x.shape[axis+1:]; negative indices wrap once.
static LogicalResult evalGather(OpState &s) {
  FailureOr<int64_t> axis = gatherAxis(s);
  if (failed(axis))
    return failure();
  const HostTensor &x = s.operands[0], &indices = s.operands[1];

  ArrayRef<int64_t> xShape = x.shape;
  Shape outShape(xShape.begin(), xShape.begin() + *axis);
  outShape.insert(outShape.end(), indices.shape.begin(), indices.shape.end());
  outShape.insert(outShape.end(), xShape.begin() + *axis + 1, xShape.end());
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  int64_t dim = x.shape[*axis];
  int64_t outer = numElementsOf(xShape.take_front(*axis));
  int64_t inner = numElementsOf(xShape.drop_front(*axis + 1));
  int64_t count = indices.numElements();
  for (int64_t j = 0; j < count; ++j) {
    FailureOr<int64_t> idx = wrappedIndex(s, indices, j, dim, *axis);
    if (failed(idx))
      return failure();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        copyElement(x, (o * dim + *idx) * inner + i, *out,
                    (o * count + j) * inner + i);
  }
  return success();
}

/// torch.gather: out[..., i_axis, ...] = x[..., indices[...], ...], the
/// result in the indices' shape.
static LogicalResult evalGatherElements(OpState &s) {
  FailureOr<int64_t> axis = gatherAxis(s);
  if (failed(axis))
    return failure();
  const HostTensor &x = s.operands[0], &indices = s.operands[1];
  if (x.rank() != indices.rank())
    return s.fail("indices " + indices.typeString() + " and x " +
                  x.typeString() + " differ in rank");
  int64_t rank = x.rank();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && indices.shape[d] > x.shape[d])
      return s.fail("indices dim " + llvm::Twine(d) + " (" +
                    llvm::Twine(indices.shape[d]) + ") exceeds x's (" +
                    llvm::Twine(x.shape[d]) + ")");
  HostTensor *out = s.makeResult(0, indices.shape);
  if (!out)
    return failure();
  // Row-major strides of x; the coordinates of each index element.
  SmallVector<int64_t> stride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * x.shape[d + 1];
  SmallVector<int64_t> coord(rank, 0);
  int64_t dim = x.shape[*axis];
  for (int64_t j = 0, e = indices.numElements(); j < e; ++j) {
    FailureOr<int64_t> idx = wrappedIndex(s, indices, j, dim, *axis);
    if (failed(idx))
      return failure();
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      src += (d == *axis ? *idx : coord[d]) * stride[d];
    copyElement(x, src, *out, j);
    for (int64_t d = rank - 1; d >= 0; --d) { // Next coordinate.
      if (++coord[d] < indices.shape[d])
        break;
      coord[d] = 0;
    }
  }
  return success();
}

/// Element `i` of `out` combined with element `j` of `updates` by a
/// scatter's reduction ("none" overwrites), in the element type.
static void scatterCombine(HostTensor &out, int64_t i,
                           const HostTensor &updates, int64_t j,
                           llvm::StringRef reduction) {
  if (reduction == "none") {
    copyElement(updates, j, out, i);
    return;
  }
  if (runtime::isFloatDType(out.dtype)) {
    double a = out.getDouble(i), b = updates.getDouble(j), r;
    if (reduction == "add")
      r = a + b;
    else if (reduction == "mul")
      r = a * b;
    else if (std::isnan(a) || std::isnan(b))
      r = std::numeric_limits<double>::quiet_NaN();
    else
      r = reduction == "max" ? std::max(a, b) : std::min(a, b);
    out.setDouble(i, r);
    return;
  }
  int64_t a = getInt(out, i), b = getInt(updates, j), r;
  bool isBool = out.dtype == DType::I1;
  if (reduction == "add")
    r = isBool ? (a | b) : (int64_t)((uint64_t)a + (uint64_t)b);
  else if (reduction == "mul")
    r = isBool ? (a & b) : (int64_t)((uint64_t)a * (uint64_t)b);
  else if (out.dtype == DType::U64) // Its bits: compare unsigned.
    r = (int64_t)(reduction == "max" ? std::max((uint64_t)a, (uint64_t)b)
                                     : std::min((uint64_t)a, (uint64_t)b));
  else if (reduction == "max")
    r = std::max(a, b);
  else
    r = std::min(a, b);
  setInt(out, i, r);
}

/// The scatters' shared start: operands (x, integer indices, updates of
/// x's dtype), the reduction, and the result as a copy of x.
static FailureOr<std::pair<HostTensor *, std::string>>
scatterStart(OpState &s) {
  if (failed(s.checkArity(3, 3)))
    return failure();
  const HostTensor &x = s.operands[0], &indices = s.operands[1],
                   &updates = s.operands[2];
  if (!isIntDType(indices.dtype) || indices.dtype == DType::I1)
    return s.fail("indices must be integers, got " + indices.typeString());
  if (updates.dtype != x.dtype)
    return s.fail("updates " + updates.typeString() + " differ from x " +
                  x.typeString() + " in element type");
  FailureOr<std::string> reduction = s.getString("reduction", "none");
  if (failed(reduction))
    return failure();
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, *reduction))
    return s.fail("unknown reduction '" + *reduction + "'");
  HostTensor *out = s.makeResult(0, x.shape);
  if (!out)
    return failure();
  for (int64_t i = 0, e = x.numElements(); i < e; ++i)
    copyElement(x, i, *out, i);
  return std::make_pair(out, *reduction);
}

/// torch.scatter / ONNX ScatterElements: updates in row-major order, each
/// into x's element at its own coordinates with dim `axis` from indices.
static LogicalResult evalScatterElements(OpState &s) {
  auto start = scatterStart(s);
  if (failed(start))
    return failure();
  auto [out, reduction] = *start;
  const HostTensor &x = s.operands[0], &indices = s.operands[1],
                   &updates = s.operands[2];
  FailureOr<int64_t> axisAttr = s.getInt("axis", 0);
  if (failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = s.normalizeAxis(*axisAttr, x.rank());
  if (failed(axis))
    return failure();
  if (indices.rank() != x.rank() || updates.rank() != x.rank())
    return s.fail("indices " + indices.typeString() + " and updates " +
                  updates.typeString() + " must have x's rank");
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (indices.shape[d] > updates.shape[d])
      return s.fail("indices dim " + llvm::Twine(d) + " (" +
                    llvm::Twine(indices.shape[d]) + ") exceeds the updates' (" +
                    llvm::Twine(updates.shape[d]) + ")");
    if (d != *axis && indices.shape[d] > x.shape[d])
      return s.fail("indices dim " + llvm::Twine(d) + " (" +
                    llvm::Twine(indices.shape[d]) + ") exceeds x's (" +
                    llvm::Twine(x.shape[d]) + ")");
  }
  Shape coord;
  for (int64_t j = 0, e = indices.numElements(); j < e; ++j) {
    FailureOr<int64_t> idx =
        wrappedIndex(s, indices, j, x.shape[*axis], *axis);
    if (failed(idx))
      return failure();
    unravelIndex(j, indices.shape, coord);
    int64_t from = linearIndex(coord, updates.shape);
    coord[*axis] = *idx;
    scatterCombine(*out, linearIndex(coord, x.shape), updates, from, reduction);
  }
  return success();
}

/// ONNX ScatterND: each index tuple (the last dim of indices) addresses a
/// slice x[i0, ..., ik-1] that the matching slice of updates replaces or
/// is combined with, tuples in row-major order.
static LogicalResult evalScatterND(OpState &s) {
  auto start = scatterStart(s);
  if (failed(start))
    return failure();
  auto [out, reduction] = *start;
  const HostTensor &x = s.operands[0], &indices = s.operands[1],
                   &updates = s.operands[2];
  if (indices.rank() < 1)
    return s.fail("indices must have rank 1 or more");
  int64_t k = indices.shape.back();
  if (k < 1 || k > x.rank())
    return s.fail("index tuples of " + llvm::Twine(k) +
                  " entries do not fit x " + x.typeString());
  Shape want(indices.shape.begin(), indices.shape.end() - 1);
  want.insert(want.end(), x.shape.begin() + k, x.shape.end());
  if (updates.shape != want)
    return s.fail("updates " + updates.typeString() + " must have shape " +
                  shapeToString(want) + " (indices.shape[:-1] + x.shape[k:])");
  int64_t slice = numElementsOf(ArrayRef<int64_t>(x.shape).drop_front(k));
  int64_t tuples = indices.numElements() / k;
  Shape target(k);
  for (int64_t q = 0; q < tuples; ++q) {
    for (int64_t e = 0; e < k; ++e) {
      FailureOr<int64_t> idx = wrappedIndex(s, indices, q * k + e, x.shape[e], e);
      if (failed(idx))
        return failure();
      target[e] = *idx;
    }
    int64_t base = linearIndex(target, ArrayRef<int64_t>(x.shape).take_front(k));
    for (int64_t i = 0; i < slice; ++i)
      scatterCombine(*out, base * slice + i, updates, q * slice + i, reduction);
  }
  return success();
}

/// x[mask]: the mask has x's shape (one element per true entry) or that of
/// x's leading dims (one row per true entry), in row-major order.
static LogicalResult evalMaskSelect(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &x = s.operands[0], &mask = s.operands[1];
  if (mask.dtype != DType::I1)
    return s.fail("mask must be i1, got " + mask.typeString());
  if (mask.rank() > x.rank() ||
      !std::equal(mask.shape.begin(), mask.shape.end(), x.shape.begin()))
    return s.fail("mask " + mask.typeString() + " has neither the shape of x " +
                  x.typeString() + " nor that of its leading dims");
  ArrayRef<int64_t> rowShape =
      ArrayRef<int64_t>(x.shape).drop_front(mask.rank());
  int64_t rowSize = numElementsOf(rowShape);
  int64_t count = 0;
  for (int64_t i = 0, e = mask.numElements(); i < e; ++i)
    count += getInt(mask, i) != 0;
  Shape outShape = {count};
  outShape.insert(outShape.end(), rowShape.begin(), rowShape.end());
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();
  int64_t k = 0;
  for (int64_t i = 0, e = mask.numElements(); i < e; ++i) {
    if (getInt(mask, i) == 0)
      continue;
    for (int64_t j = 0; j < rowSize; ++j)
      copyElement(x, i * rowSize + j, *out, k * rowSize + j);
    ++k;
  }
  return success();
}

/// torch.nonzero: the multi-index of every non-zero element (NaN included),
/// one row each, in row-major order.
static LogicalResult evalNonzero(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  bool isFloat = runtime::isFloatDType(x.dtype);
  auto isNonzero = [&](int64_t i) {
    return isFloat ? x.getDouble(i) != 0.0 : getInt(x, i) != 0;
  };
  int64_t count = 0;
  for (int64_t i = 0, e = x.numElements(); i < e; ++i)
    count += isNonzero(i);
  HostTensor *out = s.makeResult(0, {count, x.rank()});
  if (!out)
    return failure();
  Shape index;
  int64_t k = 0;
  for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
    if (!isNonzero(i))
      continue;
    unravelIndex(i, x.shape, index);
    for (int64_t d = 0; d < x.rank(); ++d)
      setInt(*out, k * x.rank() + d, index[d]);
    ++k;
  }
  return success();
}

/// 0, 1, 2, ...: the length from the type or the shape operand.
static LogicalResult evalIota(OpState &s) {
  if (failed(s.checkArity(0, 1)))
    return failure();
  FailureOr<RankedTensorType> type = s.rankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<std::optional<Shape>> shapeOperand = readShapeOperand(s, 0, 1);
  if (failed(shapeOperand))
    return failure();
  int64_t len = type->isDynamicDim(0) ? -1 : type->getDimSize(0);
  if (*shapeOperand) {
    int64_t entry = (**shapeOperand)[0];
    if (entry < 0)
      return s.fail("negative length " + llvm::Twine(entry));
    if (len >= 0 && entry != len)
      return s.fail("shape operand " + llvm::Twine(entry) +
                    " differs from the result type's length " +
                    llvm::Twine(len));
    len = entry;
  }
  if (len < 0)
    return s.fail("needs a shape operand for its dynamic length");
  HostTensor *out = s.makeResult(0, {len});
  if (!out)
    return failure();
  for (int64_t i = 0; i < len; ++i)
    isIntDType(out->dtype) ? setInt(*out, i, i) : out->setDouble(i, (double)i);
  return success();
}

void registerShapeKernels(KernelTable &t) {
  t["tcc.transpose"] = evalTranspose;
  t["tcc.reshape"] = evalReshape;
  t["tcc.broadcast_to"] = evalBroadcastTo;
  t["tcc.concat"] = evalConcat;
  t["tcc.slice"] = evalSlice;
  t["tcc.gather"] = evalGather;
  t["tcc.gather_elements"] = evalGatherElements;
  t["tcc.scatter_elements"] = evalScatterElements;
  t["tcc.scatter_nd"] = evalScatterND;
  t["tcc.mask_select"] = evalMaskSelect;
  t["tcc.nonzero"] = evalNonzero;
  t["tcc.iota"] = evalIota;
}

} // namespace tcc::reference::detail
