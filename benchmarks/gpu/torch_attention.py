#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention at ViT-B/16's shape, the peer of
tcc's fused attention kernel (device_check.sh times that one right before):
median of CUDA-event timings over repeated calls, per backend PyTorch
picks (flash, cuDNN, efficient) and its default.

    python3 torch_attention.py [BATCH]   (default 32; [B, 12, 197, 64] bf16)
"""
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from torch_gemm import median_us as time_us  # beside this script


def main():
    batch = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    q, k, v = (torch.rand(batch, 12, 197, 64, device="cuda",
                          dtype=torch.bfloat16) * 2 - 1 for _ in range(3))
    flops = 4 * batch * 12 * 197 * 197 * 64
    backends = [("default", None), ("flash", SDPBackend.FLASH_ATTENTION),
                ("cudnn", SDPBackend.CUDNN_ATTENTION),
                ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
    for name, backend in backends:
        try:
            if backend is None:
                us = time_us(lambda: F.scaled_dot_product_attention(q, k, v))
            else:
                with sdpa_kernel(backend):
                    us = time_us(lambda: F.scaled_dot_product_attention(q, k, v))
        except RuntimeError as e:
            print("torch sdpa %-9s unavailable (%s)" % (name, str(e).splitlines()[0]))
            continue
        print("torch sdpa %-9s %8.1f us %7.1f TFLOP/s" % (name, us, flops / us / 1e6))


if __name__ == "__main__":
    main()
