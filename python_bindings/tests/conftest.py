"""pytest set-up: the tcc package from a build tree (--tcc-build-dir, default
build/)."""
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def pytest_addoption(parser):
    parser.addoption("--tcc-build-dir", default=str(ROOT / "build"),
                     help="tcc build directory (python_packages/, bin/)")


def pytest_configure(config):
    # Every test compiles (test_compile_cache.py turns the cache on in a
    # directory of its own, in child processes).
    os.environ["TCC_CACHE_DIR"] = "off"
    build = Path(config.getoption("--tcc-build-dir")).resolve()
    sys.path.insert(0, str(build / "python_packages"))


@pytest.fixture
def fresh_dynamo():
    """Dynamo's and tcc's caches and records empty, the seed fixed: each
    backend test sees only its own graphs."""
    import torch
    import torch._dynamo
    import tcc.dynamo
    torch._dynamo.reset()
    tcc.dynamo.reset()
    torch.manual_seed(0)
    yield
    torch._dynamo.reset()
