//===- TCCLibOps.td - tcc_lib dialect -----------------------*- tablegen -*-===//
//
// Work of the GPU path that is not a generated kernel: calls into the
// vendor libraries (cuBLASLt, cuDNN) and tcc's own attention kernel on
// device buffers. The ops are asynchronous
// like gpu.launch_func: gpu-async-region chains them on the call's stream
// with the kernels, and CUDA-graph capture records them with the rest.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECT_TCCLib_IR_TCCLibOPS_TD
#define TCC_DIALECT_TCCLib_IR_TCCLibOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/GPU/IR/GPUBase.td"

def TCCLib_Dialect : Dialect {
  let name = "tcc_lib";
  let cppNamespace = "::mlir::tcc::tcc_lib";
  let summary = "Vendor-library calls on device buffers, ordered on a stream";
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

class TCCLib_Op<string mnemonic, list<Trait> traits = []>
    : Op<TCCLib_Dialect, mnemonic, traits>;

def TCCLib_FloatMemRef : MemRefOf<[F32, F16, BF16]>;
def TCCLib_ScratchMemRef : MemRefRankOf<[I8], [1]>;

def TCCLib_GemmOp : TCCLib_Op<"gemm", [GPU_AsyncOpInterface,
                                        AttrSizedOperandSegments]> {
  let summary = "d = epilogue(a x b + c + bias), through cuBLASLt or oneDNN";
  let description = [{
    A matrix product on device buffers, batched when `d` has rank 3:

      d[i, m, n] = epilogue(sum_k a[i, m, k] * b[i, k, n]
                            + c[i, m, n] + bias[n])

    `a` is [M, K] or [batch, M, K]; `b` is [K, N] or [batch, K, N] (a
    rank-2 `b` is shared by every batch); `c`, if present, has `d`'s shape
    (the residual; it may be `d` itself, then the product accumulates into
    `d`); `bias` is [N]. `epilogue` is `none`, `relu`, `gelu` (erf form) or
    `gelu_tanh` (tanh approximation); the GELUs only on the host (cuBLASLt
    has no erf GELU epilogue). Accumulation is in
    f32 whatever the element type. `a` and `b` share one element type; `c`,
    `d` and `bias` have it too, or are f32 when `a` and `b` are f16 or bf16
    (products accumulated in f32 and kept so).

    The operands are views: their strides, not attributes, say how they lie
    in memory. A transposed weight is a `memref.transpose` of it. At run
    time each matrix must have unit stride along one of its two dims (the
    runtime picks cuBLASLt's transpose flags and leading dimensions from
    the strides); `d` and `c` along the last. Anything else fails the call
    with a message naming the operand.

    Without an async token the op is a host call on host buffers (the cpu
    pipeline's, f32 only; tcc-linear-to-library), computed by oneDNN
    (lib/Runtime/DNNLGemm.cpp), which takes any strides. `constant_b` says
    `b` never changes between calls (a module constant, the weight): the
    host runtime prepacks it once into oneDNN's blocked format and keeps
    the copy. `scratch` (host only) is memory the library may use during
    the call (oneDNN's scratchpad; tcc-linear-to-library reserves what
    oneDNN asks for, and tcc-place-scratch-buffers puts it on the stack or
    in the arena); a call that needs more, or has none, uses a buffer the
    runtime keeps per thread.

    ```mlir
    %t1 = tcc_lib.gemm async [%t0] %x, %wT bias %b into %y
        : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>>
          bias memref<3072xf32> into memref<?x3072xf32>
    ```
  }];
  let arguments = (ins
    Variadic<GPU_AsyncToken>:$asyncDependencies,
    Arg<TCCLib_FloatMemRef, "", [MemRead]>:$a,
    Arg<TCCLib_FloatMemRef, "", [MemRead]>:$b,
    Arg<Optional<TCCLib_FloatMemRef>, "", [MemRead]>:$c,
    Arg<Optional<TCCLib_FloatMemRef>, "", [MemRead]>:$bias,
    Arg<TCCLib_FloatMemRef, "", [MemWrite]>:$d,
    Arg<Optional<TCCLib_ScratchMemRef>, "", [MemWrite]>:$scratch,
    DefaultValuedAttr<StrAttr, "\"none\"">:$epilogue,
    UnitAttr:$constant_b);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    $a `,` $b (`c` $c^)? (`bias` $bias^)? `into` $d
    (`scratch` $scratch^)? attr-dict
    `:` type($a) `,` type($b) (`c` type($c)^)? (`bias` type($bias)^)?
    `into` type($d) (`scratch` type($scratch)^)?
  }];
  let hasVerifier = 1;
}

def TCCLib_HalfMemRef : MemRefOf<[F16, BF16]>;
def TCCLib_AttentionMemRef : MemRefOf<[F16, BF16, F32]>;

