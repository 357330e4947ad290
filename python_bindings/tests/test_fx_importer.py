"""The FX importer's op coverage: small models through
torch.compile(backend=tcc.make_backend(fallback=False)) against eager
PyTorch, with the batch dynamic (one compile serves batch 2 and 5)."""
import pytest

torch = pytest.importorskip("torch")
import torch._dynamo  # noqa: E402

import tcc  # noqa: E402
import tcc.dynamo  # noqa: E402
from fx_cases import (OPS, ConvNet, Elementwise, Embed, Fn, HalfMlp,  # noqa: E402
                      MaskedAttn, NotSupported, Shapes)


pytestmark = pytest.mark.usefixtures("fresh_dynamo")


def flat(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def check(model, make_inputs, batches=(2, 5), dynamic=(0,), tol=1e-4):
    compiled = torch.compile(model, backend=tcc.make_backend(fallback=False))
    with torch.no_grad():
        for b in batches:
            inputs = make_inputs(b)
            for x in inputs:
                for d in dynamic:
                    torch._dynamo.mark_dynamic(x, d)
            expected = flat(model(*inputs))
            got = flat(compiled(*inputs))
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                assert g.dtype == e.dtype and g.shape == e.shape
                if e.is_floating_point():
                    torch.testing.assert_close(g.float(), e.float(), atol=tol,
                                               rtol=tol)
                else:
                    torch.testing.assert_close(g, e)
    assert [r.status for r in tcc.dynamo.stats] == ["compiled"]


def randn(*shape, dtype=torch.float32):
    return lambda b: [torch.randn(b, *shape, dtype=dtype)]


def test_elementwise_reductions_softmax():
    check(Elementwise(), randn(16))


def test_shapes_slices_matmuls_casts():
    check(Shapes(), randn(4, 6))


def test_conv_batchnorm_pooling():
    check(ConvNet().eval(), randn(3, 16, 16), tol=1e-3)


def test_embedding_index_select():
    check(Embed(), lambda b: [torch.randint(0, 50, (b, 5))])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision(dtype):
    check(HalfMlp(dtype).eval(), randn(4, 32, dtype=dtype), tol=3e-2)


def test_attention_masks_and_scale():
    check(MaskedAttn(), lambda b: [torch.randn(b, 2, 9, 8) for _ in range(3)])


@pytest.mark.parametrize("name", sorted(OPS))
def test_decomposed_ops(name):
    tol = 1e-3 if name in ("ops_divs", "ops_rmsnorm_gn") else 1e-4
    check(Fn(OPS[name]), lambda b: [torch.randn(b, 16) * 2], tol=tol)


def test_unsupported_ops_are_all_reported():
    compiled = torch.compile(NotSupported(),
                             backend=tcc.make_backend(fallback=False))
    with pytest.raises(Exception) as e:
        compiled(torch.randn(3, 5))
    text = str(e.value)
    for op in ("cummax", "kthvalue"):
        assert op in text


class Indexing(torch.nn.Module):
    """Advanced indexing: one index on any dim, broadcast indices on
    adjacent and non-adjacent dims (negative ones wrap), a boolean mask."""

    def forward(self, x):
        b = x.shape[0]
        rows = torch.arange(b).view(b, 1)
        cols = torch.tensor([[1, -1, 0]])
        return (x[rows, cols],                     # [b, 3, 6]
                x[:, torch.tensor([4, -5])],       # [b, 2, 6]
                x[torch.tensor([0, -1]), :, torch.tensor([5, 2])],  # [2, 5]
                x[x.sum(-1) > 0])                  # [count, 6]


def test_advanced_indexing():
    check(Indexing(), randn(5, 6))


def test_advanced_indexing_out_of_range_is_an_error():
    # The linear index of an out-of-range pair lands past the end, where
    # tcc.gather's range check reports it (in a subprocess: today a failing
    # check in compiled code aborts the process, issue 35).
    import os
    import subprocess
    import sys
    code = (
        "import torch, tcc\n"
        "class M(torch.nn.Module):\n"
        "    def forward(self, x, i, j): return x[i, j]\n"
        "c = torch.compile(M(), backend=tcc.make_backend(fallback=False))\n"
        "x = torch.randn(4, 5)\n"
        "print(c(x, torch.tensor([3]), torch.tensor([-5])).tolist(), flush=True)\n"
        "c(x, torch.tensor([0]), torch.tensor([5]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env)
    assert r.returncode != 0
    assert "tcc.gather: index out of range" in r.stdout + r.stderr
    assert r.stdout.startswith("[")  # the in-range call ran first


class Positions(torch.nn.Module):
    """HF's position ids from a mask (cumsum over a dynamic sequence), an
    arange of the sequence length, a slice of a buffer to that length."""

    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.randn(1, 64))

    def forward(self, mask):
        pos = (mask.cumsum(-1) * mask - 1).clamp_min(0)
        seq = torch.arange(mask.shape[1]) * 2 + 1
        return pos + seq, self.table[:, :mask.shape[1]] * mask, torch.cumsum(mask.float(), 0)


def test_cumsum_arange_and_slices_of_symbolic_length():
    def inputs(b):
        m = (torch.rand(b, 7 + b) > 0.3).long()
        return [m]
    check(Positions(), inputs, dynamic=(0, 1))


class KVConcat(torch.nn.Module):
    """A KV cache's first step: torch.cat of an empty tensor and the keys."""

    def forward(self, k):
        empty = torch.tensor([])
        return torch.cat([empty, k], dim=-2) * 2


def test_concat_with_an_empty_constant():
    check(KVConcat(), randn(2, 5, 8))


@pytest.mark.parametrize("norm_first,activation", [(False, "relu"), (True, "gelu")])
def test_transformer_encoder_layer_fast_path(norm_first, activation):
    layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, dropout=0.0,
                                             norm_first=norm_first,
                                             activation=activation).eval()
    check(layer, randn(6, 32), tol=2e-4)


