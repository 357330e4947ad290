#!/usr/bin/env python3
"""Fits the constants of the AVX-512 table-driven erf and exp in
lib/Codegen/CPU/MathApproximations.cpp and prints them as C++.

erf: |x| in [0, 3.88 + w/2] split into 16 intervals of width
w = f32(3.88 / 14.5), interval k centred on k w (the last one, from 3.88 on,
is the constant 1: f32 erf is 1 there). In each, erf(k w + u) is a degree-5
polynomial in u, minimax in absolute error (Lawson's iteration on a dense
grid, 2 % past the interval's edges for the rounding of k); the first
interval is fitted in relative error with no constant term, so that
erf(x) ~ 2x / sqrt(pi) near 0.

exp: e^r on |r| <= ln 2 / 64 as 1 + c1 r + c2 r^2, minimax in relative
error.

numpy only (math.erf for the reference): python3 scripts/fit_math_tables.py
"""
import math

import numpy as np

INTERVALS, DEGREE, ONE_FROM = 16, 5, 3.88


def lawson(basis, target, scale, iterations=400):
    """Minimax (weighted) coefficients of `basis` for `target` / `scale`."""
    weights = np.ones(len(target))
    for _ in range(iterations):
        w = np.sqrt(weights) / scale
        coeffs, *_ = np.linalg.lstsq(basis * w[:, None], target * w, rcond=None)
        err = np.abs(basis @ coeffs - target) / scale
        weights = weights * (err / err.max()) ** 0.3 + 1e-300
        weights /= weights.sum()
    return coeffs, err.max()


def erf_table():
    width = float(np.float32(ONE_FROM / (INTERVALS - 1.5)))
    erf = np.frompyfunc(math.erf, 1, 1)
    coeffs = np.zeros((INTERVALS, DEGREE + 1))
    worst = 0.0
    u = np.linspace(1e-6, width / 2 * 1.02, 4001)
    y = erf(u).astype(np.float64)
    coeffs[0, 1:], err = lawson(np.vander(u, DEGREE + 1, increasing=True)[:, 1:],
                                y, y)
    worst = max(worst, err)
    for k in range(1, INTERVALS - 1):
        u = np.linspace(-width / 2 * 1.02, width / 2 * 1.02, 4001)
        y = erf(u + k * width).astype(np.float64)
        coeffs[k], err = lawson(np.vander(u, DEGREE + 1, increasing=True), y,
                                np.ones_like(u))
        worst = max(worst, err)
    coeffs[INTERVALS - 1, 0] = 1.0
    return width, coeffs.astype(np.float32), worst


def exp_polynomial():
    h = math.log(2) / 64
    r = np.linspace(-h, h, 20001)
    e = np.exp(r)
    (c1, c2), err = lawson(np.stack([r, r * r], 1) / e[:, None], (e - 1) / e,
                           np.ones_like(r), iterations=2000)
    return np.float32(c1), np.float32(c2), err


def hexf(v):
    return float(v).hex().replace("0000000p", "p") + "f"


def main():
    width, table, err = erf_table()
    print(f"// erf: width {hexf(np.float32(width))}, largest fit error {err:.3g}")
    print("static constexpr float kCoefficients[kDegree + 1][kIntervals] = {")
    for j in range(DEGREE + 1):
        print("    {" + ", ".join(hexf(v) for v in table[:, j]) + "},")
    print("};")
    c1, c2, err = exp_polynomial()
    print(f"// exp: e^r - 1 = r (c1 + c2 r), relative error {err:.3g}")
    print(f"// c1 = {hexf(c1)}, c2 = {hexf(c2)}")


if __name__ == "__main__":
    main()
