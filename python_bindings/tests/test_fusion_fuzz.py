"""Fusion never changes a result: random graphs of tcc ops, compiled for the
CPU with --fuse (the default) and without, each checked against numpy in
float64, the independent answer.

Each case is a seeded random function over an [R, C] iteration space:
pointwise ops (unary, binary with row, column and scalar broadcasts,
constants, f16 and bf16 cast round trips), reductions along either axis feeding back into pointwise
ops, the composite ops (softmax, log_softmax, layer_norm, rms_norm) and
their hand-written forms that --fuse recognizes, and several results
(intermediates returned too, so multi-output groups form). Shapes mix
odd sizes with the long rows the CPU tiling treats apart (>= 1024
columns, >= 64 rows); dims are static or dynamic (`?`) at random.

TCC_FUZZ_CASES=N runs N cases (default 40), TCC_FUZZ_SEED=S starts
from seed S (default 0): a failure names its seed and prints its MLIR,
so `TCC_FUZZ_SEED=S TCC_FUZZ_CASES=1` replays it."""
import math
import os
import random

import numpy as np
import pytest

import tcc

ROWS = [1, 2, 3, 7, 16, 33, 64, 65, 130]
COLS = [1, 5, 16, 17, 64, 100, 1024, 1030, 2048]
MAX_ELEMENTS = 300_000
LIMIT = 1e4  # largest magnitude a value may reach


