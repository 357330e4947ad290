#!/usr/bin/env python3
"""Writes examples/resnet18.mlir: torchvision's ResNet-18 (inference) as one
tcc function.

    python3 scripts/gen_resnet18.py [-o examples/resnet18.mlir] [--size 224]
    python3 scripts/gen_resnet18.py --print-inputs [--batch 1] [--size 224]

--print-inputs writes tcc-run --input options (one a line: a response file,
`tcc-run examples/resnet18.mlir @FILE`) for seeded random inputs that keep
the activations in range: convolution weights scaled by 1 / sqrt(fan-in),
batch-norm variances 1 (a random one could be negative).

The model: a 7x7 stride-2 convolution (3 -> 64) with batch norm and ReLU,
a 3x3 stride-2 max pool, four stages of two basic blocks (64, 128, 256,
512 channels; the first block of stages 2 to 4 has stride 2 and a 1x1
stride-2 convolution with batch norm on its shortcut), the global average
pool and the 1000-way linear head. The input is NCHW [B, 3, size, size]
with a dynamic batch B. Weights are function arguments in torchvision's
state_dict order (names in `tcc.name`; num_batches_tracked left out), so a
harness passes the same tensors to PyTorch and to tcc. Batch norm uses
PyTorch's epsilon 1e-5.
"""
import argparse
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]


def t(shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def conv_out(size, kernel, stride, pad):
    return (size + 2 * pad - kernel) // stride + 1


class Writer:
    def __init__(self):
        self.args = []   # (name, shape)
        self.lines = []
        self.count = 0

    def arg(self, name, shape):
        self.args.append((name, shape))
        return "%%a%d" % len(self.args)

    def value(self):
        self.count += 1
        return "%%v%d" % self.count

    def conv_bn(self, x, shape, prefix, bn, out_ch, kernel, stride, pad, relu):
        """conv (no bias) + batch norm (+ ReLU) on x of `shape`."""
        n, c, h, w = shape
        wt = self.arg(prefix + ".weight", [out_ch, c, kernel, kernel])
        bn_args = [self.arg(bn + "." + p, [out_ch])
                   for p in ("weight", "bias", "running_mean", "running_var")]
        oh, ow = conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad)
        out = [n, out_ch, oh, ow]
        y = self.value()
        self.lines.append(
            "  %s = tcc.conv2d %s, %s {padding = array<i64: %d, %d, %d, %d>, "
            "strides = array<i64: %d, %d>, dilations = array<i64: 1, 1>}\n"
            "      : (%s, %s) -> %s" % (y, x, wt, pad, pad, pad, pad, stride, stride,
                                       t(shape), t([out_ch, c, kernel, kernel]), t(out)))
        b = self.value()
        self.lines.append(
            "  %s = tcc.batch_norm %s, %s {epsilon = 1.0e-05 : f32}\n"
            "      : (%s, %s) -> %s" % (b, y, ", ".join(bn_args), t(out),
                                       ", ".join([t([out_ch])] * 4), t(out)))
        if relu:
            b = self.relu(b, out)
        return b, out

    def relu(self, x, shape):
        r = self.value()
        self.lines.append("  %s = tcc.relu %s : (%s) -> %s" % (r, x, t(shape), t(shape)))
        return r

    def basic_block(self, x, shape, prefix, out_ch, stride):
        y, yshape = self.conv_bn(x, shape, prefix + ".conv1", prefix + ".bn1",
                                 out_ch, 3, stride, 1, relu=True)
        y, yshape = self.conv_bn(y, yshape, prefix + ".conv2", prefix + ".bn2",
                                 out_ch, 3, 1, 1, relu=False)
        shortcut = x
        if stride != 1 or shape[1] != out_ch:
            shortcut, _ = self.conv_bn(x, shape, prefix + ".downsample.0",
                                       prefix + ".downsample.1", out_ch, 1,
                                       stride, 0, relu=False)
        s = self.value()
        self.lines.append("  %s = tcc.add %s, %s\n      : (%s, %s) -> %s" % (
            s, y, shortcut, t(yshape), t(yshape), t(yshape)))
        return self.relu(s, yshape), yshape


def generate(size):
    wr = Writer()
    generate_into(wr, size)
    return render(wr, size)


