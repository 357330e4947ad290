#!/usr/bin/env python3
"""The model zoo on this CPU, tcc beside onnxruntime and Inductor in one
run: per model and path, tcc's time to the first result with a cold
compile cache and again in a new process with the cache warm, median and
p99 per call, and the same for the peer.

    PYTHONPATH=build/python_packages ~/.cache/tcc/venv/bin/python \\
        benchmarks/cpu/zoo_side_by_side.py [--full] [--models resnet50,bert] \\
        [--paths compile,onnx] [--calls 20] [--table zoo_cpu.md]

Each row runs twice, each time in a fresh interpreter
(benchmarks/models/zoo.py's rows): first with an empty compile cache of
its own (TCC_CACHE_DIR; Inductor's cache too, TORCHINDUCTOR_CACHE_DIR),
timing tcc and the peer; then with the cache the first run filled, timing
tcc's warm start only. "first result" is what a user waits for: on the
onnx path the import, compile and first call (the export is not counted;
the peer's is its session's creation and first run), on the compile path
torch.compile's first call (Dynamo, AOTAutograd and tcc; the peer's is
Inductor's first call). The peer on the compile path is Inductor (default
mode), on the onnx path onnxruntime; both at the same threads as tcc.
"""
import argparse
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "models"))

import zoo  # noqa: E402
from zoo_models import BY_NAME, ZOO  # noqa: E402


def _f(v, spec=".2f"):
    return "" if v is None else format(v, spec)


def side_by_side(model, path, small, args):
    """(cold, warm) Results of one row."""
    cache = Path(tempfile.mkdtemp(prefix="tcc-side-by-side-"))
    env = dict(os.environ, TCC_CACHE_DIR=str(cache / "tcc"),
               TORCHINDUCTOR_CACHE_DIR=str(cache / "inductor"))
    try:
        cold = zoo.run_in_subprocess(model, path, small, args, env)
        warm = zoo.run_in_subprocess(model, path, small, args, env,
                                     time_peer=False)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return cold, warm


def table(rows, small, threads) -> str:
    lines = [
        f"Zoo side by side ({'CI sizes' if small else 'full sizes'}), "
        f"{platform.node()}, {os.cpu_count()} cores, {threads} threads, "
        f"{time.strftime('%Y-%m-%d')}",
        "",
        "| model | path | numerics | tcc first result cold s | warm s "
        "| tcc ms median | p99 | peer | peer first result s | peer ms median "
        "| p99 | tcc / peer |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ratios = {}
    for cold, warm in rows:
        num = cold.status if cold.error is None else \
            f"{cold.status} ({cold.error:.1e})"
        if cold.status == "error":
            num += f": {cold.detail}"
        ratio = (cold.tcc_ms / cold.peer_ms
                 if cold.tcc_ms and cold.peer_ms else None)
        if ratio and cold.status == "ok":
            ratios.setdefault(cold.path, []).append(ratio)
        lines.append(
            f"| {cold.model} | {cold.path} | {num} | {_f(cold.first_s)} "
            f"| {_f(warm.first_s)} | {_f(cold.tcc_ms)} "
            f"| {_f(cold.tcc_p99)} | {cold.peer} "
            f"| {_f(cold.peer_first_s)} | {_f(cold.peer_ms)} "
            f"| {_f(cold.peer_p99)} | {_f(ratio)} |")
    lines.append("")
    for path, rs in sorted(ratios.items()):
        geo = math.exp(sum(math.log(r) for r in rs) / len(rs))
        lines.append(f"Geometric mean of tcc / peer, {path} path: "
                     f"{geo:.2f} over {len(rs)} models; above 1.0: "
                     f"{sum(r > 1.0 for r in rs)}.")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="",
                    help="comma-separated zoo names (default: all)")
    ap.add_argument("--paths", default="compile,onnx")
    ap.add_argument("--full", action="store_true",
                    help="full sizes (default: the CI sizes)")
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--rtol", type=float, default=2e-3)
    ap.add_argument("--workdir", default="/tmp/tcc-zoo")
    ap.add_argument("--table", help="write the Markdown table here")
    args = ap.parse_args(argv)
    names = args.models.split(",") if args.models else [m.name for m in ZOO]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown models {unknown}; known: {', '.join(BY_NAME)}")
    small = not args.full
    # What zoo.run_in_subprocess passes on to each row's interpreter.
    row_args = argparse.Namespace(calls=args.calls, rtol=args.rtol,
                                  workdir=args.workdir, threads=args.threads,
                                  peers=True, exporter=None)
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    paths = args.paths.split(",")
    rows = []
    for name in names:
        for path in paths:
            start = time.perf_counter()
            cold, warm = side_by_side(name, path, small, row_args)
            rows.append((cold, warm))
            print(f"[{len(rows)}/{len(names) * len(paths)}] {name} {path}: "
                  f"{cold.status} first {_f(cold.first_s, '.1f')} s, warm "
                  f"{_f(warm.first_s, '.1f')} s, tcc {_f(cold.tcc_ms)} ms, "
                  f"{cold.peer} {_f(cold.peer_ms)} ms "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr,
                  flush=True)
    text = table(rows, small, args.threads)
    if args.table:
        Path(args.table).write_text(text)
    else:
        print(text)
    return 0 if all(c.status == "ok" for c, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
