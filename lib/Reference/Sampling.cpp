//===- Sampling.cpp - Reference grid_sample ---------------------*- C++ -*-===//
//
// tcc.grid_sample in double, written after PyTorch's grid_sampler_2d CPU
// kernel (aten/src/ATen/native/GridSampler.h): coordinates unnormalized
// with or without align_corners, padded (border clips, reflection
// mirrors), then nearest (ties to even), bilinear or bicubic (A = -0.75)
// taps, zero outside x for "zeros" padding.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace tcc::reference::detail {

namespace {

struct Sampler {
  std::string padding;
  bool alignCorners;

  double unnormalize(double g, int64_t size) const {
    return alignCorners ? (g + 1) / 2 * (size - 1)
                        : ((g + 1) * size - 1) / 2;
  }
  static double reflect(double in, double twiceLow, double twiceHigh) {
    if (twiceLow == twiceHigh)
      return 0;
    double low = twiceLow / 2, span = (twiceHigh - twiceLow) / 2;
    in = std::fabs(in - low);
    double extra = std::fmod(in, span);
    int64_t flips = (int64_t)std::floor(in / span);
    return flips % 2 == 0 ? extra + low : span - extra + low;
  }
  double pad(double c, int64_t size) const {
    if (padding == "zeros")
      return c;
    if (padding == "reflection")
      c = alignCorners ? reflect(c, 0, 2.0 * (size - 1))
                       : reflect(c, -1, 2.0 * size - 1);
    return std::isnan(c) ? 0 : std::min<double>(std::max(c, 0.0), size - 1);
  }
};

double cubicNear(double x, double a) {
  return ((a + 2) * x - (a + 3)) * x * x + 1;
}
double cubicFar(double x, double a) {
  return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}

} // namespace

static LogicalResult evalGridSample(OpState &s) {
  if (failed(s.checkArity(2, 2)))
    return failure();
  const HostTensor &x = s.operands[0], &grid = s.operands[1];
  FailureOr<std::string> mode = s.getString("mode", "bilinear");
  FailureOr<std::string> padding = s.getString("padding_mode", "zeros");
  FailureOr<bool> align = s.getBool("align_corners", false);
  if (failed(mode) || failed(padding) || failed(align))
    return failure();
  if (*mode != "bilinear" && *mode != "nearest" && *mode != "bicubic")
    return s.fail("unknown mode '" + *mode + "'");
  if (*padding != "zeros" && *padding != "border" && *padding != "reflection")
    return s.fail("unknown padding_mode '" + *padding + "'");
  if (x.rank() != 4 || grid.rank() != 4 || grid.shape[3] != 2 ||
      grid.shape[0] != x.shape[0])
    return s.fail("expects x [N, C, H, W] and grid [N, Ho, Wo, 2], got x " +
                  x.typeString() + " and grid " + grid.typeString());
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  int64_t ho = grid.shape[1], wo = grid.shape[2];
  HostTensor *out = s.makeResult(0, {n, c, ho, wo});
  if (!out)
    return failure();
  Sampler smp{*padding, *align};
  // Pixel (px, py) times `weight`; nothing outside x (NaN included).
  auto tap = [&](int64_t b, int64_t ch, double px, double py, double weight) {
    if (!(px >= 0 && px <= w - 1 && py >= 0 && py <= h - 1))
      return 0.0;
    return x.getDouble(((b * c + ch) * h + (int64_t)py) * w + (int64_t)px) *
           weight;
  };
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < ho; ++i)
      for (int64_t j = 0; j < wo; ++j) {
        int64_t g = ((b * ho + i) * wo + j) * 2;
        double gx = grid.getDouble(g), gy = grid.getDouble(g + 1);
        for (int64_t ch = 0; ch < c; ++ch) {
          double v = 0;
          if (*mode == "bicubic") {
            double ix = smp.unnormalize(gx, w), iy = smp.unnormalize(gy, h);
            double x0 = std::floor(ix), y0 = std::floor(iy);
            double tx = ix - x0, ty = iy - y0, a = -0.75;
            double cx[4] = {cubicFar(tx + 1, a), cubicNear(tx, a),
                            cubicNear(1 - tx, a), cubicFar(2 - tx, a)};
            double cy[4] = {cubicFar(ty + 1, a), cubicNear(ty, a),
                            cubicNear(1 - ty, a), cubicFar(2 - ty, a)};
            for (int r = 0; r < 4; ++r)
              for (int q = 0; q < 4; ++q)
                v += tap(b, ch, smp.pad(x0 - 1 + q, w), smp.pad(y0 - 1 + r, h),
                         cx[q] * cy[r]);
          } else {
            double ix = smp.pad(smp.unnormalize(gx, w), w);
            double iy = smp.pad(smp.unnormalize(gy, h), h);
            if (*mode == "nearest") {
              v = tap(b, ch, std::nearbyint(ix), std::nearbyint(iy), 1);
            } else {
              double x0 = std::floor(ix), y0 = std::floor(iy);
              double wx = ix - x0, wy = iy - y0;
              v = tap(b, ch, x0, y0, (1 - wx) * (1 - wy)) +
                  tap(b, ch, x0 + 1, y0, wx * (1 - wy)) +
                  tap(b, ch, x0, y0 + 1, (1 - wx) * wy) +
                  tap(b, ch, x0 + 1, y0 + 1, wx * wy);
            }
          }
          out->setDouble(((b * c + ch) * ho + i) * wo + j, v);
        }
      }
  return success();
}

void registerSamplingKernels(KernelTable &t) {
  t["tcc.grid_sample"] = evalGridSample;
}

} // namespace tcc::reference::detail
