"""tcc.dynamo_backend: torch.compile's graphs through tcc on the CPU,
against eager PyTorch, with a dynamic batch compiled once."""
import warnings

import pytest

torch = pytest.importorskip("torch")
import torch._dynamo  # noqa: E402

import torch.nn.functional as F  # noqa: E402

import tcc  # noqa: E402
import tcc.dynamo  # noqa: E402
from models import RobotPolicy, ViTBlock  # noqa: E402


pytestmark = pytest.mark.usefixtures("fresh_dynamo")


def compiled_graphs():
    return [r for r in tcc.dynamo.stats if r.status == "compiled"]


def run_dynamic(model, make_input, sizes, atol):
    """Compiles with the first input's batch marked dynamic, then checks
    every size against eager and that Dynamo captured one graph only."""
    torch._dynamo.utils.counters.clear()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    with torch.no_grad():
        for n in sizes:
            x = make_input(n)
            torch._dynamo.mark_dynamic(x, 0)
            expected = model(x)
            got = compiled(x)
            if isinstance(expected, tuple):
                for g, e in zip(got, expected):
                    assert g.shape == e.shape
                    torch.testing.assert_close(g, e, atol=atol, rtol=atol)
            else:
                assert got.shape == expected.shape
                torch.testing.assert_close(got, expected, atol=atol, rtol=atol)
    assert torch._dynamo.utils.counters["stats"]["unique_graphs"] == 1
    return compiled


def test_robot_policy_dynamic_batch_one_compile():
    model = RobotPolicy().eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error", tcc.dynamo.TCCFallbackWarning)
        run_dynamic(model, lambda n: torch.randn(n, 256), [2, 5, 16, 64],
                    atol=1e-4)
    (record,) = tcc.dynamo.stats
    assert record.status == "compiled", record.reason
    # The batch is a size symbol with Dynamo's range (at least 2).
    (rng,) = record.symbols.values()
    assert rng[0] == 2
    assert "tcc.linear" in record.mlir and "tcc.layer_norm" in record.mlir


@pytest.mark.parametrize("explicit", [False, True])
def test_vit_block_dynamic_batch_one_compile(explicit):
    model = ViTBlock(explicit=explicit).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error", tcc.dynamo.TCCFallbackWarning)
        run_dynamic(model, lambda n: torch.randn(n, 197, 768), [2, 3],
                    atol=2e-4)
    (record,) = tcc.dynamo.stats
    assert record.status == "compiled", record.reason
    assert "tcc.attention" in record.mlir or "tcc.softmax" in record.mlir


def test_vit_block_dynamic_sequence():
    model = ViTBlock().eval()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    with torch.no_grad():
        for s in (50, 197):
            x = torch.randn(2, s, 768)
            torch._dynamo.mark_dynamic(x, 1)
            torch.testing.assert_close(compiled(x), model(x), atol=2e-4,
                                       rtol=2e-4)
    assert len(compiled_graphs()) == 1


def test_static_shapes():
    model = RobotPolicy().eval()
    compiled = torch.compile(model, backend=tcc.dynamo_backend, dynamic=False)
    x = torch.randn(4, 256)
    with torch.no_grad():
        for g, e in zip(compiled(x), model(x)):
            torch.testing.assert_close(g, e, atol=1e-4, rtol=1e-4)
    (record,) = compiled_graphs()
    assert record.symbols == {}


class WithUnsupported(torch.nn.Module):
    """tcc has no lowering for aten.kthvalue: the graph is partitioned."""

    def forward(self, x):
        y = torch.relu(x) * 3 + 1
        kth = torch.kthvalue(y, 2, dim=1).values
        return kth.unsqueeze(1) * y + y.sin(), y


def test_unsupported_op_is_partitioned_with_a_report():
    model = WithUnsupported()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    x = torch.randn(3, 5)
    with pytest.warns(tcc.dynamo.TCCFallbackWarning, match="partitioned.*kthvalue"):
        got = compiled(x)
    for g, e in zip(got, model(x)):
        torch.testing.assert_close(g, e)
    whole, *parts = tcc.dynamo.stats
    assert whole.status == "partitioned" and whole.eager_ops == ["kthvalue"]
    assert "2 subgraph(s) in tcc" in whole.reason and "kthvalue" in whole.reason
    # relu/mul/add before the island, mul/sin/add after it.
    assert [p.status for p in parts] == ["compiled", "compiled"]
    assert all("tcc.relu" in p.mlir or "tcc.sin" in p.mlir for p in parts)


def test_partitions_keep_dynamic_sizes():
    model = WithUnsupported()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tcc.dynamo.TCCFallbackWarning)
        for n in (3, 7, 12):
            x = torch.randn(n, 5)
            torch._dynamo.mark_dynamic(x, 0)
            for g, e in zip(compiled(x), model(x)):
                torch.testing.assert_close(g, e)
    assert [r.status for r in tcc.dynamo.stats] == ["partitioned", "compiled", "compiled"]
    assert all(r.symbols for r in tcc.dynamo.stats[1:])


