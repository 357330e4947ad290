#!/usr/bin/env python3
"""The memory-bound kernels of benchmarks/fusion/ ([16384, 4096] f32
add+relu+mul, bias+GELU, softmax, layer_norm, written there as separate
tcc ops) against PyTorch on the same inputs, in one process, one run:

  tcc        the library tcc-compile builds from benchmarks/fusion/NAME.mlir,
             called through its C ABI (tcc_run; its result comes from tcc's
             caching allocator and goes back to it);
  eager      PyTorch as a model calls it (a new result tensor per call);
  eager out  the same ATen kernels writing into preallocated tensors
             (aten's .out overloads): the kernels without the allocation;
  compile    torch.compile (Inductor, default mode);
  copy       the bandwidth yardstick: tcc's copy kernel (tcc.neg, streaming
             stores) and PyTorch's copy_ into a preallocated tensor.

Calls are interleaved (one of each per round, after warm-up rounds), so a
drift of the machine's bandwidth touches all of them alike; printed are
medians over the rounds, GB/s (MiB that must move: inputs read once, the
result written once) and each one's share of the same run's tcc copy.
Every result is checked against PyTorch eager's first.

    ~/.cache/tcc/venv/bin/python benchmarks/cpu/memory_bound_vs_torch.py \
        [--build build] [--rounds 15] [--kernels softmax,layer_norm] [--thp]

--thp gives PyTorch's CPU allocator transparent huge pages
(THP_MEM_ALLOC_ENABLE=1): a new result tensor then costs far fewer page
faults. Without it, each eager or compiled call maps fresh pages for its
256 MiB result, which is what a model gets by default.
"""
import os
import sys

# Two OpenMP runtimes share the cores: tcc's libraries use LLVM's libomp,
# PyTorch's wheel GNU's libgomp. Idle threads of either spin after each
# parallel region (libomp for 200 ms) and would slow the other's next
# call, so both put their threads to sleep at once. Set before either
# runtime is loaded.
os.environ.setdefault("KMP_BLOCKTIME", "0")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# --thp: PyTorch's CPU allocator asks for transparent huge pages
# (madvise), which cuts its page faults on each new 256 MiB result by 512x.
# Read by PyTorch when it is loaded.
if "--thp" in sys.argv:
    os.environ["THP_MEM_ALLOC_ENABLE"] = "1"

import argparse
import ctypes
import statistics
import subprocess
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ROWS, COLS = 16384, 4096


def tcc_library(build, name, tmp):
    """Builds benchmarks/fusion/NAME.mlir with tcc-compile and returns
    call(*arrays) -> seconds of tcc_run, plus fetch(*arrays) -> the result
    as a numpy array (for the check)."""
    sys.path.insert(0, os.path.join(build, "python_packages"))
    from tcc._api import _TensorStruct  # the C ABI's tensor struct

    lib_path = os.path.join(tmp, f"{name}.so")
    subprocess.run([os.path.join(build, "bin", "tcc-compile"),
                    os.path.join(ROOT, "benchmarks", "fusion", f"{name}.mlir"),
                    "-o", lib_path], check=True)
    lib = ctypes.CDLL(lib_path)
    lib.tcc_last_error.restype = ctypes.c_char_p

    def structs(arrays):
        ins = (_TensorStruct * len(arrays))()
        for i, a in enumerate(arrays):
            ins[i].data = a.ctypes.data
            ins[i].dtype = 0  # f32
            ins[i].rank = a.ndim
            for d, s in enumerate(a.shape):
                ins[i].shape[d] = s
        return ins

    def run(arrays, keep):
        ins, out = structs(arrays), (_TensorStruct * 1)()
        start = time.perf_counter()
        code = lib.tcc_run(name.encode(), ins, len(arrays), out, 1)
        seconds = time.perf_counter() - start
        if code != 0:
            raise RuntimeError(lib.tcc_last_error().decode())
        result = None
        if keep:
            buf = (ctypes.c_char * (ROWS * COLS * 4)).from_address(out[0].data)
            result = np.frombuffer(buf, np.float32).reshape(ROWS, COLS).copy()
        lib.tcc_release(ctypes.byref(out[0]))
        return seconds, result

    return (lambda *a: run(a, False)[0]), (lambda *a: run(a, True)[1])


