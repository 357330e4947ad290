#!/usr/bin/env python3
"""The torch.compile backend's cuda target, prepared here for the GPU
machine (which has PyTorch but no MLIR):

1. RobotPolicy and a ViT-B/16 block go through torch.compile with tcc's
   AOTAutograd set-up (the backend's FX importer and decompositions), the
   batch marked dynamic;
2. each graph's tcc function is built with tcc-compile --target=cuda;
3. the model's state_dict is saved, with which weight each argument of
   the graph's function is (the activation itself as .npy).

    PYTHONPATH=build/python_packages ~/.cache/tcc/venv/bin/python \
        benchmarks/gpu/prepare_dynamo_check.py [OUT]     # build/dynamo-check
    # on the device, OUT carried:
    python3 benchmarks/gpu/device_dynamo_check.py OUT

device_dynamo_check.py runs each library at several batch sizes on the GPU
and compares with eager PyTorch on the GPU; then it runs torch.compile with
tcc.make_backend(target="cuda", library_dir=OUT/libs) there, which finds
the libraries built here by the graphs' keys (if the GPU machine's PyTorch
captures the same graphs).
"""
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python_bindings" / "tests"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch._dynamo  # noqa: E402
from torch._dynamo.backends.common import aot_autograd  # noqa: E402

import tcc  # noqa: E402
from tcc._api import build_library  # noqa: E402
from tcc.dynamo import library_key  # noqa: E402
from tcc.fx_importer import DECOMPOSITIONS, import_graph  # noqa: E402
from models import RobotPolicy, ViTBlock  # noqa: E402

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "dynamo-check")


def prepare(name, model, x):
    graphs = []

    def fw_compiler(gm, example_inputs):
        imported = import_graph(gm, example_inputs, func_name="forward")
        lib = OUT / f"lib{name}_{len(graphs)}.so"
        build_library(imported.mlir, target="cuda", output=lib)
        # The same library where make_backend(library_dir=...) looks for it.
        (OUT / "libs").mkdir(exist_ok=True)
        shutil.copy(lib, OUT / "libs" / (
            "lib" + library_key(imported.mlir, "cuda", None) + ".so"))
        (OUT / f"{name}_{len(graphs)}.mlir").write_text(imported.mlir)
        graph = {"library": lib.name, "tensor_inputs": imported.tensor_inputs,
                 "outputs": imported.outputs, "symbols": imported.symbols}
        graphs.append(graph)

        def run(*args):
            # Weights by their state_dict name (the .pt carries them), the
            # rest as .npy.
            params = {t.data_ptr(): n for n, t in model.state_dict().items()}
            graph["args"] = []
            for k, i in enumerate(imported.tensor_inputs):
                if args[i].data_ptr() in params:
                    graph["args"].append({"param": params[args[i].data_ptr()]})
                    continue
                path = f"{name}_{len(graphs) - 1}_arg{k}.npy"
                np.save(OUT / path, args[i].detach().numpy())
                graph["args"].append({"npy": path})
            return gm.forward(*args)
        return run

    compiled = torch.compile(model, backend=aot_autograd(
        fw_compiler=fw_compiler, decompositions=DECOMPOSITIONS))
    torch._dynamo.mark_dynamic(x, 0)
    with torch.no_grad():
        compiled(x)
    torch.save(model.state_dict(), OUT / f"{name}.pt")
    return graphs


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    torch.manual_seed(0)
    cases = {
        "robot_policy": prepare("robot_policy", RobotPolicy().eval(),
                                torch.randn(8, 256)),
        "vit_block": prepare("vit_block", ViTBlock().eval(),
                             torch.randn(2, 197, 768)),
    }
    (OUT / "cases.json").write_text(json.dumps(cases, indent=1))
    # What the device side imports: the Python files of the package (the
    # ctypes loader; no extension there) and the models.
    pkg = OUT / "tcc"
    pkg.mkdir()
    for f in (ROOT / "python_bindings" / "tcc").glob("*.py"):
        shutil.copy(f, pkg)
    shutil.copy(ROOT / "python_bindings" / "tests" / "models.py", OUT)
    shutil.copy(ROOT / "benchmarks" / "gpu" / "device_dynamo_check.py", OUT)
    print(f"prepared {OUT}: " + ", ".join(
        f"{k}: {len(v)} graph(s)" for k, v in cases.items()))


if __name__ == "__main__":
    main()
