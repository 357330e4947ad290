#!/usr/bin/env python3
"""CPU side by side, in one run on one machine: tcc against PyTorch eager,
torch.compile (Inductor, default mode) and onnxruntime, on the same models
and weights.

    ~/.cache/tcc/venv/bin/python benchmarks/cpu/compare_cpu.py \
        [--models conv_block,resnet18,vit_block,robot_policy] [--calls 20]

Each model is built in PyTorch (examples/export_onnx.py's modules and a
torchvision-shaped ResNet-18), exported to ONNX with a dynamic batch,
imported with tcc-import-onnx (weights as constants) and timed with
`tcc-run --benchmark=N` (median of the compiled call); PyTorch and
onnxruntime are timed in this process (median over N calls after warm-up)
with as many threads as the machine has cores. Every tcc result is
checked against PyTorch's first. Prints a Markdown table (median ms and
tcc's speedup over the best peer).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from export_onnx import (ConvBlock, RobotPolicy, ViTBlock, export,  # noqa: E402
                         outputs_of, run_against)
sys.path.insert(0, os.path.dirname(HERE))
from resnet18_torch import ResNet18  # noqa: E402


def randomize_batch_norms(module):
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)


MODELS = {
    # name: (constructor, input shape without batch, batches)
    "conv_block": (ConvBlock, (64, 56, 56), [1, 8]),
    "resnet18": (ResNet18, (3, 224, 224), [1, 8]),
    "vit_block": (ViTBlock, (197, 768), [1]),
    "robot_policy": (RobotPolicy, (256,), [1]),
}


def median_ms(fn, calls):
    for _ in range(3):
        fn()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--no-compile", action="store_true",
                    help="leave torch.compile out (its compile is slow)")
    args = ap.parse_args()
    import onnxruntime as ort

    threads = os.cpu_count() or 1
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    out = tempfile.mkdtemp(prefix="tcc-cpu-compare-")
    rows = []
    for name in args.models.split(","):
        ctor, shape, batches = MODELS[name]
        module = ctor().eval()
        randomize_batch_norms(module)
        onnx_path = os.path.join(out, name + ".onnx")
        export(module, shape, onnx_path,
               ["actions", "value"] if name == "robot_policy" else ["y"])
        mlir = os.path.join(out, name + ".mlir")
        subprocess.run([os.path.join(args.bin, "tcc-import-onnx"), onnx_path,
                        "-o", mlir], check=True)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        session = ort.InferenceSession(onnx_path, options,
                                       providers=["CPUExecutionProvider"])
        compiled = None if args.no_compile else torch.compile(module)
        for batch in batches:
            x = torch.randn(batch, *shape)
            expected = outputs_of(module, x)
            with torch.no_grad():
                eager = median_ms(lambda: module(x), args.calls)
                inductor = (median_ms(lambda: compiled(x), args.calls)
                            if compiled is not None else float("nan"))
            feed = {"x": x.numpy()}
            onnxrt = median_ms(lambda: session.run(None, feed), args.calls)
            # tcc as it compiles by default (layouts chosen, convolutions
            # through oneDNN), and with generated code only.
            times, notes = [], []
            for flags in ([], ["--no-library"]):
                ok, text = run_against(
                    args.bin, mlir, x, expected,
                    os.path.join(out, "%s_%d" % (name, batch)), 1e-3, 1e-3,
                    ["--benchmark=%d" % args.calls] + flags)
                m = re.search(r"compiled code: median ([0-9.]+) us", text)
                times.append(float(m.group(1)) / 1e3 if m else float("nan"))
                if not ok:
                    notes.append(" (tcc %s result differs!)" % " ".join(flags))
            tcc, generated = times
            best = min(v for v in (eager, inductor, onnxrt) if v == v)
            rows.append((name, batch, tcc, generated, eager, inductor, onnxrt,
                         best / tcc, "".join(notes)))
            print("%s batch %d done" % (name, batch), file=sys.stderr)
    print("| model | batch | tcc ms | tcc generated-only ms | eager ms "
          "| torch.compile ms | onnxruntime ms | tcc vs best |")
    print("|---|---|---|---|---|---|---|---|")
    for (name, batch, tcc, generated, eager, inductor, onnxrt, speedup,
         note) in rows:
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2fx%s |" % (
            name, batch, tcc, generated, eager, inductor, onnxrt, speedup,
            note))


if __name__ == "__main__":
    main()
