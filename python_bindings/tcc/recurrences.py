"""nn.GRU and nn.RNN kept whole through Dynamo and AOTAutograd.

torch._decomp registers Python kernels for `aten.gru.input`,
`aten.rnn_tanh.input` and `aten.rnn_relu.input` (at the Autograd,
CompositeImplicitAutograd and Meta keys): whenever the Python dispatcher
is on — Dynamo's fake-tensor tracing, AOTAutograd's — they unroll the
recurrence step by step, a Python loop over the sequence that fixes its
length (a reversed direction adds `flip`s). nn.LSTM escapes this on the
CPU through `mkldnn_rnn_layer`; GRU and RNN do not.

`install()` (called when a tcc backend is made) wraps them in kernels
that call the custom ops `tcc::gru`, `tcc::rnn_tanh`, `tcc::rnn_relu`,
of the same signature, while Dynamo traces for a tcc backend: a fake
kernel gives their shapes (and eager PyTorch's strides) without looking at
the length, and called eagerly (a graph partly in PyTorch) they run
PyTorch's own kernel. The FX importer maps them to `tcc.gru` / `tcc.rnn`
per layer and direction, the sequence length dynamic. Any other tracing
in the process (Inductor, torch.export, make_fx) gets PyTorch's own
decomposition, as without tcc.
"""
from __future__ import annotations

import torch


def _define(name: str, vf):
    @torch.library.custom_op(f"tcc::{name}", mutates_args=())
    def op(input: torch.Tensor, hx: torch.Tensor, params: list[torch.Tensor],
           has_biases: bool, num_layers: int, dropout: float, train: bool,
           bidirectional: bool, batch_first: bool) -> tuple[torch.Tensor, torch.Tensor]:
        y, h = vf(input, hx, params, has_biases, num_layers, dropout, train,
                  bidirectional, batch_first)
        if batch_first:  # the fake kernel's layout, whatever the backend's
            y = y.transpose(0, 1).contiguous().transpose(0, 1)
        return y, h.contiguous()

    @op.register_fake
    def _(input, hx, params, has_biases, num_layers, dropout, train,
          bidirectional, batch_first):
        # [T, B] or [B, T] as the input has them, both directions' states;
        # batch-first outputs are a transposed [T, B] buffer, as eager's.
        dirs = 2 if bidirectional else 1
        t, b = (1, 0) if batch_first else (0, 1)
        y = input.new_empty((input.shape[t], input.shape[b],
                             dirs * hx.shape[-1]))
        if batch_first:
            y = y.transpose(0, 1)
        return y, hx.new_empty(hx.shape)

    return op


gru = _define("gru", torch._VF.gru)
rnn_tanh = _define("rnn_tanh", torch._VF.rnn_tanh)
rnn_relu = _define("rnn_relu", torch._VF.rnn_relu)

OPS = (torch.ops.tcc.gru, torch.ops.tcc.rnn_tanh, torch.ops.tcc.rnn_relu)
_INSTALLED = []

# The marker make_backend puts on the backends it returns.
TCC_BACKEND_ATTR = "_tcc_backend"


def _backend_chain(fn):
    """fn and what it wraps: Dynamo hands torch.compile's backend on
    through wrappers (_TorchCompileWrapper, WrapBackendDebug, ...)."""
    seen = set()
    while fn is not None and id(fn) not in seen:
        seen.add(id(fn))
        yield fn
        fn = next((getattr(fn, a) for a in ("__wrapped__", "compiler_fn")
                   if getattr(fn, a, None) is not None), None)


def tracing_for_tcc() -> bool:
    """Whether Dynamo is tracing (or compiling) a frame for a tcc backend."""
    from torch._dynamo.symbolic_convert import tls
    tx = getattr(tls, "current_tx", None)
    output = getattr(tx, "output", None)
    fn = getattr(output, "compiler_fn", None)
    return any(getattr(f, TCC_BACKEND_ATTR, False) for f in _backend_chain(fn))


def install() -> None:
    """The Python kernels of aten.gru / rnn_tanh / rnn_relu (.input) call
    the tcc custom ops instead of unrolling when Dynamo traces for tcc,
    and PyTorch's own otherwise (idempotent)."""
    if _INSTALLED:
        return
    from torch._C import DispatchKey
    aten = torch.ops.aten
    for aten_op, op in ((aten.gru.input, gru), (aten.rnn_tanh.input, rnn_tanh),
                        (aten.rnn_relu.input, rnn_relu)):
        for key in (DispatchKey.Autograd, DispatchKey.CompositeImplicitAutograd,
                    DispatchKey.Meta):
            original = aten_op.py_kernels.get(key)
            if original is None:
                continue

            def kernel(*args, _op=op, _original=original, **kwargs):
                if tracing_for_tcc():
                    return _op(*args, **kwargs)
                return _original(*args, **kwargs)
            aten_op.py_kernels[key] = kernel
        aten_op._dispatch_cache.clear()
    _INSTALLED.append(True)
