#!/usr/bin/env python3
"""Where oneDNN's matmul beats tcc's generated linear: the measurement behind
tcc-linear-to-library's default `min-macs` (docs/layout.md).

    python3 benchmarks/cpu/layout/linear_threshold.py [--calls 300]

For each size (rows M, in K, out N) it writes a linear + bias + ReLU with a
random constant weight (as an ONNX import has), then times it with
`tcc-run --benchmark` twice: every product through oneDNN
(--gemm-library-min-macs=0) and generated code only (--no-library).
Prints a Markdown table of the medians.
"""
import argparse
import os
import random
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TCC_RUN = os.path.join(ROOT, "build", "bin", "tcc-run")
SIZES = [(1, 256, 13), (1, 256, 512), (1, 512, 256), (4, 256, 512),
         (8, 256, 512), (32, 256, 512), (197, 768, 768)]


def function(m, k, n, rng):
    rows = ",".join("[" + ",".join("%.4f" % rng.uniform(-0.1, 0.1)
                                   for _ in range(k)) + "]" for _ in range(n))
    bias = ",".join("%.4f" % rng.uniform(-0.1, 0.1) for _ in range(n))
    return f"""func.func @f(%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{
  %w = tcc.constant dense<[{rows}]> : tensor<{n}x{k}xf32>
  %b = tcc.constant dense<[{bias}]> : tensor<{n}xf32>
  %0 = tcc.linear %x, %w, %b : (tensor<{m}x{k}xf32>, tensor<{n}x{k}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32>
  %1 = tcc.relu %0 : (tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %1 : tensor<{m}x{n}xf32>
}}
"""


def median_us(path, flags, calls):
    out = subprocess.run([TCC_RUN, path, "--random-inputs",
                          f"--benchmark={calls}"] + flags, check=True,
                         capture_output=True, text=True).stdout
    return float(re.search(r"compiled code: median ([0-9.]+) us", out)[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(0)
    print("| M x K x N | multiply-adds | oneDNN us | generated us | faster |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for m, k, n in SIZES:
            path = os.path.join(tmp, f"linear_{m}_{k}_{n}.mlir")
            with open(path, "w") as f:
                f.write(function(m, k, n, rng))
            lib = median_us(path, ["--gemm-library-min-macs=0"], args.calls)
            gen = median_us(path, ["--no-library"], args.calls)
            print(f"| {m} x {k} x {n} | {m * k * n} | {lib:.1f} | {gen:.1f} "
                  f"| {'oneDNN' if lib < gen else 'generated'} |")


if __name__ == "__main__":
    main()
