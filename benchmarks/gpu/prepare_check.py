#!/usr/bin/env python3
"""Builds what the GPU correctness check runs on the device machine.

For each case: tcc-compile --target=cuda the module into a library, and
evaluate the same function with tcc-run's reference evaluator on the same
seeded random inputs (tcc-run-lib regenerates them from the specs), saving
the expected outputs as .npy. Writes everything, plus tcc-run-lib (no MLIR
needed there) and cases.txt, into OUT (default build/gpu-check), which
device_check.sh runs:

    python3 benchmarks/gpu/prepare_check.py [OUT]
    # on the device machine, with OUT carried:
    bash benchmarks/gpu/device_check.sh [OUT]
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "gpu-check")

def positive(*indices):
    """Inputs that must be positive (batch-norm variances: random ones make
    the whole result NaN, which would compare equal to NaN): set to 1."""
    def fix(specs, sizes):
        return [s.split("=")[0] + "=1" if i in indices else s
                for i, s in enumerate(specs)]
    return fix


def resnet18_inputs(specs, sizes):
    """scripts/gen_resnet18.py's inputs (variances 1, conv weights scaled
    by 1/sqrt(fan-in)), in the element type the case's module has."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_resnet18.py"),
                          "--print-inputs", "--batch", str(sizes["B"])],
                         check=True, capture_output=True, text=True).stdout.split()
    dtype = specs[0].split("=")[0].split("x")[-1]
    return [line[len("--input="):].replace("xf32=", "x%s=" % dtype) for line in out]


