"""The model zoo: real architectures built in code (torchvision, transformers
configs, torch.nn) with random weights, no download of any kind.

Each entry builds (module, example inputs, dynamic dims) at one of two sizes:
`small=True` is the CI subset's (few layers, small images: seconds to
compile), `small=False` the real architecture at its usual input size.
`dynamic` maps an input's position to the dims that vary (batch, sequence):
the torch.compile path marks them dynamic, the ONNX export names them.

Weights are made sane where a library's initialization would make the
output trivial (torchvision's ViT head starts at zeros), and batch norms get
random running statistics so that they are not identities.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import torch
import torch.nn as nn


@dataclass
class Built:
    module: nn.Module
    inputs: tuple
    dynamic: dict = field(default_factory=dict)   # input index -> dims
    output_names: list | None = None
    # Dynamo keeps data-dependent sizes (nms, boolean masks) in the graph
    # (capture_dynamic_output_shape_ops) instead of breaking it there.
    capture_dynamic_output_shapes: bool = False
    # torch.onnx.export's exporter for this model: "dynamo" (the default,
    # torch.export) or "legacy" (TorchScript tracing) where torch.export
    # cannot trace the model.
    exporter: str = "dynamo"


@dataclass
class ZooModel:
    name: str
    build: Callable[[bool], Built]
    ci: bool = False        # in the CI subset (at small=True)
    notes: str = ""


def _sane(module: nn.Module) -> nn.Module:
    """Random BN statistics, non-zero heads; eval mode."""
    g = torch.Generator().manual_seed(1)
    for m in module.modules():
        if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm1d)):
            m.running_mean.copy_(torch.rand(m.running_mean.shape, generator=g) - 0.5)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)
        if isinstance(m, nn.Linear) and m.weight.abs().max() == 0:
            nn.init.normal_(m.weight, std=0.02)
    return module.eval()


def _image(batch, size, channels=3):
    return torch.randn(batch, channels, size, size)


def _torchvision(name, size_small, size_full, small_kwargs=None):
    def build(small):
        import torchvision.models as tvm
        torch.manual_seed(0)
        kwargs = (small_kwargs or {}) if small else {}
        m = _sane(getattr(tvm, name)(weights=None, **kwargs))
        return Built(m, (_image(2, size_small if small else size_full),), {0: [0]})
    return build


def _deeplab(small):
    import torchvision.models.segmentation as seg
    torch.manual_seed(0)
    m = _sane(seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                               num_classes=21, aux_loss=False))

    class Out(nn.Module):                   # the dict output -> its tensor
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x)["out"]
    return Built(Out(m).eval(), (_image(1, 128 if small else 320),), {0: [0]})


def _calibrate_batch_norms(module, *batches):
    """Running statistics measured on random data (BN recalibration): the
    normalizations keep the activations at unit scale. With arbitrary
    statistics the signal fades through a deep CNN and the detector's
    deeper feature maps no longer depend on the image, so its scores tie
    by the hundred and any two top-k/sort implementations keep different
    boxes."""
    bns = [m for m in module.modules() if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        for bn in bns:
            bn.reset_running_stats()
            bn.momentum = None      # a cumulative average over the batches
            bn.train()
        for batch in batches:
            module(batch)
        for bn in bns:
            bn.eval()


def _ssdlite(small):
    import torchvision.models.detection as det
    torch.manual_seed(0)
    m = det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None,
                                          num_classes=91 if not small else 11)
    m = m.eval()
    g = torch.Generator().manual_seed(3)
    _calibrate_batch_norms(m, list(torch.rand(4, 3, 320, 320, generator=g)))
    x = torch.rand(1, 3, 320, 320, generator=g)
    # Random weights score every anchor about alike (1 / classes): the
    # default score_thresh (0.001) keeps all of them and the top-k cuts
    # fall among near-equal scores. A threshold in the widest gap near the
    # 100th best score keeps ~100 boxes, far from any cut.
    with torch.no_grad():
        imgs, _ = m.transform(list(x))
        logits = m.head(list(m.backbone(imgs.tensors).values()))["cls_logits"]
        best = torch.softmax(logits[0], -1)[:, 1:].flatten().sort(descending=True).values
    window = best[80:121]
    k = int((window[:-1] - window[1:]).argmax())
    m.score_thresh = float((window[k] + window[k + 1]) / 2)

    class Out(nn.Module):       # list of dicts -> boxes, scores, labels
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            d = self.m(list(x))[0]
            return d["boxes"], d["scores"], d["labels"]
    return Built(Out(m).eval(), (x,), {}, capture_dynamic_output_shapes=True,
                 exporter="legacy")


def _bert(small):
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    cfg = BertConfig(num_hidden_layers=2 if small else 12,
                     hidden_size=128 if small else 768,
                     num_attention_heads=2 if small else 12,
                     intermediate_size=512 if small else 3072,
                     attn_implementation="sdpa")
    m = BertModel(cfg).eval()

    class Out(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, ids, mask):
            return self.m(input_ids=ids, attention_mask=mask).last_hidden_state
    seq = 32 if small else 128
    ids = torch.randint(0, cfg.vocab_size, (2, seq))
    mask = torch.ones(2, seq, dtype=torch.int64)
    mask[1, seq // 2:] = 0
    return Built(Out(m).eval(), (ids, mask), {0: [0, 1], 1: [0, 1]})


def _gpt2_config(small):
    from transformers import GPT2Config
    return GPT2Config(n_layer=2 if small else 12, n_embd=128 if small else 768,
                      n_head=2 if small else 12, n_positions=256 if small else 1024,
                      attn_implementation="sdpa")


def _gpt2(small):
    from transformers import GPT2LMHeadModel
    torch.manual_seed(0)
    cfg = _gpt2_config(small)
    m = GPT2LMHeadModel(cfg).eval()

    class Out(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, ids):
            return self.m(input_ids=ids, use_cache=False).logits
    ids = torch.randint(0, cfg.vocab_size, (2, 32 if small else 128))
    return Built(Out(m).eval(), (ids,), {0: [0, 1]})


def _gpt2_decode(small):
    """One decode step: a token per sequence and the past keys/values as
    tensors [batch, heads, past, head_dim] per layer."""
    from transformers import DynamicCache, GPT2LMHeadModel
    torch.manual_seed(0)
    cfg = _gpt2_config(small)
    m = GPT2LMHeadModel(cfg).eval()

    class Step(nn.Module):
        def __init__(self, m, layers):
            super().__init__()
            self.m, self.layers = m, layers

        def forward(self, ids, *past):
            cache = DynamicCache()
            for i in range(self.layers):
                cache.update(past[2 * i], past[2 * i + 1], i)
            out = self.m(input_ids=ids, past_key_values=cache, use_cache=True)
            return out.logits
    past_len = 16 if small else 128
    hd = cfg.n_embd // cfg.n_head
    past = tuple(torch.randn(2, cfg.n_head, past_len, hd) for _ in range(2 * cfg.n_layer))
    ids = torch.randint(0, cfg.vocab_size, (2, 1))
    dyn = {0: [0]}
    for i in range(len(past)):
        dyn[1 + i] = [0, 2]
    return Built(Step(m, cfg.n_layer).eval(), (ids, *past), dyn)


def _llama(small):
    from transformers import LlamaConfig, LlamaModel
    torch.manual_seed(0)
    cfg = LlamaConfig(hidden_size=128 if small else 512,
                      intermediate_size=344 if small else 1376,
                      num_hidden_layers=2 if small else 8,
                      num_attention_heads=4 if small else 8,
                      num_key_value_heads=2 if small else 4,
                      vocab_size=1000 if small else 32000,
                      max_position_embeddings=512,
                      attn_implementation="sdpa")
    m = LlamaModel(cfg).eval()

    class Out(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, ids):
            return self.m(input_ids=ids, use_cache=False).last_hidden_state
    ids = torch.randint(0, cfg.vocab_size, (2, 32 if small else 128))
    return Built(Out(m).eval(), (ids,), {0: [0, 1]})


def _lstm(small):
    torch.manual_seed(0)
    m = nn.LSTM(64 if small else 256, 32 if small else 128, batch_first=True,
                num_layers=1 if small else 2).eval()

    class Out(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            y, (h, c) = self.m(x)
            return y, h, c
    x = torch.randn(2, 8 if small else 32, 64 if small else 256)
    return Built(Out(m).eval(), (x,), {0: [0, 1]})


def _gru(small):
    torch.manual_seed(0)
    m = nn.GRU(64 if small else 256, 32 if small else 128, batch_first=True,
               num_layers=1 if small else 2, bidirectional=True).eval()

    class Out(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            y, h = self.m(x)
            return y, h
    x = torch.randn(2, 8 if small else 32, 64 if small else 256)
    return Built(Out(m).eval(), (x,), {0: [0, 1]})


def _encoder_layer(small):
    torch.manual_seed(0)
    d = 64 if small else 512
    m = nn.TransformerEncoderLayer(d, 4 if small else 8, 4 * d, batch_first=True,
                                   dropout=0.0).eval()
    x = torch.randn(2, 16 if small else 128, d)
    return Built(m, (x,), {0: [0, 1]})


class RobotPolicyLSTM(nn.Module):
    """Seed 001's policy network with its LSTM history encoder."""

    def __init__(self, obs_dim=256, action_dim=12):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(obs_dim, 512), nn.LayerNorm(512), nn.ReLU(),
            nn.Linear(512, 256), nn.LayerNorm(256), nn.ReLU())
        self.policy_head = nn.Linear(256, action_dim)
        self.value_head = nn.Linear(256, 1)
        self.history_encoder = nn.LSTM(256, 128, batch_first=True)
        self.history_proj = nn.Linear(128, 256)

    def forward(self, obs, history):
        features = self.encoder(obs)
        h_feat, _ = self.history_encoder(history)
        # The seed adds h_feat[:, -1] (128 wide) to 256 features; a
        # projection makes the sum well-formed.
        features = features + self.history_proj(h_feat[:, -1])
        return self.policy_head(features), self.value_head(features)


