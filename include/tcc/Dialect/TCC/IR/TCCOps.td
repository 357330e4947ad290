//===- TCCOps.td - tcc dialect ops --------------------------*- tablegen -*-===//
//
// Op names, operand order and attribute names follow the foundation issue's
// table exactly: tests written elsewhere use the generic form.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECT_TCC_IR_TCCOPS_TD
#define TCC_DIALECT_TCC_IR_TCCOPS_TD

include "tcc/Dialect/TCC/IR/TCCBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Ops whose result type follows from operands and attributes. Verification
/// compares the inferred type with the declared one; the declared type may be
/// more static than the inferred one (a refinement), never contradict it.
class TCC_InferredOp<string mnemonic, list<Trait> traits = []>
    : TCC_Op<mnemonic, !listconcat(traits,
          [Pure, InferTypeOpAdaptorWithIsCompatible,
           DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                     ["reifyResultShapes"]>])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

/// Ops whose result dim 0 depends on the operands' values (how many elements
/// a mask keeps). Type inference gives that dim as `?` and the other dims
/// from the operands; there is no ReifyRankedShapedTypeOpInterface, as the
/// size is only known once the op has run. A declared static size there is
/// a promise checked at runtime, as for any refined dim.
class TCC_DataDependentOp<string mnemonic, list<Trait> traits = []>
    : TCC_Op<mnemonic, !listconcat(traits,
          [Pure, InferTypeOpAdaptorWithIsCompatible])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

class TCC_BinaryOp<string mnemonic, string math, list<Trait> traits = []>
    : TCC_InferredOp<mnemonic, traits> {
  let summary = "elementwise " # math # " with numpy broadcasting";
  let description = [{
    Computes `}] # math # [{` elementwise. Operands broadcast like numpy:
    shapes align from the right, dims of size 1 stretch. Both operands have
    the same element type, which is the result's.

    Example:
    ```mlir
    %0 = tcc.}] # mnemonic # [{ %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$lhs, TCC_Tensor:$rhs);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

def TCC_AddOp : TCC_BinaryOp<"add", "lhs + rhs", [Commutative]> {
  let hasFolder = 1;
}
def TCC_SubOp : TCC_BinaryOp<"sub", "lhs - rhs"> { let hasFolder = 1; }
def TCC_MulOp : TCC_BinaryOp<"mul", "lhs * rhs", [Commutative]> {
  let hasFolder = 1;
}
def TCC_DivOp : TCC_BinaryOp<"div", "lhs / rhs (integers truncate)"> {
  let hasFolder = 1;
}
def TCC_MaximumOp : TCC_BinaryOp<"maximum", "max(lhs, rhs), NaN propagating",
                                 [Commutative]> { let hasFolder = 1; }
def TCC_MinimumOp : TCC_BinaryOp<"minimum", "min(lhs, rhs), NaN propagating",
                                 [Commutative]> { let hasFolder = 1; }
def TCC_RemOp : TCC_BinaryOp<"rem",
    "the remainder of lhs / rhs truncated toward zero: its sign is lhs's "
    "(C's `%` and fmod, torch.fmod; integer division by zero is a runtime "
    "error in the reference evaluator)"> {
}
def TCC_PowOp : TCC_BinaryOp<"pow", "lhs ** rhs (floats only)"> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

/// Bitwise binaries on integer tensors (i1 included: logical and/or/xor).
class TCC_BitwiseBinaryOp<string mnemonic, string math,
                          list<Trait> traits = []>
    : TCC_BinaryOp<mnemonic, math, traits> {
  let arguments = (ins TCC_IntTensor:$lhs, TCC_IntTensor:$rhs);
  let results = (outs TCC_IntTensor:$result);
}
def TCC_BitwiseAndOp : TCC_BitwiseBinaryOp<"bitwise_and", "lhs & rhs",
                                           [Commutative]>;
def TCC_BitwiseOrOp : TCC_BitwiseBinaryOp<"bitwise_or", "lhs | rhs",
                                          [Commutative]>;
def TCC_BitwiseXorOp : TCC_BitwiseBinaryOp<"bitwise_xor", "lhs ^ rhs",
                                           [Commutative]>;
def TCC_ShiftLeftOp : TCC_BitwiseBinaryOp<"shift_left",
    "lhs << rhs (an amount of at least the bit width, or a negative one, "
    "gives 0)">;
def TCC_ShiftRightOp : TCC_BitwiseBinaryOp<"shift_right",
    "lhs >> rhs: logical for unsigned element types, arithmetic for signed "
    "ones (an amount of at least the bit width, or a negative one, gives 0, "
    "or -1 for a negative signed lhs)">;

def TCC_CmpOp : TCC_InferredOp<"cmp"> {
  let summary = "elementwise comparison producing i1, with broadcasting";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `predicate` (one of `eq`, `ne`,
    `lt`, `le`, `gt`, `ge`); floats compare ordered except `ne`, which is
    true for NaN as in PyTorch.

    Example:
    ```mlir
    %m = tcc.cmp %a, %b {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins TCC_Tensor:$lhs, TCC_Tensor:$rhs, StrAttr:$predicate);
  let results = (outs TCC_BoolTensor:$result);
  let hasVerifier = 1;
}

def TCC_SelectOp : TCC_InferredOp<"select"> {
  let summary = "elementwise choice (torch.where), with broadcasting";
  let description = [{
    `cond ? on_true : on_false` elementwise; all three operands broadcast.

    Example:
    ```mlir
    %r = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TCC_BoolTensor:$cond, TCC_Tensor:$on_true,
                   TCC_Tensor:$on_false);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

/// `Elementwise`: passes that treat every unary op alike (fusion, memory
/// planning, symbolic shapes) test this trait instead of listing the ops.
class TCC_UnaryOp<string mnemonic, string math, Type operandType = TCC_FloatTensor>
    : TCC_InferredOp<mnemonic, [Elementwise]> {
  let summary = "elementwise " # math;
  let description = [{
    Computes `}] # math # [{` elementwise; the result has the operand's type.

    Example:
    ```mlir
    %0 = tcc.}] # mnemonic # [{ %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
    ```
  }];
  let arguments = (ins operandType:$x);
  let results = (outs operandType:$result);
}

