"""Translate torch.compile's aten-level FX graphs into tcc dialect MLIR text.

This is the core of `tcc.dynamo_backend`. AOTAutograd hands a backend's
forward compiler a functional, aten-level `torch.fx.GraphModule` whose
placeholders are the parameters and user inputs as FakeTensors, in Dynamo's
order of first use, with a SymInt placeholder (before the tensor that first
carries it) for every dynamic size Dynamo passes separately.
`import_graph` turns that graph into one public `func.func` of tcc ops:

* tensor placeholders become function arguments (weights are inputs, as in
  examples/*.mlir); dynamic dims are named after their sympy symbols
  (`tcc.shape = #tcc.shape<[s77, 10, 768]>`) and every symbol's range from the
  ShapeEnv becomes a `tcc.constraints` entry, so one compile serves every size
  Dynamo's guards admit;
* SymInt placeholders are not passed: a size the function needs (a reshape's
  target shape, a SymInt used as a scalar) is rebuilt from `tensor.dim` of the
  argument that carries the symbol, with arith ops that tcc's --symbolic-shapes
  analysis traces (muli/addi), so the analysis sees the exact expressions;
* every other node goes through `HANDLERS`, a dict from aten overload packet to
  a handler that emits tcc ops. Element types and shapes always come from
  `node.meta['val']` (the FakeTensor AOTAutograd computed), never re-derived;
* nodes with no handler (or a handler that cannot take this instance) are all
  collected and reported together in one `UnsupportedGraph`, so a caller can
  fall back with a complete list.

`DECOMPOSITIONS` is the table to pass to `aot_autograd`: core ATen's
decompositions minus every op with a handler here (layer_norm, gelu, softmax,
addmm, sdpa, t, unbind, ...), plus a few from torch._decomp that land on
handled ops (hardtanh, leaky_relu, elu, repeat, constant_pad_nd, group_norm),
so graphs stay at tcc's op granularity.

Ops are emitted lazily where that saves work or avoids what tcc cannot do:

* a transpose feeding `addmm`/`mm` is folded into `tcc.linear` (weight
  [out, in]) and never materialized;
* reshapes are lazy and chains collapse to one; `addmm`/`mm` on a [B*S, K]
  flattening of [B, S, K] (and `bmm` on [B*H, ..] flattenings) run on the
  unflattened tensor, so `view -> addmm -> view` becomes one 3-D `tcc.linear`.
  Besides being what tcc fuses best, this avoids reshapes that split one
  dynamic dim into several (`[B*S, N] -> [B, S, N]`) where it can (MLIR 22's
  expand-strided-metadata crashed on them; tcc now lowers them itself with
  tcc-lower-multi-dynamic-expand-shapes);
* extra results of multi-result ops are computed only when a `getitem` reads
  them: native_layer_norm's mean/rstd and the CPU flash-attention
  logsumexp (both saved for backward in grad-enabled forwards) as explicit
  reductions, unbind/split pieces as slices.

Handlers take a `_Ctx` (bound schema arguments, the node's meta) and return
a `_T` (or a list for multi-result ops); raising `_Unsupported(reason)` puts
the node in the UnsupportedGraph report. Set TCC_FX_IMPORTER_DEBUG=1 to let
internal errors propagate instead of being reported as unsupported nodes.
"""

from __future__ import annotations

import math
import operator
import os
from dataclasses import dataclass, field
from typing import Any, Callable

import sympy
import torch
import torch.fx

__all__ = ["UnsupportedGraph", "ImportedGraph", "import_graph", "DECOMPOSITIONS", "HANDLERS"]

aten = torch.ops.aten
prims = torch.ops.prims

INT64_MAX = 9223372036854775807

# torch dtype -> MLIR element type. Anything else is unsupported (tcc's
# TCC_Tensor holds f16, bf16, f32, f64, i1, i8, i16, i32, i64 (signed) and
# ui8, ui16, ui32, ui64).
_DTYPES = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float64: "f64",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.int16: "i16",
    torch.int8: "i8",
    torch.uint8: "ui8",
    torch.uint16: "ui16",
    torch.uint32: "ui32",
    torch.uint64: "ui64",
    torch.bool: "i1",
}
_FLOATS = (torch.float32, torch.float16, torch.bfloat16, torch.float64)

# Bit patterns of non-finite floats (MLIR float literals have no inf/nan).
_NONFINITE_HEX = {
    "f32": ("0x7F800000", "0xFF800000", "0x7FC00000"),
    "f16": ("0x7C00", "0xFC00", "0x7E00"),
    "bf16": ("0x7F80", "0xFF80", "0x7FC0"),
    "f64": ("0x7FF0000000000000", "0xFFF0000000000000", "0x7FF8000000000000"),
}


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


class UnsupportedGraph(Exception):
    """Raised when the graph has nodes tcc cannot take.

    `ops` holds (target name, reason) per unsupported node, in graph order;
    str(e) lists every one of them, one per line.
    """

    def __init__(self, ops: list[tuple[str, str]], nodes: list[str] | None = None):
        self.ops = list(ops)
        self.nodes = list(nodes) if nodes else [""] * len(self.ops)
        lines = []
        for (name, reason), node in zip(self.ops, self.nodes):
            where = f" (node {node})" if node else ""
            lines.append(f"{name}{where}: {reason}")
        super().__init__(
            f"tcc cannot import {len(self.ops)} node(s):\n" + "\n".join(lines)
        )


@dataclass
class ImportedGraph:
    """One FX graph as tcc MLIR plus what a caller needs to call it.

    mlir:          a module with one public func.func @<func_name>.
    tensor_inputs: FX placeholder positions (== runtime arg positions) passed
                   to the function, in argument order.
    symbols:       size symbol -> (min, max or None), from the ShapeEnv.
    outputs:       per FX output element: ("result", k) the function's result
                   k; ("input", i) runtime arg i returned unchanged;
                   ("symint", expr) a size expression over `symbols`;
                   ("const", value) a Python constant; ("none", None).
    dtypes:        torch dtype of each function result.
    symbol_sources: symbol -> (runtime arg position, dim) that carries it.
    """

    mlir: str
    func_name: str
    tensor_inputs: list[int]
    symbols: dict[str, tuple[int, int | None]]
    outputs: list
    dtypes: list
    symbol_sources: dict[str, tuple[int, int]] = field(default_factory=dict)
    _symint_exprs: dict = field(default_factory=dict, repr=False)

    def symbol_values(self, args) -> dict[str, int]:
        """Each size symbol's value for these runtime args."""
        return {s: int(args[p].shape[d]) for s, (p, d) in self.symbol_sources.items()}

    def eval_symint(self, expr_str: str, args) -> int:
        """Evaluates a ("symint", expr) output for these runtime args."""
        expr = self._symint_exprs.get(expr_str)
        if expr is None:
            expr = sympy.sympify(expr_str)
        vals = self.symbol_values(args)
        subs = {sym: vals[sym.name] for sym in expr.free_symbols}
        return int(expr.xreplace(subs))

    def output_values(self, args, results) -> list:
        """The FX graph's output list from the runtime args and the results."""
        out = []
        for kind, v in self.outputs:
            if kind == "result":
                out.append(results[v])
            elif kind == "input":
                out.append(args[v])
            elif kind == "symint":
                out.append(self.eval_symint(v, args))
            else:
                out.append(v)
        return out


# ---------------------------------------------------------------------------
# Values flowing through the importer
# ---------------------------------------------------------------------------


class _Unsupported(Exception):
    """A handler cannot lower this node; the message is the reason."""


@dataclass(eq=False)
class _T:
    """A tensor value: its shape (ints / sympy exprs), dtype, and SSA name.

    `make` materializes the value on first use (lazy transposes, extra
    results nobody reads). `transposed_from` marks a 2-D transpose so that
    addmm/mm can fold it into tcc.linear's [out, in] weight.
    """

    shape: tuple
    dtype: torch.dtype
    ssa: str | None = None
    make: Callable[[], str] | None = None
    transposed_from: "_T | None" = None
    perm_of: tuple | None = None  # (source, permutation) of a lazy transpose
    reshaped_from: "_T | None" = None  # the value this is a reshape of
    arg: int | None = None  # placeholder position when this is an argument
    poison: bool = False

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(eq=False)
class _S:
    """A symbolic (or constant) integer/float scalar: a SymInt's sympy expr."""

    expr: Any


class _Lazy:
    """One element of a multi-result op, computed when a getitem reads it."""

    def __init__(self, fn: Callable[[], Any]):
        self.fn = fn
        self.value = None
        self.done = False

    def force(self):
        if not self.done:
            self.value = self.fn()
            self.done = True
        return self.value


def _mlir_elem(dtype) -> str:
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise _Unsupported(f"dtype {dtype} is not supported by tcc") from None


def _is_static(d) -> bool:
    return isinstance(d, int) or (isinstance(d, sympy.Expr) and d.is_number)


def _static(d) -> int:
    return int(d)


def _ttype(shape, dtype) -> str:
    dims = "".join(f"{int(d) if _is_static(d) else '?'}x" for d in shape)
    return f"tensor<{dims}{_mlir_elem(dtype)}>"


def _same_dim(a, b) -> bool:
    if _is_static(a) and _is_static(b):
        return int(a) == int(b)
    if _is_static(a) != _is_static(b):
        return False
    return sympy.expand(a - b) == 0


def _same_shape(a, b) -> bool:
    return len(a) == len(b) and all(_same_dim(x, y) for x, y in zip(a, b))


def _norm_dim(d: int, rank: int) -> int:
    r = max(rank, 1)
    if not -r <= d < r:
        raise _Unsupported(f"dim {d} out of range for rank {rank}")
    return d % r


def _fmt_float(v: float, elem: str) -> str:
    v = float(v)
    if math.isfinite(v):
        # Shortest round-trip text; MLIR float literals need a '.'.
        s = repr(v)
        mant, _, exp = s.partition("e")
        if "." not in mant:
            mant += ".0"
        return mant + ("e" + exp if exp else "")
    pinf, ninf, nan = _NONFINITE_HEX[elem]
    return nan if math.isnan(v) else (pinf if v > 0 else ninf)


def _fmt_scalar(v, dtype) -> str:
    elem = _mlir_elem(dtype)
    if dtype == torch.bool:
        return "true" if bool(v) else "false"
    if dtype in _FLOATS:
        return _fmt_float(v, elem)
    if elem.startswith("ui"):  # wraps, as torch's casts do
        return str(int(v) % (1 << int(elem[2:])))
    return str(int(v))


def _i64_array(vals) -> str:
    return "array<i64: " + ", ".join(str(int(v)) for v in vals) + ">"


def _target_name(target) -> str:
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return str(target)
    mod = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", None) or str(target)
    if mod in ("_operator", "operator"):
        mod = "operator"
    return f"{mod}.{name}" if mod else name


def _packet(target):
    return target.overloadpacket if isinstance(target, torch._ops.OpOverload) else target


def _sym_expr(x):
    """A SymInt/SymFloat/SymBool/int's sympy expression (or the int itself)."""
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        node = x.node
        c = node.maybe_as_int() if hasattr(node, "maybe_as_int") else None
        if c is not None:
            return int(c)
        return node.expr
    return x


# ---------------------------------------------------------------------------
# The importer: emission helpers shared by the handlers
# ---------------------------------------------------------------------------


