"""nn.GRU and nn.RNN kept whole through Dynamo and AOTAutograd.

torch._decomp registers Python kernels for `aten.gru.input`,
`aten.rnn_tanh.input` and `aten.rnn_relu.input` (at the Autograd,
CompositeImplicitAutograd and Meta keys): whenever the Python dispatcher
is on — Dynamo's fake-tensor tracing, AOTAutograd's — they unroll the
recurrence step by step, a Python loop over the sequence that fixes its
length (a reversed direction adds `flip`s). nn.LSTM escapes this on the
CPU through `mkldnn_rnn_layer`; GRU and RNN do not.

`install()` (called when a tcc backend is made) puts in their place
kernels that call the custom ops `tcc::gru`, `tcc::rnn_tanh`,
`tcc::rnn_relu`, of the same signature: a fake kernel gives their shapes
without looking at the length, and called eagerly (a graph partly in
PyTorch) they run PyTorch's own kernel. The FX importer maps them to
`tcc.gru` / `tcc.rnn` per layer and direction, the sequence length
dynamic. Plain eager PyTorch never uses these Python kernels; another
compiler tracing GRUs in the same process sees the custom op, which it
runs as an opaque PyTorch kernel.
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
        return y, h

    @op.register_fake
    def _(input, hx, params, has_biases, num_layers, dropout, train,
          bidirectional, batch_first):
        # [T, B] or [B, T] as the input has them, both directions' states.
        dirs = 2 if bidirectional else 1
        shape = (input.shape[0], input.shape[1], dirs * hx.shape[-1])
        return input.new_empty(shape), hx.new_empty(hx.shape)

    return op


gru = _define("gru", torch._VF.gru)
rnn_tanh = _define("rnn_tanh", torch._VF.rnn_tanh)
rnn_relu = _define("rnn_relu", torch._VF.rnn_relu)

OPS = (torch.ops.tcc.gru, torch.ops.tcc.rnn_tanh, torch.ops.tcc.rnn_relu)
_INSTALLED = []


def install() -> None:
    """The Python kernels of aten.gru / rnn_tanh / rnn_relu (.input) call
    the tcc custom ops instead of unrolling (idempotent)."""
    if _INSTALLED:
        return
    from torch._C import DispatchKey
    aten = torch.ops.aten
    for aten_op, op in ((aten.gru.input, gru), (aten.rnn_tanh.input, rnn_tanh),
                        (aten.rnn_relu.input, rnn_relu)):
        def kernel(input, hx, params, has_biases, num_layers, dropout, train,
                   bidirectional, batch_first, _op=op):
            return _op(input, hx, params, has_biases, num_layers, dropout,
                       train, bidirectional, batch_first)
        for key in (DispatchKey.Autograd, DispatchKey.CompositeImplicitAutograd,
                    DispatchKey.Meta):
            aten_op.py_kernels[key] = kernel
        aten_op._dispatch_cache.clear()
    _INSTALLED.append(True)