def TCC_NegOp : TCC_UnaryOp<"neg", "-x", TCC_Tensor> { let hasFolder = 1; }
def TCC_BitwiseNotOp : TCC_UnaryOp<"bitwise_not", "~x (logical not on i1)",
                                   TCC_IntTensor>;
def TCC_ExpOp : TCC_UnaryOp<"exp", "e ** x">;
def TCC_LogOp : TCC_UnaryOp<"log", "natural log(x)">;
def TCC_SqrtOp : TCC_UnaryOp<"sqrt", "sqrt(x)">;
def TCC_RsqrtOp : TCC_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def TCC_AbsOp : TCC_UnaryOp<"abs", "|x|", TCC_Tensor>;
def TCC_TanhOp : TCC_UnaryOp<"tanh", "tanh(x)">;
def TCC_SigmoidOp : TCC_UnaryOp<"sigmoid", "1 / (1 + exp(-x))">;
def TCC_ReluOp : TCC_UnaryOp<"relu", "max(x, 0)", TCC_Tensor>;
def TCC_SiluOp : TCC_UnaryOp<"silu", "x * sigmoid(x)">;
def TCC_ErfOp : TCC_UnaryOp<"erf", "the error function erf(x)">;
def TCC_SinOp : TCC_UnaryOp<"sin", "sin(x)">;
def TCC_CosOp : TCC_UnaryOp<"cos", "cos(x)">;
def TCC_TanOp : TCC_UnaryOp<"tan", "tan(x)">;
def TCC_AsinOp : TCC_UnaryOp<"asin", "asin(x) (NaN outside [-1, 1])">;
def TCC_AcosOp : TCC_UnaryOp<"acos", "acos(x) (NaN outside [-1, 1])">;
def TCC_AtanOp : TCC_UnaryOp<"atan", "atan(x)">;
def TCC_SinhOp : TCC_UnaryOp<"sinh", "sinh(x)">;
def TCC_CoshOp : TCC_UnaryOp<"cosh", "cosh(x)">;
def TCC_AsinhOp : TCC_UnaryOp<"asinh", "asinh(x)">;
def TCC_AcoshOp : TCC_UnaryOp<"acosh", "acosh(x) (NaN below 1)">;
def TCC_AtanhOp : TCC_UnaryOp<"atanh", "atanh(x) (NaN outside [-1, 1])">;
def TCC_FloorOp : TCC_UnaryOp<"floor", "floor(x)">;
def TCC_CeilOp : TCC_UnaryOp<"ceil", "ceil(x)">;
def TCC_RoundOp : TCC_UnaryOp<"round",
                              "x rounded to the nearest integer, halves to even">;