class _Importer:
    """Emission state: the function body's lines, SSA counters, the FX
    node -> value map, and where each size symbol can be read (tensor.dim)."""

    def __init__(self, gm: torch.fx.GraphModule, example_inputs, func_name: str):
        self.gm = gm
        self.example_inputs = list(example_inputs) if example_inputs is not None else []
        self.func_name = func_name
        self.lines: list[str] = []
        self.counter = 0
        self.env: dict[torch.fx.Node, Any] = {}
        self.shape_env = self._find_shape_env()
        self.sym_source: dict[sympy.Symbol, tuple[_T, int]] = {}
        # Unbacked symbols (a data-dependent count: nms, boolean masks) and
        # the result dim that holds each; apart from sym_source, whose
        # entries are the signature's input symbols.
        self.dd_source: dict[sympy.Symbol, tuple[_T, int]] = {}
        self.idx_cache: dict[Any, str] = {}
        self.index_consts: dict[int, str] = {}
        self.unsupported: list[tuple[str, str]] = []
        self.unsupported_nodes: list[str] = []

    # -- shape environment ---------------------------------------------------

    def _find_shape_env(self):
        vals = [n.meta.get("val") for n in self.gm.graph.nodes if n.op == "placeholder"]
        for v in list(vals) + self.example_inputs:
            if isinstance(v, (torch.SymInt, torch.SymFloat)):
                return v.node.shape_env
            if isinstance(v, torch.Tensor):
                fm = getattr(v, "fake_mode", None)
                if fm is not None and fm.shape_env is not None:
                    return fm.shape_env
        try:
            from torch._guards import detect_fake_mode

            fm = detect_fake_mode(self.example_inputs)
            return fm.shape_env if fm is not None else None
        except Exception:
            return None

    def expr(self, x):
        """A size as an int or a sympy expression with replacements applied."""
        e = _sym_expr(x)
        if isinstance(e, int) or isinstance(e, bool):
            return int(e)
        if isinstance(e, sympy.Expr):
            if self.shape_env is not None:
                try:
                    e = self.shape_env.simplify(e)
                except Exception:
                    pass
            if e.is_number:
                return int(e)
            return e
        return e

    def symbol_range(self, sym) -> tuple[int, int | None]:
        lo, hi = 0, None
        if self.shape_env is not None:
            vr = self.shape_env.var_to_range.get(sym)
            if vr is not None:
                try:
                    lo = int(vr.lower) if math.isfinite(float(vr.lower)) else 0
                except (TypeError, ValueError, OverflowError):
                    lo = 0
                try:
                    up = float(vr.upper)
                    hi = int(vr.upper) if math.isfinite(up) else None
                except (TypeError, ValueError, OverflowError):
                    hi = None
        return lo, hi

    # -- emission -------------------------------------------------------------

    def fresh(self, hint: str = "v") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line: str):
        self.lines.append("    " + line)

    def use(self, t: _T) -> str:
        if t.ssa is None:
            if t.make is None:
                raise _Unsupported("internal: value without a definition")
            t.ssa = t.make()
        return t.ssa

    def lazy(self, shape, dtype, make, **kw) -> _T:
        """A tensor whose defining op is emitted when first used."""
        t = _T(tuple(shape), dtype, **kw)
        t.make = make
        return t

    def data_dependent(self, t: _T) -> _T:
        """Records t's dim 0, a count known once its op has run, as the
        source of that unbacked symbol."""
        count = t.shape[0]
        if isinstance(count, sympy.Symbol) and count not in self.sym_source:
            self.dd_source.setdefault(count, (t, 0))
        return t

    def op(self, name: str, operands: list, shape, dtype, attrs: str = "") -> _T:
        """Emits `tcc.<name>` with the given operands and result type."""
        shape = tuple(self.expr(d) for d in shape)
        ins = [self.use(o) for o in operands]
        tys = [_ttype(o.shape, o.dtype) for o in operands]
        res_ty = _ttype(shape, dtype)
        ssa = self.fresh()
        attr = f" {{{attrs}}}" if attrs else ""
        self.emit(f"{ssa} = tcc.{name} {', '.join(ins)}{attr} : ({', '.join(tys)}) -> {res_ty}")
        return _T(shape, dtype, ssa=ssa)

    # -- sizes ----------------------------------------------------------------

    def index_const(self, v: int) -> str:
        if v not in self.index_consts:
            ssa = self.fresh("c")
            self.emit(f"{ssa} = arith.constant {v} : index")
            self.index_consts[v] = ssa
        return self.index_consts[v]

    def idx(self, e) -> str:
        """An i64 SSA value for a size expression, built from tensor.dim.

        Sums and products become arith.addi/muli (a term -c*x as x * -c),
        which --symbolic-shapes traces back to the named dims.
        """
        e = self.expr(e)
        key = e
        if key in self.idx_cache:
            return self.idx_cache[key]
        if isinstance(e, int):
            ssa = self.fresh("n")
            self.emit(f"{ssa} = arith.constant {e} : i64")
        elif isinstance(e, sympy.Symbol):
            source = self.sym_source.get(e) or self.dd_source.get(e)
            if source is None:
                raise _Unsupported(
                    f"size symbol {e} is not a dim of any tensor input (data-dependent or scalar input)"
                )
            t, d = source
            dim = self.fresh("d")
            self.emit(f"{dim} = tensor.dim {self.use(t)}, {self.index_const(d)} : {_ttype(t.shape, t.dtype)}")
            ssa = self.fresh("n")
            self.emit(f"{ssa} = arith.index_cast {dim} : index to i64")
        elif isinstance(e, sympy.Add):
            ssa = None
            for term in e.args:
                v = self.idx(term)
                if ssa is None:
                    ssa = v
                else:
                    s = self.fresh("n")
                    self.emit(f"{s} = arith.addi {ssa}, {v} : i64")
                    ssa = s
        elif isinstance(e, sympy.Mul):
            ssa = None
            for f in e.args:
                v = self.idx(f)
                if ssa is None:
                    ssa = v
                else:
                    s = self.fresh("n")
                    self.emit(f"{s} = arith.muli {ssa}, {v} : i64")
                    ssa = s
        elif isinstance(e, sympy.Pow) and e.exp.is_Integer and int(e.exp) > 0:
            base = self.idx(e.base)
            ssa = base
            for _ in range(int(e.exp) - 1):
                s = self.fresh("n")
                self.emit(f"{s} = arith.muli {ssa}, {base} : i64")
                ssa = s
        else:
            fname = type(e).__name__
            binops = {
                "FloorDiv": "arith.floordivsi",
                "CleanDiv": "arith.divsi",
                "Mod": "arith.remsi",
                "PythonMod": "arith.remsi",
                "Max": "arith.maxsi",
                "Min": "arith.minsi",
            }
            opname = binops.get(fname)
            if opname is None or len(e.args) < 2:
                raise _Unsupported(f"size expression {e} has no tcc form")
            ssa = self.idx(e.args[0])
            for a in e.args[1:]:
                v = self.idx(a)
                s = self.fresh("n")
                self.emit(f"{s} = {opname} {ssa}, {v} : i64")
                ssa = s
        self.idx_cache[key] = ssa
        return ssa

    def shape_operand(self, shape) -> str:
        """A tensor<Nxi64> with the given sizes (constant when all static)."""
        shape = [self.expr(d) for d in shape]
        ssa = self.fresh("shape")
        if all(isinstance(d, int) for d in shape):
            body = ", ".join(str(d) for d in shape)
            self.emit(f"{ssa} = arith.constant dense<[{body}]> : tensor<{len(shape)}xi64>")
        else:
            elems = [self.idx(d) for d in shape]
            self.emit(f"{ssa} = tensor.from_elements {', '.join(elems)} : tensor<{len(shape)}xi64>")
        return ssa

    # -- constants and conversions ---------------------------------------------

    def const(self, value, dtype, shape=()) -> _T:
        """A splat constant (rank 0 by default); symbolic shapes broadcast."""
        shape = tuple(self.expr(d) for d in shape)
        if all(isinstance(d, int) for d in shape):
            ty = _ttype(shape, dtype)
            ssa = self.fresh("cst")
            self.emit(f"{ssa} = tcc.constant dense<{_fmt_scalar(value, dtype)}> : {ty}")
            return _T(shape, dtype, ssa=ssa)
        scalar = self.const(value, dtype)
        return self.broadcast(scalar, shape)

    def tensor_const(self, t: torch.Tensor) -> _T:
        """A real tensor (get_attr constant) as tcc.constant with its bytes."""
        t = t.detach().cpu().contiguous()
        dtype = t.dtype
        _mlir_elem(dtype)
        shape = tuple(t.shape)
        ty = _ttype(shape, dtype)
        if t.numel() == 0:
            # An empty tensor has no tcc value; it is fine where it is
            # dropped (torch.cat's empty 1-D operands: a KV cache's first
            # concatenation) and an error only where it is used.
            def unusable():
                raise _Unsupported("empty constant tensor")
            return self.lazy(shape, dtype, unusable)
        ssa = self.fresh("cst")
        if dtype == torch.bool:
            flat = t.reshape(-1).tolist()
            if all(v == flat[0] for v in flat):
                body = "true" if flat[0] else "false"
            else:
                body = self._nested(t.tolist(), lambda v: "true" if v else "false")
        else:
            if t.numel() == 1:
                body = _fmt_scalar(t.reshape(-1)[0].item(), dtype)
            else:
                raw = t.reshape(-1)
                if dtype in (torch.bfloat16, torch.float16):
                    raw = raw.view(torch.int16)
                data = raw.numpy().astype(raw.numpy().dtype.newbyteorder("<")).tobytes()
                body = '"0x' + data.hex().upper() + '"'
        self.emit(f"{ssa} = tcc.constant dense<{body}> : {ty}")
        return _T(shape, dtype, ssa=ssa)

    @staticmethod
    def _nested(v, fmt) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(_Importer._nested(x, fmt) for x in v) + "]"
        return fmt(v)

    def cast(self, t: _T, dtype) -> _T:
        if t.dtype == dtype:
            return t
        _mlir_elem(dtype)
        return self.op("cast", [t], t.shape, dtype)

    def scalar_tensor(self, v, dtype) -> _T:
        """A Python number or SymInt as a rank-0 tensor of `dtype`."""
        if isinstance(v, _S):
            e = self.expr(v.expr)
            if isinstance(e, (int, float)) and not isinstance(e, sympy.Expr):
                return self.const(e, dtype)
            if isinstance(e, sympy.Expr) and e.is_number:
                return self.const(float(e) if dtype in _FLOATS else int(e), dtype)
            if isinstance(e, sympy.Expr) and not e.is_integer:
                raise _Unsupported(f"symbolic float scalar {e} used as a tensor operand")
            n = self.idx(e)
            ssa = self.fresh()
            self.emit(f"{ssa} = tensor.from_elements {n} : tensor<i64>")
            return self.cast(_T((), torch.int64, ssa=ssa), dtype)
        if isinstance(v, bool) or isinstance(v, (int, float)):
            return self.const(v, dtype)
        raise _Unsupported(f"unexpected scalar operand {v!r}")

    def operand(self, v, dtype) -> _T:
        """A tensor or scalar operand converted to `dtype`."""
        if isinstance(v, _T):
            return self.cast(v, dtype)
        return self.scalar_tensor(v, dtype)

    # -- data movement ----------------------------------------------------------

    def reshape(self, t: _T, shape) -> _T:
        """A lazy tcc.reshape; reshapes of reshapes go back to the source.

        Laziness matters beyond tidiness: AOTAutograd flattens [B, S, K] to
        [B*S, K] around every addmm and views the result back to [B, S, N].
        The matmul handlers lift the product onto the unflattened source, so
        the flattened values are never emitted (and tcc never has to expand
        one dim into two dynamic ones, which its lowering cannot do).
        """
        shape = tuple(self.expr(d) for d in shape)
        if _same_shape(t.shape, shape):
            return t
        if t.reshaped_from is not None:
            t = t.reshaped_from
            if _same_shape(t.shape, shape):
                return t
        src = t
        return self.lazy(shape, src.dtype, lambda: self._emit_reshape(src, shape), reshaped_from=src)

    def _emit_reshape(self, t: _T, shape) -> str:
        in_ty = _ttype(t.shape, t.dtype)
        out_ty = _ttype(shape, t.dtype)
        dyn = [d for d in shape if not _is_static(d)]
        x = self.use(t)
        ssa = self.fresh()
        if not dyn:
            self.emit(f"{ssa} = tcc.reshape {x} : ({in_ty}) -> {out_ty}")
        else:
            s = self.shape_operand(shape)
            self.emit(f"{ssa} = tcc.reshape {x}, {s} : ({in_ty}, tensor<{len(shape)}xi64>) -> {out_ty}")
        return ssa

    def broadcast(self, t: _T, shape) -> _T:
        shape = tuple(self.expr(d) for d in shape)
        if _same_shape(t.shape, shape):
            return t
        in_ty = _ttype(t.shape, t.dtype)
        out_ty = _ttype(shape, t.dtype)
        x = self.use(t)
        ssa = self.fresh()
        if all(_is_static(d) for d in shape):
            self.emit(f"{ssa} = tcc.broadcast_to {x} : ({in_ty}) -> {out_ty}")
        else:
            s = self.shape_operand(shape)
            self.emit(f"{ssa} = tcc.broadcast_to {x}, {s} : ({in_ty}, tensor<{len(shape)}xi64>) -> {out_ty}")
        return _T(shape, t.dtype, ssa=ssa)

    def transpose(self, t: _T, perm) -> _T:
        """A lazy tcc.transpose (identity permutations vanish, chains compose)."""
        perm = [int(p) for p in perm]
        if perm == list(range(len(perm))):
            return t
        src = t
        if t.ssa is None and t.perm_of is not None:
            # transpose of a not-yet-emitted transpose: compose the two
            inner_src, inner_perm = t.perm_of
            perm = [inner_perm[p] for p in perm]
            src = inner_src
            if perm == list(range(len(perm))):
                return src
        shape = tuple(src.shape[p] for p in perm)
        attrs = f"permutation = {_i64_array(perm)}"
        res = self.lazy(shape, src.dtype, lambda: self.use(self.op("transpose", [src], shape, src.dtype, attrs)))
        res.perm_of = (src, perm)
        if len(perm) == 2:
            res.transposed_from = src
        return res

    def slice(self, t: _T, starts, ends, steps, out_shape) -> _T:
        if (
            all(s == 0 for s in starts)
            and all(st == 1 for st in steps)
            and _same_shape(t.shape, out_shape)
        ):
            return t
        attrs = (
            f"starts = {_i64_array(starts)}, ends = {_i64_array(ends)}, "
            f"steps = {_i64_array(steps)}"
        )
        return self.op("slice", [t], out_shape, t.dtype, attrs)

    def select(self, t: _T, dim: int, index: int, out_shape) -> _T:
        """x.select(dim, index): a one-wide tcc.slice, then a reshape."""
        dim = _norm_dim(dim, t.rank)
        size = t.shape[dim]
        if _is_static(size):
            n = _static(size)
            if not -n <= index < n:
                raise _Unsupported(f"index {index} out of range for size {n}")
            index %= n
        starts = [0] * t.rank
        ends = [INT64_MAX] * t.rank
        steps = [1] * t.rank
        starts[dim] = index
        ends[dim] = INT64_MAX if index == -1 else index + 1
        for d, s in enumerate(t.shape):
            if d != dim and _is_static(s):
                ends[d] = _static(s)
        sl_shape = list(t.shape)
        sl_shape[dim] = 1
        sl = self.slice(t, starts, ends, steps, sl_shape)
        return self.reshape(sl, out_shape)


# ---------------------------------------------------------------------------
# Argument binding
# ---------------------------------------------------------------------------


def _bind(node: torch.fx.Node) -> dict:
    """node.args/kwargs by schema name, defaults filled in (raw FX values)."""
    target = node.target
    schema = getattr(target, "_schema", None)
    if schema is None:
        return {i: a for i, a in enumerate(node.args)} | dict(node.kwargs)
    out = {}
    pos = 0
    for arg in schema.arguments:
        if not arg.kwarg_only and pos < len(node.args):
            out[arg.name] = node.args[pos]
            pos += 1
        elif arg.name in node.kwargs:
            out[arg.name] = node.kwargs[arg.name]
        elif arg.has_default_value():
            out[arg.name] = arg.default_value
        else:
            out[arg.name] = None
    return out


def _meta(node: torch.fx.Node):
    if "val" not in node.meta:
        raise _Unsupported("node has no meta['val'] (not an AOTAutograd graph?)")
    return node.meta["val"]


# ---------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------

HANDLERS: dict[Any, Callable] = {}


def _register(*packets):
    def deco(fn):
        for p in packets:
            HANDLERS[p] = fn
        return fn

    return deco


class _Ctx:
    """What a handler sees: the importer, the node and its bound arguments."""

    def __init__(self, imp: _Importer, node: torch.fx.Node):
        self.imp = imp
        self.node = node
        self.raw = _bind(node)

    def __getitem__(self, name):
        return self.val(self.raw.get(name))

    def get(self, name, default=None):
        v = self.raw.get(name, default)
        return default if v is None else self.val(v)

    def val(self, v):
        if isinstance(v, torch.fx.Node):
            return self.imp.env[v]
        if isinstance(v, (list, tuple)):
            return type(v)(self.val(x) for x in v)
        if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
            return _S(_sym_expr(v))
        return v

    def tensor(self, name) -> _T:
        v = self[name]
        if not isinstance(v, _T):
            raise _Unsupported(f"argument {name} is not a tensor ({type(v).__name__})")
        return v

    def int(self, name, default=None) -> int:
        v = self.get(name, default)
        if isinstance(v, _S):
            e = self.imp.expr(v.expr)
            if not isinstance(e, int):
                raise _Unsupported(f"argument {name} is symbolic ({e}); tcc needs a constant")
            return e
        return v

    def out(self, i: int | None = None):
        """(shape, dtype) of the node's meta value (or of result i)."""
        m = _meta(self.node)
        if i is not None:
            m = m[i]
        if not isinstance(m, torch.Tensor):
            raise _Unsupported(f"expected a tensor result, got {type(m).__name__}")
        return tuple(self.imp.expr(d) for d in m.shape), m.dtype


def _scalar_meta(v):
    """A Python stand-in for an operand, for torch.result_type."""
    if isinstance(v, torch.fx.Node):
        m = v.meta.get("val")
        if isinstance(m, torch.SymInt):
            return 1
        if isinstance(m, torch.SymFloat):
            return 1.0
        if isinstance(m, torch.SymBool):
            return True
        return m
    return v


def _result_type(a, b):
    try:
        return torch.result_type(_scalar_meta(a), _scalar_meta(b))
    except Exception as e:  # pragma: no cover - defensive
        raise _Unsupported(f"cannot promote operand types: {e}") from None


# -- elementwise binary ------------------------------------------------------


def _binary(tcc_op: str):
    """out = lhs <op> rhs, operands converted to the result dtype (meta);
    Python scalars become rank-0 constants, SymInts rank-0 tensors."""

    def h(c: _Ctx):
        shape, dtype = c.out()
        lhs = c.imp.operand(c["self"], dtype)
        rhs = c.imp.operand(c["other"], dtype)
        alpha = c.get("alpha", 1)
        if isinstance(alpha, _S) or alpha != 1:
            rhs = c.imp.op("mul", [rhs, c.imp.scalar_tensor(alpha, dtype)], rhs.shape, dtype)
        return c.imp.op(tcc_op, [lhs, rhs], shape, dtype)

    return h


_register(aten.add)(_binary("add"))
_register(aten.sub)(_binary("sub"))
_register(aten.mul)(_binary("mul"))
_register(aten.maximum)(_binary("maximum"))
_register(aten.minimum)(_binary("minimum"))
_register(aten.fmod)(_binary("rem"))
_register(aten.bitwise_xor)(_binary("bitwise_xor"))
# Shifts by at least the width (or a negative amount) give 0, or the sign
# for a signed right shift: torch's rule, and tcc's.
_register(aten.bitwise_left_shift, aten.__lshift__)(_binary("shift_left"))
_register(aten.bitwise_right_shift, aten.__rshift__)(_binary("shift_right"))


@_register(aten.rsub)
def _rsub(c: _Ctx):
    """rsub(self, other, alpha) = other - alpha * self."""
    shape, dtype = c.out()
    x = c.imp.operand(c["self"], dtype)
    other = c.imp.operand(c["other"], dtype)
    alpha = c.get("alpha", 1)
    if isinstance(alpha, _S) or alpha != 1:
        x = c.imp.op("mul", [x, c.imp.scalar_tensor(alpha, dtype)], x.shape, dtype)
    return c.imp.op("sub", [other, x], shape, dtype)