def round_bf16(d):
    """float64 -> bf16 (round to nearest even through f32) -> float64."""
    bits = np.asarray(d, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


class Value:
    """A value of the graph: its SSA name, its kind (full [R, C], row [C],
    col [R, 1], top [1, C], scalar []), numpy contents (float64), a bound
    on its magnitude, and `scale`: the largest magnitude among it and the
    values it was computed from (f32 rounding there is what its error
    scales with)."""

    def __init__(self, name, kind, data, bound, operands=(), rel=0.0):
        self.name, self.kind, self.data, self.bound = name, kind, data, bound
        self.scale = max([float(np.max(np.abs(data))) if np.size(data)
                          else 0.0] + [o.scale for o in operands])
        # Relative rounding a narrow cast upstream adds (f16, bf16): the
        # compiled f32 value and numpy's float64 one may round to
        # neighbouring narrow values.
        self.rel = max([rel] + [o.rel for o in operands])
        self.element = "f32"


def shape_of(kind, r, c):
    return {"full": (r, c), "row": (c,), "col": (r, 1), "top": (1, c),
            "scalar": ()}[kind]


def broadcast_kind(a, b):
    kinds = {a, b}
    if "full" in kinds or kinds == {"col", "top"} or kinds == {"col", "row"}:
        return "full"
    for k in ("col", "top", "row"):
        if k in kinds:
            return k
    return "scalar"


class Case:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        while True:
            self.r, self.c = rng.choice(ROWS), rng.choice(COLS)
            if self.r * self.c <= MAX_ELEMENTS:
                break
        self.dyn_r = rng.random() < 0.4
        self.dyn_c = rng.random() < 0.2
        self.np_rng = np.random.default_rng(seed)
        self.args, self.body, self.values = [], [], []
        self.counter = 0

    # -- types ---------------------------------------------------------------
    def type_of(self, kind, element="f32"):
        dims = []
        for d, full in zip(shape_of(kind, self.r, self.c),
                           shape_of(kind, "R", "C")):
            if full == "R" and self.dyn_r or full == "C" and self.dyn_c:
                dims.append("?")
            else:
                dims.append(str(d))
        return "tensor<" + "".join(x + "x" for x in dims) + element + ">"

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    # -- building ------------------------------------------------------------
    def add_input(self, kind, scale=2.0):
        name = f"%a{len(self.args)}"
        data = self.np_rng.uniform(-scale, scale,
                                   shape_of(kind, self.r, self.c))
        data = data.astype(np.float32).astype(np.float64)
        self.args.append((name, kind, data))
        v = Value(name, kind, data, scale)
        self.values.append(v)
        return v

    def emit(self, op, operands, kind, data, bound, attrs="", rel=0.0,
             element="f32"):
        name = self.fresh()
        types = ", ".join(self.type_of(o.kind, o.element) for o in operands)
        self.body.append(
            f"  {name} = {op} {', '.join(o.name for o in operands)}{attrs} : "
            f"({types}) -> {self.type_of(kind, element)}")
        v = Value(name, kind, data, bound, operands, rel)
        v.element = element
        if element != "f32":  # only casts read it
            return v
        self.values.append(v)
        return v

    def constant(self, value):
        name = self.fresh()
        self.body.append(f"  {name} = tcc.constant dense<{value:.8e}> : "
                         "tensor<f32>")
        v = Value(name, "scalar", np.float64(np.float32(value)), abs(value))
        self.values.append(v)
        return v

    def pick(self, kinds=None):
        pool = [v for v in self.values
                if kinds is None or v.kind in kinds]
        # Recent values more often: longer chains.
        return pool[min(len(pool) - 1,
                        int(len(pool) * (1 - self.rng.random() ** 2)))]

    # -- ops -----------------------------------------------------------------
    def unary(self):
        x = self.pick()
        choices = ["tanh", "sigmoid", "relu", "neg", "abs", "erf", "gelu",
                   "silu"]
        if x.bound <= 8:
            choices.append("exp")
        op = self.rng.choice(choices)
        d = np.asarray(x.data, dtype=np.float64)
        erf = np.vectorize(math.erf, otypes=[np.float64])
        fns = {
            "tanh": lambda: (np.tanh(d), 1.0),
            "sigmoid": lambda: (1 / (1 + np.exp(-d)), 1.0),
            "relu": lambda: (np.maximum(d, 0), x.bound),
            "neg": lambda: (-d, x.bound),
            "abs": lambda: (np.abs(d), x.bound),
            "erf": lambda: (erf(d), 1.0),
            "gelu": lambda: (0.5 * d * (1 + erf(d / math.sqrt(2))), x.bound),
            "silu": lambda: (d / (1 + np.exp(-d)), x.bound),
            "exp": lambda: (np.exp(d), math.exp(x.bound)),
        }
        data, bound = fns[op]()
        attrs = ' {approximate = "none"}' if op == "gelu" else ""
        return self.emit(f"tcc.{op}", [x], x.kind, data, bound, attrs)

    def binary(self):
        a = self.pick()
        b = self.pick() if self.rng.random() < 0.8 else self.constant(
            round(self.rng.uniform(-2, 2), 3))
        op = self.rng.choice(["add", "sub", "mul", "maximum", "minimum",
                              "div"])
        if op == "mul" and a.bound * b.bound > LIMIT:
            op = "add"
        if op == "div":
            # a / (|b| + 1): never divides by zero.
            b = self.emit("tcc.abs", [b], b.kind, np.abs(b.data), b.bound)
            one = self.constant(1.0)
            b = self.emit("tcc.add", [b, one], b.kind, b.data + 1.0,
                          b.bound + 1)
        kind = broadcast_kind(a.kind, b.kind)
        x, y = a.data, b.data
        data, bound = {
            "add": lambda: (x + y, a.bound + b.bound),
            "sub": lambda: (x - y, a.bound + b.bound),
            "mul": lambda: (x * y, a.bound * b.bound),
            "maximum": lambda: (np.maximum(x, y), max(a.bound, b.bound)),
            "minimum": lambda: (np.minimum(x, y), max(a.bound, b.bound)),
            "div": lambda: (x / y, a.bound),
        }[op]()
        return self.emit(f"tcc.{op}", [a, b], kind, np.asarray(data), bound)

    def cast_round_trip(self):
        """f32 -> f16 or bf16 -> f32: fusion goes through casts."""
        x = self.pick()
        narrow = self.rng.choice(["f16", "bf16"])
        if narrow == "f16":
            data, rel = np.asarray(x.data).astype(np.float16).astype(
                np.float64), 2.0**-10
        else:
            data, rel = round_bf16(x.data), 2.0**-7
        mid = self.emit("tcc.cast", [x], x.kind, data, x.bound, rel=rel,
                        element=narrow)
        return self.emit("tcc.cast", [mid], x.kind, data, x.bound)

    def reduce(self):
        x = self.pick({"full"})
        op = self.rng.choice(["reduce_sum", "reduce_max", "reduce_min",
                              "reduce_mean"])
        axis = 1 if self.rng.random() < 0.75 else 0
        kind = "col" if axis == 1 else "top"
        n = self.c if axis == 1 else self.r
        fn = {"reduce_sum": np.sum, "reduce_max": np.max,
              "reduce_min": np.min, "reduce_mean": np.mean}[op]
        bound = x.bound * n if op == "reduce_sum" else x.bound
        if bound > LIMIT:
            op, fn, bound = "reduce_mean", np.mean, x.bound
        data = fn(x.data, axis=axis, keepdims=True)
        return self.emit(f"tcc.{op}", [x], kind, data, bound,
                         f" {{axes = array<i64: {axis}>, keep_dims = true}}")

    def softmax(self, log=False):
        x = self.pick({"full"})
        axis = 1 if self.rng.random() < 0.75 else 0
        shifted = x.data - x.data.max(axis=axis, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(axis=axis, keepdims=True)
        if log:
            data, bound = shifted - np.log(s), 2 * x.bound + math.log(
                max(self.r, self.c)) + 1
        else:
            data, bound = e / s, 1.0
        op = "tcc.log_softmax" if log else "tcc.softmax"
        return self.emit(op, [x], "full", data, bound,
                         f" {{axis = {axis} : i64}}")

    def handwritten_softmax(self):
        x = self.pick({"full"})
        m = self.emit("tcc.reduce_max", [x], "col",
                      x.data.max(axis=1, keepdims=True), x.bound,
                      " {axes = array<i64: 1>, keep_dims = true}")
        d = self.emit("tcc.sub", [x, m], "full", x.data - m.data,
                      2 * x.bound)
        e = self.emit("tcc.exp", [d], "full", np.exp(d.data), 1.0)
        s = self.emit("tcc.reduce_sum", [e], "col",
                      e.data.sum(axis=1, keepdims=True), self.c,
                      " {axes = array<i64: 1>, keep_dims = true}")
        return self.emit("tcc.div", [e, s], "full", e.data / s.data, 1.0)

    def norm_weights(self):
        w = self.add_input("row", 1.5)
        b = self.add_input("row", 0.5)
        return w, b

    @staticmethod
    def centring_error(mean, var):
        """Relative error of a normalized row from the f32 rounding of its
        mean: an f32 sum's error grows with |mean| and the normalization
        divides it by the row's spread, so rows far from zero with little
        spread (softmax - 1) lose digits in any f32 layer_norm."""
        return 1e-6 * float(np.max(np.abs(mean) / np.sqrt(var + 1e-5)))

    def layer_norm(self):
        x = self.pick({"full"})
        w, b = self.norm_weights()
        mean = x.data.mean(axis=1, keepdims=True)
        var = ((x.data - mean) ** 2).mean(axis=1, keepdims=True)
        data = (x.data - mean) / np.sqrt(var + 1e-5) * w.data + b.data
        return self.emit("tcc.layer_norm", [x, w, b], "full", data,
                         math.sqrt(self.c) * 1.5 + 0.5,
                         " {axis = 1 : i64, epsilon = 1.0e-05 : f32}",
                         rel=self.centring_error(mean, var))

    def rms_norm(self):
        x = self.pick({"full"})
        w = self.add_input("row", 1.5)
        ms = (x.data ** 2).mean(axis=1, keepdims=True)
        data = x.data / np.sqrt(ms + 1e-5) * w.data
        return self.emit("tcc.rms_norm", [x, w], "full", data,
                         math.sqrt(self.c) * 1.5,
                         " {axis = 1 : i64, epsilon = 1.0e-05 : f32}")

    def handwritten_layer_norm(self):
        x = self.pick({"full"})
        w, b = self.norm_weights()
        attrs = " {axes = array<i64: 1>, keep_dims = true}"
        mean = self.emit("tcc.reduce_mean", [x], "col",
                         x.data.mean(axis=1, keepdims=True), x.bound, attrs)
        d = self.emit("tcc.sub", [x, mean], "full", x.data - mean.data,
                      2 * x.bound)
        sq = self.emit("tcc.mul", [d, d], "full", d.data ** 2,
                       4 * x.bound ** 2)
        var = self.emit("tcc.reduce_mean", [sq], "col",
                        sq.data.mean(axis=1, keepdims=True), sq.bound, attrs)
        eps = self.constant(1e-5)
        ve = self.emit("tcc.add", [var, eps], "col", var.data + eps.data,
                       var.bound)
        inv = self.emit("tcc.rsqrt", [ve], "col", 1 / np.sqrt(ve.data),
                        1 / math.sqrt(1e-5))
        n = self.emit("tcc.mul", [d, inv], "full", d.data * inv.data,
                      math.sqrt(self.c),
                      rel=self.centring_error(mean.data, var.data))
        s = self.emit("tcc.mul", [n, w], "full", n.data * w.data,
                      n.bound * 1.5)
        return self.emit("tcc.add", [s, b], "full", s.data + b.data,
                         s.bound + 0.5)

    # -- the case ------------------------------------------------------------
    def build(self):
        rng = self.rng
        self.add_input("full")
        for _ in range(rng.randint(0, 2)):
            self.add_input(rng.choice(["full", "full", "row", "col"]))
        steps = [(self.unary, 4), (self.binary, 5), (self.reduce, 2),
                 (self.cast_round_trip, 1),
                 (self.softmax, 1), (lambda: self.softmax(log=True), 1),
                 (self.handwritten_softmax, 1), (self.layer_norm, 1),
                 (self.rms_norm, 1), (self.handwritten_layer_norm, 1)]
        fns = [f for f, w in steps for _ in range(w)]
        for _ in range(rng.randint(2, 9)):
            v = rng.choice(fns)()
            if v.bound > LIMIT:  # too large: squash it back
                self.emit("tcc.tanh", [v], v.kind, np.tanh(v.data), 1.0)
        # The last value, plus up to two intermediates (multi-output).
        computed = [v for v in self.values
                    if v.name.startswith("%v") and v.kind != "scalar"]
        results = [computed[-1]]
        extra = [v for v in computed[:-1]]
        rng.shuffle(extra)
        results += extra[:rng.randint(0, 2)]
        self.results = results
        args = ", ".join(f"{n}: {self.type_of(k)}" for n, k, _ in self.args)
        rtypes = ", ".join(self.type_of(v.kind) for v in results)
        return (f"func.func @main({args}) -> ({rtypes}) {{\n"
                + "\n".join(self.body) + "\n"
                f"  return {', '.join(v.name for v in results)} : {rtypes}\n"
                "}\n")

    def inputs(self):
        return [d.astype(np.float32) for _, _, d in self.args]


def check(got, value, label, seed, text):
    got = np.asarray(got, dtype=np.float64)
    want = value.data
    assert got.shape == np.shape(want), (
        f"seed {seed}: {label} result {value.name} has shape {got.shape}, "
        f"expected {np.shape(want)}\n{text}")
    # f32 arithmetic on values up to `scale`: real bugs (a wrong index,
    # broadcast or row) are off by the values themselves.
    tol = max(2e-4, 2 * value.rel) * (np.abs(want) + value.scale)
    bad = ~(np.abs(got - want) <= tol)
    if bad.any():
        i = np.argwhere(bad)[0]
        pytest.fail(f"seed {seed}: {label} result {value.name} differs at "
                    f"{tuple(i)}: {got[tuple(i)]!r} vs numpy "
                    f"{want[tuple(i)]!r} ({int(bad.sum())} of {bad.size})"
                    f"\n{text}")


def fuzz_seeds():
    start = int(os.environ.get("TCC_FUZZ_SEED", "0"))
    return range(start, start + int(os.environ.get("TCC_FUZZ_CASES", "40")))


def compile_and_check(case, seed):
    """Builds `case`, compiles it fused and unfused, and checks every
    result of both against numpy."""
    text = case.build()
    inputs = case.inputs()
    for label, options in (("fused", None), ("unfused", {"fuse": False})):
        exe = tcc.compile(text, options=options)
        results = exe(*inputs)
        if not isinstance(results, tuple):
            results = (results,)
        assert len(results) == len(case.results)
        for got, value in zip(results, case.results):
            check(got, value, label, seed, text)


@pytest.mark.parametrize("seed", fuzz_seeds())
def test_fused_and_unfused_match_numpy(seed):
    compile_and_check(Case(seed), seed)


class MatmulCase:
    """Products with what fusion puts around them: a linear (or a matmul
    plus a bias) with an epilogue (activation, scale, residual add, cast
    round trip); two or three linears sharing their input (horizontal
    merging: one wider product plus a split); and single-head attention
    written out (q kᵀ, scale, optional additive mask, softmax, times v),
    with or without a batch dim, which --fuse turns into tcc.attention.
    Weights are scaled by 1 / sqrt(K) so values stay near 1."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        rng = self.rng
        self.m = rng.choice([1, 3, 8, 17, 64, 130])
        self.k = rng.choice([8, 16, 33, 64, 256])
        self.dyn = rng.random() < 0.4  # the rows (M or S) dynamic
        self.constant_weights = rng.random() < 0.6
        self.args, self.body, self.results = [], [], []
        self.counter = 0

    def type_of(self, shape, rows_dim=None, element="f32"):
        dims = [("?" if i == rows_dim and self.dyn else str(d))
                for i, d in enumerate(shape)]
        return "tensor<" + "".join(d + "x" for d in dims) + element + ">"

    def arg(self, shape, rows_dim=None, scale=1.0):
        name = f"%a{len(self.args)}"
        data = self.np_rng.uniform(-scale, scale, shape).astype(
            np.float32).astype(np.float64)
        self.args.append((name, self.type_of(shape, rows_dim), data))
        return Value(name, (shape, rows_dim), data, scale)

    def weight(self, shape, scale):
        """A weight: a constant (as imported models have them, which
        horizontal merging packs at compile time) or an argument."""
        if not self.constant_weights:
            return self.arg(shape, scale=scale)
        data = self.np_rng.uniform(-scale, scale, shape).astype(np.float32)
        self.counter += 1
        name = f"%v{self.counter}"
        self.body.append(f"  {name} = tcc.constant dense<\"0x"
                         f"{data.tobytes().hex().upper()}\"> : "
                         f"{self.type_of(shape)}")
        return Value(name, (shape, None), data.astype(np.float64), scale)

    def emit(self, op, operands, shape, rows_dim, data, attrs="", rel=0.0,
             element="f32"):
        self.counter += 1
        name = f"%v{self.counter}"
        types = ", ".join(self.type_of(*o.kind, element=o.element)
                          for o in operands)
        self.body.append(
            f"  {name} = {op} {', '.join(o.name for o in operands)}{attrs} : "
            f"({types}) -> {self.type_of(shape, rows_dim, element)}")
        v = Value(name, (shape, rows_dim), data, 0.0, operands, rel)
        v.element = element
        return v

    def constant(self, value):
        self.counter += 1
        name = f"%v{self.counter}"
        self.body.append(f"  {name} = tcc.constant dense<{value:.8e}> : "
                         "tensor<f32>")
        v = Value(name, ((), None), np.float64(np.float32(value)), abs(value))
        return v

    def linear(self, x, n, bias=True, as_matmul=False):
        m, k = x.data.shape[-2], x.data.shape[-1]
        lead = x.data.shape[:-1]
        rows_dim = x.kind[1]
        if as_matmul:  # x @ W [K, N] (+ b as a separate add)
            w = self.weight((k, n), 1 / math.sqrt(k))
            y = self.emit("tcc.matmul", [x, w], lead + (n,), rows_dim,
                          x.data @ w.data)
            if bias:
                b = self.weight((n,), 0.5)
                y = self.emit("tcc.add", [y, b], lead + (n,), rows_dim,
                              y.data + b.data)
            return y
        w = self.weight((n, k), 1 / math.sqrt(k))
        operands = [x, w]
        data = x.data @ w.data.T
        if bias:
            b = self.weight((n,), 0.5)
            operands.append(b)
            data = data + b.data
        return self.emit("tcc.linear", operands, lead + (n,), rows_dim, data)

    def epilogue(self, y):
        rng = self.rng
        shape, rows_dim = y.kind
        erf = np.vectorize(math.erf, otypes=[np.float64])
        for _ in range(rng.randint(0, 3)):
            step = rng.choice(["relu", "gelu", "silu", "tanh", "scale",
                               "cast"])
            d = y.data
            if step == "scale":
                c = self.constant(round(rng.uniform(0.25, 2.0), 3))
                y = self.emit("tcc.mul", [y, c], shape, rows_dim, d * c.data)
            elif step == "cast":
                mid = self.emit("tcc.cast", [y], shape, rows_dim,
                                round_bf16(d), rel=2.0**-7, element="bf16")
                y = self.emit("tcc.cast", [mid], shape, rows_dim, mid.data)
            else:
                data = {"relu": lambda: np.maximum(d, 0),
                        "gelu": lambda: 0.5 * d * (1 + erf(d / math.sqrt(2))),
                        "silu": lambda: d / (1 + np.exp(-d)),
                        "tanh": lambda: np.tanh(d)}[step]()
                attrs = ' {approximate = "none"}' if step == "gelu" else ""
                y = self.emit(f"tcc.{step}", [y], shape, rows_dim, data,
                              attrs)
        return y

    def attention(self, x):
        """x [B?, S, D] -> softmax(q kᵀ * s + mask) v, q, k, v linears."""
        d = x.data.shape[-1]
        q, k, v = (self.linear(x, d) for _ in range(3))
        batched = x.data.ndim == 3
        lead = x.data.shape[:-2]
        s = x.data.shape[-2]
        rows_dim = x.kind[1]
        perm = "0, 2, 1" if batched else "1, 0"
        kt_shape = lead + (d, s)
        kt = self.emit("tcc.transpose", [k], kt_shape,
                       (len(lead) + 1) if rows_dim is not None else None,
                       np.swapaxes(k.data, -1, -2),
                       f" {{permutation = array<i64: {perm}>}}")
        scores = self.emit("tcc.matmul", [q, kt], lead + (s, s), rows_dim,
                           q.data @ kt.data)
        scale = self.constant(1 / math.sqrt(d))
        scores = self.emit("tcc.mul", [scores, scale], lead + (s, s),
                           rows_dim, scores.data * scale.data)
        if self.rng.random() < 0.5:
            mask = np.where(self.np_rng.random(lead + (s, s)) < 0.3,
                            -10000.0, 0.0)
            mask[..., 0] = 0.0  # every row keeps a key
            name = f"%a{len(self.args)}"
            self.args.append((name, self.type_of(lead + (s, s), rows_dim),
                              mask))
            mv = Value(name, (lead + (s, s), rows_dim), mask, 10000.0)
            scores = self.emit("tcc.add", [scores, mv], lead + (s, s),
                               rows_dim, scores.data + mask)
        shifted = scores.data - scores.data.max(axis=-1, keepdims=True)
        e = np.exp(shifted)
        probs = self.emit("tcc.softmax", [scores], lead + (s, s), rows_dim,
                          e / e.sum(axis=-1, keepdims=True),
                          " {axis = -1 : i64}")
        # Its error is relative to the unmasked scores (near 1), not to the
        # mask's -10000.
        probs.scale = 1.0
        return self.emit("tcc.matmul", [probs, v], lead + (s, d), rows_dim,
                         probs.data @ v.data)

    def build(self):
        rng = self.rng
        kind = rng.choice(["epilogue", "epilogue", "horizontal", "attention"])
        if kind == "attention":
            self.dyn = False  # S x S types would need two dynamic dims
            batched = rng.random() < 0.5
            shape = ((2,) if batched else ()) + (min(self.m, 64), self.k)
            x = self.arg(shape, rows_dim=len(shape) - 2)
            self.results = [self.attention(x)]
        elif kind == "horizontal":
            x = self.arg((self.m, self.k), rows_dim=0)
            for _ in range(rng.randint(2, 3)):
                n = rng.choice([1, 8, 12, 64, 96])
                self.results.append(self.epilogue(self.linear(
                    x, n, bias=rng.random() < 0.8)))
        else:
            x = self.arg((self.m, self.k), rows_dim=0)
            n = rng.choice([self.k, 16, 48, 128])
            y = self.epilogue(self.linear(x, n, bias=rng.random() < 0.8,
                                          as_matmul=rng.random() < 0.3))
            if n == self.k and rng.random() < 0.6:  # residual
                y = self.emit("tcc.add", [y, x], (self.m, n), 0,
                              y.data + x.data)
            self.results = [y]
        args = ", ".join(f"{n}: {t}" for n, t, _ in self.args)
        rtypes = ", ".join(self.type_of(*v.kind) for v in self.results)
        return (f"func.func @main({args}) -> ({rtypes}) {{\n"
                + "\n".join(self.body) + "\n"
                f"  return {', '.join(v.name for v in self.results)} : "
                f"{rtypes}\n}}\n")

    def inputs(self):
        return [d.astype(np.float32) for _, _, d in self.args]


@pytest.mark.parametrize("seed", fuzz_seeds())
def test_product_fusions_match_numpy(seed):
    compile_and_check(MatmulCase(seed), seed)
