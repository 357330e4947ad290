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
    for op in ("flip", "cumsum"):
        assert op in text
