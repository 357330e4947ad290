//===- Linalg.cpp - Reference matmul, conv, pool, attention -----*- C++ -*-===//
//
// Kernels of the contraction-like tcc ops: matmul, linear, conv2d,
// max_pool2d, avg_pool2d and attention. Straight nested loops with double
// accumulation; no tiling or other cleverness.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tcc::reference::detail {

static double at(const HostTensor &t, int64_t i) { return t.getDouble(i); }

//===----------------------------------------------------------------------===//
// matmul / linear
//===----------------------------------------------------------------------===//

/// a [..., M, K] @ b [..., K, N] with numpy-broadcast batch dims.
static LogicalResult evalMatmul(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &a = s.operands[0], &b = s.operands[1];
  if (a.rank() < 2 || b.rank() < 2)
    return s.fail("operands must have rank >= 2, got " + a.typeString() +
                  " and " + b.typeString());
  int64_t m = a.shape[a.rank() - 2], k = a.shape[a.rank() - 1];
  int64_t k2 = b.shape[b.rank() - 2], n = b.shape[b.rank() - 1];
  if (k != k2)
    return s.fail("contraction dims differ: " + a.typeString() + " and " +
                  b.typeString());
  ArrayRef<int64_t> aBatch = ArrayRef<int64_t>(a.shape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef<int64_t>(b.shape).drop_back(2);
  std::optional<Shape> batch = broadcastShapes(aBatch, bBatch);
  if (!batch)
    return s.fail("cannot broadcast batch dims of " + a.typeString() + " and " +
                  b.typeString());
  Shape outShape = *batch;
  outShape.push_back(m);
  outShape.push_back(n);
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  Shape index;
  for (int64_t bi = 0, be = numElementsOf(*batch); bi < be; ++bi) {
    unravelIndex(bi, *batch, index);
    int64_t aBase = broadcastSourceIndex(index, aBatch) * m * k;
    int64_t bBase = broadcastSourceIndex(index, bBatch) * k * n;
    int64_t outBase = bi * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0.0;
        for (int64_t p = 0; p < k; ++p)
          acc += at(a, aBase + i * k + p) * at(b, bBase + p * n + j);
        out->setDouble(outBase + i * n + j, acc);
      }
  }
  return success();
}

/// x [..., in] @ weight[out, in]^T (+ bias [out]).
static LogicalResult evalLinear(OpState &s) {
  if (failed(s.checkArity(2, 3)))
    return failure();
  const HostTensor &x = s.operands[0], &w = s.operands[1];
  if (x.rank() < 1 || w.rank() != 2)
    return s.fail("expected x [..., in] and weight [out, in], got " +
                  x.typeString() + " and " + w.typeString());
  int64_t in = x.shape.back(), outFeatures = w.shape[0];
  if (w.shape[1] != in)
    return s.fail("weight " + w.typeString() + " does not match input " +
                  x.typeString());
  bool hasBias = s.operands.size() == 3;
  if (hasBias && s.operands[2].shape != Shape{outFeatures})
    return s.fail("bias must have shape " + llvm::Twine(outFeatures) +
                  ", got " + s.operands[2].typeString());
  Shape outShape = x.shape;
  outShape.back() = outFeatures;
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  int64_t rows = numElementsOf(ArrayRef<int64_t>(x.shape).drop_back());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < outFeatures; ++o) {
      double acc = hasBias ? at(s.operands[2], o) : 0.0;
      for (int64_t i = 0; i < in; ++i)
        acc += at(x, r * in + i) * at(w, o * in + i);
      out->setDouble(r * outFeatures + o, acc);
    }
  return success();
}

//===----------------------------------------------------------------------===//
// conv2d / pooling
//===----------------------------------------------------------------------===//

namespace {
/// The window geometry shared by conv2d and the pools.
struct Window {
  int64_t kh, kw;
  int64_t strideH, strideW;
  int64_t padTop, padLeft, padBottom, padRight;
  int64_t dilationH, dilationW;
};
} // namespace

