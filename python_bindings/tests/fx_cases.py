"""Op-coverage models for the FX importer tests (test_fx_importer.py):
each exercises a family of aten ops through torch.compile with tcc."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Elementwise(nn.Module):
    """neg exp log sqrt rsqrt tanh sigmoid silu erf pow max/min where clamp
    div sub rsub cmp sum mean amax cat softmax log_softmax gelu-tanh."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(16))

    def forward(self, x):
        a = torch.exp(-x.abs()) + torch.log(x.abs() + 1.0) * torch.sqrt(x * x + 0.5)
        b = torch.rsqrt(x * x + 1.0) - torch.tanh(x) * torch.sigmoid(x) + F.silu(x)
        c = torch.erf(x / 3) + x.pow(2) * 0.1 + torch.pow(x.abs() + 1, 1.5)
        d = torch.maximum(a, b) - torch.minimum(b, c) + torch.where(x > 0, a, c)
        e = torch.clamp(d, -2.0, 3.0) + (1 - x) / 2 + x.clamp(min=0.1)
        f = F.softmax(e * self.w, dim=-1) + F.log_softmax(e, dim=1) + F.gelu(x, approximate="tanh")
        g = f.sum(dim=1, keepdim=True) + f.mean(dim=-1, keepdim=True) - f.amax(dim=1, keepdim=True)
        h = torch.cat([f, g, (x >= 0.5).float(), (x != x).to(torch.float32)], dim=1)
        return h, e.sum(), (x < 0).sum(dim=1)