def _trunc(imp: _Importer, x: _T) -> _T:
    """trunc(x) = x < 0 ? ceil(x) : floor(x) (tcc has no trunc op)."""
    zero = imp.const(0, x.dtype)
    neg = imp.op("cmp", [x, zero], x.shape, torch.bool, 'predicate = "lt"')
    up = imp.op("ceil", [x], x.shape, x.dtype)
    down = imp.op("floor", [x], x.shape, x.dtype)
    return imp.op("select", [neg, up, down], x.shape, x.dtype)


@_register(aten.div)
def _div(c: _Ctx):
    """True division (ints promote to float); trunc/floor rounding modes."""
    shape, dtype = c.out()
    mode = c.raw.get("rounding_mode")
    lhs = c.imp.operand(c["self"], dtype)
    rhs = c.imp.operand(c["other"], dtype)
    q = c.imp.op("div", [lhs, rhs], shape, dtype)
    if mode is None:
        return q
    if dtype in _FLOATS:
        if mode == "floor":
            return c.imp.op("floor", [q], shape, dtype)
        if mode == "trunc":
            return _trunc(c.imp, q)
    elif mode == "trunc":
        return q  # tcc.div truncates integers
    elif mode == "floor":
        # truncated quotient, minus one where the remainder's sign is not b's
        r = c.imp.op("rem", [lhs, rhs], shape, dtype)
        fix = _sign_fix(c.imp, r, rhs, shape)
        one = c.imp.const(1, dtype)
        return c.imp.op("select", [fix, c.imp.op("sub", [q, one], shape, dtype), q], shape, dtype)
    raise _Unsupported(f"div rounding_mode={mode!r} on {dtype}")


def _sign_fix(imp: _Importer, r: _T, b: _T, shape) -> _T:
    """(r != 0) & ((r < 0) != (b < 0)): where C's remainder differs from Python's."""
    zr, zb = imp.const(0, r.dtype), imp.const(0, b.dtype)
    nz = imp.op("cmp", [r, zr], r.shape, torch.bool, 'predicate = "ne"')
    rn = imp.op("cmp", [r, zr], r.shape, torch.bool, 'predicate = "lt"')
    bn = imp.op("cmp", [b, zb], b.shape, torch.bool, 'predicate = "lt"')
    differ = imp.op("cmp", [rn, bn], shape, torch.bool, 'predicate = "ne"')
    return imp.op("select", [nz, differ, imp.const(False, torch.bool)], shape, torch.bool)


@_register(aten.remainder)
def _remainder(c: _Ctx):
    """Python's a % b: fmod, plus b where the signs disagree (torch's rule)."""
    shape, dtype = c.out()
    a = c.imp.operand(c["self"], dtype)
    b = c.imp.operand(c["other"], dtype)
    r = c.imp.op("rem", [a, b], shape, dtype)
    fix = _sign_fix(c.imp, r, b, shape)
    return c.imp.op("select", [fix, c.imp.op("add", [r, b], shape, dtype), r], shape, dtype)


@_register(aten.pow)
def _pow(c: _Ctx):
    """x ** e; e == 2 / 0.5 / -0.5 / 1 use mul / sqrt / rsqrt / nothing."""
    shape, dtype = c.out()
    base, exp = c.raw.get("self"), c.raw.get("exponent")
    b, e = c.val(base), c.val(exp)
    if isinstance(b, _T) and not isinstance(e, (_T, _S)):
        x = c.imp.cast(b, dtype)
        if e == 2:
            return c.imp.op("mul", [x, x], shape, dtype)
        if e == 1:
            return x
        if dtype not in _FLOATS:
            if isinstance(e, int) and 0 <= e <= 8:
                r = c.imp.const(1, dtype, ())
                r = c.imp.broadcast(r, x.shape) if e == 0 else x
                for _ in range(max(e - 1, 0)):
                    r = c.imp.op("mul", [r, x], shape, dtype)
                return r
            raise _Unsupported(f"integer pow with exponent {e}")
        if e == 0.5:
            return c.imp.op("sqrt", [x], shape, dtype)
        if e == -0.5:
            return c.imp.op("rsqrt", [x], shape, dtype)
    if dtype not in _FLOATS:
        raise _Unsupported("tcc.pow takes floats only")
    return c.imp.op("pow", [c.imp.operand(b, dtype), c.imp.operand(e, dtype)], shape, dtype)


_CMP = {aten.eq: "eq", aten.ne: "ne", aten.lt: "lt", aten.le: "le", aten.gt: "gt", aten.ge: "ge"}


def _cmp_handler(pred: str):
    def h(c: _Ctx):
        shape, _ = c.out()
        dt = _result_type(c.raw.get("self"), c.raw.get("other"))
        lhs = c.imp.operand(c["self"], dt)
        rhs = c.imp.operand(c["other"], dt)
        return c.imp.op("cmp", [lhs, rhs], shape, torch.bool, f'predicate = "{pred}"')

    return h


for _p, _pred in _CMP.items():
    _register(_p)(_cmp_handler(_pred))


def _as_bool(imp: _Importer, x) -> _T:
    if isinstance(x, _T) and x.dtype == torch.bool:
        return x
    if not isinstance(x, _T):
        return imp.const(bool(x), torch.bool)
    zero = imp.const(0, x.dtype)
    return imp.op("cmp", [x, zero], x.shape, torch.bool, 'predicate = "ne"')


@_register(aten.where)
def _where(c: _Ctx):
    """where(cond, a, b) -> tcc.select; branches converted to the result dtype."""
    shape, dtype = c.out()
    cond = _as_bool(c.imp, c["condition"])
    a = c.imp.operand(c["self"], dtype)
    b = c.imp.operand(c["other"], dtype)
    return c.imp.op("select", [cond, a, b], shape, dtype)


@_register(aten.logical_not, aten.bitwise_not)
def _logical_not(c: _Ctx):
    shape, dtype = c.out()
    x = c["self"]
    if dtype != torch.bool:  # bitwise_not of an integer tensor
        return c.imp.op("bitwise_not", [c.imp.operand(x, dtype)], shape, dtype)
    x = _as_bool(c.imp, x)
    f = c.imp.const(False, torch.bool)
    return c.imp.op("cmp", [x, f], shape, torch.bool, 'predicate = "eq"')


@_register(aten.logical_and, aten.logical_or, aten.bitwise_and, aten.bitwise_or)
def _logical_binary(c: _Ctx):
    """Bool and/or as tcc.select (and = a ? b : false, or = a ? true : b)."""
    shape, dtype = c.out()
    if dtype != torch.bool:  # bitwise_and / bitwise_or of integers
        op = "bitwise_and" if _packet(c.node.target) == aten.bitwise_and else "bitwise_or"
        return _binary(op)(c)
    a = _as_bool(c.imp, c["self"])
    b = _as_bool(c.imp, c["other"])
    if _packet(c.node.target) in (aten.logical_and, aten.bitwise_and):
        return c.imp.op("select", [a, b, c.imp.const(False, torch.bool)], shape, dtype)
    return c.imp.op("select", [a, c.imp.const(True, torch.bool), b], shape, dtype)


@_register(aten.isnan)
def _isnan(c: _Ctx):
    shape, _ = c.out()
    x = c.tensor("self")
    if x.dtype not in _FLOATS:
        return c.imp.const(False, torch.bool, shape)
    return c.imp.op("cmp", [x, x], shape, torch.bool, 'predicate = "ne"')


# -- elementwise unary ------------------------------------------------------


def _unary(tcc_op: str, float_only: bool = True):
    """out = op(x), x converted to the result dtype first (exp(int) -> float)."""

    def h(c: _Ctx):
        shape, dtype = c.out()
        if float_only and dtype not in _FLOATS:
            raise _Unsupported(f"tcc.{tcc_op} takes floats only, result is {dtype}")
        x = c.imp.cast(c.tensor("self"), dtype)
        return c.imp.op(tcc_op, [x], shape, dtype)

    return h


for _p, _name, _fo in [
    (aten.neg, "neg", False),
    (aten.abs, "abs", False),
    (aten.relu, "relu", False),
    (aten.exp, "exp", True),
    (aten.log, "log", True),
    (aten.sqrt, "sqrt", True),
    (aten.rsqrt, "rsqrt", True),
    (aten.tanh, "tanh", True),
    (aten.sigmoid, "sigmoid", True),
    (aten.silu, "silu", True),
    (aten.erf, "erf", True),
    (aten.sin, "sin", True),
    (aten.cos, "cos", True),
    (aten.tan, "tan", True),
    (aten.asin, "asin", True),
    (aten.acos, "acos", True),
    (aten.atan, "atan", True),
    (aten.sinh, "sinh", True),
    (aten.cosh, "cosh", True),
    (aten.asinh, "asinh", True),
    (aten.acosh, "acosh", True),
    (aten.atanh, "atanh", True),
]:
    _register(_p)(_unary(_name, _fo))


def _int_identity_or(tcc_op: str):
    """floor/ceil/round/trunc: identity on integers, tcc op on floats."""

    def h(c: _Ctx):
        shape, dtype = c.out()
        x = c.imp.cast(c.tensor("self"), dtype)
        if dtype not in _FLOATS:
            return x
        if _packet(c.node.target) is aten.round and c.raw.get("decimals", 0):
            raise _Unsupported("round with decimals")
        if tcc_op == "trunc":
            return _trunc(c.imp, x)
        return c.imp.op(tcc_op, [x], shape, dtype)

    return h


_register(aten.floor)(_int_identity_or("floor"))
_register(aten.ceil)(_int_identity_or("ceil"))
_register(aten.round)(_int_identity_or("round"))
_register(aten.trunc)(_int_identity_or("trunc"))


def _float_input(c: _Ctx):
    shape, dtype = c.out()
    if dtype not in _FLOATS:
        raise _Unsupported(f"takes floats only, result is {dtype}")
    return c.imp.cast(c.tensor("self"), dtype), shape, dtype


@_register(aten.expm1)
def _expm1(c: _Ctx):
    """Kahan's accurate expm1: u = exp(x); u == 1 ? x : (u - 1) * x / log(u)."""
    imp = c.imp
    x, shape, dtype = _float_input(c)
    u = imp.op("exp", [x], shape, dtype)
    one = imp.const(1.0, dtype)
    um1 = imp.op("sub", [u, one], shape, dtype)
    r = imp.op("div", [imp.op("mul", [um1, x], shape, dtype), imp.op("log", [u], shape, dtype)], shape, dtype)
    # u == inf (x large) -> inf; u - 1 == -1 (x very negative) -> -1; u == 1 -> x
    r = imp.op("select", [imp.op("cmp", [u, imp.const(math.inf, dtype)], shape, torch.bool, 'predicate = "eq"'), u, r], shape, dtype)
    r = imp.op("select", [imp.op("cmp", [um1, imp.const(-1.0, dtype)], shape, torch.bool, 'predicate = "eq"'), um1, r], shape, dtype)
    return imp.op("select", [imp.op("cmp", [u, one], shape, torch.bool, 'predicate = "eq"'), x, r], shape, dtype)


@_register(aten.log1p)
def _log1p(c: _Ctx):
    """Accurate log1p: u = 1 + x; u == 1 ? x : log(u) * x / (u - 1)."""
    imp = c.imp
    x, shape, dtype = _float_input(c)
    one = imp.const(1.0, dtype)
    u = imp.op("add", [x, one], shape, dtype)
    lu = imp.op("log", [u], shape, dtype)
    r = imp.op("div", [imp.op("mul", [lu, x], shape, dtype), imp.op("sub", [u, one], shape, dtype)], shape, dtype)
    r = imp.op("select", [imp.op("cmp", [u, imp.const(math.inf, dtype)], shape, torch.bool, 'predicate = "eq"'), u, r], shape, dtype)
    # u == 0 (x == -1) -> -inf from log(0) * -1 / -1 already
    return imp.op("select", [imp.op("cmp", [u, one], shape, torch.bool, 'predicate = "eq"'), x, r], shape, dtype)


def _scaled_unary(tcc_op: str, pre: float | None, post: float | None):
    """log2/log10 = log(x) * c; exp2 = exp(x * ln 2)."""

    def h(c: _Ctx):
        x, shape, dtype = _float_input(c)
        if pre is not None:
            x = c.imp.op("mul", [x, c.imp.const(pre, dtype)], shape, dtype)
        y = c.imp.op(tcc_op, [x], shape, dtype)
        if post is not None:
            y = c.imp.op("mul", [y, c.imp.const(post, dtype)], shape, dtype)
        return y

    return h


_register(aten.log2)(_scaled_unary("log", None, 1.0 / math.log(2.0)))
_register(aten.log10)(_scaled_unary("log", None, 1.0 / math.log(10.0)))
_register(aten.exp2)(_scaled_unary("exp", math.log(2.0), None))


@_register(aten.sign, aten.sgn)
def _sign(c: _Ctx):
    """x > 0 ? 1 : (x < 0 ? -1 : 0) (torch.sign(nan) is 0 too)."""
    shape, dtype = c.out()
    x = c.imp.cast(c.tensor("self"), dtype)
    if dtype == torch.bool:
        return x
    zero = c.imp.const(0, dtype)
    pos = c.imp.op("cmp", [x, zero], shape, torch.bool, 'predicate = "gt"')
    neg = c.imp.op("cmp", [x, zero], shape, torch.bool, 'predicate = "lt"')
    inner = c.imp.op("select", [neg, c.imp.const(-1, dtype), zero], shape, dtype)
    return c.imp.op("select", [pos, c.imp.const(1, dtype), inner], shape, dtype)


@_register(aten.reciprocal)
def _reciprocal(c: _Ctx):
    shape, dtype = c.out()
    x = c.imp.cast(c.tensor("self"), dtype)
    return c.imp.op("div", [c.imp.const(1.0, dtype), x], shape, dtype)


@_register(aten.gelu)
def _gelu(c: _Ctx):
    shape, dtype = c.out()
    approx = c.raw.get("approximate") or "none"
    if approx not in ("none", "tanh"):
        raise _Unsupported(f"gelu approximate={approx!r}")
    return c.imp.op("gelu", [c.tensor("self")], shape, dtype, f'approximate = "{approx}"')


def _clamp_bounds(c: _Ctx, lo, hi):
    shape, dtype = c.out()
    x = c.imp.cast(c.tensor("self"), dtype)
    if lo is not None:
        x = c.imp.op("maximum", [x, c.imp.operand(lo, dtype)], shape, dtype)
    if hi is not None:
        x = c.imp.op("minimum", [x, c.imp.operand(hi, dtype)], shape, dtype)
    if lo is None and hi is None:
        raise _Unsupported("clamp without bounds")
    return x


@_register(aten.clamp)
def _clamp(c: _Ctx):
    """clamp(min, max) = minimum(maximum(x, min), max) (NaN propagates)."""
    return _clamp_bounds(c, c.get("min"), c.get("max"))


@_register(aten.clamp_min)
def _clamp_min(c: _Ctx):
    return _clamp_bounds(c, c["min"], None)


@_register(aten.clamp_max)
def _clamp_max(c: _Ctx):
    return _clamp_bounds(c, None, c["max"])


# -- casts and no-ops --------------------------------------------------------


@_register(aten.clone, aten.alias, aten.detach, aten.lift_fresh_copy, aten.contiguous)
def _identity(c: _Ctx):
    """Value semantics: copies and aliases are the same value in tcc."""
    x = c.tensor("self")
    return x


@_register(aten._to_copy, aten.to)
def _to_copy(c: _Ctx):
    """dtype conversion -> tcc.cast; device/layout/memory_format are ignored."""
    shape, dtype = c.out()
    return c.imp.cast(c.tensor("self"), dtype)


@_register(prims.convert_element_type)
def _convert_element_type(c: _Ctx):
    shape, dtype = c.out()
    x = c.imp.env[c.node.args[0]]
    return c.imp.cast(x, dtype)


