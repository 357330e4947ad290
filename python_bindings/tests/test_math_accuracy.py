"""Accuracy of the compiled f32 exp, erf and GELU (the CPU pipeline's own
approximations, lib/Codegen/CPU/MathApproximations.cpp) over a
dense sweep and the special values, against Python's double-precision
math.exp / math.erf: the independent answer.

On a CPU with AVX-512 the pipeline uses the table-driven exp and erf, else
the portable polynomial exp and rational erf; each has its own bound."""
import math
from pathlib import Path

import numpy as np

import tcc

UNARY = """
func.func @unary(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = tcc.exp %x : (tensor<?xf32>) -> tensor<?xf32>
  %1 = tcc.erf %x : (tensor<?xf32>) -> tensor<?xf32>
  %2 = tcc.gelu %x {approximate = "none"} : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""


def has_avx512():
    cpuinfo = Path("/proc/cpuinfo")
    return cpuinfo.exists() and " avx512f" in cpuinfo.read_text()


def oracle(f, x):
    return np.frompyfunc(lambda v: f(float(v)), 1, 1)(x).astype(np.float64)


def ulp_error(got, ref):
    """|got - ref| in units of the f32 spacing at ref (normal results)."""
    spacing = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - ref) / spacing


def safe_exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def test_exp_erf_gelu_sweep():
    # 2^20 + 7 points (a ragged tail after the full vectors) over [-10, 10],
    # then exp alone over its whole finite range.
    x = np.linspace(-10, 10, (1 << 20) + 7, dtype=np.float32)
    exe = tcc.compile(UNARY)
    e, erf, gelu = exe(x, function="unary")

    avx512 = has_avx512()
    erf_ref = oracle(math.erf, x)
    gelu_ref = 0.5 * x.astype(np.float64) * (1 + oracle(math.erf, x / np.sqrt(2.0)))
    # Table erf: 5.8e-8 measured over all floats; the rational 4.4e-7.
    assert np.max(np.abs(erf - erf_ref)) <= (1.0e-7 if avx512 else 5.0e-7)
    # GELU: 3.7e-7 and 1.0e-6 (x up to 10: a few ulp of the result).
    assert np.max(np.abs(gelu - gelu_ref)) <= (5.0e-7 if avx512 else 1.2e-6)

    wide = np.linspace(-87, 88.7, (1 << 20) + 7, dtype=np.float32)
    e, _, _ = exe(wide, function="unary")
    # Table exp: 1.73 ulp over all floats; the degree-5 polynomial 2 ulp.
    assert np.max(ulp_error(e, oracle(math.exp, wide))) <= (2.0 if avx512 else 2.5)


def test_special_values():
    x = np.array([0.0, -0.0, 1e-30, -1e-30, 1e-8, np.inf, -np.inf, np.nan,
                  100.0, -100.0, 88.8, -104.5, -95.0, 3.9, -3.9] + [0.5] * 17,
                 dtype=np.float32)
    exe = tcc.compile(UNARY)
    e, erf, gelu = exe(x, function="unary")
    n = 15
    # exp: 1 at 0, +inf above ln FLT_MAX and at +inf, 0 at -inf and far
    # below, NaN kept; subnormal results stay close (table path) or flush.
    assert e[0] == 1 and e[1] == 1
    assert np.isinf(e[5]) and e[5] > 0 and e[6] == 0 and np.isnan(e[7])
    assert np.isinf(e[8]) and np.isinf(e[10]) and e[11] == 0
    for i, v in ((9, -100.0), (12, -95.0)):  # 3.7e-44, 5.5e-42
        assert e[i] == 0 or abs(e[i] - math.exp(v)) <= 3e-45
    # erf: odd (the sign of zero too), relative accuracy near 0, +-1 for
    # large |x| (so 1 + erf(-x) is exactly 0 and GELU(-100) is 0), NaN.
    assert erf[0] == 0 and not np.signbit(erf[0]) and np.signbit(erf[1])
    np.testing.assert_allclose(erf[2:5], [math.erf(1e-30), -math.erf(1e-30),
                                          math.erf(1e-8)], rtol=1e-6)
    assert erf[5] == 1 and erf[6] == -1 and np.isnan(erf[7])
    assert erf[8] == 1 and erf[9] == -1
    # erf(3.9) = 1 - 3.5e-8 rounds to 1 - 2^-24 in f32; the table path
    # gives 1 there, the rational the neighbour below: either is within
    # an ulp, and the sign is odd.
    assert abs(erf[13] - math.erf(3.9)) <= 6e-8 and erf[14] == -erf[13]
    assert gelu[8] == 100 and gelu[9] == 0 and np.isnan(gelu[7])
    np.testing.assert_allclose(erf[n:], math.erf(0.5), rtol=2e-7)


def test_softmax_masked_rows():
    """Masked entries (-inf) give exact zeros; the rest sums to 1."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((64, 1000)) * 20).astype(np.float32)
    x[:, ::3] = -np.inf
    y = tcc.compile(UNARY)(x, function="softmax")
    assert np.all(y[:, ::3] == 0)
    z = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    ref = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y, ref, rtol=2e-6, atol=1e-9)
