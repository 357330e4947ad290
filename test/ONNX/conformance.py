#!/usr/bin/env python3
"""ONNX backend-test conformance: each case of Debian's libonnx-testdata
(ONNX 1.12: node, pytorch-converted, pytorch-operator, simple) imported
with tcc-import-onnx, compiled for the CPU and run by tcc-run on
test_data_set_0's inputs, its outputs compared with the expected ones
(rtol 1e-3, atol 1e-5; integers and booleans exactly).

    python3 test/ONNX/conformance.py [--bin build/bin] [--jobs 2]
        [--report docs/onnx-conformance.md] [--update-expected]

Writes the report (per case: pass / fail / excluded and why; counts per
suite) and fails (exit 1) when a case listed in test/ONNX/expected_pass.txt
no longer passes. --update-expected rewrites that list from this run.
Only the standard library: the .pb tensors are converted to .npy by
`tcc-import-onnx --tensor`.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]

# Training-only operators and ONNX types outside tcc's scope (the issue's
# exclusions): (regex on the case name, reason).
EXCLUDED = [
    (r"^test_(adagrad|adam|momentum|nesterov_momentum)", "training optimizer"),
    (r"^test_gradient_", "training (gradient operator)"),
    (r"^test_training_dropout", "training-mode dropout"),
    (r"_training_mode", "training-mode batch norm"),
    (r"^test_(sequence|optional|split_to_sequence|concat_from_sequence)",
     "sequence / optional types"),
    # Cases whose names do not say it: their inputs or outputs are
    # SequenceProto / OptionalProto values.
    (r"^test_(identity_opt|identity_sequence|if_opt|if_seq|loop13_seq|"
     r"loop16_seq_none)$", "sequence / optional types"),
    # Random draws: the stored outputs are one sample, which no other
    # generator reproduces (onnxruntime skips them too).
    (r"^test_bernoulli", "random output (one stored sample, not comparable)"),
    (r"^test_(string|strnorm|regex|castlike_.*STRING|cast_.*STRING)", "string type"),
    # Broken test data in the installed (older) onnx test set: checked
    # against onnx 1.23's reference evaluator and onnxruntime.
    (r"^test_(cast|castlike)_FLOAT_to_BFLOAT16",
     "stale test data: float -> bf16 truncated (onnx >= 1.14 and its "
     "reference round to nearest even, as tcc and PyTorch do)"),
    (r"^test_castlike_BFLOAT16_to_FLOAT",
     "broken test data: input 'like' is [1], the model declares [3, 4] "
     "(onnxruntime rejects it too)"),
]
# Messages of tcc-import-onnx that put a case among the exclusions.
EXCLUDED_MESSAGES = [
    ("is not a tensor (sequence, map and optional", "sequence / map / optional type"),
    ("element type STRING", "string type"),
]


def excluded(name):
    for pattern, reason in EXCLUDED:
        if re.search(pattern, name):
            return reason
    return None


def run_case(bin_dir, case_dir, timeout):
    """(status, reason): status is pass, fail or excluded."""
    name = os.path.basename(case_dir)
    reason = excluded(name)
    if reason:
        return "excluded", reason
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(case_dir, "test_data_set_0")
        npys = {}
        for kind in ("input", "output"):
            files = sorted(glob.glob(os.path.join(data, kind + "_*.pb")),
                           key=lambda f: int(re.search(r"_(\d+)\.pb$", f).group(1)))
            npys[kind] = []
            for f in files:
                npy = os.path.join(tmp, os.path.basename(f)[:-3] + ".npy")
                q = subprocess.run([os.path.join(bin_dir, "tcc-import-onnx"),
                                    "--tensor", f, "-o", npy],
                                   capture_output=True, text=True, timeout=timeout)
                if q.returncode != 0:
                    return unexcluded("test data: ", q.stderr)
                npys[kind].append((f, npy))
        mlir = os.path.join(tmp, "model.mlir")
        model = os.path.join(case_dir, "model.onnx")
        importer = [os.path.join(bin_dir, "tcc-import-onnx"), model, "-o", mlir]
        p = subprocess.run(importer, capture_output=True, text=True, timeout=timeout)
        bound = set()
        for _ in range(4):
            if p.returncode == 0 or "known at import time" not in p.stderr:
                break
            # Shapes, axes, scales... given as graph inputs: bound to the
            # test's values at import (the report says so): the inputs
            # the importer names, and the integer ones.
            named = {int(m) for m in re.findall(r"\(graph input (\d+)\)", p.stderr)}
            wanted = bound | named | {i for i, (_, npy) in enumerate(npys["input"])
                                      if npy_is_integer(npy)}
            wanted = {i for i in wanted if i < len(npys["input"])}
            if wanted == bound:
                break
            bound = wanted
            p = subprocess.run(importer + ["--bind-input=%d=%s" % (i, npys["input"][i][0])
                                           for i in sorted(bound)],
                               capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            return unexcluded("import: ", p.stderr)
        args = ["--input=@" + npy for i, (_, npy) in enumerate(npys["input"])
                if i not in bound]
        args += ["--expected_output=@" + npy for _, npy in npys["output"]]
        try:
            r = subprocess.run([os.path.join(bin_dir, "tcc-run"), mlir,
                                "--function=main", "--rtol=1e-3", "--atol=1e-5"]
                               + args, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return "fail", "run: timed out after %d s" % timeout
        out = r.stdout + r.stderr
        if r.returncode == 0 and "[FAILURE]" not in out:
            return "pass", ("inputs %s bound at import" %
                            ", ".join(str(i) for i in sorted(bound)) if bound else "")
        return "fail", "run: " + first_error(out)


def unexcluded(stage, stderr):
    """A failed step's result: excluded if its message says the case uses
    a type outside the scope, else a failure with the message."""
    for needle, why in EXCLUDED_MESSAGES:
        if needle in stderr:
            return "excluded", why
    return "fail", stage + first_error(stderr)


def npy_is_integer(path):
    """Whether the .npy file holds integers (its header's descr)."""
    with open(path, "rb") as f:
        header = f.read(256).decode("latin1")
    m = re.search(r"'descr':\s*'([^']*)'", header)
    return bool(m) and m.group(1)[1:2] in ("i", "u")


def first_error(text):
    text = re.sub(r"/tmp/tmp\w+/", "", text)  # the run's temporary files
    lines = [l for l in text.splitlines() if l.strip()]
    for i, l in enumerate(lines):
        if "does not support:" in l:  # the unsupported nodes follow
            ops = sorted({m.split(" (")[0].strip() for m in lines[i + 1:]
                          if m.startswith("  ")})
            return "unsupported op: " + ", ".join(ops)
    for l in lines:
        if "error" in l or "FAILURE" in l or "mismatch" in l.lower():
            return re.sub(r"^loc\(.*\)\): |^loc\([^)]*\): ", "", l.strip())[:200]
    return (lines[0] if lines else "no output")[:200]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per step (compiling the 5-D SCE cases' "
                         "rank-7 tensors takes longer: they time out)")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "onnx-conformance.md"))
    ap.add_argument("--expected", default=os.path.join(HERE, "expected_pass.txt"))
    ap.add_argument("--update-expected", action="store_true")
    ap.add_argument("--filter", metavar="REGEX",
                    help="run only the cases whose name matches; print each "
                         "result, write no report and check no list")
    args = ap.parse_args()

    cases = []
    for suite in SUITES:
        for d in sorted(glob.glob(os.path.join(args.data, suite, "*"))):
            if os.path.isfile(os.path.join(d, "model.onnx")) and (
                    not args.filter or re.search(args.filter, os.path.basename(d))):
                cases.append((suite, d))
    if not cases:
        sys.exit("conformance: no test cases under %s (libonnx-testdata)" % args.data)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_case, args.bin, d, args.timeout): (s, d)
                   for s, d in cases}
        for f in concurrent.futures.as_completed(futures):
            suite, d = futures[f]
            try:
                results[(suite, os.path.basename(d))] = f.result()
            except subprocess.TimeoutExpired:
                results[(suite, os.path.basename(d))] = ("fail", "timed out")
    if args.filter:
        for (suite, name), (st, why) in sorted(results.items()):
            print("%-8s %s/%s %s" % (st, suite, name, why))
        print("%d of %d pass" % (sum(st == "pass" for st, _ in results.values()),
                                 len(results)))
        return

    lines = ["# ONNX backend-test conformance", "",
             "Generated by `python3 test/ONNX/conformance.py` (scripts/test.sh "
             "runs it): each case of Debian's libonnx-testdata (ONNX 1.12) "
             "imported by tcc-import-onnx, compiled for the CPU and run by "
             "tcc-run on test_data_set_0, compared with its outputs (rtol "
             "1e-3, atol 1e-5; integers and booleans exactly). Cases listed "
             "in test/ONNX/expected_pass.txt must keep passing.", "",
             "| suite | pass | fail | excluded | pass rate (of not excluded) |",
             "|---|---|---|---|---|"]
    for suite in SUITES:
        rs = [v for (s, _), v in results.items() if s == suite]
        p = sum(1 for st, _ in rs if st == "pass")
        f = sum(1 for st, _ in rs if st == "fail")
        e = sum(1 for st, _ in rs if st == "excluded")
        rate = "%.1f %%" % (100.0 * p / (p + f)) if p + f else "-"
        lines.append("| %s | %d | %d | %d | %s |" % (suite, p, f, e, rate))
    for suite in SUITES:
        lines += ["", "## " + suite, "", "| case | result | reason |", "|---|---|---|"]
        for (s, name), (st, why) in sorted(results.items()):
            if s == suite:
                lines.append("| %s | %s | %s |" % (name, st, why.replace("|", "\\|")))
    with open(args.report, "w") as f:
        f.write("\n".join(lines) + "\n")

    passing = sorted("%s/%s" % k for k, (st, _) in results.items() if st == "pass")
    if args.update_expected:
        with open(args.expected, "w") as f:
            f.write("# Cases that pass (test/ONNX/conformance.py --update-expected).\n")
            f.write("\n".join(passing) + "\n")
    expected = set()
    if os.path.exists(args.expected):
        expected = {l.strip() for l in open(args.expected)
                    if l.strip() and not l.startswith("#")}
    regressions = sorted(expected - set(passing))
    new = sorted(set(passing) - expected)
    for suite in SUITES:
        rs = [v for (s, _), v in results.items() if s == suite]
        print("conformance %-18s %d pass, %d fail, %d excluded" % (
            suite, sum(st == "pass" for st, _ in rs),
            sum(st == "fail" for st, _ in rs), sum(st == "excluded" for st, _ in rs)))
    if new:
        print("conformance: %d case(s) pass that expected_pass.txt does not list" % len(new))
    if regressions:
        print("conformance: REGRESSIONS (listed as passing, now failing):")
        for r in regressions:
            suite, name = r.split("/", 1)
            print("  %s: %s" % (r, results.get((suite, name), ("missing", ""))[1]))
        sys.exit(1)


if __name__ == "__main__":
    main()
