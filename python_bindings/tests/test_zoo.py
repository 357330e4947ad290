"""The model zoo's CI subset (benchmarks/models, small sizes) through both
of tcc's paths as a user runs them: torch.compile with the tcc backend
against eager PyTorch, and torch.onnx.export -> tcc against onnxruntime.
Each must match its reference and run wholly in tcc (no eager islands,
no graph breaks)."""
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchvision")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "models"))
import zoo  # noqa: E402
from zoo_models import ZOO  # noqa: E402

CI = [m for m in ZOO if m.ci]


@pytest.fixture(autouse=True)
def rnn_graphs():
    # Dynamo leaves nn.LSTM out of its graphs unless told.
    import torch._dynamo
    old = torch._dynamo.config.allow_rnn
    torch._dynamo.config.allow_rnn = True
    yield
    torch._dynamo.config.allow_rnn = old


@pytest.mark.parametrize("model", CI, ids=[m.name for m in CI])
def test_compile_path(model):
    r = zoo.run_model(model, "compile", small=True, calls=1, peers=False,
                      rtol=2e-3, workdir="/tmp/tcc-zoo-test")
    assert r.status == "ok", r.detail
    assert r.coverage == "wholly", (r.coverage, r.eager_ops, r.detail)


@pytest.mark.parametrize("model", CI, ids=[m.name for m in CI])
def test_onnx_path(model, tmp_path):
    r = zoo.run_model(model, "onnx", small=True, calls=1, peers=False,
                      rtol=2e-3, workdir=str(tmp_path))
    assert r.status == "ok", r.detail


def test_detector_onnx_path(tmp_path):
    # ssdlite320 through the TorchScript exporter: data-dependent counts
    # (NonZero, a run-time TopK k, NonMaxSuppression), ConstantOfShape of
    # a run-time shape and batched_nms's If on "no boxes" (an scf.if over
    # two branch functions), against onnxruntime. Its compile path runs
    # only in the full zoo (minutes on this machine).
    model = next(m for m in ZOO if m.name == "ssdlite320_mobilenet_v3_large")
    r = zoo.run_model(model, "onnx", small=True, calls=1, peers=False,
                      rtol=2e-3, workdir=str(tmp_path))
    assert r.status == "ok", r.detail
