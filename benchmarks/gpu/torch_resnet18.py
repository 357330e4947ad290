#!/usr/bin/env python3
"""PyTorch's time for ResNet-18 (torchvision's architecture, from
benchmarks/resnet18_torch.py: the device has no torchvision) at 224 x 224 in bf16, channels-last
(the layout cuDNN's Tensor Core kernels take, and what tcc's
--select-layout picks for bf16 convolutions on cuda): median of
CUDA-event timed calls after warm-up, eager and torch.compile (default
mode, and reduce-overhead: CUDA graphs, to compare with tcc's graph
replay). tcc's figure for the same model comes from
device_check.sh's resnet18_bf16_nhwc case (tcc-run-lib --benchmark).

    python3 torch_resnet18.py [BATCH...]   (default 1)
"""
import os
import sys

import torch

from torch_gemm import median_us

# benchmarks/ here; beside this file where prepare_check.py copies it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from resnet18_torch import ResNet18  # noqa: E402


def main():
    batches = [int(b) for b in sys.argv[1:]] or [1]
    torch.manual_seed(0)
    model = ResNet18().cuda().eval().to(torch.bfloat16).to(
        memory_format=torch.channels_last)
    with torch.no_grad():
        default = torch.compile(model)
        overhead = torch.compile(model, mode="reduce-overhead")
        for batch in batches:
            x = torch.randn(batch, 3, 224, 224, device="cuda",
                            dtype=torch.bfloat16).to(
                                memory_format=torch.channels_last)
            for mode, fn in (("eager", model), ("compile", default),
                             ("reduce-overhead", overhead)):
                us = median_us(lambda: fn(x))
                print("torch resnet18 bf16 channels-last B=%d %-15s %9.1f us" %
                      (batch, mode, us), flush=True)


if __name__ == "__main__":
    main()