@_register(aten.copy)
def _copy(c: _Ctx):
    """functional copy(self, src): src converted/broadcast to self's shape."""
    shape, dtype = c.out()
    src = c.imp.cast(c.tensor("src"), dtype)
    return c.imp.broadcast(src, shape)


# -- contractions -------------------------------------------------------------


def _prefix_len(shape, m) -> int | None:
    """k >= 2 such that prod(shape[:k]) == m, if any (the flattened dims)."""
    p = sympy.Integer(1)
    for k in range(len(shape)):
        p = p * shape[k]
        if k >= 1 and _same_dim(sympy.expand(p) if not isinstance(p, int) else p, m):
            return k + 1
    return None


def _unflatten_rows(imp: _Importer, x: _T):
    """For x [M, K] that is a reshape of X [d0, .., dk-1, ..] with
    d0*..*dk-1 == M: (X viewed as [d0, .., dk-1, K], [d0, .., dk-1]), else None."""
    src = x.reshaped_from
    if src is None or x.rank != 2:
        return None
    k = _prefix_len(src.shape, x.shape[0])
    if k is None:
        return None
    lead = tuple(src.shape[:k])
    return imp.reshape(src, lead + (x.shape[1],)), lead


def _unflatten_batch(imp: _Importer, x: _T):
    """For x [Bt, M, K] that is a reshape of X with leading dims multiplying
    to Bt: (X viewed as [lead.., M, K], lead), else None."""
    src = x.reshaped_from
    if src is None or x.rank != 3:
        return None
    k = _prefix_len(src.shape, x.shape[0])
    if k is None:
        return None
    # unit dims (a select's leftover [1, ..]) do not count as batch dims
    lead = tuple(d for d in src.shape[:k] if not (_is_static(d) and _static(d) == 1))
    if len(lead) < 2:
        return None
    return imp.reshape(src, lead + tuple(x.shape[1:])), lead


def _linear_or_matmul(imp: _Importer, x: _T, w: _T, shape, dtype, bias: _T | None = None) -> _T:
    """x @ w (+ bias [out]): tcc.linear when w is a transposed 2-D value,
    else tcc.matmul. A flattened x is lifted back to its leading dims and the
    result flattened lazily (see _Importer.reshape)."""
    lifted = _unflatten_rows(imp, x)
    if lifted is not None:
        x, lead = lifted
        full = lead + (shape[-1],)
        y = _linear_or_matmul(imp, x, w, full, dtype, bias)
        return imp.reshape(y, shape)
    x = imp.cast(x, dtype)
    if w.transposed_from is not None and w.rank == 2:
        ops = [x, imp.cast(w.transposed_from, dtype)]
        if bias is not None:
            ops.append(imp.cast(bias, dtype))
        return imp.op("linear", ops, shape, dtype)
    y = imp.op("matmul", [x, imp.cast(w, dtype)], shape, dtype)
    if bias is not None:
        y = imp.op("add", [y, imp.cast(bias, dtype)], shape, dtype)
    return y


@_register(aten.addmm)
def _addmm(c: _Ctx):
    """beta*bias + alpha*(x @ w); x @ t(W) + b[out] is exactly tcc.linear."""
    shape, dtype = c.out()
    bias, x, w = c.tensor("self"), c.tensor("mat1"), c.tensor("mat2")
    beta, alpha = c.get("beta", 1), c.get("alpha", 1)
    if isinstance(beta, _S) or isinstance(alpha, _S):
        raise _Unsupported("symbolic beta/alpha")
    if beta == 1 and alpha == 1 and bias.rank == 1 and _same_dim(bias.shape[0], shape[1]):
        return _linear_or_matmul(c.imp, x, w, shape, dtype, bias)
    y = _linear_or_matmul(c.imp, x, w, shape, dtype)
    if alpha != 1:
        y = c.imp.op("mul", [y, c.imp.const(alpha, dtype)], shape, dtype)
    if beta == 0:
        return y
    b = c.imp.cast(bias, dtype)
    if beta != 1:
        b = c.imp.op("mul", [b, c.imp.const(beta, dtype)], b.shape, dtype)
    return c.imp.op("add", [y, b], shape, dtype)


@_register(aten.mm)
def _mm(c: _Ctx):
    shape, dtype = c.out()
    return _linear_or_matmul(c.imp, c.tensor("self"), c.tensor("mat2"), shape, dtype)


@_register(aten.bmm)
def _bmm(c: _Ctx):
    """bmm -> tcc.matmul; when both operands are [B*H, ..] flattenings of
    tensors with the same leading dims, the product runs on those instead."""
    shape, dtype = c.out()
    a, b = c.tensor("self"), c.tensor("mat2")
    la, lb = _unflatten_batch(c.imp, a), _unflatten_batch(c.imp, b)
    if la is not None and lb is not None and _same_shape(la[1], lb[1]):
        full = la[1] + tuple(shape[1:])
        y = c.imp.op("matmul", [c.imp.cast(la[0], dtype), c.imp.cast(lb[0], dtype)], full, dtype)
        return c.imp.reshape(y, shape)
    return c.imp.op("matmul", [c.imp.cast(a, dtype), c.imp.cast(b, dtype)], shape, dtype)


@_register(aten.matmul)
def _matmul(c: _Ctx):
    """Rank >= 2 matmul (1-D operands are reshaped around tcc.matmul)."""
    shape, dtype = c.out()
    a, b = c.tensor("self"), c.tensor("other")
    if a.rank >= 2 and b.rank >= 2:
        return c.imp.op("matmul", [a, b], shape, dtype)
    raise _Unsupported("matmul with a 1-D operand")


@_register(aten.linear)
def _linear(c: _Ctx):
    shape, dtype = c.out()
    x, w, b = c.tensor("input"), c.tensor("weight"), c.get("bias")
    ops = [x, w] + ([b] if b is not None else [])
    if b is not None and b.rank != 1:
        y = c.imp.op("linear", [x, w], shape, dtype)
        return c.imp.op("add", [y, b], shape, dtype)
    return c.imp.op("linear", ops, shape, dtype)


# -- normalization and softmax -------------------------------------------------


def _norm_params(c: _Ctx, name, default, nshape, dtype):
    v = c.get(name)
    if v is None:
        if not all(_is_static(d) for d in nshape):
            raise _Unsupported(f"{name}=None with a symbolic normalized shape")
        return c.imp.const(default, dtype, nshape)
    return c.imp.cast(v, dtype)


@_register(aten.native_layer_norm, aten.layer_norm)
def _layer_norm(c: _Ctx):
    """tcc.layer_norm; mean/rstd (training's extra results) only on demand."""
    x = c.tensor("input")
    nshape = [c.imp.expr(d) for d in (c.raw.get("normalized_shape") or [])]
    axis = x.rank - len(nshape)
    eps = float(c.raw.get("eps") if c.raw.get("eps") is not None else 1e-5)
    m = _meta(c.node)
    multi = isinstance(m, (tuple, list))
    shape, dtype = c.out(0 if multi else None)
    if x.dtype not in _FLOATS:
        raise _Unsupported("layer_norm of a non-float tensor")
    w = _norm_params(c, "weight", 1.0, nshape, x.dtype)
    b = _norm_params(c, "bias", 0.0, nshape, x.dtype)
    attrs = f"axis = {axis} : i64, epsilon = {_fmt_float(eps, 'f32')} : f32"
    y = c.imp.op("layer_norm", [x, w, b], shape, dtype, attrs)
    if not multi:
        return y
    axes = list(range(axis, x.rank))
    stats = {}

    def mean():
        if "mean" not in stats:
            s_shape, s_dtype = c.out(1)
            xs = c.imp.cast(x, s_dtype)
            stats["x"] = xs
            stats["mean"] = c.imp.op(
                "reduce_mean", [xs], s_shape, s_dtype, f"axes = {_i64_array(axes)}, keep_dims = true"
            )
        return stats["mean"]

    def rstd():
        s_shape, s_dtype = c.out(2)
        mu = mean()
        xs = stats["x"]
        d = c.imp.op("sub", [xs, mu], xs.shape, s_dtype)
        sq = c.imp.op("mul", [d, d], xs.shape, s_dtype)
        var = c.imp.op("reduce_mean", [sq], s_shape, s_dtype, f"axes = {_i64_array(axes)}, keep_dims = true")
        ve = c.imp.op("add", [var, c.imp.const(eps, s_dtype)], s_shape, s_dtype)
        return c.imp.op("rsqrt", [ve], s_shape, s_dtype)

    return [y, _Lazy(mean), _Lazy(rstd)]


@_register(aten._native_batch_norm_legit_no_training, aten.native_batch_norm, aten._native_batch_norm_legit)
def _batch_norm(c: _Ctx):
    """Inference batch norm -> tcc.batch_norm (result 0 only)."""
    if _packet(c.node.target) is not aten._native_batch_norm_legit_no_training:
        if c.raw.get("training", True):
            raise _Unsupported("training-mode batch norm (batch statistics)")
    x = c.tensor("input")
    mean, var = c.get("running_mean"), c.get("running_var")
    if mean is None or var is None:
        raise _Unsupported("batch norm without running statistics")
    shape, dtype = c.out(0)
    ch = [x.shape[1]]
    w = _norm_params(c, "weight", 1.0, ch, x.dtype)
    b = _norm_params(c, "bias", 0.0, ch, x.dtype)
    eps = float(c.raw.get("eps"))
    y = c.imp.op(
        "batch_norm",
        [x, w, b, c.imp.cast(mean, x.dtype), c.imp.cast(var, x.dtype)],
        shape,
        dtype,
        f"epsilon = {_fmt_float(eps, 'f32')} : f32",
    )

    def unsupported():
        raise _Unsupported("batch norm's saved mean/invstd results")

    return [y, _Lazy(unsupported), _Lazy(unsupported)]


def _softmax_like(tcc_op: str):
    def h(c: _Ctx):
        shape, dtype = c.out()
        x = c.imp.cast(c.tensor("self"), dtype)
        axis = _norm_dim(c.int("dim"), x.rank)
        return c.imp.op(tcc_op, [x], shape, dtype, f"axis = {axis} : i64")

    return h


_register(aten._softmax, aten.softmax)(_softmax_like("softmax"))
_register(aten._log_softmax, aten.log_softmax)(_softmax_like("log_softmax"))


# -- reductions -----------------------------------------------------------------


def _reduce(tcc_op: str, dim_arg: str | None, float_only=False):
    """sum/mean/amax/amin/prod over dims (None or [] = every dim)."""

    def h(c: _Ctx):
        m = _meta(c.node)
        multi = isinstance(m, (tuple, list))
        shape, dtype = c.out(0 if multi else None)
        x = c.tensor("self")
        if float_only and dtype not in _FLOATS:
            raise _Unsupported(f"tcc.{tcc_op} takes floats only")
        x = c.imp.cast(x, dtype)
        dims = c.raw.get(dim_arg) if dim_arg else None
        if isinstance(dims, int):
            dims = [dims]
        if not dims:
            dims = list(range(x.rank))
        axes = sorted({_norm_dim(int(d), x.rank) for d in dims})
        keep = bool(c.raw.get("keepdim", False))
        keep_attr = ", keep_dims = true" if keep else ""
        y = c.imp.op(tcc_op, [x], shape, dtype, f"axes = {_i64_array(axes)}{keep_attr}")
        if multi:

            def indices():
                raise _Unsupported("the indices result of max/min")

            return [y, _Lazy(indices)]
        return y

    return h


_register(aten.sum)(_reduce("reduce_sum", "dim"))
_register(aten.mean)(_reduce("reduce_mean", "dim", float_only=True))
_register(aten.amax)(_reduce("reduce_max", "dim"))
_register(aten.amin)(_reduce("reduce_min", "dim"))
_register(aten.prod)(_reduce("reduce_prod", "dim"))


@_register(aten.any, aten.all)
def _any_all(c: _Ctx):
    """any / all over dims (None: every dim) as counts: any is "some x != 0"
    and all "no x == 0", each a sum of flags as i64 (over no elements 0:
    any False, all True, PyTorch's values)."""
    imp = c.imp
    shape, _ = c.out()
    x = c.tensor("self")
    is_any = _packet(c.node.target) is aten.any
    dims = c.raw.get("dim")
    if isinstance(dims, int):
        dims = [dims]
    if x.rank == 0:
        return imp.cast(x, torch.bool)
    if not dims:
        dims = list(range(x.rank))
    axes = sorted({_norm_dim(int(d), x.rank) for d in dims})
    flags = imp.cast(imp.cast(x, torch.bool), torch.int64)
    zero = imp.const(0, torch.int64)
    if not is_any:  # x == 0
        flags = imp.cast(imp.op("cmp", [flags, zero], flags.shape, torch.bool,
                                'predicate = "eq"'), torch.int64)
    keep = ", keep_dims = true" if c.raw.get("keepdim", False) else ""
    count = imp.op("reduce_sum", [flags], shape, torch.int64,
                   f"axes = {_i64_array(axes)}{keep}")
    return imp.op("cmp", [count, zero], shape, torch.bool,
                  f'predicate = "{"ne" if is_any else "eq"}"')


@_register(aten.var, aten.var_mean)
def _var(c: _Ctx):
    """var = sum((x - mean)^2) / (N - correction); var_mean adds the mean."""
    imp = c.imp
    m = _meta(c.node)
    multi = isinstance(m, (tuple, list))
    shape, dtype = c.out(0 if multi else None)
    if dtype not in _FLOATS:
        raise _Unsupported("var of a non-float tensor")
    x = imp.cast(c.tensor("self"), dtype)
    dims = c.raw.get("dim")
    if isinstance(dims, int):
        dims = [dims]
    if not dims:
        dims = list(range(x.rank))
    axes = sorted({_norm_dim(int(d), x.rank) for d in dims})
    if "correction" in c.raw:
        corr = c.raw.get("correction")
        corr = 1 if corr is None else corr
    else:
        corr = 1 if c.raw.get("unbiased", True) else 0
    if isinstance(corr, float) and corr.is_integer():
        corr = int(corr)
    keep = bool(c.raw.get("keepdim", False))
    kshape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    ax = f"axes = {_i64_array(axes)}"
    mean_k = imp.op("reduce_mean", [x], kshape, dtype, ax + ", keep_dims = true")
    d = imp.op("sub", [x, mean_k], x.shape, dtype)
    ss = imp.op("reduce_sum", [imp.op("mul", [d, d], x.shape, dtype)], shape, dtype, ax + (", keep_dims = true" if keep else ""))
    n = sympy.Integer(1)
    for a in axes:
        n = n * x.shape[a]
    if not isinstance(corr, int):
        raise _Unsupported("fractional correction")
    denom = imp.expr(sympy.Max(n - corr, 0) if _is_static(n) else n - corr)
    var = imp.op("div", [ss, imp.scalar_tensor(_S(denom), dtype)], shape, dtype)
    if not multi:
        return var
    mshape, _ = c.out(1)
    mean = imp.reshape(mean_k, mshape) if not keep else mean_k
    return [var, mean]


@_register(aten.max, aten.min)
def _max_min(c: _Ctx):
    """max()/max(dim) (values only); max(a, b) is maximum."""
    is_max = _packet(c.node.target) is aten.max
    if "other" in c.raw:
        return _binary("maximum" if is_max else "minimum")(c)
    return _reduce("reduce_max" if is_max else "reduce_min", "dim")(c)


# -- views and data movement ---------------------------------------------------------


@_register(
    aten.view,
    aten._unsafe_view,
    aten.reshape,
    aten.view_copy,
    aten.squeeze,
    aten.unsqueeze,
    aten.flatten,
    aten.unflatten,
    aten._reshape_alias,
)
def _view(c: _Ctx):
    """Every row-major view is a tcc.reshape to the meta shape."""
    shape, dtype = c.out()
    x = c.tensor("self")
    if x.dtype != dtype:
        raise _Unsupported("view as another dtype (bitcast)")
    return c.imp.reshape(x, shape)


