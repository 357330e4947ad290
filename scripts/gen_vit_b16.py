#!/usr/bin/env python3
"""Writes examples/vit_b16.mlir: the whole ViT-B/16 (timm's
vit_base_patch16_224, inference) as one tcc function.

    python3 scripts/gen_vit_b16.py [-o examples/vit_b16.mlir] [--blocks 12]
                                   [--dtype f32|bf16|f16]

The model: a 16x16 stride-16 patch-embedding convolution (3 -> 768
channels) on a [B, 3, 224, 224] image, the 196 patches as tokens, the class
token in front, the position embedding added, `--blocks` pre-norm encoder
blocks (examples/vit_block.mlir's body: LN, fused qkv, 12-head attention,
projection + residual, LN, MLP 3072 with exact GELU + residual), the final
LayerNorm, the class token's features, and the 1000-way head. The batch B
is dynamic; the sequence is 197 tokens. Weights are function arguments in
timm's state_dict order (names in `tcc.name`), so a harness passes the
same tensors to PyTorch and to tcc. With `--dtype bf16` (or f16) every
tensor, weights included, is in that type, as after PyTorch's
`model.to(torch.bfloat16)`; products and reductions accumulate in f32.
"""
import argparse
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
D, H, HD, MLP, S, P = 768, 12, 64, 3072, 197, 196
DTYPE = "f32"  # the element type of every tensor: --dtype


