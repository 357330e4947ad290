#!/usr/bin/env python3
"""On the GPU machine: the backend's cuda libraries (prepare_dynamo_check.py)
against eager PyTorch on the GPU, at the captured batch and others (one
library serves every batch >= 2), then per-call medians of the library
(called with the model's CUDA tensors, read in place, on PyTorch's stream),
eager PyTorch and torch.compile's default backend (Inductor).

    python3 device_dynamo_check.py DIR
"""
import json
import statistics
import sys
import time
from pathlib import Path

DIR = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(DIR))

import torch  # noqa: E402

import tcc  # noqa: E402  (the Python files only: tcc.load_library)
from models import RobotPolicy, ViTBlock  # noqa: E402

MODELS = {"robot_policy": (RobotPolicy, (256,), [2, 8, 64, 1024]),
          "vit_block": (ViTBlock, (197, 768), [2, 4, 8])}


def median_ms(fn, calls=30):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    cases = json.loads((DIR / "cases.json").read_text())
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
    status = 0
    for name, graphs in cases.items():
        cls, feature_shape, batches = MODELS[name]
        model = cls().eval()
        model.load_state_dict(torch.load(DIR / f"{name}.pt"))
        model = model.cuda()
        (graph,) = graphs
        lib = tcc.load_library(DIR / graph["library"])
        state = model.state_dict()
        args = [state[a["param"]] if "param" in a else None
                for a in graph["args"]]
        (act,) = [k for k, a in enumerate(graph["args"]) if "npy" in a]
        inductor = torch.compile(model)
        for batch in batches:
            x = torch.randn(batch, *feature_shape, device="cuda")
            ins = list(args)
            ins[act] = x
            results = lib(*ins)
            results = results if isinstance(results, tuple) else (results,)
            with torch.no_grad():
                expected = model(x)
            expected = expected if isinstance(expected, tuple) else (expected,)
            worst, ok = 0.0, True
            for r, e in zip(results, expected):
                ok &= r.shape == e.shape and torch.allclose(
                    r, e, rtol=2e-3, atol=2e-3)
                worst = max(worst, float((r - e).abs().max()))
            status |= not ok
            tcc_ms = median_ms(lambda: lib(*ins))
            with torch.no_grad():
                eager_ms = median_ms(lambda: model(x))
                inductor(x)
                inductor_ms = median_ms(lambda: inductor(x))
            print(f"{name} batch {batch}: {'match' if ok else 'MISMATCH'}"
                  f" (max |diff| {worst:.2e}); tcc library {tcc_ms:.3f} ms,"
                  f" eager {eager_ms:.3f} ms, inductor {inductor_ms:.3f} ms",
                  flush=True)
    status |= backend_check()
    print("dynamo cuda check:", "FAILED" if status else "passed")
    sys.exit(status)


def backend_check():
    """torch.compile(backend=make_backend(target="cuda", library_dir=libs))
    on this machine: Dynamo and the importer run here, the libraries come
    from the directory (built where tcc's tools are)."""
    import os
    import warnings
    import torch._dynamo
    import tcc.dynamo
    status = 0
    for name, (cls, feature_shape, batches) in MODELS.items():
        torch._dynamo.reset()
        tcc.dynamo.reset()
        model = cls().eval()
        model.load_state_dict(torch.load(DIR / f"{name}.pt"))
        model = model.cuda()
        compiled = torch.compile(model, backend=tcc.make_backend(
            target="cuda", library_dir=DIR / "libs"))
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for batch in batches[:3]:
                x = torch.randn(batch, *feature_shape, device="cuda")
                torch._dynamo.mark_dynamic(x, 0)
                got = compiled(x)
                expected = model(x)
                got = got if isinstance(got, tuple) else (got,)
                expected = expected if isinstance(expected, tuple) else (expected,)
                ok = all(g.shape == e.shape and torch.allclose(g, e, rtol=2e-3, atol=2e-3)
                         for g, e in zip(got, expected))
                status |= not ok
                print(f"backend {name} batch {batch}: {'match' if ok else 'MISMATCH'}")
        for r in tcc.dynamo.stats:
            print(f"backend {name} graph {r.name}: {r.status} {r.reason[:300]}")
            if r.status != "compiled":
                status = 1
            out = os.environ.get("OUT")
            if out and r.mlir:
                Path(out, f"device_{name}.mlir").write_text(r.mlir)
    return status


if __name__ == "__main__":
    main()
