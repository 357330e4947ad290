"""pytest set-up: the tcc package from a build tree (--tcc-build-dir, default
build/), its tools for tcc-compile."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pytest_addoption(parser):
    parser.addoption("--tcc-build-dir", default=str(ROOT / "build"),
                     help="tcc build directory (python_packages/, bin/)")


def pytest_configure(config):
    build = Path(config.getoption("--tcc-build-dir")).resolve()
    sys.path.insert(0, str(build / "python_packages"))
    os.environ.setdefault("TCC_BIN_DIR", str(build / "bin"))
