#!/usr/bin/env python3
"""Feeds tcc-import-onnx damaged copies of a model: every truncation at a
stride of 7 bytes, and copies with one byte changed every 5 bytes (to 0x00,
0xff or its bitwise complement). Each run must end with exit code 0 or 1
and an error message for 1: a signal (a crash) or another code fails.

    corrupt_models.py TCC_IMPORT_ONNX MODEL.onnx
"""
import os
import subprocess
import sys
import tempfile


def main():
    tool, model = sys.argv[1], sys.argv[2]
    data = open(model, "rb").read()
    variants = [data[:n] for n in range(0, len(data), 7)]
    for i in range(0, len(data), 5):
        for value in (0x00, 0xFF, data[i] ^ 0xFF):
            variants.append(data[:i] + bytes([value]) + data[i + 1:])
    failures = 0
    errors = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "damaged.onnx")
        for v in variants:
            with open(path, "wb") as f:
                f.write(v)
            p = subprocess.run([tool, path, "-o", os.devnull],
                               capture_output=True, text=True, errors="replace",
                               timeout=60)
            if p.returncode not in (0, 1) or (p.returncode == 1 and
                                              "error" not in p.stderr):
                failures += 1
                print("bad exit %d on a damaged model: %s" %
                      (p.returncode, p.stderr.strip()[:200]))
            errors += p.returncode == 1
    print("damaged models: %d, rejected with an error: %d, crashes: %d" %
          (len(variants), errors, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
