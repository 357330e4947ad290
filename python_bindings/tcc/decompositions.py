"""Decompositions of PyTorch's fused inference fast paths into the aten ops
tcc takes (fx_importer.DECOMPOSITIONS adds them).

nn.TransformerEncoderLayer and nn.MultiheadAttention call one fused kernel
each under torch.no_grad() (`_transformer_encoder_layer_fwd`,
`_native_multi_head_attention`); Dynamo records that call, and AOTAutograd
would hand it over whole. Written out here as layer norms, linears and
scaled_dot_product_attention, they become the graph tcc fuses (the
attention recognized as one tcc.attention). The semantics follow ATen's
CPU kernels (aten/src/ATen/native/transformers/): masks are True where a
position is left out, `mask_type` 0 is a [T, T] attention mask, 1 a [B, T]
key padding mask, 2 a mask that broadcasts to [B, heads, T, T].
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

aten = torch.ops.aten


def _additive_mask(mask, mask_type, batch, heads, tq, tk, dtype):
    """The fast path's boolean (True = masked) or float mask as an additive
    bias that broadcasts to [B, heads, Tq, Tk]."""
    if mask is None:
        return None
    if mask.dtype == torch.bool:
        bias = torch.zeros(mask.shape, dtype=dtype, device=mask.device)
        bias = bias.masked_fill(mask, float("-inf"))
    else:
        bias = mask.to(dtype)
    if mask_type == 1:                       # key padding [B, Tk]
        return bias.view(batch, 1, 1, tk)
    if mask_type == 0 or bias.dim() == 2:    # attention mask [Tq, Tk]
        return bias.view(1, 1, tq, tk)
    return bias


def native_multi_head_attention(query, key, value, embed_dim, num_head,
                                qkv_weight, qkv_bias, proj_weight, proj_bias,
                                mask=None, need_weights=True,
                                average_attn_weights=True, mask_type=None):
    b, tq, _ = query.shape
    tk = key.shape[1]
    head_dim = embed_dim // num_head
    if query is key and key is value:
        q, k, v = F.linear(query, qkv_weight, qkv_bias).chunk(3, dim=-1)
    else:
        wq, wk, wv = qkv_weight.chunk(3, dim=0)
        bq, bk, bv = qkv_bias.chunk(3, dim=0)
        q, k, v = (F.linear(query, wq, bq), F.linear(key, wk, bk),
                   F.linear(value, wv, bv))

    def heads(t, n):
        return t.view(b, n, num_head, head_dim).transpose(1, 2)

    q, k, v = heads(q, tq), heads(k, tk), heads(v, tk)
    bias = _additive_mask(mask, mask_type, b, num_head, tq, tk, query.dtype)
    if not need_weights:
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        weights = query.new_empty((0,))
    else:
        scores = torch.matmul(q, k.transpose(-2, -1)) * head_dim ** -0.5
        if bias is not None:
            scores = scores + bias
        weights = torch.softmax(scores, dim=-1)
        y = torch.matmul(weights, v)
        if average_attn_weights:
            weights = weights.mean(dim=1)
    y = y.transpose(1, 2).reshape(b, tq, embed_dim)
    return F.linear(y, proj_weight, proj_bias), weights


def transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
                                  qkv_bias, proj_weight, proj_bias, use_gelu,
                                  norm_first, eps, norm_weight_1, norm_bias_1,
                                  norm_weight_2, norm_bias_2, ffn_weight_1,
                                  ffn_bias_1, ffn_weight_2, ffn_bias_2,
                                  mask=None, mask_type=None):
    def norm(x, w, bias):
        return F.layer_norm(x, (embed_dim,), w, bias, eps)

    x = norm(src, norm_weight_1, norm_bias_1) if norm_first else src
    x, _ = native_multi_head_attention(
        x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
        proj_bias, mask, False, True, mask_type)
    x = x + src
    if not norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    residual = x
    if norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    x = F.linear(x, ffn_weight_1, ffn_bias_1)
    x = F.gelu(x) if use_gelu else F.relu(x)
    x = F.linear(x, ffn_weight_2, ffn_bias_2) + residual
    if not norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    return x


#: aten overload -> decomposition, added to fx_importer.DECOMPOSITIONS.
FAST_PATH_DECOMPOSITIONS = {
    aten._native_multi_head_attention.default: native_multi_head_attention,
    aten._transformer_encoder_layer_fwd.default: transformer_encoder_layer_fwd,
}