def TCCLib_AttentionOp : TCCLib_Op<"attention", [GPU_AsyncOpInterface]> {
  let summary = "out = softmax(q kᵀ * scale) v in one fused kernel";
  let description = [{
    Scaled dot-product attention on device buffers, through the runtime's
    flash-attention kernel (lib/Runtime/FlashAttention.cu): the scores
    stay on chip.

      out[b, h, i, :] = sum_j p[b, h, i, j] v[b, h, j, :],
      p = softmax_j(scale * q[b, h, i, :] . k[b, h, j, :])

    Operands are [batch, heads, rows, dim] or [batch, rows, dim] (one head)
    views of one element type, f16 or bf16 (head dim 64 or 128), or f32
    (head dim 64: the CUDA cores, no TF32); softmax and accumulation are in
    f32, and the unnormalized probabilities are rounded to the element type
    before the product with v (as tcc.attention defines). `dim` is static,
    64 or 128, and the same for all four. With `is_causal`, key j is kept
    for query i only when j <= i.

    Like tcc_lib.gemm, the views' strides say how the operands lie in
    memory (a q/k/v read straight out of a fused QKV projection, an output
    written in [batch, rows, heads, dim] order): each must have unit stride
    along `dim` at run time, else the call fails with a message.

    ```mlir
    %t1 = tcc_lib.attention async [%t0] %q, %k, %v into %o {scale = 0.125 : f32}
        : memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>, ...
    ```
  }];
  let arguments = (ins
    Variadic<GPU_AsyncToken>:$asyncDependencies,
    Arg<TCCLib_AttentionMemRef, "", [MemRead]>:$q,
    Arg<TCCLib_AttentionMemRef, "", [MemRead]>:$k,
    Arg<TCCLib_AttentionMemRef, "", [MemRead]>:$v,
    Arg<TCCLib_AttentionMemRef, "", [MemWrite]>:$out,
    F32Attr:$scale,
    DefaultValuedAttr<BoolAttr, "false">:$is_causal);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    $q `,` $k `,` $v `into` $out attr-dict
    `:` type($q) `,` type($k) `,` type($v) `into` type($out)
  }];
  let hasVerifier = 1;
}

def TCCLib_ConvOp : TCCLib_Op<"conv2d", [GPU_AsyncOpInterface,
                                         AttrSizedOperandSegments]> {
  let summary = "out = activation(conv2d(x, w) + bias + residual), "
                "through cuDNN";
  let description = [{
    A 2-D convolution on device buffers (tcc.conv2d's semantics: NCHW
    logical dims, an OIHW weight, cross-correlation), with an optional
    epilogue:

      out[n, o, i, j] = activation(sum_{c, p, q} x[n, g*C/G + c,
                            i*sh + p*dh - ph, j*sw + q*dw - pw]
                            * w[o, c, p, q] + bias[o] + residual[n, o, i, j])

    where g is o's group. `padding` is [ph, pw], the same on both sides of
    each dim (tcc-conv-to-library leaves asymmetric padding to generated
    code); `strides` and `dilations` are [h, w]; `activation` is `none` or
    `relu`. x, w, bias, residual and out share one element type (f32, f16
    or bf16); accumulation is in f32 and f32 products do not use TF32.

    The operands are views: their strides, not attributes, say how they
    lie in memory (NCHW, or channels-last NHWC). At run time the weight
    must be packed NCHW or NHWC, else the call fails with a message naming
    it. The runtime (lib/Runtime/CUDNNConv.cpp) loads cuDNN with dlopen on
    the first convolution.

    Without an async token the op is a host call on host buffers (the cpu
    pipeline's, f32 only), computed by oneDNN (lib/Runtime/DNNLConv.cpp).
    `constant_weight` says the weight never changes between calls (a
    module constant): the host runtime repacks it once and keeps the copy.
    `scratch` (host only) is memory oneDNN may use during the call, as
    gemm's.

    ```mlir
    %t1 = tcc_lib.conv2d async [%t0] %x, %w bias %b into %y
        {padding = array<i64: 1, 1>, activation = "relu"}
        : memref<?x64x56x56xf32>, memref<64x64x3x3xf32>
          bias memref<64xf32> into memref<?x64x56x56xf32>
    ```
  }];
  let arguments = (ins
    Variadic<GPU_AsyncToken>:$asyncDependencies,
    Arg<TCCLib_FloatMemRef, "", [MemRead]>:$x,
    Arg<TCCLib_FloatMemRef, "", [MemRead]>:$weight,
    Arg<Optional<TCCLib_FloatMemRef>, "", [MemRead]>:$bias,
    Arg<Optional<TCCLib_FloatMemRef>, "", [MemRead]>:$residual,
    Arg<TCCLib_FloatMemRef, "", [MemWrite]>:$out,
    Arg<Optional<TCCLib_ScratchMemRef>, "", [MemWrite]>:$scratch,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    DefaultValuedAttr<StrAttr, "\"none\"">:$activation,
    UnitAttr:$constant_weight);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    $x `,` $weight (`bias` $bias^)? (`residual` $residual^)? `into` $out
    (`scratch` $scratch^)? attr-dict `:` type($x) `,` type($weight)
    (`bias` type($bias)^)? (`residual` type($residual)^)? `into` type($out)
    (`scratch` type($scratch)^)?
  }];
  let hasVerifier = 1;
}

#endif // TCC_DIALECT_TCCLib_IR_TCCLibOPS_TD