def t(shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + DTYPE + ">"


def block_params(i):
    p = "blocks.%d." % i
    return [
        (p + "norm1.weight", [D]), (p + "norm1.bias", [D]),
        (p + "attn.qkv.weight", [3 * D, D]), (p + "attn.qkv.bias", [3 * D]),
        (p + "attn.proj.weight", [D, D]), (p + "attn.proj.bias", [D]),
        (p + "norm2.weight", [D]), (p + "norm2.bias", [D]),
        (p + "mlp.fc1.weight", [MLP, D]), (p + "mlp.fc1.bias", [MLP]),
        (p + "mlp.fc2.weight", [D, MLP]), (p + "mlp.fc2.bias", [D]),
    ]


def params(blocks):
    ps = [("patch_embed.proj.weight", [D, 3, 16, 16]),
          ("patch_embed.proj.bias", [D]),
          ("cls_token", [1, 1, D]), ("pos_embed", [1, S, D])]
    for i in range(blocks):
        ps += block_params(i)
    ps += [("norm.weight", [D]), ("norm.bias", [D]),
           ("head.weight", [1000, D]), ("head.bias", [1000])]
    return ps


def block(out, i, x, arg):
    """One encoder block on %x ([B, 197, 768]); returns the result's name."""
    n = lambda s: "%%b%d_%s" % (i, s)
    w = lambda s: arg["blocks.%d.%s" % (i, s)]
    B = "?"
    x3 = t([B, S, D])
    out += [
        "  // ---- block %d ----" % i,
        "  %s = tcc.layer_norm %s, %s, %s {axis = 2 : i64, epsilon = 1.0e-06 : f32}"
        % (n("ln1"), x, w("norm1.weight"), w("norm1.bias")),
        "      : (%s, %s, %s) -> %s" % (x3, t([D]), t([D]), x3),
        "  %s = tcc.linear %s, %s, %s" % (n("qkv"), n("ln1"), w("attn.qkv.weight"), w("attn.qkv.bias")),
        "      : (%s, %s, %s) -> %s" % (x3, t([3 * D, D]), t([3 * D]), t([B, S, 3 * D])),
        "  %s = tcc.reshape %s, %%qkv_shape : (%s, tensor<5xi64>) -> %s"
        % (n("qkv5"), n("qkv"), t([B, S, 3 * D]), t([B, S, 3, H, HD])),
        "  %s = tcc.transpose %s {permutation = array<i64: 2, 0, 3, 1, 4>}"
        % (n("qkvT"), n("qkv5")),
        "      : (%s) -> %s" % (t([B, S, 3, H, HD]), t([3, B, H, S, HD])),
    ]
    big = 9223372036854775807
    for j, name in enumerate(["q", "k", "v"]):
        out += [
            "  %s = tcc.slice %s {starts = array<i64: %d, 0, 0, 0, 0>, "
            "ends = array<i64: %d, %d, %d, %d, %d>, steps = array<i64: 1, 1, 1, 1, 1>}"
            % (n(name + "1"), n("qkvT"), j, j + 1, big, H, S, HD),
            "      : (%s) -> %s" % (t([3, B, H, S, HD]), t([1, B, H, S, HD])),
            "  %s = tcc.reshape %s, %%head_shape : (%s, tensor<4xi64>) -> %s"
            % (n(name), n(name + "1"), t([1, B, H, S, HD]), t([B, H, S, HD])),
        ]
    h4 = t([B, H, S, HD])
    out += [
        "  %s = tcc.attention %s, %s, %s : (%s, %s, %s) -> %s"
        % (n("attn"), n("q"), n("k"), n("v"), h4, h4, h4, h4),
        "  %s = tcc.transpose %s {permutation = array<i64: 0, 2, 1, 3>} : (%s) -> %s"
        % (n("attnT"), n("attn"), h4, t([B, S, H, HD])),
        "  %s = tcc.reshape %s, %%merged_shape : (%s, tensor<3xi64>) -> %s"
        % (n("merged"), n("attnT"), t([B, S, H, HD]), x3),
        "  %s = tcc.linear %s, %s, %s" % (n("proj"), n("merged"), w("attn.proj.weight"), w("attn.proj.bias")),
        "      : (%s, %s, %s) -> %s" % (x3, t([D, D]), t([D]), x3),
        "  %s = tcc.add %s, %s : (%s, %s) -> %s" % (n("x1"), x, n("proj"), x3, x3, x3),
        "  %s = tcc.layer_norm %s, %s, %s {axis = 2 : i64, epsilon = 1.0e-06 : f32}"
        % (n("ln2"), n("x1"), w("norm2.weight"), w("norm2.bias")),
        "      : (%s, %s, %s) -> %s" % (x3, t([D]), t([D]), x3),
        "  %s = tcc.linear %s, %s, %s" % (n("fc1"), n("ln2"), w("mlp.fc1.weight"), w("mlp.fc1.bias")),
        "      : (%s, %s, %s) -> %s" % (x3, t([MLP, D]), t([MLP]), t([B, S, MLP])),
        "  %s = tcc.gelu %s {approximate = \"none\"} : (%s) -> %s"
        % (n("act"), n("fc1"), t([B, S, MLP]), t([B, S, MLP])),
        "  %s = tcc.linear %s, %s, %s" % (n("fc2"), n("act"), w("mlp.fc2.weight"), w("mlp.fc2.bias")),
        "      : (%s, %s, %s) -> %s" % (t([B, S, MLP]), t([D, MLP]), t([D]), x3),
        "  %s = tcc.add %s, %s : (%s, %s) -> %s" % (n("out"), n("x1"), n("fc2"), x3, x3, x3),
    ]
    return n("out")


def generate(blocks, dtype="f32"):
    global DTYPE
    DTYPE = dtype
    ps = params(blocks)
    arg = {name: "%%a%d" % (i + 1) for i, (name, _) in enumerate(ps)}
    sig = ['%%a0: %s {tcc.shape = #tcc.shape<[B, 3, 224, 224]>, tcc.name = "image"}'
           % t(["?", 3, 224, 224])]
    for name, shape in ps:
        sig.append('%s: %s {tcc.name = "%s"}' % (arg[name], t(shape), name))
    out = [
        "// ViT-B/16 (timm vit_base_patch16_224, inference), %d encoder blocks%s."
        % (blocks, "" if dtype == "f32" else ", " + dtype),
        "// Generated by scripts/gen_vit_b16.py: do not edit; regenerate.",
        "//",
        "// Arguments: the image [B, 3, 224, 224] (B dynamic), then the weights",
        "// in timm's state_dict order (each named by tcc.name). Result: the",
        "// logits [B, 1000].",
        "//",
        "// Run on the CPU (B = 1, random weights, checked against the reference",
        "// evaluator):",
        "//   tcc-run examples/vit_b16.mlir --random-inputs --check-reference",
        "",
        "func.func @vit_b16(" + ",\n                   ".join(sig) + ")",
        "    -> %s {" % t(["?", 1000]),
        "  %c0 = arith.constant 0 : index",
        "  %bi = tensor.dim %a0, %c0 : " + t(["?", 3, 224, 224]),
        "  %b = arith.index_cast %bi : index to i64",
        "  %n1 = arith.constant 1 : i64",
        "  %n3 = arith.constant 3 : i64",
        "  %n12 = arith.constant 12 : i64",
        "  %n64 = arith.constant 64 : i64",
        "  %n196 = arith.constant 196 : i64",
        "  %n197 = arith.constant 197 : i64",
        "  %n768 = arith.constant 768 : i64",
        "  %patch_shape = tensor.from_elements %b, %n768, %n196 : tensor<3xi64>",
        "  %cls_shape = tensor.from_elements %b, %n1, %n768 : tensor<3xi64>",
        "  %qkv_shape = tensor.from_elements %b, %n197, %n3, %n12, %n64 : tensor<5xi64>",
        "  %head_shape = tensor.from_elements %b, %n12, %n197, %n64 : tensor<4xi64>",
        "  %merged_shape = tensor.from_elements %b, %n197, %n768 : tensor<3xi64>",
        "  %flat_shape = tensor.from_elements %b, %n768 : tensor<2xi64>",
        "  // ---- patch embedding, class token, position embedding ----",
        "  %%patches = tcc.conv2d %%a0, %s, %s {strides = array<i64: 16, 16>}"
        % (arg["patch_embed.proj.weight"], arg["patch_embed.proj.bias"]),
        "      : (%s, %s, %s) -> %s" % (t(["?", 3, 224, 224]), t([D, 3, 16, 16]), t([D]),
                                       t(["?", D, 14, 14])),
        "  %%flat = tcc.reshape %%patches, %%patch_shape : (%s, tensor<3xi64>) -> %s"
        % (t(["?", D, 14, 14]), t(["?", D, P])),
        "  %%tokens = tcc.transpose %%flat {permutation = array<i64: 0, 2, 1>} : (%s) -> %s"
        % (t(["?", D, P]), t(["?", P, D])),
        "  %%cls = tcc.broadcast_to %s, %%cls_shape : (%s, tensor<3xi64>) -> %s"
        % (arg["cls_token"], t([1, 1, D]), t(["?", 1, D])),
        "  %%seq = tcc.concat %%cls, %%tokens {axis = 1 : i64} : (%s, %s) -> %s"
        % (t(["?", 1, D]), t(["?", P, D]), t(["?", S, D])),
        "  %%x0 = tcc.add %%seq, %s : (%s, %s) -> %s"
        % (arg["pos_embed"], t(["?", S, D]), t([1, S, D]), t(["?", S, D])),
    ]
    x = "%x0"
    for i in range(blocks):
        x = block(out, i, x, arg)
    x3 = t(["?", S, D])
    out += [
        "  // ---- final norm, class token, head ----",
        "  %%normed = tcc.layer_norm %s, %s, %s {axis = 2 : i64, epsilon = 1.0e-06 : f32}"
        % (x, arg["norm.weight"], arg["norm.bias"]),
        "      : (%s, %s, %s) -> %s" % (x3, t([D]), t([D]), x3),
        "  %%cls_out = tcc.slice %%normed {starts = array<i64: 0, 0, 0>, "
        "ends = array<i64: 9223372036854775807, 1, 768>, steps = array<i64: 1, 1, 1>}"
        " : (%s) -> %s" % (x3, t(["?", 1, D])),
        "  %%features = tcc.reshape %%cls_out, %%flat_shape : (%s, tensor<2xi64>) -> %s"
        % (t(["?", 1, D]), t(["?", D])),
        "  %%logits = tcc.linear %%features, %s, %s : (%s, %s, %s) -> %s"
        % (arg["head.weight"], arg["head.bias"], t(["?", D]), t([1000, D]), t([1000]),
           t(["?", 1000])),
        "  return %%logits : %s" % t(["?", 1000]),
        "}",
        "",
    ]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "examples", "vit_b16.mlir"))
    ap.add_argument("--blocks", type=int, default=12)
    ap.add_argument("--dtype", choices=["f32", "bf16", "f16"], default="f32")
    args = ap.parse_args()
    with open(args.output, "w") as f:
        f.write(generate(args.blocks, args.dtype))
    print("wrote", args.output)


if __name__ == "__main__":
    main()