/// Reads `strides`, `padding` ([top, left, bottom, right] or symmetric
/// [ph, pw]) and `dilations`.
static LogicalResult readWindow(OpState &s, Window &w, Shape defaultStrides) {
  FailureOr<Shape> strides = s.getIntArray("strides", defaultStrides);
  FailureOr<Shape> padding = s.getIntArray("padding", Shape{0, 0, 0, 0});
  FailureOr<Shape> dilations = s.getIntArray("dilations", Shape{1, 1});
  if (failed(strides) || failed(padding) || failed(dilations))
    return failure();
  if (strides->size() != 2 || dilations->size() != 2)
    return s.fail("strides and dilations must have 2 entries");
  if (padding->size() == 2)
    *padding = {(*padding)[0], (*padding)[1], (*padding)[0], (*padding)[1]};
  if (padding->size() != 4)
    return s.fail("padding must have 2 or 4 entries");
  w.strideH = (*strides)[0];
  w.strideW = (*strides)[1];
  w.padTop = (*padding)[0];
  w.padLeft = (*padding)[1];
  w.padBottom = (*padding)[2];
  w.padRight = (*padding)[3];
  w.dilationH = (*dilations)[0];
  w.dilationW = (*dilations)[1];
  if (w.strideH <= 0 || w.strideW <= 0 || w.dilationH <= 0 || w.dilationW <= 0)
    return s.fail("strides and dilations must be positive");
  if (w.padTop < 0 || w.padLeft < 0 || w.padBottom < 0 || w.padRight < 0)
    return s.fail("padding must be non-negative");
  return success();
}

/// floor((in + pads - dilation * (k - 1) - 1) / stride) + 1, failing when
/// the (dilated) window does not fit the padded input even once.
static FailureOr<int64_t> outputSize(OpState &s, int64_t in, int64_t padA,
                                     int64_t padB, int64_t k, int64_t dilation,
                                     int64_t stride) {
  int64_t span = in + padA + padB - dilation * (k - 1) - 1;
  if (k <= 0 || span < 0)
    return s.fail("window of size " + llvm::Twine(k) +
                  " does not fit the padded input of size " +
                  llvm::Twine(in + padA + padB));
  return span / stride + 1;
}

/// A window op's `layout`: where N (or O), C, H and W sit in its 4-D
/// operands (NCHW / OIHW: 0, 1, 2, 3; NHWC / OHWI: 0, 3, 1, 2).
struct Layout {
  int n = 0, c = 1, h = 2, w = 3;
  /// The linear index of logical (a, b, y, x) = (N, C, H, W) in `shape`.
  int64_t index(const Shape &shape, int64_t a, int64_t b, int64_t y,
                int64_t x) const {
    int64_t i[4];
    i[n] = a;
    i[c] = b;
    i[h] = y;
    i[w] = x;
    return ((i[0] * shape[1] + i[1]) * shape[2] + i[2]) * shape[3] + i[3];
  }
  /// A shape of logical sizes (N, C, H, W) in this layout.
  Shape shape(int64_t a, int64_t b, int64_t y, int64_t x) const {
    Shape out(4);
    out[n] = a;
    out[c] = b;
    out[h] = y;
    out[w] = x;
    return out;
  }
};

static FailureOr<Layout> readLayout(OpState &s) {
  FailureOr<std::string> name = s.getString("layout", std::string("NCHW"));
  if (failed(name))
    return failure();
  if (*name == "NCHW")
    return Layout{};
  if (*name == "NHWC")
    return Layout{0, 3, 1, 2};
  return s.fail("layout must be NCHW or NHWC, got '" + *name + "'");
}

