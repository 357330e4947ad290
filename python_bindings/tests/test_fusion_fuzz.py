"""Fusion never changes a result: random graphs of tcc ops, compiled for the
CPU with --fuse (the default) and without, each checked against numpy in
float64, the independent answer.

Each case is a seeded random function over an [R, C] iteration space:
pointwise ops (unary, binary with row, column and scalar broadcasts,
constants), reductions along either axis feeding back into pointwise
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


class Value:
    """A value of the graph: its SSA name, its kind (full [R, C], row [C],
    col [R, 1], top [1, C], scalar []), numpy contents (float64), a bound
    on its magnitude, and `scale`: the largest magnitude among it and the
    values it was computed from (f32 rounding there is what its error
    scales with)."""

    def __init__(self, name, kind, data, bound, operands=()):
        self.name, self.kind, self.data, self.bound = name, kind, data, bound
        self.scale = max([float(np.max(np.abs(data))) if np.size(data)
                          else 0.0] + [o.scale for o in operands])


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
    def type_of(self, kind):
        dims = []
        for d, full in zip(shape_of(kind, self.r, self.c),
                           shape_of(kind, "R", "C")):
            if full == "R" and self.dyn_r or full == "C" and self.dyn_c:
                dims.append("?")
            else:
                dims.append(str(d))
        return "tensor<" + "".join(x + "x" for x in dims) + "f32>"

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

    def emit(self, op, operands, kind, data, bound, attrs=""):
        name = self.fresh()
        types = ", ".join(self.type_of(o.kind) for o in operands)
        self.body.append(
            f"  {name} = {op} {', '.join(o.name for o in operands)}{attrs} : "
            f"({types}) -> {self.type_of(kind)}")
        v = Value(name, kind, data, bound, operands)
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
            "add": (x + y, a.bound + b.bound),
            "sub": (x - y, a.bound + b.bound),
            "mul": (x * y, a.bound * b.bound),
            "maximum": (np.maximum(x, y), max(a.bound, b.bound)),
            "minimum": (np.minimum(x, y), max(a.bound, b.bound)),
            "div": (x / y, a.bound),
        }[op]
        return self.emit(f"tcc.{op}", [a, b], kind, np.asarray(data), bound)

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

    def layer_norm(self):
        x = self.pick({"full"})
        w, b = self.norm_weights()
        mean = x.data.mean(axis=1, keepdims=True)
        var = ((x.data - mean) ** 2).mean(axis=1, keepdims=True)
        data = (x.data - mean) / np.sqrt(var + 1e-5) * w.data + b.data
        return self.emit("tcc.layer_norm", [x, w, b], "full", data,
                         math.sqrt(self.c) * 1.5 + 0.5,
                         " {axis = 1 : i64, epsilon = 1.0e-05 : f32}")

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
                      math.sqrt(self.c))
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
    tol = 2e-4 * (np.abs(want) + value.scale)
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


@pytest.mark.parametrize("seed", fuzz_seeds())
def test_fused_and_unfused_match_numpy(seed):
    case = Case(seed)
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
