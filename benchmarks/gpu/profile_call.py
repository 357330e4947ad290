#!/usr/bin/env python3
"""Calls one entry of a tcc cuda library a few times from Python, on
random device inputs made by PyTorch: the process Nsight Compute profiles
(ncu attaches to python3 on the H200 machine, and did not to tcc-run-lib).

    ncu --clock-control none --launch-skip 1 --launch-count 1 \\
        python3 profile_call.py libmemory_bound_bf16.so bias_gelu \\
        16384x4096xbf16 4096xbf16
"""
import ctypes
import sys

import torch

from vit_harness import Library, Tensor, describe

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def tensor(spec):
    *dims, dtype = spec.split("x")
    return torch.rand([int(d) for d in dims], device="cuda").to(DTYPES[dtype])


def main():
    lib = Library(sys.argv[1])
    name = sys.argv[2].encode()
    inputs = [tensor(s) for s in sys.argv[3:]]
    args = (Tensor * len(inputs))(*[describe(t) for t in inputs])
    for _ in range(3):
        out = (Tensor * 1)()
        lib.check(lib.so.tcc_run(name, args, len(inputs), out, 1), "tcc_run")
        lib.so.tcc_release(ctypes.byref(out[0]))
    torch.cuda.synchronize()
    print("ran", sys.argv[2], "3 times")


if __name__ == "__main__":
    main()