class OnlyUnsupported(torch.nn.Module):
    def forward(self, x):
        return torch.kthvalue(x, 2, dim=1).values


def test_a_graph_of_unsupported_ops_runs_eagerly():
    compiled = torch.compile(OnlyUnsupported(), backend=tcc.dynamo_backend)
    x = torch.randn(3, 5)
    with pytest.warns(tcc.dynamo.TCCFallbackWarning, match="eager PyTorch"):
        got = compiled(x)
    torch.testing.assert_close(got, OnlyUnsupported()(x))
    (record,) = tcc.dynamo.stats
    assert record.status == "fallback" and record.eager_ops == ["kthvalue"]


def test_no_fallback_raises():
    compiled = torch.compile(WithUnsupported(),
                             backend=tcc.make_backend(fallback=False))
    with pytest.raises(Exception, match="kthvalue"):
        compiled(torch.randn(3, 5))


def test_backend_options_reach_the_pipeline():
    model = RobotPolicy().eval()
    backend = tcc.make_backend(options={"fuse": False, "gemm_library": False})
    compiled = torch.compile(model, backend=backend)
    x = torch.randn(3, 256)
    with torch.no_grad():
        for g, e in zip(compiled(x), model(x)):
            torch.testing.assert_close(g, e, atol=1e-4, rtol=1e-4)
    assert len(compiled_graphs()) == 1


def test_training_forward_in_tcc_backward_eager():
    """With grad enabled tcc computes the forward (with what backward saves:
    layer_norm's mean and rstd); the backward graph runs eagerly and the
    gradients match eager's."""
    torch.manual_seed(0)
    model = RobotPolicy()
    reference = RobotPolicy()
    reference.load_state_dict(model.state_dict())
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    x = torch.randn(4, 256)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tcc.dynamo.TCCFallbackWarning)
        got = compiled(x)
    expected = reference(x)
    for g, e in zip(got, expected):
        torch.testing.assert_close(g, e, atol=1e-4, rtol=1e-4)
    (got[0].sum() + got[1].sum()).backward()
    (expected[0].sum() + expected[1].sum()).backward()
    for (name, p), q in zip(model.named_parameters(), reference.parameters()):
        torch.testing.assert_close(p.grad, q.grad, atol=1e-3, rtol=1e-3,
                                   msg=name)
    assert [r.status for r in tcc.dynamo.stats] == ["compiled"]


class Bf16Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 128)
        self.fc2 = torch.nn.Linear(128, 32)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


def test_bf16_model():
    model = Bf16Mlp().to(torch.bfloat16).eval()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    x = torch.randn(6, 64, dtype=torch.bfloat16)
    torch._dynamo.mark_dynamic(x, 0)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", tcc.dynamo.TCCFallbackWarning)
        got = compiled(x)
        expected = model(x)
    assert got.dtype == torch.bfloat16 and got.shape == expected.shape
    torch.testing.assert_close(got.float(), expected.float(), atol=3e-2,
                               rtol=3e-2)



def test_library_dir_serves_later_processes(tmp_path):
    """With library_dir the graph becomes a tcc-compile library kept there;
    a later process (here: after resetting Dynamo and tcc's caches) loads
    it without compiling."""
    model = RobotPolicy().eval()
    x = torch.randn(6, 256)
    torch._dynamo.mark_dynamic(x, 0)
    backend = tcc.make_backend(library_dir=tmp_path, freeze=False)
    with torch.no_grad():
        for g, e in zip(torch.compile(model, backend=backend)(x), model(x)):
            torch.testing.assert_close(g, e, atol=1e-4, rtol=1e-4)
    (lib,) = tmp_path.glob("lib*.so")
    (record,) = tcc.dynamo.stats
    assert lib.name == "lib" + tcc.dynamo.library_key(record.mlir, "cpu", None) + ".so"
    built = lib.stat().st_mtime_ns
    torch._dynamo.reset()
    tcc.dynamo.reset()
    y = torch.randn(9, 256)
    torch._dynamo.mark_dynamic(y, 0)
    with torch.no_grad():
        got = torch.compile(model, backend=tcc.make_backend(
            library_dir=tmp_path, freeze=False))(y)
        for g, e in zip(got, model(y)):
            torch.testing.assert_close(g, e, atol=1e-4, rtol=1e-4)
    assert lib.stat().st_mtime_ns == built
    assert [r.status for r in tcc.dynamo.stats] == ["compiled"]


class ConvBnNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return self.fc(y.mean(dim=(2, 3)))


def conv_bn_net():
    torch.manual_seed(0)
    model = ConvBnNet().eval()
    with torch.no_grad():  # statistics that are not the identity
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 2.0)
    return model