def test_multihead_attention_fast_path_with_weights():
    class MHA(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = torch.nn.MultiheadAttention(32, 4, batch_first=True)

        def forward(self, x):
            return self.attn(x, x, x, need_weights=True)
    check(MHA().eval(), randn(6, 32), tol=2e-4)


@pytest.mark.parametrize("kw", [dict(batch_first=True), dict(num_layers=2),
                                dict(batch_first=True, bidirectional=True, num_layers=2),
                                dict(bias=False)],
                         ids=["batch_first", "two_layers", "bidirectional", "no_bias"])
def test_lstm_with_a_dynamic_sequence(kw):
    """nn.LSTM (Dynamo's allow_rnn): one tcc.lstm per layer and direction;
    the sequence length (and batch) dynamic from one compile."""
    old = torch._dynamo.config.allow_rnn
    torch._dynamo.config.allow_rnn = True
    try:
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = torch.nn.LSTM(12, 16, **kw)

            def forward(self, x):
                y, (h, c) = self.lstm(x)
                return y, h, c
        seq_dim = 1 if kw.get("batch_first") else 0
        check(Net().eval(),
              lambda b: [torch.randn(3, 4 + b, 12) if seq_dim else torch.randn(4 + b, 3, 12)],
              dynamic=(seq_dim,))
    finally:
        torch._dynamo.config.allow_rnn = old


class Interpolate(torch.nn.Module):
    """F.interpolate decomposes into aten._unsafe_index (gathers at
    computed positions) and arithmetic: nearest, bilinear (both corner
    conventions), bicubic, with a dynamic batch."""

    def forward(self, x):
        return (torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest"),
                torch.nn.functional.interpolate(x, size=(7, 9), mode="bilinear"),
                torch.nn.functional.interpolate(x, scale_factor=2, mode="bilinear",
                                                align_corners=True),
                torch.nn.functional.interpolate(x, scale_factor=2, mode="bicubic"))


def test_interpolate():
    check(Interpolate(), randn(3, 5, 6))


class CeilPools(torch.nn.Module):
    def forward(self, x):
        return (torch.nn.functional.max_pool2d(x, 3, 2, ceil_mode=True),
                torch.nn.functional.max_pool2d(x, 2, 2, 1, ceil_mode=True),
                torch.nn.functional.avg_pool2d(x, 3, 2, ceil_mode=True),
                torch.nn.functional.avg_pool2d(x, 2, 2, 1, ceil_mode=True,
                                               count_include_pad=False))


def test_ceil_mode_pooling():
    check(CeilPools(), randn(3, 8, 9))


class Scatters(torch.nn.Module):
    """torch.scatter / scatter_add / scatter_reduce (include_self both
    ways), index_put with accumulate and on a later dim, index_copy, a
    boolean mask assignment, slice_scatter and select_scatter (what
    in-place writes to slices functionalize to)."""

    def forward(self, x, idx, dup):
        src = x * 2
        a = x.scatter(1, idx, src)
        b = x.scatter_add(1, dup, src)
        c = x.scatter_reduce(1, dup, src, "amax", include_self=False)
        d = x.scatter(1, idx, 7.0)
        e = x.clone()
        e[torch.tensor([0, -1])] = x[:2] + 1         # index_put
        f = x.index_put((torch.tensor([0, -1, 0]),), x[:1] * 3,
                        accumulate=True)             # broadcast, duplicates summed
        g = x.clone()
        g[:, torch.tensor([5, 1])] = -1.0            # index_put on dim 1
        h = x.clone()
        h[x > 0.5] = 0.0                             # boolean mask
        i = x.clone()
        i[:, 2:5] = src[:, :3]                       # slice_scatter
        i[:, 0] = 9.0                                # select_scatter
        j = x.clone()
        j[:, ::2] = 3.0                              # slice_scatter, step 2
        return a, b, c, d, e, f, g, h, i, j


def test_scatters_index_put_and_slice_writes():
    def inputs(b):
        x = torch.randn(b, 6)
        idx = torch.rand(b, 6).argsort(1)[:, :4]     # no duplicates in a row
        dup = torch.randint(0, 6, (b, 4))
        return [x, idx, dup]
    check(Scatters(), inputs)


class GridSample(torch.nn.Module):
    """F.grid_sample in every mode and padding mode, the grid reaching
    past the image."""

    def forward(self, x, grid):
        g = grid * 1.3
        F = torch.nn.functional
        return tuple(F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a)
                     for m, p, a in [("bilinear", "zeros", False),
                                     ("bilinear", "border", True),
                                     ("nearest", "reflection", False),
                                     ("bicubic", "zeros", True),
                                     ("bicubic", "reflection", False)])