def kernels():
    """name: (MiB moved, inputs(), eager(*t), eager_out(*t, out))."""
    gen = torch.Generator().manual_seed(0)

    def rand(*shape):
        return torch.randn(*shape, generator=gen)

    def add_relu_mul(x, y):
        return torch.relu(x + y) * x

    def add_relu_mul_out(x, y, out):
        torch.add(x, y, out=out)
        torch.relu_(out)
        return torch.mul(out, x, out=out)

    def bias_gelu(x, b):
        return F.gelu(x + b)

    def bias_gelu_out(x, b, out):
        torch.add(x, b, out=out)
        return torch.ops.aten.gelu.out(out, out=out)

    def softmax(x):
        return torch.softmax(x, dim=1)

    def softmax_out(x, out):
        return torch.ops.aten._softmax.out(x, 1, False, out=out)

    def layer_norm(x, w, b):
        return F.layer_norm(x, (COLS,), w, b, 1e-5)

    mean = torch.empty(ROWS, 1)
    rstd = torch.empty(ROWS, 1)

    def layer_norm_out(x, w, b, out):
        return torch.ops.aten.native_layer_norm.out(
            x, [COLS], w, b, 1e-5, out0=out, out1=mean, out2=rstd)[0]

    return {
        "add_relu_mul": (768, lambda: (rand(ROWS, COLS), rand(ROWS, COLS)),
                         add_relu_mul, add_relu_mul_out),
        "bias_gelu": (512, lambda: (rand(ROWS, COLS), rand(COLS)),
                      bias_gelu, bias_gelu_out),
        "softmax": (512, lambda: (rand(ROWS, COLS) * 4,), softmax,
                    softmax_out),
        "layer_norm": (512, lambda: (rand(ROWS, COLS) * 3 + 1, rand(COLS),
                                     rand(COLS)), layer_norm, layer_norm_out),
    }


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--kernels", default="add_relu_mul,bias_gelu,"
                        "softmax,layer_norm")
    parser.add_argument("--thp", action="store_true",
                        help="PyTorch's allocator with transparent huge "
                        "pages (THP_MEM_ALLOC_ENABLE=1)")
    args = parser.parse_args()
    threads = os.cpu_count()
    torch.set_num_threads(threads)
    all_kernels = kernels()
    tmp = tempfile.mkdtemp(prefix="tcc-vs-torch-")
    copy_tcc, _ = tcc_library(args.build, "copy", tmp)

    print(f"machine: {machine()}, {threads} cores; torch {torch.__version__}"
          f" ({torch.get_num_threads()} threads"
          f"{', THP_MEM_ALLOC_ENABLE=1' if os.environ.get('THP_MEM_ALLOC_ENABLE') == '1' else ''})")
    print(f"[{ROWS}, {COLS}] f32, median of {args.rounds} interleaved rounds;"
          " share: GB/s over the same run's tcc copy")
    print(f"{'kernel':13} {'variant':10} {'ms':>8} {'GB/s':>7} {'share':>6}")
    for name in args.kernels.split(","):
        mib, make_inputs, eager, eager_out = all_kernels[name]
        inputs = make_inputs()
        arrays = [t.numpy() for t in inputs]
        call_tcc, fetch_tcc = tcc_library(args.build, name, tmp)
        compiled = torch.compile(eager)
        out = torch.empty(ROWS, COLS)
        copy_src, copy_dst = inputs[0], torch.empty(ROWS, COLS)
        src = arrays[0]

        expected = eager(*inputs)
        for label, got in (("tcc", torch.from_numpy(fetch_tcc(*arrays))),
                           ("eager out", eager_out(*inputs, out)),
                           ("compile", compiled(*inputs))):
            if not torch.allclose(got, expected, rtol=1e-4, atol=1e-5):
                err = (got - expected).abs().max().item()
                sys.exit(f"{name}: {label} differs from eager (max {err})")

        variants = {
            "tcc": lambda: call_tcc(*arrays),
            "eager": lambda: timed(lambda: eager(*inputs)),
            "eager out": lambda: timed(lambda: eager_out(*inputs, out)),
            "compile": lambda: timed(lambda: compiled(*inputs)),
            "copy tcc": lambda: copy_tcc(src),
            "copy torch": lambda: timed(lambda: copy_dst.copy_(copy_src)),
        }
        times = {label: [] for label in variants}
        for round_ in range(args.rounds + 2):  # two warm-up rounds
            for label, fn in variants.items():
                seconds = fn()
                if round_ >= 2:
                    times[label].append(seconds)
        copy_gbs = 512 * 2**20 / statistics.median(times["copy tcc"]) / 1e9
        for label, ts in times.items():
            moved = 512 if label.startswith("copy") else mib
            t = statistics.median(ts)
            gbs = moved * 2**20 / t / 1e9
            print(f"{name:13} {label:10} {t * 1e3:8.2f} {gbs:7.1f} "
                  f"{100 * gbs / copy_gbs:5.0f}%")
        print(f"{name:13} tcc over the best PyTorch: "
              f"{min(statistics.median(times[v]) for v in ('eager', 'eager out', 'compile')) / statistics.median(times['tcc']):.2f}x")


def machine():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    main()
