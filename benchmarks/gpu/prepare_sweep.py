#!/usr/bin/env python3
"""Every op's integration test on the GPU: builds what device_check.sh's
sweep runs on the device machine.

Each `tcc-run %s --function=F --input=... --check-reference` RUN line of
test/Integration/*.mlir becomes a case: the file is compiled once with
tcc-compile --target=cuda (a file that does not compile for cuda is
split into one module per function, so one op's failure does not hide
the others'), and the reference evaluator's outputs for the line's inputs
are saved as .npy (tcc-run-lib regenerates seeded random inputs the same
way). RUN lines that need what a library cannot take (--random-inputs,
--buckets, --count-allocations, error checks) are listed as skipped with
the reason. Writes OUT/sweep/ (default build/gpu-check/sweep) with
sweep.txt (one case per line, tab-separated: inline tensors hold spaces)
and skipped.txt:

    python3 benchmarks/gpu/prepare_sweep.py [OUT] [TEST.mlir ...]

Naming test files (e.g. scatter.mlir) sweeps only those.
    # on the device: bash device_sweep.sh DIR (device_check.sh runs it)
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
TESTS = os.path.join(ROOT, "test", "Integration")
OUT = os.path.join(sys.argv[1] if len(sys.argv) > 1
                   else os.path.join(ROOT, "build", "gpu-check"), "sweep")
ONLY = set(sys.argv[2:])

# Flags of a RUN line that the library form keeps (compile or check) or
# that do not change what is computed; anything else skips the line.
COMPILE_FLAGS = {"--no-fuse"}
IGNORED_FLAGS = {"--check-reference", "--device", "--no-plan-memory", "--no-parallel",
                 "--no-vectorize", "--no-host-shape-checks", "--verbose"}


def run_lines(path):
    """The tcc-run commands of a test file (continuations joined)."""
    lines, current = [], None
    for line in open(path):
        m = re.match(r"\s*//\s*RUN:\s*(.*)", line)
        if not m:
            current = None
            continue
        text = m.group(1)
        if current is not None:
            current += " " + text.rstrip("\\").strip()
        else:
            current = text.rstrip("\\").strip()
        if not text.rstrip().endswith("\\"):
            lines.append(current)
            current = None
    return lines


def parse(command, test_dir):
    """(function, inputs, rtol, atol, compile flags) or a skip reason."""
    command = command.split("|")[0].strip()
    if not command.startswith("tcc-run %s"):
        return None
    args = shlex.split(command)[2:]
    if "--check-reference" not in args:
        return None
    function, inputs, rtol, atol, flags = None, [], None, None, []
    random = None  # --random-inputs: [dim size, {symbol: size}]
    for a in args:
        key, _, value = a.partition("=")
        if key == "--function":
            function = value
        elif key == "--input":
            inputs.append(value.replace("%S", test_dir))
        elif key == "--random-inputs":
            random = random or [1, {}]
        elif key == "--dim-size":
            random = random or [1, {}]
            random[0] = int(value)
        elif key == "--sizes":
            random = random or [1, {}]
            for item in value.split(","):
                name, _, size = item.partition("=")
                random[1][name.strip()] = int(size)
        elif key == "--rtol":
            rtol = value
        elif key == "--atol":
            atol = value
        elif key in COMPILE_FLAGS:
            flags.append(key)
        elif key in IGNORED_FLAGS:
            pass
        else:
            return "needs %s" % key
    if random is not None:
        inputs = random
    if not function or not inputs:
        return "no --function or --input"
    return function, inputs, rtol, atol, flags


def functions_of(text):
    """Each top-level func.func as its own text, by name, and the private
    ones (helpers a public function may call)."""
    out, private = {}, []
    for m in re.finditer(r"^func\.func (private )?@([\w.]+)\(", text, re.M):
        end = text.index("\n}", m.start()) + 2
        out[m.group(2)] = text[m.start():end]
        if m.group(1):
            private.append(text[m.start():end])
    return out, private


def compile_lib(src, lib, flags):
    r = subprocess.run([os.path.join(BIN, "tcc-compile"), src, "--target=cuda",
                        "-o", lib] + flags, capture_output=True, text=True)
    errors = [l.split("error: ", 1)[1] for l in r.stderr.splitlines()
              if "error: " in l]
    return r.returncode == 0, (errors or [""])[0]


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    cases, skipped = [], []
    libs = {}  # (file, function, flags) -> library name, or a failure reason
    for name in sorted(os.listdir(TESTS)):
        if not name.endswith(".mlir") or (ONLY and name not in ONLY):
            continue
        path = os.path.join(TESTS, name)
        stem = name[:-5]
        for command in run_lines(path):
            parsed = parse(command, TESTS)
            if parsed is None:
                continue
            if isinstance(parsed, str):
                skipped.append("%s: %s (%s)" % (stem, command.split("--function=")[-1].split()[0], parsed))
                continue
            function, inputs, rtol, atol, flags = parsed
            key = (stem, "".join(flags))
            if key not in libs:
                lib = "lib%s%s.so" % (stem, "_nofuse" if flags else "")
                ok, why = compile_lib(path, os.path.join(OUT, lib), flags)
                libs[key] = lib if ok else None
                if not ok:
                    print("split", stem, "(%s)" % why)
            lib = libs[key]
            if lib is None:
                fkey = (stem, function, "".join(flags))
                if fkey not in libs:
                    funcs, private = functions_of(open(path).read())
                    single = os.path.join(OUT, "%s.%s.mlir" % (stem, function))
                    open(single, "w").write("\n".join([funcs.get(function, "")] + private))
                    flib = "lib%s.%s%s.so" % (stem, function, "_nofuse" if flags else "")
                    ok, why = compile_lib(single, os.path.join(OUT, flib), flags)
                    libs[fkey] = flib if ok else "compile: " + why
                lib = libs[fkey]
                if lib.startswith("compile: "):
                    skipped.append("%s: %s (does not compile for cuda: %s)" % (stem, function, lib[9:]))
                    continue
            manifest = json.load(open(os.path.join(OUT, lib[:-3] + ".json")))
            entry = next(e for e in manifest["entries"] if e["name"] == function)
            if isinstance(inputs[0], int):
                # --random-inputs as tcc-run makes them: each size symbol
                # --dim-size unless --sizes names it, seeded per argument
                # as the `random` spec is.
                size, named = inputs
                inputs = []
                for t in entry["inputs"]:
                    dims = []
                    for d in t["shape"]:
                        expr = re.sub(r"\bfloordiv\b", "//", str(d))
                        env = {n: named.get(n, size)
                               for n in re.findall(r"[A-Za-z_]\w*", expr)}
                        dims.append(str(int(eval(expr, {}, env))))
                    inputs.append("x".join(dims + [t["dtype"]]) + "=random")
            case = "%s.%s%s" % (stem, function, "_nofuse" if flags else "")
            n = sum(1 for c in cases if c[0].startswith(case))
            case += "" if n == 0 else "_%d" % n
            expected, outputs = [], []
            for r in range(len(entry["results"])):
                p = "%s.expected.%d.npy" % (case, r)
                expected.append(p)
                outputs.append("--output=@" + os.path.join(OUT, p))
            specs = []
            for s in inputs:
                if s.startswith("@"):
                    dst = os.path.join(OUT, os.path.basename(s[1:]))
                    shutil.copy(s[1:], dst)
                    specs.append("@" + os.path.basename(s[1:]))
                else:
                    specs.append(s)
            r = subprocess.run([os.path.join(BIN, "tcc-run"), path, "--function=" + function,
                                "--reference"] + ["--input=" + s for s in inputs] + outputs,
                               capture_output=True, text=True)
            if r.returncode != 0:
                skipped.append("%s: %s (the reference evaluator fails: %s)"
                               % (stem, function, (r.stderr.strip().splitlines() or [""])[-1]))
                continue
            # tcc-run's defaults: 1e-4 / 1e-5, 2e-2 for f16/bf16 results.
            half = any(t["dtype"] in ("f16", "bf16") for t in entry["results"])
            cases.append((case, lib, function, rtol or ("2e-2" if half else "1e-4"),
                          atol or ("2e-2" if half else "1e-5"),
                          ",".join(expected), specs))
    with open(os.path.join(OUT, "sweep.txt"), "w") as f:
        for case, lib, function, rtol, atol, expected, specs in cases:
            f.write("\t".join([lib, function, rtol, atol, expected] + specs) + "\n")
    with open(os.path.join(OUT, "skipped.txt"), "w") as f:
        f.write("\n".join(skipped) + ("\n" if skipped else ""))
    print("sweep: %d cases, %d skipped" % (len(cases), len(skipped)))


if __name__ == "__main__":
    main()