def test_grid_sample():
    check(GridSample(), lambda b: [torch.randn(b, 3, 7, 9), torch.rand(b, 5, 4, 2) * 2 - 1],
          tol=1e-4)


@pytest.mark.parametrize("cell,kw", [
    ("GRU", dict(batch_first=True)),
    ("GRU", dict(num_layers=2, bidirectional=True)),
    ("GRU", dict(bias=False)),
    ("RNN", dict(batch_first=True, num_layers=2)),
    ("RNN", dict(nonlinearity="relu", bidirectional=True)),
], ids=["gru_batch_first", "gru_bidirectional_two_layers", "gru_no_bias",
        "rnn_two_layers", "rnn_relu_bidirectional"])
def test_gru_and_rnn_with_a_dynamic_sequence(cell, kw):
    """nn.GRU and nn.RNN (aten.gru / rnn_tanh / rnn_relu): one tcc.gru or
    tcc.rnn per layer and direction; sequence length and batch dynamic."""
    old = torch._dynamo.config.allow_rnn
    torch._dynamo.config.allow_rnn = True
    try:
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = getattr(torch.nn, cell)(12, 16, **kw)

            def forward(self, x):
                return self.rnn(x)
        seq_dim = 1 if kw.get("batch_first") else 0
        check(Net().eval(),
              lambda b: [torch.randn(3, 4 + b, 12) if seq_dim else torch.randn(4 + b, 3, 12)],
              dynamic=(seq_dim,))
    finally:
        torch._dynamo.config.allow_rnn = old


@pytest.mark.parametrize("batch_first,bidirectional",
                         [(False, False), (True, False), (True, True)])