def TCC_GeluOp : TCC_InferredOp<"gelu"> {
  let summary = "GELU activation";
  let description = [{
    `approximate = "none"` (default): `0.5 x (1 + erf(x / sqrt(2)))`;
    `approximate = "tanh"`: `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`.

    Example:
    ```mlir
    %0 = tcc.gelu %x {approximate = "tanh"} : (tensor<8xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x,
                   DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_CastOp : TCC_Op<"cast", [Pure]> {
  let summary = "element type conversion";
  let description = [{
    Converts each element to the result's element type: floats to integers
    truncate toward zero, anything to i1 is `x != 0`, narrowing floats round
    to nearest even. The shape is unchanged.

    Example:
    ```mlir
    %0 = tcc.cast %x : (tensor<4xf32>) -> tensor<4xbf16>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x);
  let results = (outs TCC_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

class TCC_ReduceOp<string mnemonic, string math, Type elem = TCC_Tensor>
    : TCC_InferredOp<mnemonic> {
  let summary = math # " over `axes`";
  let description = [{
    Reduces `x` with }] # math # [{ over `axes` (negative values count from
    the end; an empty list reduces every dim). With `keep_dims` the reduced
    dims stay as size 1.

    Example:
    ```mlir
    %0 = tcc.}] # mnemonic # [{ %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins elem:$x, DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs elem:$result);
  let hasVerifier = 1;
}

def TCC_ReduceSumOp : TCC_ReduceOp<"reduce_sum", "a sum">;
def TCC_ReduceMeanOp : TCC_ReduceOp<"reduce_mean", "the mean", TCC_FloatTensor>;
def TCC_ReduceMaxOp : TCC_ReduceOp<"reduce_max", "the maximum">;
def TCC_ReduceMinOp : TCC_ReduceOp<"reduce_min", "the minimum">;
def TCC_ReduceProdOp : TCC_ReduceOp<"reduce_prod",
    "the product (1 over an empty range; integers wrap)">;

class TCC_SoftmaxLikeOp<string mnemonic, string math> : TCC_InferredOp<mnemonic> {
  let summary = math # " along `axis`";
  let description = [{
    Computes }] # math # [{ along `axis` (negative counts from the end),
    numerically stable (the row maximum is subtracted first).

    Example:
    ```mlir
    %0 = tcc.}] # mnemonic # [{ %x {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, I64Attr:$axis);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_SoftmaxOp : TCC_SoftmaxLikeOp<"softmax", "softmax">;
def TCC_LogSoftmaxOp : TCC_SoftmaxLikeOp<"log_softmax", "log(softmax)">;

def TCC_LayerNormOp : TCC_InferredOp<"layer_norm"> {
  let summary = "layer normalization over dims axis..rank-1";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * weight + bias` with mean and biased
    variance over dims `axis` to the last; `weight` and `bias` have the shape
    of those dims (nn.LayerNorm).

    Example:
    ```mlir
    %0 = tcc.layer_norm %x, %w, %b {axis = 2 : i64, epsilon = 1.0e-06 : f32}
        : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$weight,
                   TCC_FloatTensor:$bias,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_RmsNormOp : TCC_InferredOp<"rms_norm"> {
  let summary = "RMS normalization over dims axis..rank-1";
  let description = [{
    `x / sqrt(mean(x^2) + epsilon) * weight` over dims `axis` to the last.

    Example:
    ```mlir
    %0 = tcc.rms_norm %x, %w {axis = -1 : i64, epsilon = 1.0e-06 : f32}
        : (tensor<?x4096xf16>, tensor<4096xf16>) -> tensor<?x4096xf16>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$weight,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_BatchNormOp : TCC_InferredOp<"batch_norm"> {
  let summary = "inference-mode batch normalization, channels at dim `axis`";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * scale + bias` with per-channel
    `scale`, `bias`, `mean`, `var` of shape [C] and x of shape [N, C, ...]
    (`axis` = 1, the default) or channels-last [N, ..., C] (`axis` = rank
    - 1, set by --select-layout).

    Example:
    ```mlir
    %0 = tcc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32}
        : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$scale,
                   TCC_FloatTensor:$bias, TCC_FloatTensor:$mean,
                   TCC_FloatTensor:$var,
                   DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon,
                   DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions, convolution, pooling, attention
//===----------------------------------------------------------------------===//

def TCC_MatmulOp : TCC_InferredOp<"matmul"> {
  let summary = "batched matrix product (torch.matmul for rank >= 2)";
  let description = [{
    `a` [..., M, K] times `b` [..., K, N]; the batch dims broadcast like
    numpy. Accumulation is in f32 (or wider) for f16/bf16.

    Example:
    ```mlir
    %0 = tcc.matmul %a, %b : (tensor<?x12x197x64xf32>, tensor<?x12x64x197xf32>) -> tensor<?x12x197x197xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$a, TCC_FloatTensor:$b);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_LinearOp : TCC_InferredOp<"linear"> {
  let summary = "x @ weight^T + bias (nn.Linear)";
  let description = [{
    `x` [..., in], `weight` [out, in], optional `bias` [out]; any number of
    leading dims.

    Example:
    ```mlir
    %0 = tcc.linear %x, %w, %b : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$weight,
                   Optional<TCC_FloatTensor>:$bias);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_LSTMOp : TCC_InferredOp<"lstm"> {
  let summary = "one LSTM layer in one direction over a sequence";
  let description = [{
    PyTorch's nn.LSTM cell, run over `x` [T, B, I] (sequence first) from
    the state `h0`, `c0` [B, H]. Per step t (from the end with `reverse`):
    `gates = x[t] @ w_ih^T + h @ w_hh^T + bias` [B, 4H], split in PyTorch's
    order into i, f, g, o; `c = sigmoid(f) * c + sigmoid(i) * tanh(g)`,
    `h = sigmoid(o) * tanh(c)`, and `y[t] = h`. `w_ih` is [4H, I], `w_hh`
    [4H, H], `bias` [4H] (b_ih + b_hh). Results: `y` [T, B, H], and the last
    `h` and `c` [B, H]. T and B may be dynamic; T may be 0 (then y is empty
    and the state is returned unchanged).

    The compiled form (`tcc-expand-recurrences`) is one tcc.linear for the
    input projection of every step, and a loop whose body calls a cell
    function fused and compiled like any other: the recurrent product with
    its pointwise gates.

    Example:
    ```mlir
    %y, %h, %c = tcc.lstm %x, %w_ih, %w_hh, %b, %h0, %c0
        : (tensor<?x1x256xf32>, tensor<512x256xf32>, tensor<512x128xf32>, tensor<512xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
        -> (tensor<?x1x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$w_ih,
                   TCC_FloatTensor:$w_hh, TCC_FloatTensor:$bias,
                   TCC_FloatTensor:$h0, TCC_FloatTensor:$c0,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs TCC_FloatTensor:$y, TCC_FloatTensor:$h,
                      TCC_FloatTensor:$c);
  let hasVerifier = 1;
}

def TCC_GRUOp : TCC_InferredOp<"gru"> {
  let summary = "one GRU layer in one direction over a sequence";
  let description = [{
    PyTorch's nn.GRU cell, run over `x` [T, B, I] (sequence first) from the
    state `h0` [B, H]. Per step t (from the end with `reverse`), with
    `gi = x[t] @ w_ih^T + b_ih` and `gh = h @ w_hh^T + b_hh` [B, 3H] split in
    PyTorch's order into r, z, n parts: `r = sigmoid(gi_r + gh_r)`,
    `z = sigmoid(gi_z + gh_z)`, `n = tanh(gi_n + r * gh_n)`,
    `h = (1 - z) * n + z * h`, and `y[t] = h`. Without
    `linear_before_reset` (ONNX's default) the reset gate applies before
    the product: `n = tanh(gi_n + (r * h) @ w_hh_n^T + b_hh_n)`. `w_ih` is
    [3H, I], `w_hh` [3H, H], the biases [3H]. Results: `y` [T, B, H] and the
    last `h` [B, H]. T and B may be dynamic; T may be 0.

    The compiled form (`tcc-expand-recurrences`) is one tcc.linear for the
    input projection of every step and a loop over a fused cell function.

    Example:
    ```mlir
    %y, %h = tcc.gru %x, %w_ih, %w_hh, %b_ih, %b_hh, %h0
        : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>)
        -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$w_ih,
                   TCC_FloatTensor:$w_hh, TCC_FloatTensor:$b_ih,
                   TCC_FloatTensor:$b_hh, TCC_FloatTensor:$h0,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse,
                   DefaultValuedAttr<BoolAttr, "true">:$linear_before_reset);
  let results = (outs TCC_FloatTensor:$y, TCC_FloatTensor:$h);
  let hasVerifier = 1;
}

def TCC_RNNOp : TCC_InferredOp<"rnn"> {
  let summary = "one Elman RNN layer in one direction over a sequence";
  let description = [{
    PyTorch's nn.RNN cell over `x` [T, B, I] from `h0` [B, H]: per step t
    (from the end with `reverse`) `h = act(x[t] @ w_ih^T + h @ w_hh^T +
    bias)` with `act` the `nonlinearity` ("tanh" or "relu"), and
    `y[t] = h`. `w_ih` is [H, I], `w_hh` [H, H], `bias` [H] (b_ih + b_hh).
    Results: `y` [T, B, H] and the last `h` [B, H]; T and B may be dynamic.

    Example:
    ```mlir
    %y, %h = tcc.rnn %x, %w_ih, %w_hh, %b, %h0 {nonlinearity = "relu"}
        : (tensor<?x2x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x16xf32>)
        -> (tensor<?x2x16xf32>, tensor<2x16xf32>)
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$w_ih,
                   TCC_FloatTensor:$w_hh, TCC_FloatTensor:$bias,
                   TCC_FloatTensor:$h0,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse,
                   DefaultValuedStrAttr<StrAttr, "tanh">:$nonlinearity);
  let results = (outs TCC_FloatTensor:$y, TCC_FloatTensor:$h);
  let hasVerifier = 1;
}

def TCC_Conv2dOp : TCC_InferredOp<"conv2d"> {
  let summary = "2-D convolution, NCHW (or NHWC) input, OIHW (or OHWI) weight";
  let description = [{
    nn.Conv2d: `strides` [sh, sw] (default 1), `padding` [top, left, bottom,
    right] or [ph, pw] (default 0), `dilations` [dh, dw] (default 1),
    `groups` (default 1); weight [O, C/groups, KH, KW], optional bias [O].
    `layout` says how x, the weight and the result order their dims:
    "NCHW" (the default: weight OIHW) or channels-last "NHWC" (x [N, H, W,
    C], weight [O, KH, KW, C/groups], result [N, OH, OW, O]), which
    --select-layout chooses where the target's kernels are faster on it.

    Example:
    ```mlir
    %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>}
        : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$weight,
                   Optional<TCC_FloatTensor>:$bias,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   OptionalAttr<DenseI64ArrayAttr>:$padding,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups,
                   DefaultValuedStrAttr<StrAttr, "NCHW">:$layout);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether x, weight and result are channels-last (NHWC / OHWI).
    bool isChannelsLast() { return getLayout() == "NHWC"; }
    /// Attribute values with their defaults filled in; padding always as
    /// [top, left, bottom, right].
    SmallVector<int64_t, 2> getStridesOrDefault();
    SmallVector<int64_t, 4> getPaddingOrDefault();
    SmallVector<int64_t, 2> getDilationsOrDefault();
  }];
}

class TCC_Pool2dOp<string mnemonic, string math,
                   Type tensorType = TCC_FloatTensor>
    : TCC_InferredOp<mnemonic> {
  let summary = math # " 2-D pooling on NCHW (or NHWC)";
  let description = [{
    }] # math # [{ over `kernel_size` [kh, kw] windows; `strides` default to
    the kernel size, `padding` is [top, left, bottom, right] or [ph, pw].
    Average pooling divides by the number of non-padded elements. `layout`
    is "NCHW" (the default) or channels-last "NHWC".

    Example:
    ```mlir
    %0 = tcc.}] # mnemonic # [{ %x {kernel_size = array<i64: 2, 2>}
        : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
    ```
  }];
  let arguments = (ins tensorType:$x, DenseI64ArrayAttr:$kernel_size,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   OptionalAttr<DenseI64ArrayAttr>:$padding,
                   DefaultValuedStrAttr<StrAttr, "NCHW">:$layout);
  let results = (outs tensorType:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isChannelsLast() { return getLayout() == "NHWC"; }
    SmallVector<int64_t, 2> getStridesOrDefault();
    SmallVector<int64_t, 4> getPaddingOrDefault();
  }];
}

/// Integer max pooling (signed or unsigned) pads with the type's minimum.
def TCC_MaxPool2dOp : TCC_Pool2dOp<"max_pool2d", "max", TCC_Tensor>;
def TCC_AvgPool2dOp : TCC_Pool2dOp<"avg_pool2d", "average">;

def TCC_AttentionOp : TCC_InferredOp<"attention"> {
  let summary = "scaled dot-product attention";
  let description = [{
    F.scaled_dot_product_attention: `softmax(q kᵀ * scale + mask) v` with q
    [..., Sq, D], k [..., Sk, D], v [..., Sk, Dv] (equal leading dims). `scale`
    defaults to 1/sqrt(D). An i1 `mask` keeps positions where it is true, a
    float mask is added; both broadcast to [..., Sq, Sk]. `is_causal` keeps
    key j for query i only when j <= i. Scores and softmax are computed in
    f32 (or wider); with an f16/bf16 `v` the probabilities are rounded to
    v's type before the product with v, as flash attention does.

    Example:
    ```mlir
    %0 = tcc.attention %q, %k, %v {is_causal = true}
        : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$q, TCC_FloatTensor:$k,
                   TCC_FloatTensor:$v, Optional<TCC_Tensor>:$mask,
                   OptionalAttr<F32Attr>:$scale,
                   DefaultValuedAttr<BoolAttr, "false">:$is_causal);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def TCC_TransposeOp : TCC_InferredOp<"transpose"> {
  let summary = "permutes dims";
  let description = [{
    Result dim i is input dim `permutation[i]`.

    Example:
    ```mlir
    %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1, 3>}
        : (tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, DenseI64ArrayAttr:$permutation);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TCC_ReshapeOp : TCC_Op<"reshape", [Pure]> {
  let summary = "row-major reshape";
  let description = [{
    Reinterprets `x` with the result's shape. Static result dims come from the
    type; one dynamic result dim may be inferred from the element count, and
    the optional `shape` operand (tensor<Nxi64>, -1 = infer) gives the others.

    Example:
    ```mlir
    %0 = tcc.reshape %x : (tensor<?x197x2304xf32>) -> tensor<?x197x3x12x64xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, Optional<TCC_ShapeTensor>:$shape);
  let results = (outs TCC_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TCC_BroadcastToOp : TCC_Op<"broadcast_to", [Pure]> {
  let summary = "numpy broadcast to the result type";
  let description = [{
    Stretches size-1 dims and adds leading dims. Dynamic result dims come from
    the optional `shape` operand, else from the aligned input dim.

    Example:
    ```mlir
    %0 = tcc.broadcast_to %x : (tensor<1x768xf32>) -> tensor<197x768xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, Optional<TCC_ShapeTensor>:$shape);
  let results = (outs TCC_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TCC_ConcatOp : TCC_InferredOp<"concat"> {
  let summary = "concatenation along `axis`";
  let description = [{
    Joins the inputs along `axis` (negative counts from the end); all other
    dims must agree.

    Example:
    ```mlir
    %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Variadic<TCC_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TCC_SliceOp : TCC_InferredOp<"slice"> {
  let summary = "strided slice with Python semantics";
  let description = [{
    One `starts`/`ends`/`steps` entry per dim: negative values count from the
    end, then clamp to [0, dim]; steps are positive (PyTorch's rule).

    Example:
    ```mlir
    %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 1>, steps = array<i64: 1, 1>}
        : (tensor<?x197xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$ends,
                   OptionalAttr<DenseI64ArrayAttr>:$steps);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    SmallVector<int64_t> getStepsOrDefault();
  }];
}

def TCC_GatherOp : TCC_InferredOp<"gather"> {
  let summary = "takes slices of x along `axis` at `indices`";
  let description = [{
    torch.index_select / embedding lookup / numpy.take: the result shape is
    `x.shape[:axis] + indices.shape + x.shape[axis+1:]`. Negative indices
    wrap once; indices outside [-dim, dim) are a runtime error.

    Example:
    ```mlir
    %0 = tcc.gather %table, %ids {axis = 0 : i64} : (tensor<32000x512xf32>, tensor<?x16xi64>) -> tensor<?x16x512xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, TCC_IndexTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

def TCC_GatherElementsOp : TCC_InferredOp<"gather_elements"> {
  let summary = "picks one element of x per index, along `axis`";
  let description = [{
    torch.gather / ONNX GatherElements: `indices` has x's rank and the
    result its shape; `result[i0, ..., ik, ...] = x[i0, ..., indices[i0, ...,
    ik, ...], ...]` with the index replacing dim `axis`. Along the other dims
    `indices` may be smaller than x, never larger. Negative indices wrap
    once; indices outside [-dim, dim) and a larger dim are runtime errors.

    Example:
    ```mlir
    %0 = tcc.gather_elements %logp, %target {axis = 1 : i64} : (tensor<?x1000xf32>, tensor<?x1xi64>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, TCC_IndexTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs TCC_Tensor:$result);
}

def TCC_GridSampleOp : TCC_InferredOp<"grid_sample"> {
  let summary = "samples x at the grid's coordinates (torch grid_sample, ONNX GridSample)";
  let description = [{
    `x` is [N, C, H, W] and `grid` [N, Ho, Wo, 2] of (x, y) coordinates in
    [-1, 1] (-1 the left/top edge, 1 the right/bottom); the result is
    [N, C, Ho, Wo]. Coordinates map to pixels as PyTorch's grid_sample
    does: with `align_corners` -1 and 1 are the centers of the corner
    pixels, without it their outer edges. `mode` is "bilinear", "nearest"
    (ties to even) or "bicubic" (A = -0.75); `padding_mode` says what lies
    outside x: "zeros", "border" (the edge repeated) or "reflection" (x
    mirrored at its edges). Computed in f32 for f16 and bf16.

    Example:
    ```mlir
    %0 = tcc.grid_sample %feat, %grid {mode = "bilinear", padding_mode = "zeros", align_corners = false}
        : (tensor<?x64x32x32xf32>, tensor<?x16x16x2xf32>) -> tensor<?x64x16x16xf32>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$x, TCC_FloatTensor:$grid,
                   DefaultValuedStrAttr<StrAttr, "bilinear">:$mode,
                   DefaultValuedStrAttr<StrAttr, "zeros">:$padding_mode,
                   DefaultValuedAttr<BoolAttr, "false">:$align_corners);
  let results = (outs TCC_FloatTensor:$result);
  let hasVerifier = 1;
}

def TCC_ScatterElementsOp : TCC_InferredOp<"scatter_elements"> {
  let summary = "writes one element of `updates` per index into x, along `axis`";
  let description = [{
    torch.scatter / scatter_add / scatter_reduce and ONNX ScatterElements:
    the result is x with, for every position p of `updates`,
    `result[p with dim axis replaced by indices[p]] = updates[p]` (or that
    element combined with it by `reduction`: "add", "mul", "max", "min").
    `indices` and `updates` have x's rank; `updates` may be larger than
    `indices` along any dim (only its leading `indices.shape` is read, as
    torch.scatter reads `src`), and along dims other than `axis` the
    indices may be smaller than x, never larger. Updates are applied in
    row-major order, so with duplicate indices the last write wins
    ("none") and reductions accumulate every one. Negative indices wrap
    once; indices outside [-dim, dim) are a runtime error.

    Example:
    ```mlir
    %0 = tcc.scatter_elements %x, %idx, %src {axis = 1 : i64, reduction = "add"}
        : (tensor<?x8xf32>, tensor<?x3xi64>, tensor<?x3xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, TCC_IndexTensor:$indices,
                   TCC_Tensor:$updates,
                   DefaultValuedAttr<I64Attr, "0">:$axis,
                   DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

def TCC_ScatterNDOp : TCC_InferredOp<"scatter_nd"> {
  let summary = "writes slices of `updates` into x at index tuples";
  let description = [{
    ONNX ScatterND and PyTorch's index_put (`x[i, j] = v`,
    `x.index_put_(..., accumulate=True)`): `indices` is [..., k] with k
    static and at most x's rank; each index tuple `indices[q]` addresses
    the slice `x[indices[q][0], ..., indices[q][k-1]]` of shape
    `x.shape[k:]`, which `updates[q]` (updates: `indices.shape[:-1] +
    x.shape[k:]`) replaces, or is combined with by `reduction` ("add",
    "mul", "max", "min"). Tuples are applied in row-major order: with
    duplicates the last write wins, reductions accumulate every one.
    Negative indices wrap once; indices outside [-dim, dim) are a runtime
    error.

    Example:
    ```mlir
    %0 = tcc.scatter_nd %grid, %cells, %features
        : (tensor<1024x64xf32>, tensor<?x1xi64>, tensor<?x64xf32>) -> tensor<1024x64xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, TCC_IndexTensor:$indices,
                   TCC_Tensor:$updates,
                   DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

def TCC_IotaOp : TCC_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... as a 1-D tensor (torch.arange, ONNX Range)";
  let description = [{
    `result[i] = i`, converted to the result's element type. A dynamic
    length comes from the `shape` operand (`tensor<1xi64>`, a length that
    is only known at run time: a sequence length, an ONNX Range bound);
    `start + step * iota` gives any arithmetic sequence.

    Example:
    ```mlir
    %0 = tcc.iota : () -> tensor<8xi64>
    %1 = tcc.iota %n : (tensor<1xi64>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Optional<TCC_ShapeTensor>:$shape);
  let results = (outs 1DTensorOf<[F16, BF16, F32, F64, I32, I64]>:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TCC_CumsumOp : TCC_InferredOp<"cumsum"> {
  let summary = "running sum along `axis` (torch.cumsum, ONNX CumSum)";
  let description = [{
    `result[..., i, ...] = sum of x[..., j, ...] for j <= i` along `axis`
    (negative counts from the end); with `exclusive` the element itself is
    left out (`j < i`), with `reverse` the sum runs from the end. Integer
    sums wrap; float sums accumulate in the element type (f32 for f16 and
    bf16), in order.

    Example:
    ```mlir
    %0 = tcc.cumsum %mask {axis = -1 : i64} : (tensor<?x?xi64>) -> tensor<?x?xi64>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs TCC_Tensor:$result);
  let hasVerifier = 1;
}

def TCC_SortOp : TCC_InferredOp<"sort"> {
  let summary = "sorts along `axis`: the values and their indices (torch.sort, argsort; topk as a slice of it)";
  let description = [{
    Each row along `axis` (negative counts from the end) in ascending order,
    or descending with `descending`; `indices` gives each value's position
    in x (i64), so `values = take_along_axis(x, indices)`. The order is
    total and the same on every backend: NaN sorts above +inf (below -inf
    when descending), -0.0 equals 0.0, and equal values keep their order
    in x in both directions (a stable sort; ONNX TopK's and torch.sort's
    stable=True rule). A top-k is the first k of a sort: importers slice
    it.

    Example:
    ```mlir
    %v, %i = tcc.sort %x {axis = -1 : i64, descending = true}
        : (tensor<?x1000xf32>) -> (tensor<?x1000xf32>, tensor<?x1000xi64>)
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$descending);
  let results = (outs TCC_Tensor:$values, RankedTensorOf<[I64]>:$indices);
  let hasVerifier = 1;
}

def TCC_TopKOp : TCC_InferredOp<"topk"> {
  let summary = "the first k of a sort along `axis` (torch.topk, ONNX TopK with a constant k)";
  let description = [{
    The k largest elements along `axis` (the k smallest with `largest =
    false`) in tcc.sort's order (descending for largest: NaN first, equal
    values by position), with their positions: exactly the first k of
    `tcc.sort {descending = largest}`. k is a constant, at most the dim
    (checked at run time for a dynamic dim). A small k is found by k
    selection passes over the row instead of a sort; a run-time k is a
    sort cut by a gather.

    Example:
    ```mlir
    %v, %i = tcc.topk %x {k = 5 : i64, axis = -1 : i64}
        : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, I64Attr:$k,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs TCC_Tensor:$values, RankedTensorOf<[I64]>:$indices);
  let hasVerifier = 1;
}

def TCC_ConstantOp : TCC_Op<"constant", [ConstantLike, Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "a constant tensor";
  let description = [{
    Example:
    ```mlir
    %0 = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TCC_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Data-dependent shapes
//===----------------------------------------------------------------------===//

def TCC_MaskSelectOp : TCC_DataDependentOp<"mask_select"> {
  let summary = "elements or rows of x where mask is true (x[mask])";
  let description = [{
    PyTorch's boolean indexing `x[mask]`. The mask has the shape of `x`
    (`torch.masked_select`: the result is 1-D, the selected elements in
    row-major order) or of the leading dims of `x` (`boxes[keep]`: whole
    rows are selected, and the result is `[count] + x.shape[mask_rank:]`).
    The mask does not broadcast: its dims must equal x's leading dims, which
    is checked at compile time for static dims and at runtime for dynamic
    ones.

    The number of selected elements or rows, `count`, depends on the mask's
    values, so type inference makes result dim 0 dynamic (`?`); at runtime
    it is between 0 and the number of elements (rows) of `x`. (A declared
    static size there is checked against the count at runtime.) Compiled
    code allocates the result at that bound and returns a view of its first
    `count` entries.

    Example:
    ```mlir
    %keep = tcc.cmp %scores, %threshold {predicate = "gt"} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
    %kept = tcc.mask_select %boxes, %keep : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
    %flat = tcc.mask_select %x, %m : (tensor<2x3xf32>, tensor<2x3xi1>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x, TCC_BoolTensor:$mask);
  let results = (outs TCC_Tensor:$result);
}

def TCC_NonzeroOp : TCC_DataDependentOp<"nonzero"> {
  let summary = "indices of the non-zero elements (torch.nonzero)";
  let description = [{
    One row per non-zero (true, for i1) element of `x`, in row-major order;
    each row holds that element's index along every dim of `x`. The result
    is `[count, rank(x)]` of i64, where `count` depends on the values, so
    type inference makes result dim 0 dynamic (`?`; a declared static size
    is checked at runtime). NaN counts as non-zero.

    Example:
    ```mlir
    %0 = tcc.nonzero %x : (tensor<3x4xi1>) -> tensor<?x2xi64>
    ```
  }];
  let arguments = (ins TCC_Tensor:$x);
  let results = (outs 2DTensorOf<[I64]>:$result);
}

def TCC_NmsOp : TCC_DataDependentOp<"nms"> {
  let summary = "non-maximum suppression per batch and class (ONNX NonMaxSuppression, torchvision.ops.nms)";
  let description = [{
    `boxes` is `[B, N, 4]`, `scores` `[B, C, N]` of the same float type.
    For each batch b and class c in row-major order, the boxes whose score
    is above `score_threshold` (every box when absent) are visited by
    descending score (equal scores by index; tcc.sort's order) and a box
    is selected unless a box already selected for (b, c) overlaps it with
    an IoU above `iou_threshold`; at most `max_output_per_class` boxes are
    selected per (b, c) (no limit when absent). The result is one row
    `(b, c, box index)` per selected box, in that order: `[count, 3]` of
    i64, the count known once the op has run.

    A box is two opposite corners in either order (`[y1, x1, y2, x2]`, as
    ONNX writes them, or torchvision's `[x1, y1, x2, y2]`: IoU is the same)
    or, with `center_point_box`, `[x_center, y_center, width, height]`.
    IoU is intersection / (area_a + area_b - intersection) in the boxes'
    type (f32 for f16 and bf16); boxes that do not intersect, or have no
    area, never suppress (onnxruntime's rule).

    Example:
    ```mlir
    %keep = tcc.nms %boxes, %scores {iou_threshold = 5.000000e-01 : f64}
        : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> tensor<?x3xi64>
    ```
  }];
  let arguments = (ins TCC_FloatTensor:$boxes, TCC_FloatTensor:$scores,
                   F64Attr:$iou_threshold,
                   OptionalAttr<F64Attr>:$score_threshold,
                   OptionalAttr<I64Attr>:$max_output_per_class,
                   DefaultValuedAttr<BoolAttr, "false">:$center_point_box);
  let results = (outs 2DTensorOf<[I64]>:$selected);
}

#endif // TCC_DIALECT_TCC_IR_TCCOPS_TD