def generate_into(wr, size):
    """The function body into wr (its arguments and lines)."""
    x = wr.arg("image", ["?", 3, size, size])
    y, shape = wr.conv_bn(x, ["?", 3, size, size], "conv1", "bn1", 64, 7, 2, 3,
                          relu=True)
    pooled = ["?", 64, conv_out(shape[2], 3, 2, 1), conv_out(shape[3], 3, 2, 1)]
    p = wr.value()
    wr.lines.append(
        "  %s = tcc.max_pool2d %s {kernel_size = array<i64: 3, 3>, "
        "strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}\n"
        "      : (%s) -> %s" % (p, y, t(shape), t(pooled)))
    x, shape = p, pooled
    for stage, (ch, stride) in enumerate(STAGES, start=1):
        for i in range(2):
            x, shape = wr.basic_block(x, shape, "layer%d.%d" % (stage, i), ch,
                                      stride if i == 0 else 1)
    g = wr.value()
    wr.lines.append("  %s = tcc.reduce_mean %s {axes = array<i64: 2, 3>}\n"
                    "      : (%s) -> %s" % (g, x, t(shape), t(["?", 512])))
    fc_w = wr.arg("fc.weight", [1000, 512])
    fc_b = wr.arg("fc.bias", [1000])
    logits = wr.value()
    wr.lines.append("  %s = tcc.linear %s, %s, %s\n      : (%s, %s, %s) -> %s" % (
        logits, g, fc_w, fc_b, t(["?", 512]), t([1000, 512]), t([1000]),
        t(["?", 1000])))
    wr.lines.append("  return %s : %s" % (logits, t(["?", 1000])))


def render(wr, size):
    out = [
        "// ResNet-18 (torchvision resnet18, inference).",
        "// Generated by scripts/gen_resnet18.py: do not edit; regenerate.",
        "//",
        "// Arguments: the image [B, 3, %d, %d] (NCHW, B dynamic), then the" % (size, size),
        "// weights in torchvision's state_dict order (each named by tcc.name).",
        "// Result: the logits [B, 1000].",
        "//",
        "// Run on the CPU (B = 1, random weights, checked against the reference",
        "// evaluator):",
        "//   tcc-run examples/resnet18.mlir --random-inputs --check-reference \\",
        "//     --rtol=1e-3 --atol=1e-3",
        "",
    ]
    params = []
    for i, (name, shape) in enumerate(wr.args, start=1):
        attrs = 'tcc.name = "%s"' % name
        if name == "image":
            attrs = ('tcc.shape = #tcc.shape<[B, 3, %d, %d]>, ' % (size, size)) + attrs
        params.append("%%a%d: %s {%s}" % (i, t(shape), attrs))
    head = "func.func @resnet18("
    out.append(head + (",\n" + " " * len(head)).join(params) + ")")
    out.append("    -> %s {" % t(["?", 1000]))
    out += wr.lines
    out.append("}")
    return "\n".join(out) + "\n"


def input_specs(size, batch):
    wr = Writer()
    generate_into(wr, size)
    specs = []
    for name, shape in wr.args:
        dims = [batch if d == "?" else d for d in shape]
        text = "x".join(str(d) for d in dims) + "xf32="
        if name.endswith("running_var"):
            text += "1"
        elif len(shape) == 4 and name != "image":
            fan_in = shape[1] * shape[2] * shape[3]
            text += "random*%.6g" % (1.0 / fan_in ** 0.5)
        elif name == "fc.weight":
            text += "random*%.6g" % (1.0 / 512 ** 0.5)
        else:
            text += "random"
        specs.append("--input=" + text)
    return "\n".join(specs) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output",
                    default=os.path.join(ROOT, "examples", "resnet18.mlir"))
    ap.add_argument("--size", type=int, default=224,
                    help="the image's height and width")
    ap.add_argument("--print-inputs", action="store_true",
                    help="print tcc-run --input options instead")
    ap.add_argument("--batch", type=int, default=1,
                    help="the batch of --print-inputs")
    args = ap.parse_args()
    if args.print_inputs:
        print(input_specs(args.size, args.batch), end="")
        return
    with open(args.output, "w") as f:
        f.write(generate(args.size))


if __name__ == "__main__":
    main()