def test_recurrence_custom_op_fake_matches_eager(batch_first, bidirectional):
    """tcc::gru / tcc::rnn_tanh: the fake kernel's shapes and strides are
    the real kernel's (Inductor checks the strides of an opaque op)."""
    import tcc.recurrences  # noqa: F401  (defines the ops)
    x = torch.randn(3, 5, 4)
    dirs = 2 if bidirectional else 1
    for name, gates in (("gru", 3), ("rnn_tanh", 1)):
        params = []
        for _ in range(dirs):
            params += [torch.randn(gates * 6, 4), torch.randn(gates * 6, 6),
                       torch.randn(gates * 6), torch.randn(gates * 6)]
        hx = torch.randn(dirs, 5 if not batch_first else 3, 6)
        op = getattr(torch.ops.tcc, name)
        torch.library.opcheck(op, (x, hx, params, True, 1, 0.0, False,
                                   bidirectional, batch_first))


def test_recurrences_stay_pytorchs_for_other_backends():
    """A tcc backend in the process changes nothing for another compiler:
    it traces nn.GRU as PyTorch decomposes it, not as tcc::gru."""
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func
    old = torch._dynamo.config.allow_rnn
    torch._dynamo.config.allow_rnn = True
    seen = []

    def record(gm, example_inputs):
        seen.extend(str(n.target) for n in gm.graph.nodes
                    if n.op == "call_function")
        return make_boxed_func(gm.forward)
    try:
        gru = torch.nn.GRU(4, 6, batch_first=True).eval()
        x = torch.randn(2, 5, 4)
        with torch.no_grad():
            want = gru(x)[0]
            torch._dynamo.reset()
            got_tcc = torch.compile(gru, backend=tcc.make_backend())(x)[0]
            torch._dynamo.reset()
            other = torch.compile(gru, backend=aot_autograd(fw_compiler=record))
            got_other = other(x)[0]
        torch.testing.assert_close(got_tcc, want, rtol=1e-4, atol=1e-5)
        torch.testing.assert_close(got_other, want, rtol=1e-4, atol=1e-5)
        assert seen and not any("tcc" in t for t in seen), seen
        assert any("addmm" in t or "mm" in t for t in seen), seen
    finally:
        torch._dynamo.config.allow_rnn = old
        torch._dynamo.reset()