def test_inference_freezes_parameters_and_buffers():
    """Under no_grad the weights, the bias and the batch norm's statistics
    are constants of the compiled code (the function takes x alone)."""
    model = conv_bn_net()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    x = torch.randn(2, 3, 8, 8)
    torch._dynamo.mark_dynamic(x, 0)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", tcc.dynamo.TCCFallbackWarning)
        for n in (2, 5):
            x = torch.randn(n, 3, 8, 8)
            torch._dynamo.mark_dynamic(x, 0)
            torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                       rtol=1e-5)
    (record,) = tcc.dynamo.stats
    assert record.status == "compiled" and record.compile_seconds > 0
    # conv weight and bias, bn weight, bias, mean, var, fc weight and bias
    assert record.frozen == 8


def test_a_changed_frozen_parameter_compiles_again():
    """Weights written in place (an optimizer step, load_state_dict) or
    replaced give the new values' results, not the frozen ones."""
    model = conv_bn_net()
    compiled = torch.compile(model, backend=tcc.dynamo_backend)
    x = torch.randn(3, 3, 8, 8)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        (record,) = tcc.dynamo.stats
        first = record.compile_seconds
        model.conv.weight.mul_(2.0)                  # in place
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        assert record.compile_seconds > first
        second = record.compile_seconds
        model.fc.weight.data = torch.randn(4, 8)     # new storage
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        assert record.compile_seconds > second
        third = record.compile_seconds
        compiled(x)                                  # unchanged: no compile
        assert record.compile_seconds == third


def test_freeze_false_and_grad_pass_weights_as_arguments():
    model = conv_bn_net()
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        got = torch.compile(model, backend=tcc.make_backend(freeze=False))(x)
    torch.testing.assert_close(got, model(x).detach(), atol=1e-5, rtol=1e-5)
    assert [r.frozen for r in tcc.dynamo.stats] == [0]
    torch._dynamo.reset()
    tcc.dynamo.reset()
    got = torch.compile(model, backend=tcc.dynamo_backend)(x)  # grad on
    torch.testing.assert_close(got, model(x), atol=1e-5, rtol=1e-5)
    assert [r.frozen for r in tcc.dynamo.stats] == [0]


def test_frozen_partitions():
    """A partitioned graph freezes the weights each partition reads."""
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(5, 5)
            self.b = torch.nn.Linear(5, 5)

        def forward(self, x):
            y = self.a(x)
            k = torch.kthvalue(y, 2, dim=1).values
            return self.b(k.unsqueeze(1) * y)

    model = Net().eval()
    x = torch.randn(3, 5)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", tcc.dynamo.TCCFallbackWarning)
        got = torch.compile(model, backend=tcc.dynamo_backend)(x)
        torch.testing.assert_close(got, model(x), atol=1e-5, rtol=1e-5)
    whole, *parts = tcc.dynamo.stats
    assert whole.status == "partitioned"
    assert [p.frozen for p in parts] == [2, 2]


def test_freeze_arguments_errors():
    import numpy as np
    m = tcc.parse("""
    func.func @f(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>},
                 %b: tensor<4xf32>) -> tensor<?x4xf32> {
      %0 = tcc.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
      return %0 : tensor<?x4xf32>
    }""")
    with pytest.raises(tcc.TCCError, match="elements of 'f32', the value 'f64'"):
        m.freeze_arguments("f", {1: np.zeros(4)})
    with pytest.raises(tcc.TCCError, match="takes 16 bytes, the value has 20"):
        m.freeze_arguments("f", {1: np.zeros(5, np.float32)})
    with pytest.raises(tcc.TCCError, match="not a statically shaped"):
        m.freeze_arguments("f", {0: np.zeros(4, np.float32)})
    m.freeze_arguments("f", {1: np.arange(4, dtype=np.float32)})
    y = tcc.compile(m)(np.ones((2, 4), np.float32))
    np.testing.assert_array_equal(y, [[1, 2, 3, 4]] * 2)


def test_frozen_library_names_hash_the_weights(tmp_path):
    """With library_dir a frozen graph's library is named by its IR and its
    weights' bytes: other weights are another library, the same ones the
    same."""
    model = conv_bn_net()
    x = torch.randn(2, 3, 8, 8)
    backend = tcc.make_backend(library_dir=tmp_path)
    with torch.no_grad():
        compiled = torch.compile(model, backend=backend)
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        (record,) = tcc.dynamo.stats
        assert record.frozen == 8
        (first,) = tmp_path.glob("lib*.so")
        assert first.name != ("lib" + tcc.dynamo.library_key(
            record.mlir, "cpu", None) + ".so")
        model.conv.weight.mul_(2.0)
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        assert len(list(tmp_path.glob("lib*.so"))) == 2
        model.conv.weight.div_(2.0)  # the first weights again: no new library
        torch.testing.assert_close(compiled(x), model(x), atol=1e-5,
                                   rtol=1e-5)
        assert len(list(tmp_path.glob("lib*.so"))) == 2