def _robot(small):
    torch.manual_seed(0)
    m = RobotPolicyLSTM().eval()
    return Built(m, (torch.randn(1, 256), torch.randn(1, 8 if small else 32, 256)),
                 {1: [1]})


ZOO = [
    ZooModel("resnet50", _torchvision("resnet50", 64, 224)),
    ZooModel("mobilenet_v3_small", _torchvision("mobilenet_v3_small", 64, 224), ci=True),
    ZooModel("efficientnet_b0", _torchvision("efficientnet_b0", 64, 224)),
    ZooModel("convnext_tiny", _torchvision("convnext_tiny", 64, 224)),
    ZooModel("vit_b_16", _torchvision("vit_b_16", 64, 224,
                                           {"image_size": 64})),
    ZooModel("deeplabv3_mobilenet_v3_large", _deeplab),
    ZooModel("ssdlite320_mobilenet_v3_large", _ssdlite),
    ZooModel("bert", _bert, ci=True),
    ZooModel("gpt2", _gpt2, ci=True),
    ZooModel("gpt2_decode", _gpt2_decode, ci=True),
    ZooModel("llama", _llama, ci=True),
    ZooModel("lstm", _lstm, ci=True),
    ZooModel("gru", _gru, ci=True),
    ZooModel("transformer_encoder_layer", _encoder_layer, ci=True),
    ZooModel("robot_policy_lstm", _robot, ci=True),
]

BY_NAME = {m.name: m for m in ZOO}
