"""Cold tcc-compile time and peak memory of every zoo export, per target.

Each ONNX file in the workdir (zoo.py writes them: benchmarks/models/
zoo.py --small, or --export-only) is imported once as MLIR bytecode, then
built by tcc-compile with the compile cache off, for each target, the
fastest of --repeat builds counting; the seconds and peak memory come from
/usr/bin/time. Prints one line per model
and the summary row docs/benchmarks.md keeps.

    python benchmarks/cpu/compile_times.py --bin build/bin [--workdir /tmp/tcc-zoo]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def timed(cmd, env):
    """(seconds, peak MB) of `cmd`, or raises with its output."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        proc = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", out.name]
                              + cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip().splitlines()[-1:])
        seconds, kb = out.read().split()
    return float(seconds), int(kb) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--workdir", default="/tmp/tcc-zoo")
    ap.add_argument("--targets", default="cpu,cuda")
    ap.add_argument("--repeat", type=int, default=2,
                    help="builds per model and target; the fastest counts "
                         "(a shared VM's neighbours slow some)")
    args = ap.parse_args()
    env = dict(os.environ, TCC_CACHE_DIR="off")
    targets = args.targets.split(",")
    cells = []
    with tempfile.TemporaryDirectory(prefix="tcc-compile-times-") as tmp:
        for onnx in sorted(Path(args.workdir).glob("*.onnx"),
                           key=lambda p: p.stat().st_mtime):
            name = onnx.stem
            mlirbc = Path(tmp) / f"{name}.mlirbc"
            subprocess.run([f"{args.bin}/tcc-import-onnx", str(onnx), "-o",
                            str(mlirbc)], check=True, env=env)
            results = []
            for target in targets:
                try:
                    runs = [timed([f"{args.bin}/tcc-compile", str(mlirbc),
                                   f"--target={target}", "-o",
                                   str(Path(tmp) / f"lib{name}-{target}.so")],
                                  env) for _ in range(args.repeat)]
                    results.append(min(runs))
                except RuntimeError as e:
                    results.append(None)
                    print(f"{name} {target}: failed {e}", file=sys.stderr)
            line = " / ".join(f"{r[0]:.1f} s {r[1] / 1024:.2f} GB" if r
                              else "failed" for r in results)
            print(f"{name}: {line}", flush=True)
            seconds = " / ".join(f"{r[0]:.1f}" if r else "failed"
                                 for r in results)
            cells.append(f"{name} {seconds}")
    print("\n" + ", ".join(cells))


if __name__ == "__main__":
    main()