/// x NCHW (or NHWC), weight [O, C/groups, KH, KW] (or [O, KH, KW,
/// C/groups]), optional bias [O].
static LogicalResult evalConv2d(OpState &s) {
  if (failed(s.checkArity(2, 3)))
    return failure();
  const HostTensor &x = s.operands[0], &w = s.operands[1];
  FailureOr<Layout> layout = readLayout(s);
  if (failed(layout))
    return failure();
  const Layout &l = *layout;
  if (x.rank() != 4 || w.rank() != 4)
    return s.fail("expected a 4-D input and weight, got " + x.typeString() +
                  " and " + w.typeString());
  Window win;
  FailureOr<int64_t> groups = s.getInt("groups", 1);
  if (failed(readWindow(s, win, {1, 1})) || failed(groups))
    return failure();
  int64_t n = x.shape[l.n], c = x.shape[l.c], h = x.shape[l.h],
          wd = x.shape[l.w];
  int64_t o = w.shape[l.n], cg = w.shape[l.c];
  win.kh = w.shape[l.h];
  win.kw = w.shape[l.w];
  if (*groups <= 0 || c % *groups != 0 || o % *groups != 0)
    return s.fail("groups " + llvm::Twine(*groups) +
                  " must divide input channels " + llvm::Twine(c) +
                  " and output channels " + llvm::Twine(o));
  if (cg != c / *groups)
    return s.fail("weight " + w.typeString() + " must have " +
                  llvm::Twine(c / *groups) + " input channels per group");
  bool hasBias = s.operands.size() == 3;
  if (hasBias && s.operands[2].shape != Shape{o})
    return s.fail("bias must have shape " + llvm::Twine(o) + ", got " +
                  s.operands[2].typeString());
  FailureOr<int64_t> oh = outputSize(s, h, win.padTop, win.padBottom, win.kh,
                                     win.dilationH, win.strideH);
  if (failed(oh))
    return failure();
  FailureOr<int64_t> ow = outputSize(s, wd, win.padLeft, win.padRight, win.kw,
                                     win.dilationW, win.strideW);
  if (failed(ow))
    return failure();
  HostTensor *out = s.makeResult(0, l.shape(n, o, *oh, *ow));
  if (!out)
    return failure();

  int64_t outPerGroup = o / *groups;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t g = oc / outPerGroup;
      for (int64_t y = 0; y < *oh; ++y)
        for (int64_t xo = 0; xo < *ow; ++xo) {
          double acc = hasBias ? at(s.operands[2], oc) : 0.0;
          for (int64_t ci = 0; ci < cg; ++ci) {
            int64_t ic = g * cg + ci;
            for (int64_t ky = 0; ky < win.kh; ++ky) {
              int64_t iy = y * win.strideH - win.padTop + ky * win.dilationH;
              if (iy < 0 || iy >= h)
                continue; // Zero padding.
              for (int64_t kx = 0; kx < win.kw; ++kx) {
                int64_t ix =
                    xo * win.strideW - win.padLeft + kx * win.dilationW;
                if (ix < 0 || ix >= wd)
                  continue;
                acc += at(x, l.index(x.shape, b, ic, iy, ix)) *
                       at(w, l.index(w.shape, oc, ci, ky, kx));
              }
            }
          }
          out->setDouble(l.index(out->shape, b, oc, y, xo), acc);
        }
    }
  return success();
}

