"""The PyTorch models of the tests: seed 001's RobotPolicy and a ViT-B/16
encoder block (timm's Block), with numpy-free eager references."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RobotPolicy(nn.Module):
    """Seed 001's policy network (without the optional LSTM branch)."""

    def __init__(self, obs_dim=256, action_dim=12):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(obs_dim, 512), nn.LayerNorm(512), nn.ReLU(),
            nn.Linear(512, 256), nn.LayerNorm(256), nn.ReLU())
        self.policy_head = nn.Linear(256, action_dim)
        self.value_head = nn.Linear(256, 1)

    def forward(self, obs):
        features = self.encoder(obs)
        return self.policy_head(features), self.value_head(features)


class Attention(nn.Module):
    def __init__(self, dim=768, heads=12, explicit=False):
        super().__init__()
        self.heads, self.explicit = heads, explicit
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        if self.explicit:
            attn = (q @ k.transpose(-2, -1)) * self.scale
            x = attn.softmax(dim=-1) @ v
        else:
            x = F.scaled_dot_product_attention(q, k, v)
        return self.proj(x.transpose(1, 2).reshape(B, N, C))


class ViTBlock(nn.Module):
    """timm's VisionTransformer Block (pre-norm), ViT-B/16 sizes."""

    def __init__(self, dim=768, heads=12, mlp=3072, explicit=False):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, heads, explicit)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, mlp)
        self.fc2 = nn.Linear(mlp, dim)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))
