#!/usr/bin/env python3
"""Sorting on the CPU, side by side in one run: torch.sort and torch.topk
through torch.compile with tcc's backend (tcc.sort's bitonic network)
against PyTorch eager, Inductor and onnxruntime's TopK (k = n for a sort).

    ~/.cache/tcc/venv/bin/python benchmarks/cpu/sort_topk.py [--calls 20]

Every tcc result is checked against eager first (values exactly; indices
exactly, the inputs having no ties). Prints a Markdown table of medians
(ms) and tcc's ratio to the best peer (below 1: tcc is faster).
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import torch

CASES = [
    # name, shape, op, k (None: a full sort)
    ("sort 64x1000 (class scores)", (64, 1000), "sort", None),
    ("sort 1x131072 (one long row)", (1, 131072), "sort", None),
    ("topk 8x1000, k=5", (8, 1000), "topk", 5),
    ("topk 1x120000, k=1000 (RPN)", (1, 120000), "topk", 1000),
]


class Op(torch.nn.Module):
    def __init__(self, op, k):
        super().__init__()
        self.op, self.k = op, k

    def forward(self, x):
        if self.op == "sort":
            return torch.sort(x, dim=1, descending=True)
        return torch.topk(x, self.k, dim=1)


def median_ms(fn, calls):
    for _ in range(3):
        fn()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def ort_topk(shape, k, threads):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper
    n = shape[1]
    graph = helper.make_graph(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("i", TensorProto.INT64, None)],
        [helper.make_tensor("k", TensorProto.INT64, [1], [k or n])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = os.path.join(tempfile.mkdtemp(), "topk.onnx")
    onnx.save(model, path)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    import tcc

    rows = []
    for name, shape, op, k in CASES:
        # Distinct values in every row (eager's sort is not stable).
        x = torch.stack([torch.randperm(shape[1]) for _ in range(shape[0])]).float()
        x = (x - shape[1] / 2) / shape[1]
        m = Op(op, k)
        with torch.no_grad():
            want = m(x)
            torch._dynamo.reset()
            got = torch.compile(m, backend=tcc.make_backend(fallback=False))
            out = got(x)
            for g, w in zip(out, want):
                if not torch.equal(g, w):
                    print(f"{name}: tcc differs from eager", file=sys.stderr)
                    return 1
            t_tcc = median_ms(lambda: got(x), args.calls)
            t_eager = median_ms(lambda: m(x), args.calls)
            torch._dynamo.reset()
            ind = torch.compile(m)
            t_ind = median_ms(lambda: ind(x), args.calls)
        sess = ort_topk(shape, k, args.threads)
        xn = x.numpy()
        t_ort = median_ms(lambda: sess.run(None, {"x": xn}), args.calls)
        best = min(t_eager, t_ind, t_ort)
        rows.append((name, t_tcc, t_eager, t_ind, t_ort, t_tcc / best))

    print("| case | tcc ms | eager ms | Inductor ms | onnxruntime ms | tcc / best |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]:.2f} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
