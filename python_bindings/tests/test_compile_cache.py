"""The compile cache across processes (docs/compile-cache.md): each child
process compiles with TCC_CACHE_DIR pointing at the test's directory and
reports tcc.cache_info() with its outputs, so a hit is a new process that
skipped the compile."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MODULE = """
func.func @main(%x: tensor<?x8xf32>, %w: tensor<8x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.matmul %x, %w : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.relu %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
"""

CHILD = """
import json, sys
import numpy as np
import tcc
exe = tcc.compile(sys.argv[1], options=sys.argv[2] or None)
x = np.arange(24, dtype=np.float32).reshape(3, 8) - 10
w = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
out = exe(x, w)
print(json.dumps({"info": tcc.cache_info(),
                  "err": float(np.abs(np.asarray(out) - np.maximum(x @ w, 0)).max())}))
"""

BACKEND_CHILD = """
import json
import torch
import tcc
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),
                        torch.nn.Linear(32, 4)).eval()
x = torch.randn(5, 16)
with torch.no_grad():
    got = torch.compile(m, backend=tcc.make_backend())(x)
    want = m(x)
print(json.dumps({"info": tcc.cache_info(),
                  "err": float((got - want).abs().max())}))
"""


def child(tmp_path, code, *args, cache=None):
    env = dict(os.environ, TCC_CACHE_DIR=str(cache or tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def result(proc):
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def compile_once(tmp_path, options="", cache=None):
    r = result(child(tmp_path, CHILD, MODULE, options, cache=cache))
    assert r["err"] < 1e-4
    return r["info"]


def entries(tmp_path):
    return sorted(p.name for p in (tmp_path / "cache").glob("tcc-*"))


def test_miss_then_hit_in_a_new_process(tmp_path):
    cold = compile_once(tmp_path)
    assert (cold["hits"], cold["misses"], cold["stores"]) == (0, 1, 1)
    assert cold["directory"] == str(tmp_path / "cache")
    warm = compile_once(tmp_path)
    assert (warm["hits"], warm["misses"], warm["stores"]) == (1, 0, 0)
    assert len(entries(tmp_path)) == 1


def test_changed_option_is_a_miss(tmp_path):
    compile_once(tmp_path)
    other = compile_once(tmp_path, "fuse=false")
    assert (other["hits"], other["stores"]) == (0, 1)
    assert len(entries(tmp_path)) == 2


def test_corrupt_entry_is_rebuilt(tmp_path):
    compile_once(tmp_path)
    [entry] = (tmp_path / "cache").glob("tcc-*")
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF            # one flipped byte in the code
    entry.write_bytes(bytes(data))
    again = compile_once(tmp_path)
    assert (again["hits"], again["misses"], again["stores"]) == (0, 1, 1)
    assert compile_once(tmp_path)["hits"] == 1


def test_two_processes_compiling_at_once(tmp_path):
    procs = [child(tmp_path, CHILD, MODULE, "") for _ in range(2)]
    for p in procs:
        assert result(p)["err"] < 1e-4
    assert len(entries(tmp_path)) == 1      # no temporary left behind
    assert compile_once(tmp_path)["hits"] == 1


def test_torch_compile_backend_starts_warm(tmp_path):
    pytest.importorskip("torch")
    cold = result(child(tmp_path, BACKEND_CHILD))
    assert cold["err"] < 1e-4
    assert cold["info"]["stores"] >= 1
    warm = result(child(tmp_path, BACKEND_CHILD))
    assert warm["err"] < 1e-4
    assert warm["info"]["hits"] >= 1 and warm["info"]["stores"] == 0


def test_off_and_clear(tmp_path):
    off = compile_once(tmp_path, cache="off")
    assert off == {"directory": "", "hits": 0, "misses": 0, "stores": 0}
    compile_once(tmp_path)
    assert entries(tmp_path)
    code = "import tcc; tcc.clear_cache()"
    subprocess.run([sys.executable, "-c", code], check=True,
                   env=dict(os.environ, TCC_CACHE_DIR=str(tmp_path / "cache"),
                            PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert entries(tmp_path) == []
