#!/usr/bin/env python3
"""Where a tcc cuda library's time goes, kernel by kernel: calls one entry
(inputs from a device_check.sh case line: the specs in cases.txt, values
from torch.rand) under torch.profiler, which records every kernel in the
process (tcc's own, cuDNN's, cuBLASLt's), and prints the kernels' total
time by name over the profiled calls.

    python3 profile_kernels.py CASES.txt LIBNAME [CALLS]
"""
import ctypes
import sys

import torch
from torch.profiler import ProfilerActivity, profile

from vit_harness import Library, Tensor, describe

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def tensor(spec):
    dims, value = spec.split("=")
    *shape, dtype = dims.split("x")
    t = torch.rand([int(d) for d in shape], device="cuda")
    if value.startswith("random*"):
        t = t * float(value[len("random*"):])
    elif value != "random":
        t = torch.full_like(t, float(value))
    return t.to(DTYPES[dtype])


def main():
    cases, libname = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    line = next(l.split() for l in open(cases) if l.startswith(libname + " "))
    lib, function, specs = line[0], line[1], line[5:]
    library = Library(lib)
    inputs = [tensor(s) for s in specs]
    args = (Tensor * len(inputs))(*[describe(t) for t in inputs])

    def call():
        out = (Tensor * 1)()
        library.check(library.so.tcc_run(function.encode(), args, len(inputs),
                                         out, 1), "tcc_run")
        library.so.tcc_release(ctypes.byref(out[0]))

    for _ in range(3):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            call()
        torch.cuda.synchronize()
    total = 0.0
    rows = {}
    for e in prof.events():
        if e.device_type.name != "CUDA":
            continue
        us = e.device_time if hasattr(e, "device_time") else e.cuda_time
        key = e.name[:90]
        n, t = rows.get(key, (0, 0.0))
        rows[key] = (n + 1, t + us)
        total += us
    print("%s: %d calls, kernels %.1f us per call" % (libname, calls, total / calls))
    for key, (n, t) in sorted(rows.items(), key=lambda kv: -kv[1][1])[:25]:
        print("%8.1f us/call %5.1f%% %4d x  %s" % (t / calls, 100 * t / total, n // calls, key))


if __name__ == "__main__":
    main()