@_register(aten.as_strided, aten.as_strided_copy)
def _as_strided(c: _Ctx):
    """as_strided over a contiguous input whose sizes and strides are a
    permuted row-major layout of a block of it (what a permute, transpose,
    expand or narrowing view writes once functionalization turns it into
    as_strided: convnext's layer scale): the block cut from the flat
    input at the offset, reshaped to the sizes in stride order and
    transposed back; stride-0 dims are a broadcast, size-1 dims any
    stride. Other layouts (overlapping or gapped windows) are not
    supported."""
    imp = c.imp
    shape, dtype = c.out()
    x = c.tensor("self")
    src = c.node.args[0]
    m = _meta(src) if isinstance(src, torch.fx.Node) else None
    if not isinstance(m, torch.Tensor) or not m.is_contiguous():
        raise _Unsupported("as_strided of a non-contiguous input")
    vals = [c.get("size"), c.get("stride"), c.get("storage_offset", 0) or 0]
    # The input's own layout (any stride on size-1 dims, symbolic sizes
    # too: a batch-dynamic restride of [B, C, 1, 1]): x itself.
    ex = [imp.expr(v.expr if isinstance(v, _S) else v) for v in vals[0]]
    if imp.expr(vals[2].expr if isinstance(vals[2], _S) else vals[2]) == 0 and \
            len(ex) == x.rank and all(sympy.simplify(a - b) == 0 for a, b in zip(ex, x.shape)):
        contiguous, ok = 1, True
        for d in reversed(range(x.rank)):
            st = vals[1][d]
            st = imp.expr(st.expr if isinstance(st, _S) else st)
            if x.shape[d] != 1 and sympy.simplify(st - contiguous) != 0:
                ok = False
            contiguous = contiguous * x.shape[d]
        if ok:
            return x
    if any(isinstance(v, _S) for v in [*vals[0], *vals[1], vals[2]]) or \
            not all(_is_static(d) for d in x.shape):
        raise _Unsupported("as_strided with symbolic sizes, strides or offset")
    size, stride, offset = [int(v) for v in vals[0]], [int(v) for v in vals[1]], int(vals[2])
    numel = 1
    for d in x.shape:
        numel *= _static(d)
    if any(n == 0 for n in size):
        raise _Unsupported("as_strided to an empty tensor")
    # The dims that move through memory, outermost (largest stride) first.
    moving = sorted((d for d in range(len(size)) if size[d] > 1 and stride[d] != 0),
                    key=lambda d: -stride[d])
    span = 1
    for d in reversed(moving):
        if stride[d] != span:
            raise _Unsupported(f"as_strided layout size={size} stride={stride} "
                               "is not a permuted row-major block")
        span *= size[d]
    if offset < 0 or offset + span > numel:
        raise _Unsupported("as_strided past the end of its input")
    flat = imp.reshape(x, (numel,))
    if offset != 0 or span != numel:
        flat = imp.slice(flat, [offset], [offset + span], [1], (span,))
    block = imp.reshape(flat, tuple(size[d] for d in moving))
    if moving != sorted(moving):
        order = sorted(range(len(moving)), key=lambda i: moving[i])
        block = imp.transpose(block, order)
    kept = tuple(size[d] if d in moving else 1 for d in range(len(size)))
    out = imp.reshape(block, kept)
    if kept != tuple(size):
        out = imp.broadcast(out, tuple(size))
    return out


@_register(aten.permute)
def _permute(c: _Ctx):
    x = c.tensor("self")
    perm = [_norm_dim(int(d), x.rank) for d in c.raw["dims"]]
    return c.imp.transpose(x, perm)


@_register(aten.transpose)
def _transpose(c: _Ctx):
    x = c.tensor("self")
    if x.rank < 2:
        return x
    d0, d1 = _norm_dim(c.int("dim0"), x.rank), _norm_dim(c.int("dim1"), x.rank)
    perm = list(range(x.rank))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return c.imp.transpose(x, perm)


@_register(aten.t, aten.numpy_T)
def _t(c: _Ctx):
    x = c.tensor("self")
    if x.rank < 2:
        return x
    return c.imp.transpose(x, list(range(x.rank))[::-1])


@_register(aten.expand, aten.expand_copy, aten.broadcast_to)
def _expand(c: _Ctx):
    """expand -> tcc.broadcast_to (nothing when the shape does not change)."""
    shape, dtype = c.out()
    return c.imp.broadcast(c.tensor("self"), shape)


def _slice_bound(imp: _Importer, v, size, default):
    """A slice bound as a static int (INT64_MAX for 'to the end')."""
    if v is None:
        return default
    if isinstance(v, _S):
        e = imp.expr(v.expr)
        if isinstance(e, int):
            v = e
        elif _same_dim(e, size):
            return INT64_MAX
        else:
            raise _Unsupported(f"symbolic slice bound {e}")
    v = int(v)
    if v >= INT64_MAX:
        return INT64_MAX
    return v


def _symbolic_slice(c: _Ctx, x: _T, dim: int, step: int, shape, dtype) -> _T:
    """x[start:end:step] along `dim` with bounds that are size expressions
    (a KV cache's x[:, :past + new], BERT's buffer[:, :seq]): a gather at
    start + step * iota(length), the length being the output's size
    expression. A negative static start counts from the end; a symbolic
    one is taken as Dynamo guarded it (within the dim)."""
    imp = c.imp
    if step <= 0:
        raise _Unsupported(f"slice step {step}")
    start = c.get("start")
    if start is None:
        start = 0
    if not isinstance(start, _S) and int(start) < 0:
        start = _S(x.shape[dim] + int(start))
    n = shape[dim]
    length = imp.shape_operand((n,))
    ssa = imp.fresh()
    imp.emit(f"{ssa} = tcc.iota {length} : (tensor<1xi64>) -> {_ttype((n,), torch.int64)}")
    idx = _T((imp.expr(n),), torch.int64, ssa=ssa)
    if step != 1:
        idx = imp.op("mul", [idx, imp.const(step, torch.int64)], idx.shape, torch.int64)
    if isinstance(start, _S) or int(start) != 0:
        idx = imp.op("add", [idx, imp.scalar_tensor(start if isinstance(start, _S) else int(start),
                                                    torch.int64)], idx.shape, torch.int64)
    return imp.op("gather", [x, idx], shape, dtype, f"axis = {dim} : i64")


@_register(aten.slice)
def _slice(c: _Ctx):
    shape, dtype = c.out()
    x = c.tensor("self")
    dim = _norm_dim(c.int("dim", 0), x.rank)
    size = x.shape[dim]
    step = c.int("step", 1)
    try:
        start = _slice_bound(c.imp, c.get("start"), size, 0)
        end = _slice_bound(c.imp, c.get("end"), size, INT64_MAX)
    except _Unsupported:
        return _symbolic_slice(c, x, dim, step, shape, dtype)
    if step <= 0:
        raise _Unsupported(f"slice step {step}")
    if start == INT64_MAX:
        raise _Unsupported("slice starting at the end")
    starts, ends, steps = [0] * x.rank, [INT64_MAX] * x.rank, [1] * x.rank
    starts[dim], ends[dim], steps[dim] = start, end, step
    if _is_static(size):
        n = _static(size)
        if start >= 0 and end >= n and step == 1 and start == 0:
            return x
    return c.imp.slice(x, starts, ends, steps, shape)


@_register(aten.select)
def _select(c: _Ctx):
    shape, dtype = c.out()
    x = c.tensor("self")
    return c.imp.select(x, c.int("dim"), c.int("index"), shape)


@_register(aten.unbind)
def _unbind(c: _Ctx):
    """unbind(dim) -> one lazy select per piece (static size only)."""
    x = c.tensor("self")
    dim = _norm_dim(c.int("dim", 0), x.rank)
    if not _is_static(x.shape[dim]):
        raise _Unsupported("unbind along a symbolic dim")
    metas = _meta(c.node)
    outs = []
    for i in range(_static(x.shape[dim])):
        shp = tuple(c.imp.expr(d) for d in metas[i].shape)
        outs.append(_Lazy(lambda i=i, shp=shp: c.imp.select(x, dim, i, shp)))
    return outs


@_register(aten.split, aten.split_with_sizes)
def _split(c: _Ctx):
    """split / split_with_sizes -> lazy tcc.slice per piece (static sizes)."""
    x = c.tensor("self")
    dim = _norm_dim(c.int("dim", 0), x.rank)
    metas = _meta(c.node)
    outs = []
    start = 0
    for m in metas:
        shp = tuple(c.imp.expr(d) for d in m.shape)
        n = shp[dim]
        if not _is_static(n):
            raise _Unsupported("split into symbolic sizes")
        n = _static(n)
        starts, ends, steps = [0] * x.rank, [INT64_MAX] * x.rank, [1] * x.rank
        starts[dim], ends[dim] = start, start + n
        outs.append(_Lazy(lambda s=starts, e=ends, st=steps, shp=shp: c.imp.slice(x, s, e, st, shp)))
        start += n
    return outs


@_register(aten.cat, aten.concat)
def _cat(c: _Ctx):
    shape, dtype = c.out()
    ts = [t for t in c["tensors"] if not (t.rank == 1 and _is_static(t.shape[0]) and _static(t.shape[0]) == 0)]
    axis = _norm_dim(c.int("dim", 0), len(shape))
    ts = [c.imp.cast(t, dtype) for t in ts]
    if len(ts) == 1:
        return ts[0]
    return c.imp.op("concat", ts, shape, dtype, f"axis = {axis} : i64")


@_register(aten.embedding)
def _embedding(c: _Ctx):
    shape, dtype = c.out()
    w, idx = c.tensor("weight"), c.tensor("indices")
    if idx.dtype not in (torch.int64, torch.int32):
        raise _Unsupported(f"embedding indices of dtype {idx.dtype}")
    return c.imp.op("gather", [w, idx], shape, dtype, "axis = 0 : i64")


@_register(aten.index_select)
def _index_select(c: _Ctx):
    shape, dtype = c.out()
    x, idx = c.tensor("self"), c.tensor("index")
    axis = _norm_dim(c.int("dim"), x.rank)
    return c.imp.op("gather", [x, idx], shape, dtype, f"axis = {axis} : i64")


@_register(aten.gather)
def _gather(c: _Ctx):
    shape, dtype = c.out()
    x, idx = c.tensor("self"), c.tensor("index")
    axis = _norm_dim(c.int("dim"), x.rank)
    return c.imp.op("gather_elements", [x, idx], shape, dtype, f"axis = {axis} : i64")


@_register(aten.index, aten._unsafe_index)
def _index(c: _Ctx):
    """x[i0, i1, ...] (advanced indexing; None skips a dim).

    One integer index is a tcc.gather along its dim. Several become one
    gather along the indexed dims flattened: the indices broadcast, each is
    wrapped once (negative counts from the end) and they combine into a
    row-major linear index; an index outside [-dim, dim) turns its linear
    index into one past the end, so the gather's range check reports it
    instead of reading a wrong element. The indexed dims are moved to the
    front first when they are not adjacent (PyTorch then puts the broadcast
    index dims first). A boolean mask over the leading dims is
    tcc.mask_select. aten._unsafe_index (what interpolate decomposes to)
    is the same, its indices in range by construction."""
    shape, dtype = c.out()
    imp = c.imp
    x = c.tensor("self")
    idxs = list(c["indices"])
    while idxs and idxs[-1] is None:
        idxs.pop()
    positions = [d for d, t in enumerate(idxs) if t is not None]
    if not positions:
        return x
    if any(not isinstance(idxs[d], _T) for d in positions):
        raise _Unsupported("index that is not a tensor")
    if any(idxs[d].dtype == torch.bool for d in positions):
        mask = idxs[positions[0]]
        if positions != [0]:
            raise _Unsupported("a boolean index with other indices or after a skipped dim")
        return imp.data_dependent(imp.op("mask_select", [x, mask], shape, dtype))
    if any(idxs[d].dtype not in (torch.int64, torch.int32) for d in positions):
        raise _Unsupported("index of a dtype other than int32/int64/bool")
    k = len(positions)
    if positions != list(range(positions[0], positions[0] + k)):
        rest = [d for d in range(x.rank) if d not in positions]
        x = imp.transpose(x, positions + rest)
        first = 0
    else:
        first = positions[0]
    n_post = x.rank - first - k
    bshape = tuple(shape[first:len(shape) - n_post])
    if k == 1:
        return imp.op("gather", [x, idxs[positions[0]]], shape, dtype, f"axis = {first} : i64")
    dims = list(x.shape[first:first + k])
    i64 = torch.int64
    zero = imp.const(0, i64)
    linear = valid = None
    for j, d in enumerate(positions):
        t = imp.broadcast(imp.cast(idxs[d], i64), bshape)
        size = imp.scalar_tensor(_S(dims[j]), i64)
        neg = imp.op("cmp", [t, zero], bshape, torch.bool, 'predicate = "lt"')
        t = imp.op("select", [neg, imp.op("add", [t, size], bshape, i64), t], bshape, i64)
        ok = imp.op("select", [imp.op("cmp", [t, zero], bshape, torch.bool, 'predicate = "ge"'),
                               imp.op("cmp", [t, size], bshape, torch.bool, 'predicate = "lt"'),
                               imp.const(False, torch.bool)], bshape, torch.bool)
        stride = 1
        for e in dims[j + 1:]:
            stride = stride * e
        if not (_is_static(stride) and _static(stride) == 1):
            t = imp.op("mul", [t, imp.scalar_tensor(_S(stride), i64)], bshape, i64)
        linear = t if linear is None else imp.op("add", [linear, t], bshape, i64)
        valid = ok if valid is None else imp.op(
            "select", [valid, ok, imp.const(False, torch.bool)], bshape, torch.bool)
    total = 1
    for e in dims:
        total = total * e
    linear = imp.op("select", [valid, linear, imp.scalar_tensor(_S(total), i64)], bshape, i64)
    flat = imp.reshape(x, tuple(x.shape[:first]) + (imp.expr(total),) + tuple(x.shape[first + k:]))
    return imp.op("gather", [flat, linear], shape, dtype, f"axis = {first} : i64")


@_register(aten.grid_sampler_2d)
def _grid_sampler_2d(c: _Ctx):
    """F.grid_sample on 4-D inputs: tcc.grid_sample (interpolation 0
    bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2
    reflection)."""
    shape, dtype = c.out()
    modes, paddings = ["bilinear", "nearest", "bicubic"], ["zeros", "border", "reflection"]
    mode, padding = c.int("interpolation_mode"), c.int("padding_mode")
    if mode not in range(3) or padding not in range(3):
        raise _Unsupported(f"grid_sampler_2d modes {mode}, {padding}")
    if dtype not in _FLOATS:
        raise _Unsupported(f"grid_sample of {dtype}")
    x, grid = c.tensor("input"), c.imp.cast(c.tensor("grid"), dtype)
    align = "true" if c.get("align_corners") else "false"
    return c.imp.op("grid_sample", [x, grid], shape, dtype,
                    f'align_corners = {align}, mode = "{modes[mode]}", '
                    f'padding_mode = "{paddings[padding]}"')


# -- scatters -------------------------------------------------------------------

_SCATTER_REDUCE = {"sum": "add", "add": "add", "prod": "mul", "multiply": "mul",
                   "amax": "max", "amin": "min"}


def _scatter_identity(reduction: str, dtype):
    """The element a reduction leaves unchanged (include_self=False)."""
    if reduction == "add":
        return False if dtype == torch.bool else 0
    if reduction == "mul":
        return True if dtype == torch.bool else 1
    if dtype == torch.bool:
        return reduction != "max"
    if dtype in _FLOATS:
        return float("-inf") if reduction == "max" else float("inf")
    info = torch.iinfo(dtype)  # unsigned types start at 0
    return info.min if reduction == "max" else info.max


def _scatter_elements(imp, x: _T, idx: _T, src: _T, axis: int, reduction: str) -> _T:
    attrs = f'axis = {axis} : i64, reduction = "{reduction}"'
    return imp.op("scatter_elements", [x, idx, src], x.shape, x.dtype, attrs)


