#!/usr/bin/env python3
"""ViT-B/16 side by side, in one process on the GPU machine: tcc's library
(tcc-compile examples/vit_b16.mlir --target=cuda) and PyTorch's timm
vit_base_patch16_224 with the same weights and images.

    python3 vit_harness.py [--dtype f32|bf16] [--lib ./libvit_b16.so]
        [--batch 1,4] [--modes eager,default,reduce-overhead,max-autotune]
        [--json vit.json] [--md vit.md]

With --dtype bf16 the model is timm's after .to(torch.bfloat16), and tcc's
library is libvit_b16_bf16.so (gen_vit_b16.py --dtype bf16): the same
bf16 weights and images on both sides.

For each batch size: tcc's result against eager's (max abs error, and
relative to eager's largest logit), then median milliseconds per call from
the host: tcc_run (host code, launches, synchronization), tcc as a replayed
CUDA graph (tcc_graph_launch), and PyTorch in each mode (each call
followed by torch.cuda.synchronize(); compile time = the first call's).
PyTorch runs with its defaults (no TF32 for matmuls).
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import gen_vit_b16  # noqa: E402  (the weights' order)

MAX_RANK = 8


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * MAX_RANK),
                ("owner", ctypes.c_void_p)]


def describe(t):
    d = Tensor()
    d.data = t.data_ptr()
    d.dtype = {torch.float32: 0, torch.float16: 2, torch.bfloat16: 3}[t.dtype]
    d.rank = t.dim()
    for i, s in enumerate(t.shape):
        d.shape[i] = s
    return d


class Library:
    def __init__(self, path):
        self.so = ctypes.CDLL(os.path.abspath(path))
        self.so.tcc_last_error.restype = ctypes.c_char_p
        self.so.tcc_graph_create.argtypes = [
            ctypes.c_char_p, ctypes.POINTER(Tensor), ctypes.c_int,
            ctypes.POINTER(Tensor), ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
        self.so.tcc_graph_launch.argtypes = [ctypes.c_void_p]
        self.so.tcc_graph_destroy.argtypes = [ctypes.c_void_p]

    def check(self, code, what):
        if code != 0:
            raise RuntimeError("%s failed (%d): %s" % (
                what, code, self.so.tcc_last_error().decode()))

    def run(self, inputs):
        args = (Tensor * len(inputs))(*[describe(t) for t in inputs])
        out = (Tensor * 1)()
        self.check(self.so.tcc_run(b"vit_b16", args, len(inputs), out, 1), "tcc_run")
        return out

    def to_torch(self, result, dtype):
        shape = [result.shape[i] for i in range(result.rank)]
        t = torch.empty(shape, device="cuda", dtype=dtype)
        import cupy
        cupy.cuda.runtime.memcpy(t.data_ptr(), result.data,
                                 t.numel() * t.element_size(), 3)
        return t

    def release(self, out):
        self.so.tcc_release(ctypes.byref(out[0]))


def median_ms(fn, reps):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    ap.add_argument("--lib", help="default: libvit_b16.so, or "
                    "libvit_b16_bf16.so with --dtype bf16, beside this script")
    ap.add_argument("--batch", default="1,4")
    ap.add_argument("--modes", default="eager,default,reduce-overhead")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--json", default="vit.json")
    ap.add_argument("--md", default="vit.md")
    ap.add_argument("--profile", action="store_true",
                    help="print tcc's kernels by GPU time (CUPTI, through "
                         "torch.profiler) at each batch")
    args = ap.parse_args()
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[args.dtype]
    if not args.lib:
        args.lib = os.path.join(HERE, "libvit_b16%s.so" % (
            "" if args.dtype == "f32" else "_" + args.dtype))

    import timm
    torch.manual_seed(0)
    model = timm.create_model("vit_base_patch16_224", pretrained=False).cuda().eval()
    model = model.to(dtype)
    state = model.state_dict()
    names = [n for n, _ in gen_vit_b16.params(12)]
    missing = [n for n in names if n not in state]
    if missing:
        raise SystemExit("timm's model has no %s" % missing)
    weights = [state[n].contiguous() for n in names]
    lib = Library(args.lib)
    rows = []
    for batch in [int(b) for b in args.batch.split(",")]:
        image = torch.randn(batch, 3, 224, 224, device="cuda", dtype=dtype)
        inputs = [image] + weights
        row = {"batch": batch, "dtype": args.dtype}
        with torch.no_grad():
            reference = model(image)
            torch.cuda.synchronize()
            out = lib.run(inputs)
            ours = lib.to_torch(out[0], dtype).float()
            reference = reference.float()
            lib.release(out)
            err = (ours - reference).abs().max().item()
            row["max_abs_error"] = err
            row["relative_error"] = err / reference.abs().max().item()

            def tcc_call():
                o = lib.run(inputs)
                lib.release(o)
            row["tcc_run_ms"] = median_ms(tcc_call, args.reps)
            if args.profile:
                # CUPTI sees every kernel of the process, tcc's included.
                from torch.profiler import profile, ProfilerActivity
                with profile(activities=[ProfilerActivity.CUDA]) as prof:
                    for _ in range(5):
                        tcc_call()
                    torch.cuda.synchronize()
                print("tcc kernels, batch %d, 5 calls:" % batch)
                print(prof.key_averages().table(sort_by="cuda_time_total",
                                                row_limit=30, max_name_column_width=60))

            graph = ctypes.c_void_p()
            ins = (Tensor * len(inputs))(*[describe(t) for t in inputs])
            outs = (Tensor * 1)()
            t0 = time.perf_counter()
            lib.check(lib.so.tcc_graph_create(b"vit_b16", ins, len(inputs), outs, 1,
                                              ctypes.byref(graph)), "tcc_graph_create")
            row["tcc_capture_ms"] = (time.perf_counter() - t0) * 1e3
            row["tcc_graph_ms"] = median_ms(
                lambda: lib.check(lib.so.tcc_graph_launch(graph), "tcc_graph_launch"),
                args.reps)
            replayed = lib.to_torch(outs[0], dtype).float()
            row["graph_max_abs_error"] = (replayed - reference).abs().max().item()
            lib.so.tcc_graph_destroy(graph)

            for mode in args.modes.split(","):
                if mode == "eager":
                    fn = model
                    row["eager_ms"] = median_ms(lambda: fn(image), args.reps)
                    continue
                torch._dynamo.reset()
                fn = torch.compile(model, mode=mode)
                t0 = time.perf_counter()
                fn(image)
                torch.cuda.synchronize()
                row[mode + "_compile_s"] = time.perf_counter() - t0
                for _ in range(3):
                    fn(image)
                row[mode + "_ms"] = median_ms(lambda: fn(image), args.reps)
        rows.append(row)
        print(json.dumps(row), flush=True)

    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)
    modes = args.modes.split(",")
    lines = ["| batch | dtype | tcc_run ms | tcc graph ms | " +
             " | ".join("torch %s ms" % m for m in modes) +
             " | tcc max abs err (rel) |",
             "|---" * (5 + len(modes)) + "|"]
    for r in rows:
        lines.append("| %d | %s | %.3f | %.3f | %s | %.2g (%.1g) |" % (
            r["batch"], r["dtype"], r["tcc_run_ms"], r["tcc_graph_ms"],
            " | ".join("%.3f" % r.get(m + "_ms", float("nan")) for m in modes),
            r["max_abs_error"], r["relative_error"]))
    with open(args.md, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
