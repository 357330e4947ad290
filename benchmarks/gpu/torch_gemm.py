#!/usr/bin/env python3
"""PyTorch's time for the products device_check.sh times tcc on (same
shapes, f32, TF32 off as in PyTorch's default): median of CUDA-event timed
calls after warm-up, eager and torch.compile (default mode).

    python3 torch_gemm.py
"""
import torch
import torch.nn.functional as F

torch.backends.cuda.matmul.allow_tf32 = False


def median_us(fn, reps=50):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def main():
    dev = "cuda"
    rows = 32 * 197
    x = torch.randn(rows, 768, device=dev)
    w1 = torch.randn(3072, 768, device=dev)
    b1 = torch.randn(3072, device=dev)
    w2 = torch.randn(768, 3072, device=dev)
    b2 = torch.randn(768, device=dev)
    h = torch.randn(rows, 3072, device=dev)
    res = torch.randn(rows, 768, device=dev)

    def fc1_gelu(x):
        return F.gelu(F.linear(x, w1, b1))

    def fc2_residual(h, r):
        return r + F.linear(h, w2, b2)

    c1 = torch.compile(fc1_gelu)
    c2 = torch.compile(fc2_residual)
    flops1 = 2 * rows * 768 * 3072
    xb, w1b, b1b = x.bfloat16(), w1.bfloat16(), b1.bfloat16()

    def fc1_gelu_bf16(x):
        return F.gelu(F.linear(x, w1b, b1b))

    c3 = torch.compile(fc1_gelu_bf16)
    for name, fn, flops in [
        ("fc1+gelu bf16 eager", lambda: fc1_gelu_bf16(xb), flops1),
        ("fc1+gelu bf16 compile", lambda: c3(xb), flops1),
        ("fc1+gelu eager", lambda: fc1_gelu(x), flops1),
        ("fc1+gelu compile", lambda: c1(x), flops1),
        ("fc2+bias+residual eager", lambda: fc2_residual(h, res), flops1),
        ("fc2+bias+residual compile", lambda: c2(h, res), flops1),
    ]:
        us = median_us(fn)
        print("torch %-28s %9.1f us %7.1f TFLOP/s" % (name, us, flops / us / 1e6))


if __name__ == "__main__":
    main()