/// max_pool2d (padding ignored) and avg_pool2d (divides by the number of
/// non-padded elements unless count_include_pad).
template <bool isMax> static LogicalResult evalPool2d(OpState &s) {
  if (failed(s.checkArity(1, 1)))
    return failure();
  const HostTensor &x = s.operands[0];
  FailureOr<Layout> layout = readLayout(s);
  if (failed(layout))
    return failure();
  const Layout &l = *layout;
  if (x.rank() != 4)
    return s.fail("expected a 4-D input, got " + x.typeString());
  FailureOr<Shape> kernel = s.getIntArray("kernel_size");
  if (failed(kernel))
    return failure();
  if (kernel->size() != 2)
    return s.fail("kernel_size must have 2 entries");
  Window win;
  if (failed(readWindow(s, win, *kernel)))
    return failure();
  win.kh = (*kernel)[0];
  win.kw = (*kernel)[1];
  FailureOr<bool> ceilMode = s.getBool("ceil_mode", false);
  FailureOr<bool> countIncludePad = s.getBool("count_include_pad", false);
  if (failed(ceilMode) || failed(countIncludePad))
    return failure();
  if (*ceilMode)
    return s.fail("ceil_mode is not supported");

  int64_t n = x.shape[l.n], c = x.shape[l.c], h = x.shape[l.h],
          wd = x.shape[l.w];
  FailureOr<int64_t> oh = outputSize(s, h, win.padTop, win.padBottom, win.kh,
                                     win.dilationH, win.strideH);
  if (failed(oh))
    return failure();
  FailureOr<int64_t> ow = outputSize(s, wd, win.padLeft, win.padRight, win.kw,
                                     win.dilationW, win.strideW);
  if (failed(ow))
    return failure();
  HostTensor *out = s.makeResult(0, l.shape(n, c, *oh, *ow));
  if (!out)
    return failure();

  for (int64_t plane = 0; plane < n * c; ++plane)
    for (int64_t y = 0; y < *oh; ++y)
      for (int64_t xo = 0; xo < *ow; ++xo) {
        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
        // Integer max pooling stays exact (i64 and ui64 beyond 2^53).
        bool intMax = isMax && isIntDType(x.dtype);
        bool u64 = x.dtype == DType::U64;
        int64_t intAcc = 0;
        int64_t count = 0;
        for (int64_t ky = 0; ky < win.kh; ++ky) {
          int64_t iy = y * win.strideH - win.padTop + ky * win.dilationH;
          for (int64_t kx = 0; kx < win.kw; ++kx) {
            int64_t ix = xo * win.strideW - win.padLeft + kx * win.dilationW;
            if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
              continue;
            int64_t src = l.index(x.shape, plane / c, plane % c, iy, ix);
            if (intMax) {
              int64_t v = getInt(x, src);
              if (count == 0 || (u64 ? uint64_t(v) > uint64_t(intAcc)
                                     : v > intAcc))
                intAcc = v;
              ++count;
              continue;
            }
            double v = at(x, src);
            if (!isMax)
              acc += v;
            else if (std::isnan(v) || v > acc) // Nothing exceeds a NaN.
              acc = v;
            ++count;
          }
        }
        if (!isMax)
          acc /= *countIncludePad ? static_cast<double>(win.kh * win.kw)
                                  : static_cast<double>(count);
        int64_t dst = l.index(out->shape, plane / c, plane % c, y, xo);
        if (intMax && count > 0)
          setInt(*out, dst, intAcc);
        else
          out->setDouble(dst, acc);
      }
  return success();
}

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