@_register(aten.scatter, aten.scatter_add, aten.scatter_reduce)
def _scatter(c: _Ctx):
    """torch.scatter (src or value, with reduce="add"/"multiply"),
    scatter_add and scatter_reduce (sum, prod, amax, amin; include_self):
    tcc.scatter_elements (which, like torch, reads only the leading
    index.shape of a larger src); include_self=False first writes the
    reduction's identity where the indices point."""
    imp = c.imp
    shape, dtype = c.out()
    x, idx = c.tensor("self"), c.tensor("index")
    if idx.dtype not in (torch.int64, torch.int32):
        raise _Unsupported(f"scatter indices of dtype {idx.dtype}")
    axis = _norm_dim(c.int("dim"), x.rank)
    target = c.node.target
    reduce = c.get("reduce")
    if target is aten.scatter_add.default:
        reduction = "add"
    elif reduce is None:
        reduction = "none"
    elif reduce in _SCATTER_REDUCE:
        reduction = _SCATTER_REDUCE[reduce]
    else:
        raise _Unsupported(f"scatter reduce={reduce!r}")
    src = c.get("src")
    if src is None:
        src = c.get("value")
    if isinstance(src, _T):  # may be larger than idx: tcc reads its corner
        src = imp.cast(src, dtype)
    else:
        src = imp.broadcast(imp.scalar_tensor(src, dtype), idx.shape)
    if not c.get("include_self", True) and reduction != "none":
        ident = imp.const(_scatter_identity(reduction, dtype), dtype, idx.shape)
        x = _scatter_elements(imp, x, idx, ident, axis, "none")
    return _scatter_elements(imp, x, idx, src, axis, reduction)


@_register(aten.index_put)
def _index_put(c: _Ctx):
    """x[i0, i1, ...] = values (accumulate: +=), the functional form of
    index_put_. Integer indices become one tcc.scatter_nd over x with the
    indexed dims in front, flattened into one: the same linear index
    aten.index uses (an index out of range points one past the end, which
    the scatter's range check reports); values broadcast to the indexing
    result and each tuple writes a row. A boolean mask over the leading
    dims with values that do not depend on the count is a select."""
    imp = c.imp
    shape, dtype = c.out()
    x = c.tensor("self")
    values = c.tensor("values")
    values = imp.cast(values, dtype)
    accumulate = bool(c.get("accumulate", False))
    idxs = list(c["indices"])
    while idxs and idxs[-1] is None:
        idxs.pop()
    positions = [d for d, t in enumerate(idxs) if t is not None]
    if not positions:
        raise _Unsupported("index_put without an index")
    if any(not isinstance(idxs[d], _T) for d in positions):
        raise _Unsupported("index that is not a tensor")
    if any(idxs[d].dtype == torch.bool for d in positions):
        mask = idxs[positions[0]]
        if positions != [0] or len(idxs) != 1:
            raise _Unsupported("a boolean index with other indices or after a skipped dim")
        rest = x.rank - mask.rank
        if values.rank > rest and not all(_is_static(d) and _static(d) == 1
                                          for d in values.shape[:values.rank - rest]):
            raise _Unsupported("x[mask] = values with one value per selected row")
        if values.rank > rest:
            values = imp.reshape(values, values.shape[values.rank - rest:])
        m = imp.reshape(mask, tuple(mask.shape) + (1,) * rest)
        if accumulate:
            zero = imp.const(False if dtype == torch.bool else 0, dtype)
            add = imp.op("select", [m, values, zero], shape, dtype)
            return imp.op("add", [x, add], shape, dtype)
        return imp.op("select", [m, values, x], shape, dtype)
    if any(idxs[d].dtype not in (torch.int64, torch.int32) for d in positions):
        raise _Unsupported("index of a dtype other than int32/int64/bool")
    k = len(positions)
    adjacent = positions == list(range(positions[0], positions[0] + k))
    rest = [d for d in range(x.rank) if d not in positions]
    bshape = tuple(imp.expr(e) for e in torch.broadcast_shapes(
        *[tuple(_meta(n).shape) for n, t in zip(c.raw["indices"], idxs) if t is not None]))
    nb = len(bshape)
    rest_shape = tuple(x.shape[d] for d in rest)
    # values in the indexing result's layout, then with the index dims first.
    if adjacent:
        first = positions[0]
        res_shape = tuple(x.shape[:first]) + bshape + tuple(x.shape[first + k:])
        values = imp.broadcast(values, res_shape)
        values = imp.transpose(values, list(range(first, first + nb)) + list(range(first))
                               + list(range(first + nb, len(res_shape))))
    else:
        values = imp.broadcast(values, bshape + rest_shape)
    xt = imp.transpose(x, positions + rest)
    i64 = torch.int64
    dims = [x.shape[d] for d in positions]
    zero = imp.const(0, i64)
    linear = valid = None
    if k == 1:  # scatter_nd wraps and range-checks the index itself
        linear = imp.broadcast(imp.cast(idxs[positions[0]], i64), bshape)
    for j, d in enumerate(positions if k > 1 else []):
        t = imp.broadcast(imp.cast(idxs[d], i64), bshape)
        size = imp.scalar_tensor(_S(dims[j]), i64)
        neg = imp.op("cmp", [t, zero], bshape, torch.bool, 'predicate = "lt"')
        t = imp.op("select", [neg, imp.op("add", [t, size], bshape, i64), t], bshape, i64)
        ok = imp.op("select", [imp.op("cmp", [t, zero], bshape, torch.bool, 'predicate = "ge"'),
                               imp.op("cmp", [t, size], bshape, torch.bool, 'predicate = "lt"'),
                               imp.const(False, torch.bool)], bshape, torch.bool)
        stride = 1
        for e in dims[j + 1:]:
            stride = stride * e
        if not (_is_static(stride) and _static(stride) == 1):
            t = imp.op("mul", [t, imp.scalar_tensor(_S(stride), i64)], bshape, i64)
        linear = t if linear is None else imp.op("add", [linear, t], bshape, i64)
        valid = ok if valid is None else imp.op(
            "select", [valid, ok, imp.const(False, torch.bool)], bshape, torch.bool)
    total = 1
    for e in dims:
        total = total * e
    if k > 1:
        linear = imp.op("select", [valid, linear, imp.scalar_tensor(_S(total), i64)], bshape, i64)
    flat_shape = (imp.expr(total),) + rest_shape
    flat = imp.reshape(xt, flat_shape)
    tuples = imp.reshape(linear, bshape + (1,))
    reduction = "add" if accumulate else "none"
    out = imp.op("scatter_nd", [flat, tuples, values], flat_shape, dtype,
                 f'reduction = "{reduction}"')
    out = imp.reshape(out, xt.shape)
    perm = positions + rest
    inverse = [perm.index(d) for d in range(x.rank)]
    return imp.transpose(out, inverse)


def _take(imp, x: _T, dim: int, lo: int, hi: int):
    """x[lo:hi] along dim (static bounds), None when empty."""
    if hi <= lo:
        return None
    starts, ends = [0] * x.rank, [INT64_MAX] * x.rank
    starts[dim], ends[dim] = lo, hi
    shape = tuple(hi - lo if d == dim else x.shape[d] for d in range(x.rank))
    return imp.slice(x, starts, ends, [1] * x.rank, shape)


@_register(aten.slice_scatter)
def _slice_scatter(c: _Ctx):
    """x with x[start:end:step] along dim replaced by src: a concatenation
    of the parts around it for a unit step and static bounds, else a
    tcc.scatter_elements at start + step * iota."""
    imp = c.imp
    shape, dtype = c.out()
    x, src = c.tensor("self"), imp.cast(c.tensor("src"), dtype)
    dim = _norm_dim(c.int("dim", 0), x.rank)
    step = c.int("step", 1)
    size = x.shape[dim]
    start = c.int("start", 0) if c.get("start") is not None else 0
    end = c.get("end")
    end = INT64_MAX if end is None else _slice_bound(imp, end, size, INT64_MAX)
    if not _is_static(size):
        if start == 0 and end >= INT64_MAX and step == 1:
            return imp.broadcast(src, shape)
        raise _Unsupported("slice_scatter along a symbolic dim")
    n = _static(size)
    start = start + n if start < 0 else min(start, n)
    end = n if end >= INT64_MAX else (end + n if end < 0 else min(end, n))
    if step == 1:
        parts = [_take(imp, x, dim, 0, start), src, _take(imp, x, dim, end, n)]
        parts = [p for p in parts if p is not None]
        if len(parts) == 1:
            return src
        return imp.op("concat", parts, shape, dtype, f"axis = {dim} : i64")
    count = _static(src.shape[dim])
    iota = imp.fresh()
    imp.emit(f"{iota} = tcc.iota : () -> tensor<{count}xi64>")
    idx = _T((count,), torch.int64, ssa=iota)
    idx = imp.op("add", [imp.op("mul", [idx, imp.const(step, torch.int64)], (count,), torch.int64),
                         imp.const(start, torch.int64)], (count,), torch.int64)
    idx = imp.reshape(idx, tuple(count if d == dim else 1 for d in range(x.rank)))
    idx = imp.broadcast(idx, src.shape)
    return _scatter_elements(imp, x, idx, src, dim, "none")


@_register(aten.select_scatter)
def _select_scatter(c: _Ctx):
    """x with x.select(dim, index) replaced by src: src with the dim back,
    written as a one-wide slice_scatter (concatenation)."""
    imp = c.imp
    shape, dtype = c.out()
    x, src = c.tensor("self"), imp.cast(c.tensor("src"), dtype)
    dim = _norm_dim(c.int("dim"), x.rank)
    index = c.int("index")
    if not _is_static(x.shape[dim]):
        raise _Unsupported("select_scatter along a symbolic dim")
    n = _static(x.shape[dim])
    index = index + n if index < 0 else index
    row = imp.reshape(src, tuple(1 if d == dim else x.shape[d] for d in range(x.rank)))
    parts = [_take(imp, x, dim, 0, index), row, _take(imp, x, dim, index + 1, n)]
    parts = [p for p in parts if p is not None]
    if len(parts) == 1:
        return row
    return imp.op("concat", parts, shape, dtype, f"axis = {dim} : i64")


# -- recurrences -----------------------------------------------------------------


@_register(aten.mkldnn_rnn_layer)
def _lstm_layer(c: _Ctx):
    """One LSTM layer in one direction: what torch._decomp's nn.LSTM
    decomposition (layers, directions, batch_first around it) calls on the
    CPU. The input is sequence-first, the state [1, B, H]; PyTorch's gate
    order is tcc.lstm's, and the two biases are summed once. The fourth
    result (oneDNN's workspace) is training state: unsupported if read."""
    imp = c.imp
    if int(c.raw["mode"]) != 2:
        raise _Unsupported(f"mkldnn_rnn_layer of mode {c.raw['mode']} (only LSTM)")
    if c.raw["train"]:
        raise _Unsupported("an LSTM layer in training mode")
    if c.raw["batch_sizes"]:
        raise _Unsupported("packed sequences")
    (y_shape, dtype), (hy_shape, _) = c.out(0), c.out(1)
    if dtype not in _FLOATS:
        raise _Unsupported(f"an LSTM of {dtype}")
    x = c.tensor("input")
    w_ih, w_hh = c.tensor("weight0"), c.tensor("weight1")
    hidden = _static(w_hh.shape[1])
    steps, batch = x.shape[0], x.shape[1]
    state = (batch, hidden)
    if c.raw["has_biases"]:
        bias = imp.op("add", [c.tensor("weight2"), c.tensor("weight3")], (4 * hidden,), dtype)
    else:  # weight2/3 are then placeholders the layer ignores
        bias = imp.const(0.0, dtype, (4 * hidden,))
    h0 = imp.reshape(c.tensor("hx_"), state)
    c0 = imp.reshape(c.tensor("cx_"), state)
    ops = [x, w_ih, w_hh, bias, h0, c0]
    ins = [imp.use(o) for o in ops]
    tys = [_ttype(o.shape, o.dtype) for o in ops]
    st_ty = _ttype(state, dtype)
    y_t = (steps, batch, hidden)
    r = imp.fresh()
    attr = " {reverse = true}" if c.raw["reverse"] else ""
    imp.emit(f"{r}:3 = tcc.lstm {', '.join(ins)}{attr} : ({', '.join(tys)}) -> "
             f"({_ttype(y_t, dtype)}, {st_ty}, {st_ty})")
    y = _T(tuple(imp.expr(e) for e in y_t), dtype, ssa=f"{r}#0")
    hy = imp.reshape(_T(tuple(imp.expr(e) for e in state), dtype, ssa=f"{r}#1"), hy_shape)
    cy = imp.reshape(_T(tuple(imp.expr(e) for e in state), dtype, ssa=f"{r}#2"), hy_shape)

    def workspace():
        raise _Unsupported("the LSTM's oneDNN workspace (training state)")
    return [y, hy, cy, _Lazy(workspace)]


def _recurrence_ops():
    from .recurrences import OPS
    return OPS


@_register(*_recurrence_ops())
def _gru_rnn(c: _Ctx):
    """nn.GRU and nn.RNN (tcc::gru / rnn_tanh / rnn_relu, what aten.gru /
    rnn_tanh / rnn_relu trace to under tcc: tcc/recurrences.py): one
    tcc.gru or tcc.rnn per layer and direction, sequence first (batch_first
    transposes around them), the directions' outputs concatenated as the
    next layer's input; h_n stacks every layer's final state. The weights
    come per layer and direction as w_ih, w_hh (, b_ih, b_hh)."""
    imp = c.imp
    packet = c.node.target.overloadpacket
    if c.raw["train"] and c.raw["dropout"] and c.raw["num_layers"] > 1:
        raise _Unsupported("dropout between recurrent layers in training mode")
    (out_shape, dtype), (hn_shape, _) = c.out(0), c.out(1)
    if dtype not in _FLOATS:
        raise _Unsupported(f"a recurrence of {dtype}")
    x, hx = c.tensor("input"), c.tensor("hx")
    params = list(c["params"])
    has_biases, layers = bool(c.raw["has_biases"]), int(c.raw["num_layers"])
    dirs = 2 if c.raw["bidirectional"] else 1
    per = 4 if has_biases else 2
    if any(not isinstance(p, _T) for p in params) or len(params) != layers * dirs * per:
        raise _Unsupported("recurrent weights that are not tensors")
    if c.raw["batch_first"]:
        x = imp.transpose(x, [1, 0, 2])
    steps, batch = x.shape[0], x.shape[1]
    hidden = _static(params[1].shape[1])
    state = (batch, hidden)
    st_ty = _ttype(state, dtype)
    is_gru = packet is torch.ops.tcc.gru
    gates = 3 if is_gru else 1
    finals = []
    for layer in range(layers):
        ys = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh = params[k * per], params[k * per + 1]
            if has_biases:
                b_ih, b_hh = params[k * per + 2], params[k * per + 3]
            else:
                b_ih = b_hh = imp.const(0.0, dtype, (gates * hidden,))
            h0 = imp.select(hx, 0, k, state)
            if is_gru:
                name, ops, attrs = "gru", [x, w_ih, w_hh, b_ih, b_hh, h0], []
            else:
                bias = imp.op("add", [b_ih, b_hh], (hidden,), dtype)
                act = "relu" if packet is torch.ops.tcc.rnn_relu else "tanh"
                name, ops, attrs = "rnn", [x, w_ih, w_hh, bias, h0], [f'nonlinearity = "{act}"']
            if d == 1:
                attrs.append("reverse = true")
            y_t = (steps, batch, hidden)
            r = imp.fresh()
            attr = f" {{{', '.join(attrs)}}}" if attrs else ""
            imp.emit(f"{r}:2 = tcc.{name} {', '.join(imp.use(o) for o in ops)}{attr} : "
                     f"({', '.join(_ttype(o.shape, o.dtype) for o in ops)}) -> "
                     f"({_ttype(y_t, dtype)}, {st_ty})")
            ys.append(_T(tuple(imp.expr(e) for e in y_t), dtype, ssa=f"{r}#0"))
            finals.append(_T(tuple(imp.expr(e) for e in state), dtype, ssa=f"{r}#1"))
        if dirs == 1:
            x = ys[0]
        else:
            x = imp.op("concat", ys, (steps, batch, 2 * hidden), dtype, "axis = 2 : i64")
    out = imp.transpose(x, [1, 0, 2]) if c.raw["batch_first"] else x
    rows = [imp.reshape(h, (1,) + state) for h in finals]
    h_n = rows[0] if len(rows) == 1 else imp.op("concat", rows, hn_shape, dtype, "axis = 0 : i64")
    return [out, h_n]


