#!/usr/bin/env python3
"""PyTorch's time for ResNet-18 (torchvision's architecture, written out
here: the device has no torchvision) at 224 x 224 in bf16, channels-last
(the layout cuDNN's Tensor Core kernels take, and what tcc's
--select-layout picks for bf16 convolutions on cuda): median of
CUDA-event timed calls after warm-up, eager and torch.compile (default
mode, and reduce-overhead: CUDA graphs, to compare with tcc's graph
replay). tcc's figure for the same model comes from
device_check.sh's resnet18_bf16_nhwc case (tcc-run-lib --benchmark).

    python3 torch_resnet18.py [BATCH...]   (default 1)
"""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from torch_gemm import median_us


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class ResNet18(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(512, 1000)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 3, 2, 1)
        x = self.layers(x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def main():
    batches = [int(b) for b in sys.argv[1:]] or [1]
    torch.manual_seed(0)
    model = ResNet18().cuda().eval().to(torch.bfloat16).to(
        memory_format=torch.channels_last)
    with torch.no_grad():
        default = torch.compile(model)
        overhead = torch.compile(model, mode="reduce-overhead")
        for batch in batches:
            x = torch.randn(batch, 3, 224, 224, device="cuda",
                            dtype=torch.bfloat16).to(
                                memory_format=torch.channels_last)
            for mode, fn in (("eager", model), ("compile", default),
                             ("reduce-overhead", overhead)):
                us = median_us(lambda: fn(x))
                print("torch resnet18 bf16 channels-last B=%d %-15s %9.1f us" %
                      (batch, mode, us), flush=True)


if __name__ == "__main__":
    main()