/// softmax(q @ k^T * scale + mask) @ v on [..., S, D], like
/// F.scaled_dot_product_attention. Batch dims broadcast numpy-style.
static LogicalResult evalAttention(OpState &s) {
  if (failed(s.checkArity(3, 4)))
    return failure();
  const HostTensor &q = s.operands[0], &k = s.operands[1], &v = s.operands[2];
  if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2)
    return s.fail("q, k and v must have rank >= 2");
  int64_t sq = q.shape[q.rank() - 2], d = q.shape[q.rank() - 1];
  int64_t sk = k.shape[k.rank() - 2], dv = v.shape[v.rank() - 1];
  if (k.shape.back() != d || v.shape[v.rank() - 2] != sk)
    return s.fail("incompatible q " + q.typeString() + ", k " + k.typeString() +
                  ", v " + v.typeString());
  ArrayRef<int64_t> qBatch = ArrayRef<int64_t>(q.shape).drop_back(2);
  ArrayRef<int64_t> kBatch = ArrayRef<int64_t>(k.shape).drop_back(2);
  ArrayRef<int64_t> vBatch = ArrayRef<int64_t>(v.shape).drop_back(2);
  std::optional<Shape> batch = broadcastShapes(qBatch, kBatch);
  if (batch)
    batch = broadcastShapes(*batch, vBatch);
  if (!batch)
    return s.fail("cannot broadcast the batch dims of q " + q.typeString() +
                  ", k " + k.typeString() + ", v " + v.typeString());

  FailureOr<double> scale = s.getFloat("scale", 1.0 / std::sqrt(double(d)));
  FailureOr<bool> isCausal = s.getBool("is_causal", false);
  if (failed(scale) || failed(isCausal))
    return failure();

  const HostTensor *mask = s.operands.size() == 4 ? &s.operands[3] : nullptr;
  Shape scoresShape = *batch;
  scoresShape.push_back(sq);
  scoresShape.push_back(sk);
  if (mask) {
    std::optional<Shape> b = broadcastShapes(mask->shape, scoresShape);
    if (!b || *b != scoresShape)
      return s.fail("mask " + mask->typeString() +
                    " does not broadcast to the scores " +
                    shapeToString(scoresShape));
  }
  Shape outShape = *batch;
  outShape.push_back(sq);
  outShape.push_back(dv);
  HostTensor *out = s.makeResult(0, outShape);
  if (!out)
    return failure();

  const double negInf = -std::numeric_limits<double>::infinity();
  Shape index, scoreIndex;
  std::vector<double> scores(sk);
  bool isHalf = v.dtype == DType::F16 || v.dtype == DType::BF16;
  HostTensor rounded(v.dtype, {1});
  for (int64_t bi = 0, be = numElementsOf(*batch); bi < be; ++bi) {
    unravelIndex(bi, *batch, index);
    int64_t qBase = broadcastSourceIndex(index, qBatch) * sq * d;
    int64_t kBase = broadcastSourceIndex(index, kBatch) * sk * d;
    int64_t vBase = broadcastSourceIndex(index, vBatch) * sk * dv;
    for (int64_t i = 0; i < sq; ++i) {
      double maxScore = negInf;
      for (int64_t j = 0; j < sk; ++j) {
        double dot = 0.0;
        for (int64_t p = 0; p < d; ++p)
          dot += at(q, qBase + i * d + p) * at(k, kBase + j * d + p);
        double score = dot * *scale;
        if (mask) {
          scoreIndex = index;
          scoreIndex.push_back(i);
          scoreIndex.push_back(j);
          int64_t m = broadcastSourceIndex(scoreIndex, mask->shape);
          if (mask->dtype == DType::I1)
            score = getInt(*mask, m) ? score : negInf; // true = keep.
          else
            score += at(*mask, m);
        }
        if (*isCausal && j > i)
          score = negInf;
        scores[j] = score;
        maxScore = std::max(maxScore, score);
      }
      // A fully masked row gives exp(-inf - -inf) = NaN, like torch.
      double sum = 0.0;
      for (int64_t j = 0; j < sk; ++j) {
        scores[j] = std::exp(scores[j] - maxScore);
        sum += scores[j];
      }
      // With a half-precision v the probabilities are rounded to its type
      // before the product with v (tcc.attention's definition).
      if (isHalf) {
        for (int64_t j = 0; j < sk; ++j) {
          rounded.setDouble(0, scores[j] / sum);
          scores[j] = rounded.getDouble(0);
        }
      }
      for (int64_t e = 0; e < dv; ++e) {
        double acc = 0.0;
        for (int64_t j = 0; j < sk; ++j)
          acc += scores[j] * at(v, vBase + j * dv + e);
        out->setDouble((bi * sq + i) * dv + e, isHalf ? acc : acc / sum);
      }
    }
  }
  return success();
}

void registerLinalgKernels(KernelTable &t) {
  t["tcc.matmul"] = evalMatmul;
  t["tcc.linear"] = evalLinear;
  t["tcc.conv2d"] = evalConv2d;
  t["tcc.max_pool2d"] = evalPool2d<true>;
  t["tcc.avg_pool2d"] = evalPool2d<false>;
  t["tcc.attention"] = evalAttention;
}

} // namespace tcc::reference::detail