# -- attention ------------------------------------------------------------------


def _sdpa(c: _Ctx, multi: bool, mask_arg: str | None, lse_index: int | None):
    q, k, v = c.tensor("query"), c.tensor("key"), c.tensor("value")
    shape, dtype = c.out(0 if multi else None)
    dropout = c.raw.get("dropout_p", 0.0) or 0.0
    if dropout != 0.0:
        raise _Unsupported(f"dropout_p={dropout}")
    if c.raw.get("enable_gqa", False):
        raise _Unsupported("enable_gqa")
    if q.rank < 2 or k.rank != q.rank or v.rank != q.rank:
        raise _Unsupported("q, k, v of different ranks")
    if not (_same_shape(q.shape[:-2], k.shape[:-2]) and _same_shape(q.shape[:-2], v.shape[:-2])):
        raise _Unsupported("q, k, v leading dims differ (broadcast or grouped-query attention)")
    causal = bool(c.raw.get("is_causal", False))
    scale = c.raw.get("scale")
    mask = c.get(mask_arg) if mask_arg else None
    ops = [q, k, v]
    if mask is not None:
        if mask.dtype != torch.bool:
            mask = c.imp.cast(mask, q.dtype)
        ops.append(mask)
    attrs = []
    if scale is not None:
        attrs.append(f"scale = {_fmt_float(float(scale), 'f32')} : f32")
    if causal:
        attrs.append("is_causal = true")
    y = c.imp.op("attention", ops, shape, dtype, ", ".join(attrs))
    if not multi:
        return y
    n = len(_meta(c.node))

    def lse():
        if lse_index is None:
            raise _Unsupported("the attention op's auxiliary results")
        if mask is not None or causal:
            raise _Unsupported("logsumexp of a masked or causal attention")
        return _logsumexp_of_scores(c, q, k, scale)

    def aux():
        raise _Unsupported("the attention op's auxiliary results")

    return [y] + [_Lazy(lse if i == lse_index else aux) for i in range(1, n)]


def _logsumexp_of_scores(c: _Ctx, q: _T, k: _T, scale):
    """logsumexp(q k^T * scale) over keys: what flash attention saves for backward."""
    imp = c.imp
    shape, dtype = c.out(1)
    if not _same_shape(shape, q.shape[:-1]):
        raise _Unsupported("logsumexp of unexpected shape")
    qf, kf = imp.cast(q, dtype), imp.cast(k, dtype)
    r = q.rank
    kt = imp.transpose(kf, list(range(r - 2)) + [r - 1, r - 2])
    s_shape = tuple(q.shape[:-1]) + (k.shape[-2],)
    s = imp.op("matmul", [qf, kt], s_shape, dtype)
    if scale is None:
        d = q.shape[-1]
        if not _is_static(d):
            raise _Unsupported("symbolic head dim")
        scale = 1.0 / math.sqrt(_static(d))
    s = imp.op("mul", [s, imp.const(float(scale), dtype)], s_shape, dtype)
    k_shape = tuple(q.shape[:-1]) + (1,)
    mx = imp.op("reduce_max", [s], k_shape, dtype, f"axes = {_i64_array([r - 1])}, keep_dims = true")
    e = imp.op("exp", [imp.op("sub", [s, mx], s_shape, dtype)], s_shape, dtype)
    sm = imp.op("reduce_sum", [e], k_shape, dtype, f"axes = {_i64_array([r - 1])}, keep_dims = true")
    l = imp.op("add", [imp.op("log", [sm], k_shape, dtype), mx], k_shape, dtype)
    return imp.reshape(l, shape)


@_register(aten._scaled_dot_product_flash_attention_for_cpu)
def _sdpa_flash_cpu(c: _Ctx):
    """(out, logsumexp); logsumexp is computed only when read (training)."""
    return _sdpa(c, True, "attn_mask", 1)


@_register(aten.scaled_dot_product_attention)
def _sdpa_plain(c: _Ctx):
    return _sdpa(c, False, "attn_mask", None)


@_register(aten._scaled_dot_product_efficient_attention)
def _sdpa_efficient(c: _Ctx):
    return _sdpa(c, True, "attn_bias", None)


@_register(aten._scaled_dot_product_flash_attention)
def _sdpa_flash(c: _Ctx):
    return _sdpa(c, True, None, None)


# -- convolution and pooling -----------------------------------------------------------


def _pair(v, n=2):
    if isinstance(v, int):
        return [v] * n
    v = [int(x) for x in v]
    return v * n if len(v) == 1 else v


@_register(aten.convolution)
def _convolution(c: _Ctx):
    """2-D, non-transposed convolution -> tcc.conv2d (NCHW, OIHW)."""
    shape, dtype = c.out()
    x, w, b = c.tensor("input"), c.tensor("weight"), c.get("bias")
    if x.rank != 4 or c.raw.get("transposed"):
        raise _Unsupported("only 2-D non-transposed convolutions")
    stride, pad, dil = _pair(c.raw["stride"]), _pair(c.raw["padding"]), _pair(c.raw["dilation"])
    groups = int(c.raw.get("groups", 1))
    ops = [x, w] + ([b] if b is not None else [])
    attrs = (
        f"strides = {_i64_array(stride)}, padding = {_i64_array(pad)}, "
        f"dilations = {_i64_array(dil)}, groups = {groups} : i64"
    )
    return c.imp.op("conv2d", ops, shape, dtype, attrs)


def _pool_padding(c: _Ctx, x: _T, shape, k, stride, pad) -> list:
    """tcc's [top, left, bottom, right] padding. ceil_mode is floor mode
    over an input padded further at the bottom and right, by as much as
    the output's last window needs (static spatial dims)."""
    if not c.raw.get("ceil_mode"):
        return list(pad)
    extra = []
    for d in range(2):
        size, out = x.shape[2 + d], shape[2 + d]
        if not (_is_static(size) and _is_static(out)):
            raise _Unsupported("ceil_mode pooling over a dynamic spatial dim")
        extra.append(max(0, (_static(out) - 1) * stride[d] + k[d]
                         - (_static(size) + 2 * pad[d])))
    return [pad[0], pad[1], pad[0] + extra[0], pad[1] + extra[1]]


@_register(aten.max_pool2d_with_indices, aten.max_pool2d)
def _max_pool(c: _Ctx):
    """max_pool2d (values only; dilation 1; ceil_mode as extra padding)."""
    multi = isinstance(_meta(c.node), (tuple, list))
    shape, dtype = c.out(0 if multi else None)
    x = c.tensor("self")
    k = _pair(c.raw["kernel_size"])
    stride = _pair(c.raw.get("stride") or k)
    pad = _pair(c.raw.get("padding") or 0)
    if _pair(c.raw.get("dilation") or 1) != [1, 1]:
        raise _Unsupported("max_pool2d with dilation")
    pad = _pool_padding(c, x, shape, k, stride, pad)
    attrs = f"kernel_size = {_i64_array(k)}, strides = {_i64_array(stride)}, padding = {_i64_array(pad)}"
    y = c.imp.op("max_pool2d", [x], shape, dtype, attrs)
    if not multi:
        return y

    def indices():
        raise _Unsupported("max_pool2d indices")

    return [y, _Lazy(indices)]


@_register(aten.avg_pool2d)
def _avg_pool(c: _Ctx):
    """avg_pool2d; tcc divides by the unpadded count (count_include_pad=False,
    or no padding: then ceil_mode's extra padding is not counted either,
    as in PyTorch)."""
    shape, dtype = c.out()
    x = c.tensor("self")
    k = _pair(c.raw["kernel_size"])
    stride = _pair(c.raw.get("stride") or k)
    pad = _pair(c.raw.get("padding") or 0)
    if c.raw.get("divisor_override") is not None:
        raise _Unsupported("avg_pool2d with divisor_override")
    if any(pad) and c.raw.get("count_include_pad", True):
        raise _Unsupported("avg_pool2d with padding and count_include_pad=True")
    pad = _pool_padding(c, x, shape, k, stride, pad)
    attrs = f"kernel_size = {_i64_array(k)}, strides = {_i64_array(stride)}, padding = {_i64_array(pad)}"
    return c.imp.op("avg_pool2d", [x], shape, dtype, attrs)


