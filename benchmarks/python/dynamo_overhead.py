#!/usr/bin/env python3
"""torch.compile(backend=tcc.dynamo_backend): what a graph costs to compile,
and what the compiled graph then costs per call, against eager PyTorch and
torch.compile's default backend (Inductor) measured in the same run.

    PYTHONPATH=build/python_packages ~/.cache/tcc/venv/bin/python \
        benchmarks/python/dynamo_overhead.py [--calls 50] [--no-inductor]

Per model: the first call's seconds (Dynamo's capture + AOTAutograd +
the backend), split for tcc into FX -> tcc IR (import) and tcc IR ->
machine code (compile) from tcc.dynamo.stats; then the median of --calls
calls per backend. Models: seed 001's RobotPolicy (batch 1 and 64) and a
ViT-B/16 block (batch 1, 197 tokens), batch marked dynamic.
"""
import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python_bindings" / "tests"))

import torch  # noqa: E402
import torch._dynamo  # noqa: E402

import tcc  # noqa: E402
import tcc.dynamo  # noqa: E402
from models import RobotPolicy, ViTBlock  # noqa: E402


def median_ms(fn, x, calls):
    for _ in range(3):
        fn(x)
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        fn(x)
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def first_call(backend, model, x):
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=backend)
    torch._dynamo.mark_dynamic(x, 0)
    t = time.perf_counter()
    compiled(x)
    return time.perf_counter() - t, compiled


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--no-inductor", action="store_true")
    args = ap.parse_args()
    cpu = next((l.split(":", 1)[1].strip() for l in
                open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"# {platform.node()}: {cpu}, {os.cpu_count()} CPUs, torch "
          f"{torch.__version__}, torch threads {torch.get_num_threads()}")
    cases = [("robot_policy", RobotPolicy().eval(), (1, 256)),
             ("robot_policy", RobotPolicy().eval(), (64, 256)),
             ("vit_block", ViTBlock().eval(), (1, 197, 768))]
    print("| model | shape | tcc first call s | import s | tcc compile s "
          "| inductor first call s | eager ms | tcc ms | inductor ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    with torch.no_grad():
        for name, model, shape in cases:
            x = torch.randn(*shape)
            # mark_dynamic on a size-1 dim would specialize: compile at 2.
            warm = torch.randn(*((2,) + shape[1:]))
            tcc.dynamo.reset()
            first, compiled = first_call(tcc.dynamo_backend, model, warm)
            rec = tcc.dynamo.stats[0]
            assert rec.status == "compiled", rec.reason
            tcc_ms = median_ms(compiled, x, args.calls)
            eager_ms = median_ms(model, x, args.calls)
            ind_first = ind_ms = float("nan")
            if not args.no_inductor:
                ind_first, ind = first_call("inductor", model, warm)
                ind_ms = median_ms(ind, x, args.calls)
            print(f"| {name} | {'x'.join(map(str, shape))} | {first:.2f} | "
                  f"{rec.import_seconds:.3f} | {rec.compile_seconds:.2f} | "
                  f"{ind_first:.2f} | {eager_ms:.3f} | {tcc_ms:.3f} | "
                  f"{ind_ms:.3f} |", flush=True)


if __name__ == "__main__":
    main()
