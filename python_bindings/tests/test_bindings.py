"""The tcc Python API: parse/print, pass pipelines and their reports, the
ONNX importer, JIT compile and run against numpy, ahead-of-time libraries,
and errors as TCCError."""
from pathlib import Path

import numpy as np
import pytest

import tcc

ROOT = Path(__file__).resolve().parents[2]
POLICY = (ROOT / "examples" / "robot_policy.mlir").read_text()

ADD_RELU = """
func.func @add_relu(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>, tcc.name = "x"},
                    %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = tcc.relu %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
"""


def policy_weights(rng):
    shapes = [(512, 256), (512,), (512,), (512,), (256, 512), (256,),
              (256,), (256,), (12, 256), (12,), (1, 256), (1,)]
    return [(rng.standard_normal(s) * 0.05).astype(np.float32)
            for s in shapes]


def policy_numpy(obs, w):
    """The robot policy in numpy (float64): the independent answer."""
    def ln(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * g + b
    x = obs.astype(np.float64)
    w = [a.astype(np.float64) for a in w]
    h = np.maximum(ln(x @ w[0].T + w[1], w[2], w[3]), 0)
    f = np.maximum(ln(h @ w[4].T + w[5], w[6], w[7]), 0)
    return f @ w[8].T + w[9], f @ w[10].T + w[11]


def test_parse_print_roundtrip():
    m = tcc.parse(ADD_RELU)
    text = str(m)
    assert "tcc.relu" in text and "func.func @add_relu" in text
    assert str(tcc.parse(text)) == text
    assert m.verify()


def test_parse_error_carries_diagnostics():
    with pytest.raises(tcc.TCCError) as e:
        tcc.parse("func.func @f(%x: tensor<2xf32>) {\n  tcc.bogus\n}")
    assert "custom op 'tcc.bogus' is unknown" in str(e.value)
    assert any(":2:3" in d for d in e.value.diagnostics)


def test_run_pipeline_fuse_in_place():
    m = tcc.parse(POLICY)
    assert tcc.run_pipeline(m, "fuse,plan-memory") is m
    text = str(m)
    assert text.count("fusion.group") == 5
    assert "tcc.arena =" in text and text.count("tcc.buffer =") == 4


def test_run_pipeline_reports_as_dicts():
    m = tcc.parse(POLICY)
    reports = tcc.run_pipeline(m, "fuse{report-sizes=B=8},plan-memory",
                               reports=True)
    fuse = reports["fuse"]
    assert fuse["target"] == "cpu"
    (func,) = fuse["functions"]
    assert func["name"] == "robot_policy"
    assert len(func["groups"]) == 5
    assert "peak_bytes" in str(reports["plan-memory"])


def test_run_pipeline_errors():
    with pytest.raises(tcc.TCCError, match="does not refer to a registered"):
        tcc.run_pipeline(tcc.parse(POLICY), "no-such-pass")
    with pytest.raises(tcc.TCCError, match="unknown target 'gpu'"):
        tcc.run_pipeline(tcc.parse(POLICY), "fuse{target=gpu}")


def test_named_pipeline_lowers_to_llvm():
    m = tcc.parse(ADD_RELU)
    tcc.run_pipeline(m, "tcc-cpu-pipeline")
    assert "llvm.func @add_relu" in str(m)


@pytest.mark.parametrize("batch", [1, 3, 17])
def test_compile_robot_policy_matches_numpy(batch):
    rng = np.random.default_rng(batch)
    w = policy_weights(rng)
    obs = rng.standard_normal((batch, 256)).astype(np.float32)
    exe = tcc.compile(POLICY)
    actions, value = exe(obs, *w)
    ref_a, ref_v = policy_numpy(obs, w)
    assert actions.shape == (batch, 12) and value.shape == (batch, 1)
    np.testing.assert_allclose(actions, ref_a, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value, ref_v, rtol=1e-4, atol=1e-4)


def test_compile_signatures_and_options():
    exe = tcc.compile(POLICY, options={"fuse": False, "gemm_library": False})
    sig = exe.signatures["robot_policy"]
    assert sig["inputs"][0] == {"dtype": "f32", "shape": [-1, 256]}
    assert [r["shape"] for r in sig["results"]] == [[-1, 12], [-1, 1]]
    rng = np.random.default_rng(0)
    w = policy_weights(rng)
    obs = rng.standard_normal((5, 256)).astype(np.float32)
    np.testing.assert_allclose(exe(obs, *w)[0], policy_numpy(obs, w)[0],
                               rtol=1e-4, atol=1e-4)
    with pytest.raises(tcc.TCCError, match="no such option"):
        tcc.compile(POLICY, options={"no_such_option": 1})


def test_inputs_from_torch_and_strided_numpy():
    torch = pytest.importorskip("torch")
    exe = tcc.compile(ADD_RELU)
    x = np.arange(-12, 12, dtype=np.float32).reshape(4, 6)[:, 1:5]  # strided
    b = np.array([0.5, -1, 2, 0], np.float32)
    expected = np.maximum(x + b, 0)
    np.testing.assert_array_equal(exe(x, b), expected)
    np.testing.assert_array_equal(
        exe(torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(b)),
        expected)
    # A transposed torch tensor is made dense first.
    xt = torch.from_numpy(np.ascontiguousarray(x.T)).T
    np.testing.assert_array_equal(exe(xt, torch.from_numpy(b)), expected)


def test_wrong_inputs_raise_with_the_message():
    exe = tcc.compile(ADD_RELU)
    b = np.zeros(4, np.float32)
    with pytest.raises(tcc.TCCError, match=r"input 0 \(x\) dim 1: expected 4, got 5"):
        exe(np.zeros((2, 5), np.float32), b)
    with pytest.raises(tcc.TCCError, match="expected rank 2"):
        exe(np.zeros(4, np.float32), b)
    with pytest.raises(tcc.TCCError, match="element type"):
        exe(np.zeros((2, 4), np.float64), b)
    with pytest.raises(tcc.TCCError, match="expects 2 inputs, got 1"):
        exe(np.zeros((2, 4), np.float32))
    with pytest.raises(tcc.TCCError, match="no function 'nope'"):
        exe(np.zeros((2, 4), np.float32), b, function="nope")


def test_integer_and_bool_dtypes():
    exe = tcc.compile("""
func.func @f(%a: tensor<3xi64>, %b: tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi1>) {
  %0 = tcc.mul %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %1 = tcc.cmp %a, %b {predicate = "gt"} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  return %0, %1 : tensor<3xi64>, tensor<3xi1>
}""")
    a = np.array([3, -4, 5], np.int64)
    b = np.array([2, 7, -6], np.int64)
    prod, gt = exe(a, b)
    np.testing.assert_array_equal(prod, a * b)
    assert gt.dtype == np.bool_
    np.testing.assert_array_equal(gt, a > b)


UNSIGNED = """
func.func @f(%a: tensor<?xui8>, %b: tensor<?xui8>, %s: tensor<?xi16>) -> (tensor<?xui8>, tensor<?xi1>, tensor<?xi16>) {
  %0 = tcc.div %a, %b : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xui8>
  %1 = tcc.cmp %a, %b {predicate = "gt"} : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xi1>
  %2 = tcc.mul %s, %s : (tensor<?xi16>, tensor<?xi16>) -> tensor<?xi16>
  return %0, %1, %2 : tensor<?xui8>, tensor<?xi1>, tensor<?xi16>
}"""


def test_unsigned_and_int16_dtypes(tmp_path):
    a = np.array([250, 200, 7], np.uint8)
    b = np.array([7, 100, 255], np.uint8)
    s = np.array([300, -200, 1000], np.int16)   # 1000 * 1000 wraps in int16
    want = (a // b, a > b, (s.astype(np.int32) ** 2).astype(np.int16))
    lib = tcc.load_library(tcc._api.build_library(
        UNSIGNED, output=tmp_path / "libunsigned.so"))
    for f in (tcc.compile(UNSIGNED), lib):
        got = f(a, b, s)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
    with pytest.raises(tcc.TCCError, match="dtype ui8, got i8"):
        lib(a.astype(np.int8), b, s)


def test_pipeline_failure_raises_with_the_diagnostics():
    """The module parses and verifies; the cpu pipeline rejects it."""
    bad = """
func.func @f(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B >= 10", "B <= 5"]} {
  %0 = tcc.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}"""
    m = tcc.parse(bad)
    assert m.verify()
    with pytest.raises(tcc.TCCError) as e:
        tcc.compile(m)
    assert any("the constraints on B leave no size: [10, 5]" in d
               for d in e.value.diagnostics)


def test_unusual_results():
    """A rank-0 result, an empty input, a result that is an input, and a
    function with no results (only the status comes back)."""
    exe = tcc.compile("""
func.func @sum_all(%x: tensor<?x3xf32>) -> (tensor<f32>, tensor<?x3xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 0, 1>} : (tensor<?x3xf32>) -> tensor<f32>
  return %0, %x : tensor<f32>, tensor<?x3xf32>
}
func.func @nothing(%x: tensor<2xf32>) {
  return
}""")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    total, same = exe(x, function="sum_all")
    assert total.shape == () and total == 15
    np.testing.assert_array_equal(same, x)
    assert not np.shares_memory(same, x)
    total, same = exe(np.zeros((0, 3), np.float32), function="sum_all")
    assert total == 0 and same.shape == (0, 3)
    assert exe.run("nothing", np.zeros(2, np.float32)) == []


def test_read_only_inputs(tmp_path):
    exe = tcc.compile(ADD_RELU)
    x = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)
    np.save(tmp_path / "x.npy", x)
    mapped = np.load(tmp_path / "x.npy", mmap_mode="r")
    b = np.ones(4, np.float32)
    b.setflags(write=False)
    np.testing.assert_array_equal(exe(mapped, b), np.maximum(x + 1, 0))


def test_concurrent_calls_and_the_workspace():
    """Calls from several threads at once, with and without the shared
    workspace (whose calls the executable runs one at a time)."""
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(7)
    w = policy_weights(rng)
    inputs = [rng.standard_normal((n, 256)).astype(np.float32)
              for n in (1, 5, 9, 33) * 4]
    for options in (None, {"workspace": True}):
        exe = tcc.compile(POLICY, options=options)
        with ThreadPoolExecutor(4) as pool:
            outs = list(pool.map(lambda obs: exe(obs, *w), inputs))
        for obs, (a, v) in zip(inputs, outs):
            ref_a, ref_v = policy_numpy(obs, w)
            np.testing.assert_allclose(a, ref_a, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(v, ref_v, rtol=1e-4, atol=1e-4)


def test_compile_error_is_an_exception():
    bad = """
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "tcc.nonexistent"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}"""
    with pytest.raises(tcc.TCCError):
        tcc.compile(bad)


def test_import_onnx_and_run():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(1)
    w = rng.standard_normal((8, 3)).astype(np.float32)
    bias = rng.standard_normal(3).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["h"]),
         helper.make_node("Add", ["h", "bias"], ["s"]),
         helper.make_node("Relu", ["s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(bias, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m = tcc.import_onnx(model.SerializeToString(), function="g")
    assert "func.func @g" in str(m)
    x = rng.standard_normal((5, 8)).astype(np.float32)
    np.testing.assert_allclose(tcc.compile(m)(x), np.maximum(x @ w + bias, 0),
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(tcc.TCCError):
        tcc.import_onnx(b"not a model")


def test_ahead_of_time_library(tmp_path):
    lib = tcc.load_library(tcc._api.build_library(
        ADD_RELU, output=tmp_path / "libadd_relu.so"))
    assert lib.functions == ["add_relu"]
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    b = np.array([1, 0, -1, 0.5], np.float32)
    np.testing.assert_array_equal(lib(x, b), np.maximum(x + b, 0))
    with pytest.raises(tcc.TCCError, match=r"input 0 \(x\) dim 1 == 4"):
        lib(np.zeros((2, 3), np.float32), b)
    assert lib.manifest["entries"]


def test_cuda_library_builds(tmp_path):
    """target=cuda builds a library that takes device memory (it runs on
    the GPU machine: benchmarks/gpu/device_dynamo_check.py)."""
    import json
    lib = tmp_path / "libadd_relu_cuda.so"
    try:
        tcc._api.build_library(ADD_RELU, target="cuda", output=lib)
    except tcc.TCCError as e:
        if "--target=cuda is disabled" in str(e):
            pytest.skip("tcc built without the CUDA toolkit")
        raise
    manifest = json.loads(lib.with_suffix(".json").read_text())
    assert manifest["target"] == "cuda" and manifest["memory"] == "device"
    assert [e["name"] for e in manifest["entries"]] == ["add_relu"]


def test_cuda_target_without_a_driver_is_a_clear_error():
    """Where no CUDA driver is (this machine), loading a cuda library is a
    TCCError naming the library, not an OSError."""
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        pytest.skip("a CUDA driver is installed here")
    except OSError:
        pass
    with pytest.raises(tcc.TCCError, match="cannot load .*libcuda"):
        tcc.compile(ADD_RELU, target="cuda")