class Shapes(nn.Module):
    """select slice unbind split chunk expand stack transpose permute bmm
    matmul, a SymInt used as a scalar, f64/f16 casts, an embedded constant."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(8, 6))
        self.register_buffer("scale", torch.linspace(0.5, 2.0, 6))

    def forward(self, x):  # x [B, 4, 6]
        B = x.shape[0]
        a = x[:, 1] + x.select(1, -1)                  # [B, 6]
        b = x[:, 1:3].sum(1) * x[:, :, 2:5].mean(-1).sum(-1, keepdim=True)[:, :1]
        p, q = x.split([2, 2], dim=1)
        r0, r1, r2, r3 = x.unbind(1)
        c1, c2 = x.chunk(2, dim=2)
        s = torch.stack([r0, r1 * r2, r3], dim=1)     # [B, 3, 6]
        m = torch.bmm(p, q.transpose(1, 2))           # [B, 2, 2]
        mm = (s @ self.w.t()).permute(0, 2, 1)         # [B, 8, 3]
        e = self.scale.expand(B, 4, 6) * x
        t = torch.tensor([1.0, -2.0, 3.0, 0.5, 0.25, 4.0])
        z = (x * t).double().sum(-1).float() + x.half().float().mean(-1)
        n = a * B + b / x.shape[0]
        return a, b, m, mm, e, z, n, c1 - c2.contiguous() * 2


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=1, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=2)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        y = self.pool(F.relu(self.bn(self.conv(x))))
        y = F.avg_pool2d(self.conv2(y), 2)
        y = F.adaptive_avg_pool2d(y, 1).flatten(1)
        return self.fc(y)


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.norm = nn.LayerNorm(16, elementwise_affine=False)
        self.head = nn.Linear(16, 4, bias=False)

    def forward(self, ids):
        h = self.norm(self.emb(ids))
        return self.head(h).mean(1), torch.index_select(h, 1, torch.tensor([0, 2]))


class HalfMlp(nn.Module):
    """f16/bf16 linear + layer_norm + gelu + softmax + sdpa (tolerance 2e-2)."""

    def __init__(self, dtype):
        super().__init__()
        self.fc = nn.Linear(32, 64).to(dtype)
        self.norm = nn.LayerNorm(64).to(dtype)

    def forward(self, x):  # [B, 4, 32]
        h = F.gelu(self.norm(self.fc(x)))
        q = h.view(h.shape[0], 4, 4, 16).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, q, q)
        return a.softmax(-1).float().sum(-1), h


class NotSupported(nn.Module):
    """Must raise UnsupportedGraph naming each unsupported node."""

    def forward(self, x):
        y = torch.cummax(x, -1).values + torch.kthvalue(x, 2, dim=0, keepdim=True).values
        y[:, 0] = 1.0
        return y.relu()


class Fn(nn.Module):
    """Wraps a function (for the op-coverage cases below)."""

    def __init__(self, fn, params=()):
        super().__init__()
        self.fn = fn
        self.ps = nn.ParameterList([nn.Parameter(p) for p in params])

    def forward(self, *xs):
        return self.fn(*xs, *self.ps)


# op-coverage cases (mostly ops that DECOMPOSITIONS rewrites into handled ops)
OPS = {
    "ops_rmsnorm_gn": lambda x: (nn.functional.rms_norm(x, (16,), eps=1e-6) + F.normalize(x, dim=-1)
                                 + F.layer_norm(x, (16,)) + F.group_norm(x.view(-1, 4, 4), 2).view(-1, 16)),
    "ops_activations": lambda x: (F.softplus(x) + F.hardswish(x) + F.leaky_relu(x, 0.1) + F.elu(x) + F.mish(x)
                                  + F.hardtanh(x) + F.relu6(x) + F.hardsigmoid(x) + F.silu(x)),
    "ops_var": lambda x: (x.var(-1), x.std(0).sum(), *torch.var_mean(x, 1, correction=0)),
    "ops_masked": lambda x: (x.masked_fill(x > 0.5, -1e9).softmax(-1) + torch.lerp(x, x * 2, 0.3)
                             + torch.addcmul(x, x, x, value=0.5)),
    "ops_reductions": lambda x: (torch.logsumexp(x, -1) + x.amin(-1) + x.max(-1).values + x.prod(-1),
                                 x.mean() + x.sum() + x.amax()),
    "ops_divs": lambda x: (torch.div(x, 0.7, rounding_mode="floor") + torch.div(x, 0.7, rounding_mode="trunc")
                           + x.reciprocal() + torch.remainder(x, 0.3) + torch.fmod(x, 0.3) + x.square()
                           + x.abs().log1p() + (x * 1e-4).log1p() * 1e4 + x.expm1() * 1e-3 + (x * 1e-5).expm1() * 1e5 + x.sign() + x.trunc() + x.frac()
                           + torch.log2(x.abs() + 1) + torch.exp2(x * 0.1)),
    "ops_ints": lambda x: ((x.long() * 3 + 1) // 2 + (x.long() % 3) + x.long().abs() + torch.where(x > 0, 1, 0),
                           ((x > 0) & (x < 1)) | ~(x == 0.5)),
    "ops_factories": lambda x: (x + torch.ones_like(x) + torch.zeros(x.shape[0], 16) + torch.arange(16)
                                + torch.full((x.shape[0], 1), 3.0) + x.new_ones(16)),
    "ops_pad_repeat": lambda x: (F.pad(x, (1, 1))[:, :16] + x.roll(1, 1) + x.repeat(1, 1)
                                 + F.pad(x, (0, 0, 1, 0), value=2.0)[1:]),
    "ops_baddbmm": lambda x: torch.baddbmm(x.view(-1, 4, 4), x.view(-1, 4, 4), x.view(-1, 4, 4).transpose(1, 2)),
}


class MaskedAttn(nn.Module):
    def forward(self, q, k, v):
        o1 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        o2 = F.scaled_dot_product_attention(q, k, v, scale=0.3)
        S = q.shape[-2]
        keep = torch.ones(S, S, dtype=torch.bool).tril()
        o3 = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[None, None])
        bias = torch.linspace(-1.0, 1.0, 9 * 9).view(9, 9)
        o4 = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return o1 + o2, o3, o4


# --------------------------------------------------------------------------
# Harness
# --------------------------------------------------------------------------

