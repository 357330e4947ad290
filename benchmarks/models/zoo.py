#!/usr/bin/env python3
"""The model zoo, run as a user would: every model of zoo_models.py through
both of tcc's paths, each against its peer in the same run.

    PYTHONPATH=build/python_packages ~/.cache/tcc/venv/bin/python \
        benchmarks/models/zoo.py [--models a,b] [--paths compile,onnx] \
        [--small] [--calls 10] [--peers] [--table out.md]

* compile: torch.compile(model, backend=tcc.make_backend()) with the
  dynamic dims marked, against eager PyTorch (numerics) and, with --peers,
  Inductor (time). The report names what ran in tcc: "wholly" or
  "partitioned" with the ops left in PyTorch (tcc.dynamo.stats).
* onnx: torch.onnx.export (its default exporter, opset 18 and later, or
  the TorchScript one at opset 17 for a model torch.export cannot trace or
  with --exporter legacy; the dynamic dims named) ->
  tcc.import_onnx -> tcc.compile, against onnxruntime (numerics and time).

Numerics: max |tcc - reference| / max |reference| per output, which must stay
under --rtol. One progress line per model and path goes to stderr; the
Markdown table (model, path, what ran in tcc, numerics, tcc ms, peer ms,
compile s) to stdout or --table. Times are medians of --calls calls after
two warm-up calls.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import io
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from zoo_models import BY_NAME, ZOO  # noqa: E402


@dataclass
class Result:
    model: str
    path: str
    status: str = "ok"            # ok | mismatch | error
    coverage: str = ""            # wholly | partitioned (...) | eager
    error: float | None = None    # worst relative error over the outputs
    tcc_ms: float | None = None
    peer: str = ""
    peer_ms: float | None = None
    compile_s: float | None = None
    detail: str = ""
    eager_ops: list = field(default_factory=list)
    tcc_p99: float | None = None       # ms
    peer_p99: float | None = None
    first_s: float | None = None       # tcc: from nothing to the 1st result
    peer_first_s: float | None = None  # the peer's (session / compile)


def _flat(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    raise TypeError(f"unexpected output {type(out)}")


def relative_error(got, want) -> float:
    """max |got - want| / max |want| over all outputs (exact for ints)."""
    worst = 0.0
    if len(got) != len(want):
        return float("inf")
    for g, w in zip(got, want):
        g = torch.as_tensor(g)
        if g.shape != w.shape:
            return float("inf")
        if not w.is_floating_point():
            worst = max(worst, 0.0 if torch.equal(g.to(w.dtype), w) else float("inf"))
            continue
        scale = w.abs().max().item() or 1.0
        worst = max(worst, (g.double() - w.double()).abs().max().item() / scale)
    return worst


def timing_ms(fn, calls) -> tuple[float, float]:
    """(median, p99) in ms over `calls` calls after two warm-up calls (with
    few calls the p99 is the slowest)."""
    for _ in range(2):
        fn()
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return 1e3 * statistics.median(times), 1e3 * p99


def _mark(inputs, dynamic):
    for i, dims in dynamic.items():
        for d in dims:
            torch._dynamo.mark_dynamic(inputs[i], d)


def run_compile(name, built, calls, peers, rtol, time_peer=True) -> Result:
    import tcc
    import tcc.dynamo
    r = Result(name, "compile", peer="inductor" if peers else "eager")
    m, inputs = built.module, built.inputs
    capture = torch._dynamo.config.patch(
        capture_dynamic_output_shape_ops=built.capture_dynamic_output_shapes)
    with torch.no_grad(), capture:
        want = _flat(m(*inputs))
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
        tcc.dynamo.reset()
        compiled = torch.compile(m, backend=tcc.make_backend(), dynamic=False)
        _mark(inputs, built.dynamic)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = _flat(compiled(*inputs))
        first = time.perf_counter() - start
        r.first_s = first
        records = list(tcc.dynamo.stats)
        r.compile_s = sum(g.import_seconds + g.compile_seconds for g in records)
        r.detail = f"first call {first:.1f} s"
        r.eager_ops = sorted({op for g in records for op in g.eager_ops})
        breaks = sum(torch._dynamo.utils.counters["graph_break"].values())
        if breaks:
            r.detail += f", {breaks} graph break(s)"
        compiled_graphs = [g for g in records if g.status != "fallback"]
        if not records:
            r.coverage = "no graph"
        elif not compiled_graphs:
            r.coverage = "eager"
        elif r.eager_ops or breaks or len(compiled_graphs) < len(records):
            r.coverage = "partitioned"
        else:
            r.coverage = "wholly"
        r.error = relative_error(got, want)
        if r.error > rtol:
            r.status = "mismatch"
        r.tcc_ms, r.tcc_p99 = timing_ms(lambda: compiled(*inputs), calls)
        if not time_peer:
            r.peer = ""
        elif peers:
            _time_inductor(r, m, inputs, built.dynamic, calls)
        else:
            r.peer_ms, r.peer_p99 = timing_ms(lambda: m(*inputs),
                                              max(3, calls // 3))
    return r


def _time_inductor(r, m, inputs, dynamic, calls):
    """Inductor with the same dynamic dims; where it cannot compile them
    (a GRU's sequence length, say), with static shapes, and the row says
    so. A peer's failure is the peer's, not tcc's: the row stays."""
    def attempt(args, dims):
        torch._dynamo.reset()
        ind = torch.compile(m)
        _mark(args, dims)
        start = time.perf_counter()
        ind(*args)
        r.peer_first_s = time.perf_counter() - start
        return timing_ms(lambda: ind(*args), calls)
    try:
        r.peer_ms, r.peer_p99 = attempt(inputs, dynamic)
        return
    except Exception as e:  # noqa: BLE001 - any compile failure of the peer
        if not dynamic:
            r.detail += f", inductor failed: {type(e).__name__}"
            return
        why = type(e).__name__
    # mark_dynamic sticks to the tensors: fresh copies are static.
    fresh = [x.clone() if isinstance(x, torch.Tensor) else x
             for x in inputs]
    try:
        r.peer_ms, r.peer_p99 = attempt(fresh, {})
        r.detail += f", inductor static shapes ({why} when dynamic)"
    except Exception as e:  # noqa: BLE001
        r.detail += f", inductor failed: {type(e).__name__}"


class _Quiet:
    """Sends fds 1 and 2 to a file: the exporters print whole graphs (C++
    side) when they fail."""

    def __enter__(self):
        import tempfile
        sys.stdout.flush()
        sys.stderr.flush()
        self.log = tempfile.TemporaryFile()
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.log.fileno(), 1)
        os.dup2(self.log.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        self.log.close()


def export_onnx(built, path, exporter="dynamo"):
    """torch.onnx.export with the dynamic dims named: the default exporter
    (torch.export based, opset 18 and later) or, with exporter="legacy",
    the TorchScript one at opset 17."""
    names = [f"in{i}" for i in range(len(built.inputs))]
    if exporter == "legacy":
        axes = {names[i]: {d: f"d{i}_{d}" for d in dims}
                for i, dims in built.dynamic.items()}
        torch.onnx.export(built.module, built.inputs, str(path), input_names=names,
                          dynamic_axes=axes or None, opset_version=17, dynamo=False)
        return names
    import inspect
    from torch.export import Dim
    shapes = []
    for i, t in enumerate(built.inputs):
        dims = built.dynamic.get(i, [])
        shapes.append({d: Dim.DYNAMIC for d in dims} if dims else None)
    # A forward(x, *rest) takes its trailing inputs as one tuple.
    params = list(inspect.signature(built.module.forward).parameters.values())
    for k, p in enumerate(params):
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            shapes = shapes[:k] + [tuple(shapes[k:])]
            break
    torch.onnx.export(built.module, built.inputs, str(path), input_names=names,
                      dynamic_shapes=tuple(shapes), dynamo=True, external_data=False,
                      optimize=True, verbose=False)
    return names


def export_in_subprocess(name, small, path, exporter):
    """Exports model `name` from a fresh interpreter: after a torch.compile
    in this process, torch.export specializes dims that the export marks
    dynamic (nn.LSTM's sequence length; torch._dynamo.reset() does not undo
    it). The builders are seeded, so the child's model is this one's."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--export-only",
           str(path), "--models", name]
    if small:
        cmd.append("--small")
    if exporter:
        cmd += ["--exporter", exporter]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        raise RuntimeError(lines[-1] if lines else f"export exited {proc.returncode}")


def run_onnx(name, built, calls, rtol, workdir, exporter=None,
             small=True, time_peer=True) -> Result:
    import numpy as np
    import onnxruntime as ort
    import tcc
    r = Result(name, "onnx", peer="onnxruntime")
    path = Path(workdir) / f"{name}.onnx"
    export_in_subprocess(name, small, path, exporter)
    feeds = [t.numpy() for t in built.inputs]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = torch.get_num_threads()
    start = time.perf_counter()
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    feed = dict(zip([i.name for i in sess.get_inputs()], feeds))
    want = [torch.from_numpy(np.asarray(a)) for a in sess.run(None, feed)]
    r.peer_first_s = time.perf_counter() - start
    start = time.perf_counter()
    try:
        module = tcc.import_onnx(str(path))
        exe = tcc.compile(module)
    except tcc.TCCError as e:
        diags = [d for d in e.diagnostics if "error" in d] or list(e.diagnostics)
        first = diags[0].split("error: ", 1)[-1] if diags else str(e)
        raise RuntimeError(first) from None
    r.compile_s = time.perf_counter() - start
    r.coverage = "wholly"
    # The exporter drops inputs the graph does not read.
    used = [feed[i.name] for i in sess.get_inputs()]
    # tcc.compile includes LLVM's machine code; the first call is timed
    # apart (allocations, oneDNN's primitives and repacked weights).
    first = time.perf_counter()
    got = exe(*used)
    r.first_s = time.perf_counter() - start
    r.detail = f"first call {time.perf_counter() - first:.1f} s"
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    r.error = relative_error([torch.from_numpy(np.asarray(g)) for g in got], want)
    if r.error > rtol:
        r.status = "mismatch"
    r.tcc_ms, r.tcc_p99 = timing_ms(lambda: exe(*used), calls)
    if time_peer:
        r.peer_ms, r.peer_p99 = timing_ms(lambda: sess.run(None, feed), calls)
    else:
        r.peer = ""
    return r


def _fmt(v, spec):
    return "" if v is None else format(v, spec)


def table(results, small) -> str:
    lines = [
        f"Zoo ({'CI sizes' if small else 'full sizes'}), {platform.node()}, "
        f"{os.cpu_count()} cores, {torch.get_num_threads()} threads, "
        f"{time.strftime('%Y-%m-%d')}",
        "",
        "| model | path | in tcc | numerics (rel. err) | tcc ms | peer | peer ms "
        "| tcc / peer | compile s | notes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        cov = r.coverage
        if r.eager_ops:
            cov += " (eager: " + ", ".join(r.eager_ops) + ")"
        num = r.status if r.error is None else f"{r.status} ({r.error:.1e})"
        ratio = (r.tcc_ms / r.peer_ms) if r.tcc_ms and r.peer_ms else None
        lines.append(
            f"| {r.model} | {r.path} | {cov} | {num} | {_fmt(r.tcc_ms, '.2f')} "
            f"| {r.peer} | {_fmt(r.peer_ms, '.2f')} | {_fmt(ratio, '.2f')} "
            f"| {_fmt(r.compile_s, '.1f')} | {r.detail} |")
    return "\n".join(lines) + "\n"


def run_model(model, path, small, calls, peers, rtol, workdir,
              exporter=None, time_peer=True) -> Result:
    try:
        built = model.build(small)
        if path == "compile":
            return run_compile(model.name, built, calls, peers, rtol,
                               time_peer)
        return run_onnx(model.name, built, calls, rtol, workdir, exporter,
                        small, time_peer)
    except Exception as e:  # a failing model is a row, not the end of the run
        msg = str(e).strip().splitlines()
        first = next((line for line in msg if line.strip()), type(e).__name__)
        if os.environ.get("TCC_ZOO_DEBUG"):
            traceback.print_exc()
        first = re.sub(r"\x1b\[[0-9;]*m", "", first)  # the exporter's colours
        return Result(model.name, path, status="error",
                      detail=f"{type(e).__name__}: {first[:300]}".replace("|", "/"))


def run_in_subprocess(name, path, small, args, env=None,
                      time_peer=True) -> Result:
    """One row in a fresh interpreter: a long run's earlier models leave
    threads behind (Inductor's OpenMP pool spins beside tcc's) that slowed
    later small models 5-20x. `env`: the child's environment (a compile
    cache of its own)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--row-json",
               out.name, "--models", name, "--paths", path,
               "--calls", str(args.calls), "--rtol", str(args.rtol),
               "--workdir", args.workdir, "--threads", str(args.threads)]
        cmd += ["--small"] if small else []
        cmd += ["--peers"] if args.peers else []
        cmd += ["--exporter", args.exporter] if args.exporter else []
        cmd += [] if time_peer else ["--no-peer-timing"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        text = Path(out.name).read_text()
    if not text:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        return Result(name, path, status="error",
                      detail=(lines[-1] if lines else
                              f"exited {proc.returncode}")[:300].replace("|", "/"))
    return Result(**json.loads(text))


def export_only(args) -> int:
    """The child of export_in_subprocess: one model to one ONNX file; the
    last line of stderr names the failure."""
    built = BY_NAME[args.models].build(args.small)
    try:
        with torch.no_grad(), warnings.catch_warnings(), _Quiet():
            warnings.simplefilter("ignore")
            export_onnx(built, args.export_only, args.exporter or built.exporter)
    except Exception as e:
        msg = [line for line in str(e).strip().splitlines() if line.strip()]
        first = re.sub(r"\x1b\[[0-9;]*m", "", msg[0] if msg else "")
        print(f"{type(e).__name__}: {first}", file=sys.stderr)
        return 1
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="",
                    help="comma-separated names (default: all; with --ci the CI subset)")
    ap.add_argument("--paths", default="compile,onnx")
    ap.add_argument("--small", action="store_true", help="CI sizes")
    ap.add_argument("--ci", action="store_true", help="the CI subset at CI sizes")
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--peers", action="store_true",
                    help="time Inductor on the compile path (slow to compile)")
    ap.add_argument("--rtol", type=float, default=2e-3)
    ap.add_argument("--table", help="write the Markdown table here")
    ap.add_argument("--workdir", default="/tmp/tcc-zoo")
    ap.add_argument("--exporter", choices=("dynamo", "legacy"),
                    help="torch.onnx.export's default (dynamo, opset 18+) or "
                         "the TorchScript exporter at opset 17 for every model "
                         "(default: each model's own, dynamo but where "
                         "torch.export cannot trace it)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--same-process", action="store_true",
                    help="run every row in this process (default: each row in "
                         "a fresh interpreter, so that one model's threads and "
                         "caches, Inductor's among them, do not slow the next)")
    ap.add_argument("--export-only", metavar="PATH",
                    help=argparse.SUPPRESS)  # export_in_subprocess's child
    ap.add_argument("--row-json", metavar="PATH",
                    help=argparse.SUPPRESS)  # run_in_subprocess's child
    ap.add_argument("--no-peer-timing", action="store_true",
                    help=argparse.SUPPRESS)  # a warm-cache rerun's child
    args = ap.parse_args(argv)
    if args.export_only:
        return export_only(args)
    torch.set_num_threads(args.threads)
    # Dynamo leaves nn.LSTM/GRU out of its graphs unless told.
    torch._dynamo.config.allow_rnn = True
    small = args.small or args.ci
    if args.models:
        names = args.models.split(",")
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            ap.error(f"unknown models {unknown}; known: {', '.join(BY_NAME)}")
        models = [BY_NAME[n] for n in names]
    else:
        models = [m for m in ZOO if m.ci or not args.ci]
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    results = []
    for model in models:
        for path in args.paths.split(","):
            start = time.perf_counter()
            if args.same_process or args.row_json:
                r = run_model(model, path, small, args.calls, args.peers,
                              args.rtol, args.workdir, args.exporter,
                              not args.no_peer_timing)
            else:
                r = run_in_subprocess(model.name, path, small, args)
            results.append(r)
            if args.row_json:
                Path(args.row_json).write_text(json.dumps(dataclasses.asdict(r)))
                return 0
            print(f"[{len(results)}/{len(models) * len(args.paths.split(','))}] "
                  f"{model.name} {path}: {r.status} {r.coverage} "
                  f"err={_fmt(r.error, '.1e')} tcc={_fmt(r.tcc_ms, '.2f')} ms "
                  f"{r.peer}={_fmt(r.peer_ms, '.2f')} ms "
                  f"compile={_fmt(r.compile_s, '.1f')} s {r.detail} "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    text = table(results, small)
    if args.table:
        Path(args.table).write_text(text)
    else:
        print(text)
    return 0 if all(r.status == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