# name, module, function, sizes of the size symbols, rtol, atol[, scale of
# the random inputs (a whole bf16 block's values stay in a sane range)[,
# a function that adjusts the input specs]]
CASES = [
    ("softmax", "benchmarks/gpu/cases/softmax.mlir", "softmax", {"N": 300}, 1e-4, 1e-6),
    ("layer_norm", "benchmarks/gpu/cases/layer_norm.mlir", "layer_norm", {"N": 257}, 1e-4, 1e-5),
    ("bias_gelu", "benchmarks/gpu/cases/bias_gelu.mlir", "bias_gelu", {"N": 129}, 1e-4, 1e-6),
    ("softmax_odd", "benchmarks/gpu/cases/row_shapes.mlir", "softmax_odd", {"N": 37}, 1e-4, 1e-6),
    ("rms_norm_dynamic", "benchmarks/gpu/cases/row_shapes.mlir", "rms_norm_dynamic", {"N": 65, "C": 777}, 1e-4, 1e-5),
    ("robot_policy", "examples/robot_policy.mlir", "robot_policy", {"B": 8}, 1e-4, 1e-5),
    ("conv_block", "examples/conv_block.mlir", "conv_block", {"B": 1}, 1e-3, 1e-3, None, positive(5, 10)),
    ("vit_block", "examples/vit_block.mlir", "vit_block", {"B": 1, "S": 9}, 1e-3, 0.1),
    # Rows enough for cuBLASLt (tcc-contractions-to-gemms): the linears,
    # q k^T and the epilogues through the library.
    ("vit_block_197", "examples/vit_block.mlir", "vit_block", {"B": 2, "S": 197}, 1e-3, 0.1),
    ("robot_policy_64", "examples/robot_policy.mlir", "robot_policy", {"B": 64}, 1e-4, 1e-4),
    ("gemm_linear_relu", "benchmarks/gpu/cases/gemms.mlir", "linear_relu", {"N": 300}, 1e-4, 1e-4),
    ("gemm_linear_residual", "benchmarks/gpu/cases/gemms.mlir", "linear_residual", {}, 1e-4, 1e-4),
    ("gemm_linear_gelu", "benchmarks/gpu/cases/gemms.mlir", "linear_gelu", {"B": 3, "S": 50}, 1e-4, 1e-4),
    ("gemm_scores", "benchmarks/gpu/cases/gemms.mlir", "scores", {"B": 2, "S": 77}, 1e-4, 1e-4),
    ("gemm_matmul_at", "benchmarks/gpu/cases/gemms.mlir", "matmul_at", {}, 1e-4, 1e-4),
    ("gemm_linear_bf16", "benchmarks/gpu/cases/gemms.mlir", "linear_bf16", {"N": 300}, 2e-2, 2e-2),
    ("gemm_matmul_f16", "benchmarks/gpu/cases/gemms.mlir", "matmul_f16", {"B": 2}, 2e-2, 2e-2),
    ("gemm_fc1_gelu_bf16", "benchmarks/gpu/cases/gemms.mlir", "fc1_gelu_bf16", {"N": 200}, 2e-2, 2e-2),
    # bf16 copies of f32 cases (every tensor type rewritten: bf16()).
    ("softmax_bf16", "bf16:benchmarks/gpu/cases/softmax.mlir", "softmax", {"N": 300}, 2e-2, 2e-2),
    ("layer_norm_bf16", "bf16:benchmarks/gpu/cases/layer_norm.mlir", "layer_norm", {"N": 257}, 2e-2, 5e-2),
    ("bias_gelu_bf16", "bf16:benchmarks/gpu/cases/bias_gelu.mlir", "bias_gelu", {"N": 129}, 2e-2, 2e-2),
    ("vit_block_197_bf16", "bf16:examples/vit_block.mlir", "vit_block", {"B": 2, "S": 197}, 2e-2, 2e-2, 0.1),
    # The fused attention kernel (tcc_lib.attention).
    ("attention_bf16", "benchmarks/gpu/cases/attention.mlir", "attention_bf16", {"B": 3}, 2e-2, 2e-2),
    ("attention_causal_f16_d128", "benchmarks/gpu/cases/attention.mlir", "causal_f16_d128", {}, 2e-2, 2e-2),
    ("attention_one_head_offset", "benchmarks/gpu/cases/attention.mlir", "one_head_offset", {"B": 2}, 2e-2, 2e-2),
    ("attention_vit_qkv_bf16", "benchmarks/gpu/cases/attention.mlir", "vit_qkv_bf16", {"B": 2}, 2e-2, 2e-2),
    ("attention_f32", "benchmarks/gpu/cases/attention.mlir", "attention_f32", {"B": 2}, 1e-4, 1e-5),
    ("attention_causal_offset_f32", "benchmarks/gpu/cases/attention.mlir", "causal_offset_f32", {}, 1e-4, 1e-5),
    # Convolutions through cuDNN (tcc_lib.conv2d).
    ("conv_residual_relu", "benchmarks/gpu/cases/convs.mlir", "conv_residual_relu", {"B": 3}, 1e-4, 1e-4),
    ("conv_stem_bf16", "benchmarks/gpu/cases/convs.mlir", "stem_bf16", {"B": 2}, 2e-2, 3e-2),
    ("conv_grouped_dilated", "benchmarks/gpu/cases/convs.mlir", "grouped_dilated", {"H": 21, "W": 17}, 1e-4, 1e-5),
    ("conv_residual_no_bias_f16", "benchmarks/gpu/cases/convs.mlir", "residual_no_bias", {}, 1e-2, 1e-2),
    ("conv_bn_relu", "benchmarks/gpu/cases/convs.mlir", "conv_bn_relu", {"B": 2}, 1e-4, 1e-4),
    # bf16 networks: --select-layout (target cuda) turns their convolutions
    # channels-last (cuDNN's Tensor Core layout); batch norms, pools and
    # the residual adds follow in NHWC.
    ("conv_block_bf16_nhwc", "bf16:examples/conv_block.mlir", "conv_block", {"B": 2}, 2e-2, 5e-2, 0.1, positive(5, 10)),
    ("resnet18_bf16_nhwc", "bf16:examples/resnet18.mlir", "resnet18", {"B": 1}, 3e-2, 5e-2, None, resnet18_inputs),
    # The ops the ONNX importer added.
    ("onnx_math", "benchmarks/gpu/cases/onnx_ops.mlir", "math", {"N": 67}, 1e-4, 1e-5),
    ("onnx_indexing", "benchmarks/gpu/cases/onnx_ops.mlir", "indexing", {"N": 67}, 1e-4, 1e-5),
]


# Timing only (device_check.sh's "timing" part): the memory-bound kernels of
# benchmarks/fusion/ at [16384, 4096] f32, the shapes of the PyTorch anchors.
TIMING = ["copy", "add_relu_mul", "bias_gelu", "softmax", "layer_norm"]


def shape_of(dims, sizes):
    out = []
    for d in dims:
        expr = re.sub(r"\bfloordiv\b", "//", d)
        out.append(int(eval(expr, {}, dict(sizes))))
    return out


