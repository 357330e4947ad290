"""tcc as a torch.compile backend.

    model = torch.compile(model, backend=tcc.dynamo_backend)
    torch._dynamo.mark_dynamic(x, 0)      # batch: a tcc size symbol
    y = model(x)

Dynamo captures the graph; AOTAutograd lowers it to aten ops
(functionalized, with DECOMPOSITIONS applied); fx_importer turns that into
a tcc function whose dynamic dims are size symbols with Dynamo's ranges;
tcc JIT-compiles it once for every size in range. A graph with ops tcc
does not take runs eagerly instead, with a TCCFallbackWarning that lists
each op and why (and a record in `stats`).
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
import weakref
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger("tcc.dynamo")


class TCCFallbackWarning(UserWarning):
    """A graph (or part) runs in eager PyTorch instead of tcc."""


@dataclass
class GraphRecord:
    """What the backend did with one graph."""
    name: str
    status: str                   # "compiled", "partitioned" or "fallback"
    reason: str = ""              # why it fell back
    import_seconds: float = 0.0   # FX -> tcc IR
    compile_seconds: float = 0.0  # tcc IR -> machine code (0 on a cache hit)
    cache_hit: bool = False
    symbols: dict = field(default_factory=dict)
    mlir: str = ""
    eager_ops: list = field(default_factory=list)  # ops left in PyTorch
    frozen: int = 0               # parameters and buffers bound as constants


#: One record per graph the backend was given, in order.
stats: list[GraphRecord] = []
_cache: dict[tuple[str, str, str], Any] = {}
_lock = threading.Lock()


def reset() -> None:
    """Forgets the records and the compiled-graph cache."""
    with _lock:
        stats.clear()
        _cache.clear()


def library_key(mlir: str, target: str, options) -> str:
    """The name a graph's library has in a library_dir: a hash of its tcc
    IR, the target and the options."""
    from . import _api
    text = "\0".join([mlir, target, _api._options_string(options)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _compile(module, target, options, library_dir, key_text=None):
    """An Executable (cpu JIT) or a Library (ahead of time) of `module`
    (tcc IR text or a Module), from library_dir when it already holds the
    library named by library_key(key_text()) (default: the text itself)."""
    from . import _api
    if library_dir is None:
        return _api.compile(module, target=target, options=options)
    text = key_text() if key_text else module
    path = Path(library_dir) / f"lib{library_key(text, target, options)}.so"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _api.build_library(module, target=target, options=options,
                           output=path)
    return _api.load_library(path)


def _compile_graph(gm, example_inputs, options, fallback: bool, name: str,
                   target: str = "cpu", library_dir=None,
                   frozen: frozenset = frozenset()):
    """A boxed callable for AOTAutograd (it takes the argument list, so
    AOTAutograd can drop its references early). A graph with nodes tcc
    cannot take is partitioned (with fallback): its supported subgraphs run
    in tcc, the rest in PyTorch between them. `frozen`: the positions of
    the inputs bound as constants (parameters and buffers in inference)."""
    from torch._functorch.aot_autograd import make_boxed_func
    from .fx_importer import UnsupportedGraph

    try:
        run, record = _compile_whole(gm, example_inputs, options, name,
                                     target, library_dir, frozen, fallback)
    except _CompileFailure as e:
        if not fallback:
            raise e.error
        stats.append(e.record)
        if isinstance(e.error, UnsupportedGraph):
            run = _compile_partitioned(gm, e.error, e.record, options, name,
                                       target, library_dir, frozen)
            return make_boxed_func(run)
        warnings.warn(f"tcc: graph {name} runs in eager PyTorch: tcc could "
                      f"not compile it: {e.error}", TCCFallbackWarning,
                      stacklevel=3)
        return make_boxed_func(gm.forward)
    stats.append(record)
    return make_boxed_func(run)


class _CompileFailure(Exception):
    def __init__(self, error, record):
        super().__init__(str(error))
        self.error, self.record = error, record


def _compile_whole(gm, example_inputs, options, name, target, library_dir,
                   frozen=frozenset(), fallback=True):
    """(runner, record) for a graph tcc takes whole; raises _CompileFailure
    carrying the UnsupportedGraph or TCCError and a fallback record. With
    frozen inputs, the graph is compiled at its first call, for the values
    it is called with (_FrozenGraph)."""
    import torch
    from . import _api
    from .fx_importer import UnsupportedGraph, import_graph

    start = time.perf_counter()
    try:
        imported = import_graph(gm, example_inputs, func_name="forward")
    except UnsupportedGraph as e:
        raise _CompileFailure(e, GraphRecord(
            name, "fallback", str(e), time.perf_counter() - start,
            eager_ops=sorted({op for op, _ in e.ops}))) from None
    imported_at = time.perf_counter()

    frozen_args = [k for k, pos in enumerate(imported.tensor_inputs)
                   if pos in frozen]
    if frozen_args:
        record = GraphRecord(name, "compiled", "", imported_at - start,
                             symbols=dict(imported.symbols),
                             mlir=imported.mlir, frozen=len(frozen_args))
        graph = _FrozenGraph(imported, frozen_args, gm, record, target,
                             options, library_dir, fallback)
        return graph, record

    key = (imported.mlir, target, _api._options_string(options))
    with _lock:
        exe = _cache.get(key)
    hit = exe is not None
    if not hit:
        try:
            exe = _compile(imported.mlir, target, options, library_dir)
        except _api.TCCError as e:
            raise _CompileFailure(e, GraphRecord(
                name, "fallback", str(e), imported_at - start,
                mlir=imported.mlir)) from None
        with _lock:
            _cache[key] = exe
    log.info("tcc: compiled graph %s (symbols %s)", name, imported.symbols)
    record = GraphRecord(name, "compiled", "", imported_at - start,
                         time.perf_counter() - imported_at, hit,
                         dict(imported.symbols), imported.mlir)
    return _make_runner(exe, imported, torch), record


class _FrozenGraph:
    """A graph whose parameters and buffers are constants (as Inductor's
    freezing makes them): compiled at the first call, for the tensors that
    call passes, so that convolutions and linears get prepacked weights and
    batch norms fold into them. A later call whose frozen tensors are other
    tensors, or were written in place (their version counter moved) or
    given new storage, compiles again for the new values (the compile cache
    keeps both)."""

    def __init__(self, imported, frozen_args, gm, record, target, options,
                 library_dir, fallback):
        self.imported, self.gm, self.record = imported, gm, record
        self.target, self.options = target, options
        self.library_dir, self.fallback = library_dir, fallback
        self.frozen_args = frozen_args
        inputs = imported.tensor_inputs
        self.frozen_positions = [inputs[k] for k in frozen_args]
        frozen = set(frozen_args)
        self.live_inputs = [p for k, p in enumerate(inputs)
                            if k not in frozen]
        self.run = None
        self.bound: list = []   # (weakref, version, data_ptr) per frozen input

    def _current(self, args) -> bool:
        for pos, (ref, version, ptr) in zip(self.frozen_positions,
                                            self.bound):
            a = args[pos]
            if ref() is not a or a._version != version or a.data_ptr() != ptr:
                return False
        return True

    def _bind(self, args):
        # Weak references: the compiled graph must not keep a deleted
        # model's weights alive.
        self.bound = [(weakref.ref(args[p]), args[p]._version,
                       args[p].data_ptr()) for p in self.frozen_positions]

    def _build(self, args):
        import torch
        from . import _api
        tensors = [args[p].detach() for p in self.frozen_positions]
        for pos, t in zip(self.frozen_positions, tensors):
            if t.device.type != "cpu" and self.target == "cpu":
                raise _api.TCCError(f"input {pos} is on {t.device}: the cpu "
                                    "target takes CPU tensors")
        start = time.perf_counter()
        module = _api.parse(self.imported.mlir)
        module.freeze_arguments(
            self.imported.func_name,
            dict(zip(self.frozen_args, (t.cpu() for t in tensors))))
        # A library's name hashes the weights' bytes too.
        exe = _compile(module, self.target, self.options, self.library_dir,
                       lambda: self.imported.mlir + "\0frozen "
                       + _weights_digest(tensors))
        self.record.compile_seconds += time.perf_counter() - start
        self.run = _make_runner(exe, self.imported, torch, self.live_inputs)
        self._bind(args)

    def __call__(self, *args):
        if self.run is None or not self._current(args):
            if self.run is not None:
                log.info("tcc: graph %s: a frozen parameter changed; "
                         "compiling again", self.record.name)
            try:
                self._build(args)
            except Exception as e:  # noqa: BLE001 - TCCError and bad inputs
                if not self.fallback:
                    raise
                self.record.status, self.record.reason = "fallback", str(e)
                warnings.warn(f"tcc: graph {self.record.name} runs in eager "
                              f"PyTorch: tcc could not compile it: {e}",
                              TCCFallbackWarning, stacklevel=2)
                self.run = self.gm.forward
                self._bind(args)
        return self.run(*args)


def _weights_digest(tensors) -> str:
    """A hash of the frozen tensors' bytes: part of a library's name."""
    import torch
    h = hashlib.sha256()
    for t in tensors:
        t = t.detach().cpu().contiguous()
        h.update(str((tuple(t.shape), t.dtype)).encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().data)
    return h.hexdigest()[:24]


# Ops that move or view data and compute nothing: a partition of only these
# stays in PyTorch (a tcc call for a view costs more than the view).
_VIEW_OPS = {
    "view", "_unsafe_view", "reshape", "expand", "permute", "t", "transpose",
    "squeeze", "unsqueeze", "slice", "select", "alias", "clone", "detach",
    "getitem", "sym_size", "sym_numel", "sym_stride", "lift_fresh_copy",
    "unbind", "split", "split_with_sizes",
}


def _op_name(node) -> str:
    t = node.target
    if hasattr(t, "overloadpacket"):
        return t.overloadpacket.__name__
    return getattr(t, "__name__", str(t))


def _compile_partitioned(gm, unsupported_error, record, options, name,
                         target, library_dir, frozen=frozenset()):
    """Partitions gm around the nodes tcc cannot take
    (torch.fx's CapabilityBasedPartitioner), compiles every partition that
    computes something in tcc and leaves the rest to PyTorch. A partition
    whose import finds further unsupported nodes (a node downstream of an
    unsupported one is only checked once its inputs are known) moves those
    nodes out and the graph is partitioned again."""
    import copy
    import torch
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupport
    from torch.fx.passes.utils.fuser_utils import fuse_by_partitions
    from .fx_importer import UnsupportedGraph

    reasons: dict[str, str] = {}     # node name -> why it stays in PyTorch

    def add_unsupported(error: UnsupportedGraph):
        for (op, reason), node in zip(error.ops, error.nodes):
            if node:
                reasons.setdefault(node, f"{op}: {reason}")

    add_unsupported(unsupported_error)

    class Support(OperatorSupport):
        def is_node_supported(self, submodules, node):
            return node.op == "call_function" and node.name not in reasons

    for _ in range(16):
        parent = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
        partitioner = CapabilityBasedPartitioner(
            parent, Support(), allows_single_node_partition=True)
        partitions = [p for p in partitioner.propose_partitions()
                      if any(n.op == "call_function" and
                             _op_name(n) not in _VIEW_OPS for n in p.nodes)]
        if not partitions:
            break
        parent = fuse_by_partitions(parent, [p.nodes for p in partitions],
                                    prefix="tcc_", always_return_tuple=True)
        subs, retry = [], False
        # A partition's input is frozen where it is a frozen input of gm.
        position = {n.name: i for i, n in enumerate(
            parent.graph.find_nodes(op="placeholder"))}
        calls = {n.target: n for n in parent.graph.nodes
                 if n.op == "call_module"}
        for child_name, child in parent.named_children():
            if not child_name.startswith("tcc_"):
                continue
            args = [n.meta.get("val") for n in child.graph.nodes
                    if n.op == "placeholder"]
            child_frozen = frozenset(
                i for i, a in enumerate(calls[child_name].args)
                if isinstance(a, torch.fx.Node) and a.op == "placeholder"
                and position.get(a.name) in frozen)
            try:
                run, sub_record = _compile_whole(
                    child, args, options, f"{name}.{child_name}", target,
                    library_dir, child_frozen)
            except _CompileFailure as e:
                if isinstance(e.error, UnsupportedGraph):
                    before = len(reasons)
                    add_unsupported(e.error)
                    if len(reasons) > before:
                        retry = True
                        break
                # A partition tcc cannot compile runs in PyTorch whole.
                for n in child.graph.nodes:
                    if n.op == "call_function":
                        reasons.setdefault(n.name, f"{_op_name(n)}: {e.error}")
                retry = True
                break
            subs.append((child_name, run, sub_record))
        if retry:
            continue
        for child_name, run, sub_record in subs:
            setattr(parent, child_name, _partition_module(run))
            stats.append(sub_record)
        parent.recompile()
        break
    else:
        parent = gm
    compiled = sum(1 for c, _ in parent.named_children() if c.startswith("tcc_"))
    eager = [n for n in parent.graph.nodes
             if not n.name.startswith("tcc_") and (
                 n.name in reasons or (n.op == "call_function"
                                       and _op_name(n) not in _VIEW_OPS))]
    record.status = "partitioned" if compiled else "fallback"
    record.eager_ops = sorted({_op_name(n) for n in eager})
    islands = "; ".join(sorted({reasons.get(n.name, _op_name(n)).splitlines()[0]
                                for n in eager}))
    record.reason = (f"{compiled} subgraph(s) in tcc; in PyTorch: {islands}"
                     if compiled else f"all in PyTorch: {islands}")
    warnings.warn(f"tcc: graph {name} is partitioned: {record.reason}"
                  if compiled else f"tcc: graph {name} runs in eager PyTorch: "
                  f"{unsupported_error}", TCCFallbackWarning, stacklevel=4)
    return parent.forward


def _partition_module(run):
    """A tcc-compiled partition as the parent graph's call_module target:
    torch.fx calls it with the partition's inputs; it returns the tuple of
    its outputs."""
    import torch

    class TCCPartition(torch.nn.Module):
        def forward(self, *args):
            return tuple(run(*args))

    return TCCPartition()


def _make_runner(exe, imported, torch, tensor_inputs=None) -> Callable:
    """Calls exe's function on the runtime args at `tensor_inputs` (the
    imported graph's, less any frozen ones)."""
    from ._api import Library, TCCError

    func = imported.func_name
    tensor_inputs = list(imported.tensor_inputs if tensor_inputs is None
                         else tensor_inputs)

    bf16 = [dt == torch.bfloat16 for dt in imported.dtypes]

    def to_torch(array, k):
        t = torch.from_numpy(array)
        return t.view(torch.bfloat16) if bf16[k] else t

    if isinstance(exe, Library):
        # A tcc-compile library: a cuda one takes the CUDA tensors in place
        # (on PyTorch's stream) and returns CUDA tensors, a cpu one numpy
        # arrays.
        def run_library(*args):
            results = exe.run(func, *(args[i] for i in tensor_inputs))
            if not exe.on_device:
                results = [to_torch(r, k) for k, r in enumerate(results)]
            return imported.output_values(args, results)
        return run_library

    # Views of the same tensors (parameters, buffers) are reused from call
    # to call: building an array view costs microseconds, and a 1 kHz
    # policy passes a dozen weights. A view aliases the tensor's storage, so
    # in-place updates stay visible; another tensor, storage or shape is a
    # miss.
    views: dict[int, tuple] = {}

    def as_array(i, t):
        hit = views.get(i)
        if (hit is not None and hit[0]() is t and hit[1] == t.data_ptr()
                and hit[3] == t.shape):
            return hit[2]
        if t.device.type != "cpu":
            raise TCCError(f"input {i} is on {t.device}: the cpu target "
                           "takes CPU tensors (make_backend(target='cuda') "
                           "for CUDA tensors)")
        if not t.is_contiguous():
            return t.contiguous()  # a dense copy, passed through DLPack
        d = t.detach()
        if d.dtype == torch.bfloat16:
            return d  # numpy has no bf16: DLPack carries it
        array = d.numpy()
        views[i] = (weakref.ref(t), t.data_ptr(), array, t.shape)
        return array

    def run(*args):
        ins = [as_array(i, args[i]) for i in tensor_inputs]
        results = exe.run(func, *ins)
        return imported.output_values(
            args, [to_torch(r, k) for k, r in enumerate(results)])

    return run


def _frozen_inputs(example_inputs) -> frozenset:
    """The positions of the forward graph's parameters and buffers that the
    graph does not write or return (AOTAutograd's static inputs, less the
    mutated and aliased ones, as Inductor's freezing picks them)."""
    import torch
    from torch._functorch._aot_autograd.input_output_analysis import (
        INPUT_ALIAS_TYPES)
    from torch._functorch.aot_autograd import MutationType
    ctx = torch._guards.TracingContext.try_get()
    meta = ctx.fw_metadata if ctx is not None else None
    if meta is None:
        return frozenset()
    kept = {i for i, m in enumerate(meta.input_info)
            if m.mutation_type in (MutationType.MUTATED_IN_GRAPH,
                                   MutationType.MUTATED_OUT_GRAPH)}
    kept |= {o.base_idx for o in meta.output_info
             if o.base_idx is not None and o.output_type in INPUT_ALIAS_TYPES}
    return frozenset(
        i for i in meta.static_input_indices
        if i not in kept and i < len(example_inputs)
        and isinstance(example_inputs[i], torch.Tensor))


def make_backend(*, target: str = "cpu",
                 options: dict[str, Any] | str | None = None,
                 fallback: bool = True,
                 library_dir: str | Path | None = None,
                 freeze: bool | None = None) -> Callable:
    """A torch.compile backend.

    target="cpu" JIT-compiles each graph with the cpu pipeline (`options`
    as tcc.compile takes them). target="cuda" builds each graph into a
    cuda library in process (`options`: the cuda pipeline's, e.g.
    {"chip": "sm_90"}) and calls it on the CUDA tensors in place, on
    PyTorch's current stream: it needs an NVIDIA GPU on the same machine
    (benchmarks/gpu/prepare_dynamo_check.py checks the same libraries on a
    GPU machine without MLIR). With fallback=False, a graph tcc cannot take
    raises instead of running eagerly.

    library_dir: graphs become shared libraries kept there, named by
    library_key (the graph's tcc IR, target and options); a graph whose
    library is already there is loaded without compiling. Libraries built
    where tcc is serve a machine that has none (a GPU machine
    without MLIR), and a later process starts without compiling.

    freeze: parameters and buffers become constants of the compiled code
    (prepacked weights, batch norms folded into convolutions), bound at
    the graph's first call; a later call with a parameter written in place
    or replaced compiles again. None (the default) freezes graphs traced
    without grad (torch.no_grad, torch.inference_mode), the inference
    case; False passes them as arguments on every call."""
    if target not in ("cpu", "cuda"):
        raise ValueError(f"unknown target '{target}' (expected cpu or cuda)")
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func
    from .fx_importer import DECOMPOSITIONS

    import torch
    counter = [0]
    freezing = threading.local()

    def fw_compiler(gm, example_inputs):
        counter[0] += 1
        frozen = (_frozen_inputs(example_inputs)
                  if getattr(freezing, "on", False) else frozenset())
        return _compile_graph(gm, example_inputs, options, fallback,
                              f"#{counter[0]}", target, library_dir, frozen)

    # Backward graphs (grad enabled) run eagerly: tcc is an inference
    # compiler and has no lowering for the *_backward ops.
    # nn.GRU / nn.RNN as one op each, not unrolled (tcc/recurrences.py).
    from .recurrences import TCC_BACKEND_ATTR, install
    install()
    aot = aot_autograd(fw_compiler=fw_compiler,
                       bw_compiler=lambda gm, example_inputs:
                       make_boxed_func(gm.forward),
                       decompositions=DECOMPOSITIONS)

    def backend(gm, example_inputs, **kwargs):
        # Grad mode as the caller traced (AOTAutograd changes it inside).
        freezing.on = (not torch.is_grad_enabled() if freeze is None
                       else freeze)
        try:
            return aot(gm, example_inputs, **kwargs)
        finally:
            freezing.on = False

    setattr(backend, TCC_BACKEND_ATTR, True)
    return backend


class _LazyBackend:
    """`tcc.dynamo_backend` without importing torch at `import tcc`."""

    def __init__(self):
        self._backend = None

    def __call__(self, gm, example_inputs, **kwargs):
        if self._backend is None:
            self._backend = make_backend()
        return self._backend(gm, example_inputs, **kwargs)

    __name__ = "tcc"
    _tcc_backend = True  # recurrences.TCC_BACKEND_ATTR


dynamo_backend = _LazyBackend()
