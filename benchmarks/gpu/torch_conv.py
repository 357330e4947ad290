#!/usr/bin/env python3
"""PyTorch's time for examples/conv_block.mlir (a ResNet basic block, 64
channels at 56 x 56, then a 2 x 2 max pool), the shapes device_check.sh
times tcc on: median of CUDA-event timed calls after warm-up, eager and
torch.compile (default and reduce-overhead), NCHW as tcc's, f32 (TF32 off,
as tcc's cuDNN calls) and bf16.

    python3 torch_conv.py [BATCH]   (default 32)
"""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from torch_gemm import median_us

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


class ConvBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(64, 64, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.conv2 = nn.Conv2d(64, 64, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(64)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.max_pool2d(F.relu(y + x), 2)


def main():
    batch = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    torch.manual_seed(0)
    for dtype, name in ((torch.float32, "f32"), (torch.bfloat16, "bf16")):
        model = ConvBlock().cuda().eval().to(dtype)
        x = torch.randn(batch, 64, 56, 56, device="cuda", dtype=dtype)
        with torch.no_grad():
            default = torch.compile(model)
            overhead = torch.compile(model, mode="reduce-overhead")
            for mode, fn in (("eager", model), ("compile", default),
                             ("reduce-overhead", overhead)):
                us = median_us(lambda: fn(x))
                print("torch conv_block %-4s B=%d %-16s %9.1f us" %
                      (name, batch, mode, us))


if __name__ == "__main__":
    main()
