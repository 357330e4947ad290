"""Cold compile and per-call time of ONNX models in tcc, against onnxruntime.

For each model: tcc.import_onnx + tcc.compile + the first call (timed
together: what a user waits for), then the median of N calls of tcc and,
after them, of N calls of onnxruntime at the same thread count. The two are
not interleaved: each one's idle threads spin for a while after a call and
would slow the other's next call. Dynamic dims are set to 1; inputs are
random. Set TCC_CACHE_DIR=off for a cold compile, TCC_COMPILE_THREADS and
TCC_TIMING=1 to see where LLVM's time goes.

    PYTHONPATH=build/python_packages python benchmarks/cpu/onnx_first_call.py \\
        /tmp/tcc-zoo/mobilenet_v3_small.onnx --calls 30
"""
import argparse
import os
import time

import numpy as np
import onnxruntime as ort
import tcc


def feeds_for(session):
    feeds = []
    for i in session.get_inputs():
        shape = [d if isinstance(d, int) else 1 for d in i.shape]
        if "int" in i.type:
            feeds.append(np.random.randint(0, 100, size=shape).astype(np.int64))
        else:
            feeds.append(np.random.rand(*shape).astype(np.float32))
    return feeds


def median_ms(fn, calls):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+", help="ONNX files")
    ap.add_argument("--calls", type=int, default=30)
    args = ap.parse_args()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = os.cpu_count()
    for path in args.models:
        sess = ort.InferenceSession(path, opts,
                                    providers=["CPUExecutionProvider"])
        feeds = feeds_for(sess)
        feed = dict(zip([i.name for i in sess.get_inputs()], feeds))
        start = time.perf_counter()
        exe = tcc.compile(tcc.import_onnx(path))
        got = exe(*feeds)
        first = time.perf_counter() - start
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        want = sess.run(None, feed)
        err = max(float(np.abs(np.asarray(g) - w).max() /
                        (np.abs(w).max() + 1e-30)) for g, w in zip(got, want))
        for _ in range(3):
            exe(*feeds)
        tcc_ms = median_ms(lambda: exe(*feeds), args.calls)
        time.sleep(0.5)
        for _ in range(3):
            sess.run(None, feed)
        ort_ms = median_ms(lambda: sess.run(None, feed), args.calls)
        print(f"{os.path.basename(path)}: "
              f"compile and first call {first:.1f} s; "
              f"per call tcc {tcc_ms:.3f} ms, onnxruntime {ort_ms:.3f} ms "
              f"(ratio {tcc_ms / ort_ms:.2f}); max rel. error {err:.1e}")


if __name__ == "__main__":
    main()