@_register(aten._adaptive_avg_pool2d, aten.adaptive_avg_pool2d)
def _adaptive_avg_pool(c: _Ctx):
    """Global (1x1) -> reduce_mean; static divisible sizes -> avg_pool2d."""
    shape, dtype = c.out()
    x = c.tensor("self")
    out = _pair(c.raw["output_size"])
    if out == [1, 1]:
        r = x.rank
        return c.imp.op("reduce_mean", [x], shape, dtype, f"axes = {_i64_array([r - 2, r - 1])}, keep_dims = true")
    h, w = x.shape[-2], x.shape[-1]
    if _is_static(h) and _is_static(w) and _static(h) % out[0] == 0 and _static(w) % out[1] == 0:
        k = [_static(h) // out[0], _static(w) // out[1]]
        return c.imp.op("avg_pool2d", [x], shape, dtype, f"kernel_size = {_i64_array(k)}")
    raise _Unsupported("adaptive_avg_pool2d with non-dividing sizes")


# -- factories --------------------------------------------------------------------------


@_register(aten.full, aten.full_like, aten.new_full)
def _full(c: _Ctx):
    shape, dtype = c.out()
    fill = c["fill_value"]
    if isinstance(fill, _S):
        return c.imp.broadcast(c.imp.scalar_tensor(fill, dtype), shape)
    return c.imp.const(fill, dtype, shape)


@_register(aten.zeros, aten.zeros_like, aten.new_zeros, aten.empty, aten.empty_like, aten.new_empty)
def _zeros(c: _Ctx):
    """zeros (and empty: any contents will do) -> a splat constant."""
    shape, dtype = c.out()
    return c.imp.const(0, dtype, shape)


@_register(aten.ones, aten.ones_like, aten.new_ones)
def _ones(c: _Ctx):
    shape, dtype = c.out()
    return c.imp.const(1, dtype, shape)


@_register(aten.scalar_tensor)
def _scalar_tensor_op(c: _Ctx):
    shape, dtype = c.out()
    return c.imp.scalar_tensor(c["s"], dtype)


@_register(aten.fill)
def _fill(c: _Ctx):
    shape, dtype = c.out()
    v = c["value"]
    if isinstance(v, _T):
        return c.imp.broadcast(c.imp.cast(v, dtype), shape)
    return c.imp.broadcast(c.imp.scalar_tensor(v, dtype), shape)


@_register(aten.flip)
def _flip(c: _Ctx):
    """torch.flip: a gather at (n - 1) - iota(n) along each flipped dim."""
    imp = c.imp
    shape, dtype = c.out()
    x = c.tensor("self")
    for d in sorted({_norm_dim(int(d), x.rank) for d in c.raw.get("dims")}):
        n = x.shape[d]
        ssa = imp.fresh()
        imp.emit(f"{ssa} = tcc.iota {imp.shape_operand((n,))} : (tensor<1xi64>) -> "
                 f"{_ttype((n,), torch.int64)}")
        idx = _T((imp.expr(n),), torch.int64, ssa=ssa)
        last = imp.scalar_tensor(_S(n - 1), torch.int64)
        idx = imp.op("sub", [last, idx], idx.shape, torch.int64)
        x = imp.op("gather", [x, idx], x.shape, dtype, f"axis = {d} : i64")
    return x


@_register(aten.arange)
def _arange(c: _Ctx):
    """Static aranges become dense constants; one of a symbolic length
    (torch.arange(x.size(1)): position ids) is start + step * tcc.iota,
    its length the output's size expression."""
    shape, dtype = c.out()
    start = c.get("start", 0)
    end = c.get("end")
    step = c.get("step", 1)
    if all(_is_static(d) for d in shape) and not any(isinstance(v, _S) for v in (start, end, step)):
        n = _static(shape[0])
        if n > 1 << 20:
            raise _Unsupported("arange too large to embed")
        vals = torch.arange(start, end, step, dtype=dtype if dtype != torch.bool else None)[:n]
        return c.imp.tensor_const(vals.to(dtype))
    if dtype == torch.bool:
        raise _Unsupported("a bool arange")
    imp = c.imp
    ssa = imp.fresh()
    length = imp.shape_operand(shape)
    ty = _ttype(shape, dtype)
    imp.emit(f"{ssa} = tcc.iota {length} : (tensor<1xi64>) -> {ty}")
    r = _T(tuple(imp.expr(d) for d in shape), dtype, ssa=ssa)
    if isinstance(step, _S) or step != 1:
        r = imp.op("mul", [r, imp.operand(step, dtype)], r.shape, dtype)
    if isinstance(start, _S) or start != 0:
        r = imp.op("add", [r, imp.operand(start, dtype)], r.shape, dtype)
    return r


@_register(aten.cumsum)
def _cumsum(c: _Ctx):
    """tcc.cumsum in the output dtype (PyTorch sums bools and small ints as
    int64)."""
    shape, dtype = c.out()
    x = c.tensor("self")
    if x.rank == 0:
        return c.imp.cast(x, dtype)
    axis = _norm_dim(c.int("dim"), x.rank)
    return c.imp.op("cumsum", [c.imp.cast(x, dtype)], shape, dtype, f"axis = {axis} : i64")


def _sort_along(c: _Ctx, x: _T, dim: int, descending: bool):
    """tcc.sort of x along dim: (values, indices, axis). Its order is
    stable (equal values by index) and puts NaN above +inf, PyTorch's."""
    imp = c.imp
    axis = _norm_dim(dim, x.rank)
    r = imp.fresh()
    ty, ity = _ttype(x.shape, x.dtype), _ttype(x.shape, torch.int64)
    flag = "true" if descending else "false"
    imp.emit(f"{r}:2 = tcc.sort {imp.use(x)} {{axis = {axis} : i64, descending = {flag}}}"
             f" : ({ty}) -> ({ty}, {ity})")
    return (_T(x.shape, x.dtype, ssa=f"{r}#0"), _T(x.shape, torch.int64, ssa=f"{r}#1"),
            axis)


@_register(aten.sort, aten.argsort)
def _sort(c: _Ctx):
    """torch.sort (stable or not: tcc's sort is stable) and argsort."""
    x = c.tensor("self")
    argsort = _packet(c.node.target) is aten.argsort
    descending = bool(c.get("descending", False))
    if x.rank == 0:
        zero = c.imp.tensor_const(torch.zeros((), dtype=torch.int64))
        return zero if argsort else [x, zero]
    values, indices, _ = _sort_along(c, x, c.int("dim", -1), descending)
    return indices if argsort else [values, indices]


@_register(aten.topk)
def _topk(c: _Ctx):
    """A static k is one tcc.topk (selection passes for a small k, else the
    first k of a sort); a SymInt k (SSD's min(u0, candidates)) is a
    tcc.sort gathered at iota(k), which checks k <= dim at run time."""
    imp = c.imp
    x = c.tensor("self")
    k = c.get("k")
    shape, _ = c.out(0)
    largest = bool(c.get("largest", True))
    if x.rank == 0:
        zero = imp.tensor_const(torch.zeros((), dtype=torch.int64))
        return [x, zero]
    if not isinstance(k, _S):
        axis = _norm_dim(c.int("dim", -1), x.rank)
        r = imp.fresh()
        ty = _ttype(x.shape, x.dtype)
        vty, ity = _ttype(shape, x.dtype), _ttype(shape, torch.int64)
        flag = "true" if largest else "false"
        imp.emit(f"{r}:2 = tcc.topk {imp.use(x)} {{axis = {axis} : i64, k = {int(k)} : i64, "
                 f"largest = {flag}}} : ({ty}) -> ({vty}, {ity})")
        out = tuple(imp.expr(d) for d in shape)
        return [_T(out, x.dtype, ssa=f"{r}#0"), _T(out, torch.int64, ssa=f"{r}#1")]
    values, indices, axis = _sort_along(c, x, c.int("dim", -1), largest)
    n = shape[axis]
    length = imp.shape_operand((n,))
    ssa = imp.fresh()
    imp.emit(f"{ssa} = tcc.iota {length} : (tensor<1xi64>) -> {_ttype((n,), torch.int64)}")
    pos = _T((imp.expr(n),), torch.int64, ssa=ssa)
    return [imp.op("gather", [values, pos], shape, x.dtype, f"axis = {axis} : i64"),
            imp.op("gather", [indices, pos], shape, torch.int64, f"axis = {axis} : i64")]


def _torchvision_ops():
    """torchvision's custom ops, when torchvision is installed (importing it
    registers torch.ops.torchvision)."""
    try:
        import torchvision  # noqa: F401
        return (torch.ops.torchvision.nms,)
    except Exception:
        return ()


@_register(*_torchvision_ops())
def _nms(c: _Ctx):
    """torchvision.ops.nms (batched_nms too, which offsets the boxes per
    class and calls it): one tcc.nms of a single batch and class, its box
    column. The kept indices by descending score, their count known once
    it has run."""
    imp = c.imp
    boxes, scores = c.tensor("dets"), c.tensor("scores")
    if boxes.dtype != scores.dtype:
        raise _Unsupported("nms of boxes and scores of different dtypes")
    shape, _ = c.out()
    n = boxes.shape[0]
    thr = float(c.get("iou_threshold"))
    b3 = imp.reshape(boxes, (1, n, 4))
    s3 = imp.reshape(scores, (1, 1, n))
    count = shape[0]
    sel = imp.data_dependent(imp.op("nms", [b3, s3], (count, 3), torch.int64,
                                    f"iou_threshold = {thr!r} : f64"))
    col = imp.slice(sel, [0, 2], [INT64_MAX, 3], [1, 1], (count, 1))
    return imp.reshape(col, (count,))


# ---------------------------------------------------------------------------
# Size arithmetic and other nodes without tensor results
# ---------------------------------------------------------------------------

_SYM_TARGETS = {
    operator.add,
    operator.sub,
    operator.mul,
    operator.floordiv,
    operator.truediv,
    operator.mod,
    operator.neg,
    operator.pow,
    operator.eq,
    operator.ne,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.and_,
    operator.or_,
    torch.sym_int,
    torch.sym_float,
    torch.sym_max,
    torch.sym_min,
    torch.sym_not,
    torch.sym_ite,
    math.floor,
    math.ceil,
}
_SYM_ATEN = {aten.sym_size, aten.sym_numel, aten.sym_stride, aten.sym_storage_offset}

# Runtime assertions Dynamo already guarded: nothing to emit.
_IGNORED = {
    aten._assert_scalar,
    aten._assert_async,
    aten.sym_constrain_range_for_size,
    aten.sym_constrain_range,
    aten._assert_tensor_metadata,
    getattr(aten, "_functional_assert_scalar", aten._assert_scalar),
}


def _is_sym_node(node: torch.fx.Node) -> bool:
    t = node.target
    if t in _SYM_TARGETS:
        return True
    if isinstance(t, torch._ops.OpOverload) and t.overloadpacket in _SYM_ATEN:
        return True
    return isinstance(node.meta.get("val"), (torch.SymInt, torch.SymFloat, torch.SymBool)) and not isinstance(
        t, torch._ops.OpOverload
    )


def _poison(imp: _Importer, m):
    """A stand-in for an unsupported node's result, so later nodes still run."""
    if isinstance(m, torch.Tensor):
        return _T(tuple(imp.expr(d) for d in m.shape), m.dtype, ssa="%unsupported", poison=True)
    if isinstance(m, (list, tuple)):
        return [_poison(imp, x) for x in m]
    if isinstance(m, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return _S(_sym_expr(m))
    return m


def _has_poison(v) -> bool:
    if isinstance(v, _T):
        return v.poison
    if isinstance(v, (list, tuple)):
        return any(_has_poison(x) for x in v)
    if isinstance(v, _Lazy):
        return v.done and _has_poison(v.value)
    return False


def _get_attr(gm, target: str):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _expr_text(e) -> str:
    """A size expression in tcc.shape / tcc.constraints syntax."""
    if isinstance(e, int) or (isinstance(e, sympy.Expr) and e.is_Integer):
        return str(int(e))
    if isinstance(e, sympy.Symbol):
        return e.name
    if isinstance(e, sympy.Add):
        out = ""
        for i, term in enumerate(sorted(e.args, key=lambda t: t.is_number)):
            coeff, rest = term.as_coeff_Mul()
            if coeff < 0:
                txt = _expr_text(-term)
                out += (" - " if i else "-") + (f"({txt})" if isinstance(-term, sympy.Add) else txt)
            else:
                txt = _expr_text(term)
                out += (" + " if i else "") + txt
        return out
    if isinstance(e, sympy.Mul):
        return " * ".join(f"({_expr_text(a)})" if isinstance(a, sympy.Add) else _expr_text(a) for a in e.args)
    if isinstance(e, sympy.Pow) and e.exp.is_Integer and int(e.exp) > 0:
        return " * ".join([f"({_expr_text(e.base)})"] * int(e.exp))
    name = type(e).__name__
    if name in ("FloorDiv", "CleanDiv") and e.args[1].is_Integer and int(e.args[1]) > 0:
        return f"({_expr_text(e.args[0])}) floordiv {int(e.args[1])}"
    if name in ("Mod", "PythonMod") and e.args[1].is_Integer and int(e.args[1]) > 0:
        return f"({_expr_text(e.args[0])}) mod {int(e.args[1])}"
    raise _Unsupported(f"size expression {e} has no tcc.shape form")


def _run(imp: _Importer) -> ImportedGraph:
    gm = imp.gm
    nodes = list(gm.graph.nodes)
    placeholders = [n for n in nodes if n.op == "placeholder"]

    def fail(node, reason):
        imp.unsupported.append((_target_name(node.target) if node.op != "placeholder" else "placeholder", reason))
        imp.unsupported_nodes.append(node.name)

    # -- arguments ----------------------------------------------------------------------
    args_text = []
    tensor_inputs = []
    for pos, node in enumerate(placeholders):
        m = node.meta.get("val")
        if m is None and pos < len(imp.example_inputs):
            m = imp.example_inputs[pos]
        if isinstance(m, torch.Tensor):
            shape = tuple(imp.expr(d) for d in m.shape)
            try:
                _mlir_elem(m.dtype)
            except _Unsupported as e:
                fail(node, str(e))
                imp.env[node] = _poison(imp, m)
                continue
            ssa = f"%arg{len(tensor_inputs)}"
            t = _T(shape, m.dtype, ssa=ssa, arg=pos)
            imp.env[node] = t
            for d, s in enumerate(shape):
                if isinstance(s, sympy.Symbol) and s not in imp.sym_source:
                    imp.sym_source[s] = (t, d)
            tensor_inputs.append(pos)
        elif isinstance(m, (torch.SymInt, torch.SymFloat, torch.SymBool, int, float, bool)) or m is None:
            imp.env[node] = _S(imp.expr(m)) if m is not None else None
        else:
            fail(node, f"placeholder of type {type(m).__name__}")
            imp.env[node] = None

    # Symbols: named by sympy names, in order of first appearance.
    symbols: dict[str, tuple[int, int | None]] = {}
    symbol_sources: dict[str, tuple[int, int]] = {}
    for sym, (t, d) in imp.sym_source.items():
        symbols[sym.name] = imp.symbol_range(sym)
        symbol_sources[sym.name] = (t.arg, d)

    for pos, node in enumerate(placeholders):
        t = imp.env.get(node)
        if not isinstance(t, _T) or t.poison:
            continue
        attrs = []
        if not all(_is_static(d) for d in t.shape):
            try:
                for s in t.shape:
                    if not _is_static(s):
                        unknown = [x for x in s.free_symbols if x not in imp.sym_source]
                        if unknown:
                            raise _Unsupported(
                                f"input dim {s} uses symbols {unknown} that no input dim carries alone"
                            )
                entries = ", ".join(_expr_text(s) for s in t.shape)
                attrs.append(f"tcc.shape = #tcc.shape<[{entries}]>")
            except _Unsupported as e:
                fail(node, str(e))
        attrs.append(f'tcc.name = "{node.name}"')
        args_text.append(f"{t.ssa}: {_ttype(t.shape, t.dtype)} {{{', '.join(attrs)}}}")

    # -- body -----------------------------------------------------------------------------
    debug = bool(os.environ.get("TCC_FX_IMPORTER_DEBUG"))
    output_node = None
    for node in nodes:
        if node.op == "placeholder":
            continue
        if node.op == "output":
            output_node = node
            continue
        try:
            if node.op == "get_attr":
                v = _get_attr(gm, node.target)
                if isinstance(v, torch.Tensor):
                    imp.env[node] = imp.tensor_const(v)
                else:
                    raise _Unsupported(f"get_attr of {type(v).__name__}")
                continue
            if node.op != "call_function":
                raise _Unsupported(f"{node.op} nodes are not supported")
            target = node.target
            if target is operator.getitem:
                src = imp.env[node.args[0]]
                item = src[node.args[1]]
                imp.env[node] = item.force() if isinstance(item, _Lazy) else item
                continue
            if _packet(target) in _IGNORED:
                imp.env[node] = None
                continue
            if _is_sym_node(node):
                m = node.meta.get("val")
                if m is None:
                    raise _Unsupported("size computation without meta['val']")
                imp.env[node] = _S(imp.expr(m))
                continue
            handler = HANDLERS.get(_packet(target))
            if handler is None:
                raise _Unsupported("no tcc lowering for this op")
            result = handler(_Ctx(imp, node))
            imp.env[node] = result
        except Exception as e:  # noqa: BLE001 - every failure becomes a report entry
            if debug and not isinstance(e, _Unsupported):
                raise
            inputs_poisoned = any(_has_poison(imp.env.get(a)) for a in node.all_input_nodes)
            if not inputs_poisoned:
                reason = str(e) if isinstance(e, _Unsupported) else f"importer error: {type(e).__name__}: {e}"
                fail(node, reason)
            try:
                imp.env[node] = _poison(imp, node.meta.get("val"))
            except Exception:
                imp.env[node] = None
            if isinstance(imp.env[node], _T):
                imp.env[node].poison = True

    # -- outputs --------------------------------------------------------------------------
    outputs: list = []
    results: list[_T] = []
    result_index: dict[str, int] = {}
    symint_exprs: dict[str, Any] = {}
    placeholder_pos = {n: i for i, n in enumerate(placeholders)}
    out_args = output_node.args[0] if output_node is not None else ()
    if not isinstance(out_args, (list, tuple)):
        out_args = (out_args,)
    for o in out_args:
        try:
            if o is None:
                outputs.append(("none", None))
                continue
            if not isinstance(o, torch.fx.Node):
                outputs.append(("const", o))
                continue
            if o.op == "placeholder" and isinstance(imp.env.get(o), _T):
                outputs.append(("input", placeholder_pos[o]))
                continue
            v = imp.env.get(o)
            if isinstance(v, _S):
                e = imp.expr(v.expr)
                if isinstance(e, int):
                    outputs.append(("const", e))
                else:
                    missing = [s for s in e.free_symbols if s.name not in symbol_sources]
                    if missing:
                        raise _Unsupported(f"output size {e} uses symbols no tensor input carries")
                    text = str(e)
                    symint_exprs[text] = e
                    outputs.append(("symint", text))
                continue
            if not isinstance(v, _T):
                raise _Unsupported(f"graph output of type {type(v).__name__}")
            if v.poison:
                outputs.append(("result", -1))
                continue
            ssa = imp.use(v)
            if ssa not in result_index:
                result_index[ssa] = len(results)
                results.append(v)
            outputs.append(("result", result_index[ssa]))
        except Exception as e:  # noqa: BLE001
            if debug and not isinstance(e, _Unsupported):
                raise
            imp.unsupported.append(("output", str(e)))
            imp.unsupported_nodes.append(o.name if isinstance(o, torch.fx.Node) else "")

    if imp.unsupported:
        raise UnsupportedGraph(imp.unsupported, imp.unsupported_nodes)

    # -- function text --------------------------------------------------------------------
    res_types = [_ttype(r.shape, r.dtype) for r in results]
    constraints = []
    for name, (lo, hi) in symbols.items():
        constraints.append(f"{lo} <= {name}" + (f" <= {hi}" if hi is not None else ""))
    fattrs = ""
    if constraints:
        fattrs = " attributes {tcc.constraints = [" + ", ".join(f'"{c}"' for c in constraints) + "]}"
    sig_args = ",\n      ".join(args_text)
    ret = f"({', '.join(res_types)})"
    lines = [
        "module {",
        f"  func.func @{imp.func_name}({sig_args})\n      -> {ret}{fattrs} {{",
        *imp.lines,
    ]
    if results:
        lines.append(f"    return {', '.join(r.ssa for r in results)} : {', '.join(res_types)}")
    else:
        lines.append("    return")
    lines += ["  }", "}", ""]
    return ImportedGraph(
        mlir="\n".join(lines),
        func_name=imp.func_name,
        tensor_inputs=tensor_inputs,
        symbols=symbols,
        outputs=outputs,
        dtypes=[r.dtype for r in results],
        symbol_sources=symbol_sources,
        _symint_exprs=symint_exprs,
    )


def import_graph(gm: torch.fx.GraphModule, example_inputs: list, func_name: str = "forward") -> ImportedGraph:
    """Translates an AOTAutograd forward graph into tcc MLIR.

    Raises UnsupportedGraph listing every node tcc cannot take. Runs with
    the compile's FakeTensorMode switched off, as constants are real tensors.
    """
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    with unset_fake_temporarily():
        return _run(_Importer(gm, example_inputs, func_name))


# ---------------------------------------------------------------------------
# Decompositions
# ---------------------------------------------------------------------------


# Ops outside core ATen's table whose decompositions (torch._decomp) land
# on ops with handlers here: clamp, where/mul/expm1, expand/permute/view,
# full/cat, var_mean/rsqrt/views.
_EXTRA_DECOMPOSED = (
    aten.hardtanh,
    aten.leaky_relu,
    aten.elu,
    aten.repeat,
    aten.constant_pad_nd,
    aten.native_group_norm,
)


def _build_decompositions() -> dict:
    """Core ATen decompositions minus every op with a handler here, plus
    _EXTRA_DECOMPOSED.

    Ops tcc takes whole (layer_norm, gelu, softmax, addmm, sdpa, t, unbind,
    split, silu, ...) stay as they are so that they become one tcc op each;
    the rest (hardswish, softplus, baddbmm, addcmul, masked_fill, stack, ...)
    are decomposed into ops that have handlers.
    """
    from torch._decomp import core_aten_decompositions, decomposition_table

    out = {}
    for op, fn in core_aten_decompositions().items():
        if _packet(op) not in HANDLERS:
            out[op] = fn
    for op, fn in decomposition_table.items():
        if isinstance(op, torch._ops.OpOverload) and op.overloadpacket in _EXTRA_DECOMPOSED:
            out.setdefault(op, fn)
    from .decompositions import FAST_PATH_DECOMPOSITIONS
    out.update(FAST_PATH_DECOMPOSITIONS)
    return out


DECOMPOSITIONS: dict = _build_decompositions()