def bf16(module):
    """A copy of `module` (under OUT) with every f32 tensor in bf16."""
    text = open(os.path.join(ROOT, module)).read()
    text = re.sub(r"x(f32)>", "xbf16>", text).replace("tensor<f32>", "tensor<bf16>")
    path = os.path.join(OUT, os.path.basename(module).replace(".mlir", "_bf16.mlir"))
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    os.makedirs(OUT, exist_ok=True)
    shutil.copy(os.path.join(BIN, "tcc-run-lib"), OUT)
    lines = []
    for case in CASES:
        name, module, function, sizes, rtol, atol = case[:6]
        scale = case[6] if len(case) > 6 else None
        random = "random" if scale is None else "random*%g" % scale
        src = bf16(module[5:]) if module.startswith("bf16:") else os.path.join(ROOT, module)
        lib = os.path.join(OUT, "lib%s.so" % name)
        subprocess.run([os.path.join(BIN, "tcc-compile"), src, "--target=cuda",
                        "-o", lib], check=True)
        manifest = json.load(open(os.path.join(OUT, "lib%s.json" % name)))
        entry = next(e for e in manifest["entries"] if e["name"] == function)
        specs = []
        for t in entry["inputs"]:
            shape = shape_of(t["shape"], sizes)
            specs.append("x".join(str(s) for s in shape) + "x" + t["dtype"] + "=" + random)
        if len(case) > 7:
            specs = case[7](specs, sizes)
        expected = []
        outputs = []
        for r in range(len(entry["results"])):
            path = "%s.expected.%d.npy" % (name, r)
            expected.append(path)
            outputs.append("--output=@" + os.path.join(OUT, path))
        sums = subprocess.run([os.path.join(BIN, "tcc-run"), src, "--function=" + function,
                               "--reference", "--checksum"] +
                              ["--input=" + s for s in specs] + outputs,
                              check=True, capture_output=True, text=True).stdout
        # NaN compares equal to NaN: an expected result with NaN or inf in
        # it would let anything pass.
        if re.search(r"\b-?(nan|inf)\b", sums):
            sys.exit("case %s: the reference result is not finite (%s); fix its "
                     "inputs" % (name, sums.strip()))
        lines.append(" ".join(["lib%s.so" % name, function, repr(rtol), repr(atol),
                               ",".join(expected)] + specs))
        print("prepared", name, " ".join(specs))
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for name in TIMING:
        subprocess.run([os.path.join(BIN, "tcc-compile"),
                        os.path.join(ROOT, "benchmarks", "fusion", name + ".mlir"),
                        "--target=cuda", "-o",
                        os.path.join(OUT, "libfusion_%s.so" % name)], check=True)
        print("prepared timing", name)
    # The anchors' memory-bound ops as PyTorch writes them, f32 and bf16.
    mb = "benchmarks/gpu/cases/memory_bound.mlir"
    for suffix, src in (("f32", os.path.join(ROOT, mb)), ("bf16", bf16(mb))):
        subprocess.run([os.path.join(BIN, "tcc-compile"), src, "--target=cuda",
                        "-o", os.path.join(OUT, "libmemory_bound_%s.so" % suffix)],
                       check=True)
    subprocess.run([os.path.join(BIN, "tcc-compile"),
                    os.path.join(ROOT, "benchmarks", "gpu", "cases", "gemms.mlir"),
                    "--target=cuda", "-o", os.path.join(OUT, "libgemms.so")],
                   check=True)
    # conv_block in bf16, timed beside the f32 one (torch_conv.py times
    # PyTorch's on the same shapes).
    subprocess.run([os.path.join(BIN, "tcc-compile"), bf16("examples/conv_block.mlir"),
                    "--target=cuda", "-o", os.path.join(OUT, "libconv_block_bf16.so")],
                   check=True)
    for script in ("torch_gemm.py", "torch_attention.py", "torch_conv.py",
                   "torch_resnet18.py", "profile_kernels.py"):
        shutil.copy(os.path.join(ROOT, "benchmarks", "gpu", script), OUT)
    shutil.copy(os.path.join(ROOT, "benchmarks", "resnet18_torch.py"), OUT)
    # The whole ViT-B/16, for vit_harness.py (PyTorch side by side).
    subprocess.run([os.path.join(BIN, "tcc-compile"),
                    os.path.join(ROOT, "examples", "vit_b16.mlir"),
                    "--target=cuda", "-o", os.path.join(OUT, "libvit_b16.so")],
                   check=True)
    vit_bf16 = os.path.join(OUT, "vit_b16_bf16.mlir")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_vit_b16.py"),
                    "--dtype", "bf16", "-o", vit_bf16], check=True)
    subprocess.run([os.path.join(BIN, "tcc-compile"), vit_bf16, "--target=cuda",
                    "-o", os.path.join(OUT, "libvit_b16_bf16.so")], check=True)
    for f in ["benchmarks/gpu/vit_harness.py", "scripts/gen_vit_b16.py",
              "benchmarks/gpu/device_check.sh", "benchmarks/gpu/device_sweep.sh"]:
        shutil.copy(os.path.join(ROOT, f), OUT)
    # The 1 kHz loop's bucket: batch 1 fixed, so the products stay
    # generated matvec kernels (a dynamic batch gives them to cuBLASLt).
    subprocess.run([os.path.join(BIN, "tcc-compile"),
                    os.path.join(ROOT, "examples", "robot_policy.mlir"),
                    "--target=cuda", "--specialize=B=1", "-o",
                    os.path.join(OUT, "librobot_policy_b1.so")], check=True)


if __name__ == "__main__":
    main()