def test_scatter_index_out_of_range_is_an_error():
    # In a subprocess: a failing check in compiled code aborts the process
    # today (issue 35).
    import os
    import subprocess
    import sys
    code = (
        "import torch, tcc\n"
        "class M(torch.nn.Module):\n"
        "    def forward(self, x, i): return x.scatter_add(1, i, x)\n"
        "c = torch.compile(M(), backend=tcc.make_backend(fallback=False))\n"
        "x = torch.randn(2, 3)\n"
        "print(c(x, torch.tensor([[2, -3, 0], [1, 1, 1]])).tolist(), flush=True)\n"
        "c(x, torch.tensor([[0, 3, 0], [1, 1, 1]]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env)
    assert r.returncode != 0
    assert "tcc.scatter_elements: index out of range" in r.stdout + r.stderr
    assert r.stdout.startswith("[")


class Sorts(torch.nn.Module):
    """torch.sort (stable, on values with ties), argsort, topk with a
    static k and with k a SymInt (half the dynamic row), along dynamic
    dims."""

    def forward(self, x):
        ties = torch.round(x * 2)
        v, i = torch.sort(ties, dim=1, descending=True, stable=True)
        order = torch.argsort(x, dim=0)
        top_v, top_i = torch.topk(x, 3, dim=1)
        low_v, low_i = torch.topk(x, x.size(1) // 2, dim=1, largest=False)
        return v, i, order, top_v, top_i, low_v, low_i


def test_sort_argsort_topk():
    check(Sorts(), lambda b: [torch.randn(b, 7 + 3 * b)], dynamic=(0, 1))


def test_torchvision_nms_and_batched_nms():
    """torchvision.ops.nms and batched_nms (its coordinate offset per class)
    as tcc.nms inside one graph (Dynamo captures the data-dependent count
    with capture_dynamic_output_shape_ops), the kept boxes gathered after
    it; the indices equal torchvision's own kernel's."""
    torchvision = pytest.importorskip("torchvision")
    from torchvision.ops import batched_nms, nms

    class Detect(torch.nn.Module):
        def forward(self, boxes, scores, classes):
            keep = nms(boxes, scores, 0.5)
            return keep, batched_nms(boxes, scores, classes, 0.4), boxes[keep] * 2

    old = torch._dynamo.config.capture_dynamic_output_shape_ops
    torch._dynamo.config.capture_dynamic_output_shape_ops = True
    try:
        gen = torch.Generator().manual_seed(0)

        def inputs(b):
            n = 100 * b
            xy = torch.rand(n, 2, generator=gen) * 100
            wh = torch.rand(n, 2, generator=gen) * 30 + 1
            return [torch.cat([xy, xy + wh], 1), torch.rand(n, generator=gen),
                    torch.randint(0, 3, (n,), generator=gen)]
        check(Detect(), inputs, batches=(3,), dynamic=())
    finally:
        torch._dynamo.config.capture_dynamic_output_shape_ops = old


class Strided(torch.nn.Module):
    """as_strided views: a transpose, a block at an offset with a
    broadcast dim, and a permuted 3-D block (what functionalization writes
    for permute/expand/narrow views)."""

    def forward(self, x):
        t = torch.as_strided(x, (6, 4), (1, 6))                  # x.view(4, 6).t()
        b = torch.as_strided(x, (2, 3, 5), (5, 0, 1), 4)         # rows of 5 from 4, repeated
        p = torch.as_strided(x, (3, 2, 4), (1, 12, 3))           # a permuted block
        return t * 2, b + 1, p - 1


class Restride(torch.nn.Module):
    """as_strided to the input's own sizes with other strides on its size-1
    dims, the batch dynamic (convnext's layer scale under AOTAutograd)."""

    def forward(self, x):
        y = x * 2
        return torch.as_strided(y, y.shape, (y.shape[1], 1, y.shape[1], y.shape[1])) + 1


def test_as_strided_views():
    check(Strided(), lambda b: [torch.randn(24)], batches=(1,), dynamic=())


def test_as_strided_restride_with_a_dynamic_batch():
    check(Restride(), randn(8, 1, 1))


class AnyAll(torch.nn.Module):
    """torch.any / torch.all over every dim, one dim (keepdim too) and an
    empty dim (False and True), and F.one_hot, whose range check is an
    any."""

    def forward(self, x, i):
        pos = x > 0
        empty = x[:, :0] > 0
        return (pos.any(), pos.all(dim=1), x.any(dim=0, keepdim=True),
                empty.any(dim=1), empty.all(dim=1),
                torch.nn.functional.one_hot(i, 10) * 2)


def test_any_all_and_one_hot():
    check(AnyAll(), lambda b: [torch.randn(b, 6).relu(), torch.randint(0, 10, (b, 3))])


class UnsignedImage(torch.nn.Module):
    """A uint8 image normalized to float (what vision models get), uint8
    arithmetic that wraps, compares and max-pools unsigned, and int16 / int32
    bit operations and shifts."""

    def forward(self, img, a, b, s):
        x = (img.float() / 255.0 - 0.5) / 0.25
        wrapped = img + img                       # uint8: wraps mod 256
        brighter = torch.maximum(img, img.flip(-1))
        pooled = torch.nn.functional.max_pool2d(img.float(), 2).to(torch.uint8)
        over = img > 127
        bits = (a & b) | (a ^ 0x0F) | ~b
        shifted = (a << 3) >> 1, s >> 2, s << 1
        return (x, wrapped, brighter, pooled, over, bits, *shifted,
                img.amax(dim=(2, 3)))


def test_uint8_images_and_bit_operations():
    def inputs(b):
        g = torch.Generator().manual_seed(b)
        return [torch.randint(0, 256, (b, 3, 8, 8), dtype=torch.uint8, generator=g),
                torch.randint(-1000, 1000, (b, 5), dtype=torch.int32, generator=g),
                torch.randint(-1000, 1000, (b, 5), dtype=torch.int32, generator=g),
                torch.randint(-30000, 30000, (b, 5), dtype=torch.int16, generator=g)]
    check(UnsignedImage(), inputs)
