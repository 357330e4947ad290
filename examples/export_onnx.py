#!/usr/bin/env python3
"""Exports the three examples (examples/vit_block.mlir, robot_policy.mlir,
conv_block.mlir) from PyTorch to ONNX with a dynamic batch, imports each
with tcc-import-onnx, runs it with tcc-run at two batch sizes from one
import and compares with PyTorch's output.

    python3 examples/export_onnx.py [--bin build/bin] [--out DIR] [--keep]

Needs torch and numpy (scripts/setup.sh installs them into its venv).
Each model is the example's architecture with PyTorch's own random weights
(fixed seed; batch norm with random running statistics, eval mode); the
weights travel as ONNX initializers and become dense resources. A check
fails (exit 1) if the import lacks the symbolic batch or an output
differs beyond rtol/atol.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class RobotPolicy(nn.Module):
    """examples/robot_policy.mlir: obs [B, 256] -> actions [B, 12], value [B, 1]."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(256, 512), nn.LayerNorm(512), nn.ReLU(),
                                     nn.Linear(512, 256), nn.LayerNorm(256), nn.ReLU())
        self.policy_head = nn.Linear(256, 12)
        self.value_head = nn.Linear(256, 1)

    def forward(self, obs):
        features = self.encoder(obs)
        return self.policy_head(features), self.value_head(features)


class ViTBlock(nn.Module):
    """examples/vit_block.mlir: timm's pre-norm ViT-B/16 block, fused QKV,
    12 heads of 64, MLP 3072, LayerNorm eps 1e-6, exact GELU."""

    def __init__(self, dim=768, heads=12, mlp=3072):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, mlp)
        self.fc2 = nn.Linear(mlp, dim)

    def forward(self, x):
        b, s, c = x.shape
        qkv = self.qkv(self.norm1(x)).reshape(b, s, 3, self.heads, c // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        attn = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(attn.transpose(1, 2).reshape(b, s, c))
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class ConvBlock(nn.Module):
    """examples/conv_block.mlir: ResNet basic block, 64 channels at 56x56."""

    def __init__(self, ch=64):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + x)


def examples():
    """(name, module, input shape without batch, rtol, atol)."""
    conv = ConvBlock()
    for bn in (conv.bn1, conv.bn2):  # Statistics that are not the identity.
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.data.uniform_(0.5, 1.5)
        bn.bias.data.uniform_(-0.5, 0.5)
    return [
        ("robot_policy", RobotPolicy(), (256,), 1e-4, 1e-5),
        ("vit_block", ViTBlock(), (197, 768), 1e-3, 1e-4),
        ("conv_block", conv, (64, 56, 56), 1e-3, 1e-4),
    ]


def save_npy(path, array):
    np.save(path, np.ascontiguousarray(array, dtype=np.float32))


def export(module, shape, onnx_path, outputs=("y",)):
    """module exported to onnx_path: opset 17, input x [batch, *shape]."""
    outputs = list(outputs)
    torch.onnx.export(module, (torch.randn(2, *shape),), onnx_path,
                      input_names=["x"], output_names=outputs, opset_version=17,
                      dynamic_axes={n: {0: "batch"} for n in ["x"] + outputs},
                      dynamo=False)


def outputs_of(module, x):
    """module(x) without autograd, always as a tuple of tensors."""
    with torch.no_grad():
        y = module(x)
    return y if isinstance(y, tuple) else (y,)


def run_against(bin_dir, mlir, x, expected, prefix, rtol, atol, extra=()):
    """tcc-run of mlir's @main on x, each result compared with `expected`
    (a tuple of tensors); files as prefix_*.npy. (ok, tcc-run's output)."""
    x_npy = prefix + "_x.npy"
    save_npy(x_npy, x.numpy())
    run = [os.path.join(bin_dir, "tcc-run"), mlir, "--function=main",
           "--input=@" + x_npy, "--rtol=%g" % rtol, "--atol=%g" % atol]
    run += list(extra)
    for i, e in enumerate(expected):
        e_npy = "%s_y%d.npy" % (prefix, i)
        save_npy(e_npy, e.numpy())
        run.append("--expected_output=@" + e_npy)
    r = subprocess.run(run, capture_output=True, text=True)
    text = r.stdout + r.stderr
    ok = (r.returncode == 0 and "[FAILED]" not in text and
          text.count("[SUCCESS]") == len(expected))
    return ok, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--out", help="directory for the .onnx/.mlir/.npy files "
                                  "(default: a temporary one)")
    ap.add_argument("--batches", default="1,3",
                    help="batch sizes to run from one import")
    args = ap.parse_args()
    torch.manual_seed(0)
    out = args.out or tempfile.mkdtemp(prefix="tcc-export-")
    os.makedirs(out, exist_ok=True)
    batches = [int(b) for b in args.batches.split(",")]
    failures = 0
    for name, module, shape, rtol, atol in examples():
        module.eval()
        onnx_path = os.path.join(out, name + ".onnx")
        export(module, shape, onnx_path,
               ["actions", "value"] if name == "robot_policy" else ["y"])
        mlir = os.path.join(out, name + ".mlir")
        p = subprocess.run([os.path.join(args.bin, "tcc-import-onnx"), onnx_path,
                            "-o", mlir], capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL %s: import: %s" % (name, p.stderr.strip()))
            failures += 1
            continue
        signature = next((l for l in open(mlir) if "func.func @main" in l), "")
        if not re.search(r"tcc\.shape = #tcc\.shape<\[batch", signature):
            print("FAIL %s: the input's batch is not the symbol 'batch': %s"
                  % (name, signature))
            failures += 1
            continue
        for batch in batches:
            x = torch.randn(batch, *shape)
            expected = outputs_of(module, x)
            ok, text = run_against(args.bin, mlir, x, expected,
                                   os.path.join(out, "%s_%d" % (name, batch)),
                                   rtol, atol)
            print("%s %s batch %d: %s" % ("ok  " if ok else "FAIL", name, batch,
                                         "; ".join(l for l in text.splitlines()
                                                   if "SUCCESS" in l or "FAIL" in l
                                                   or "error" in l)))
            failures += not ok
    if not args.out:
        print("files in", out)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
