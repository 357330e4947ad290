# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "TCC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

config.substitutions.append(("%examples", os.path.join(config.tcc_src_root, "examples")))
config.substitutions.append(("%tcc_src", config.tcc_src_root))
config.substitutions.append(("%python", sys.executable))
# C programs built against the C ABI of tcc-compile's libraries.
config.substitutions.append(("%tcc_include", os.path.join(config.tcc_src_root, "include")))

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
# Every test compiles: the compile cache (docs/compile-cache.md) is off but
# where a test turns it on in a directory of its own.
config.environment["TCC_CACHE_DIR"] = "off"
llvm_config.use_default_substitutions()

tool_dirs = [config.tcc_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tcc-opt", "tcc-run", "tcc-compile", "tcc-run-lib", "tcc-capi-test", "FileCheck", "not", "llvm-objdump"], tool_dirs)

# The ONNX importer is built where libonnx-dev is installed; its tests say
# `REQUIRES: onnx` and read the ONNX backend tests of libonnx-testdata
# (%onnx_data).
if os.path.exists(os.path.join(config.tcc_tools_dir, "tcc-import-onnx")):
    llvm_config.add_tool_substitutions(["tcc-import-onnx"], tool_dirs)
    onnx_data = "/usr/share/libonnx-testdata/data"
    if os.path.isdir(onnx_data):
        config.available_features.add("onnx")
        config.substitutions.append(("%onnx_data", onnx_data))

# The cpu pipeline's library convolutions (oneDNN): tests say
# `REQUIRES: dnnl`.
if getattr(config, "tcc_have_dnnl", False):
    config.available_features.add("dnnl")

# Tests of AVX-512-only code paths say `REQUIRES: avx512`.
try:
    with open("/proc/cpuinfo") as f:
        if " avx512f" in f.read():
            config.available_features.add("avx512")
except OSError:
    pass

# The cuda pipeline serializes kernels to cubin with CUDA's ptxas: tests that
# need it say `REQUIRES: ptxas`.
import shutil
cuda_bin = "/usr/local/cuda/bin"
if os.path.isdir(cuda_bin):
    config.environment["PATH"] = cuda_bin + os.pathsep + config.environment.get("PATH", os.environ.get("PATH", ""))
if shutil.which("ptxas", path=config.environment.get("PATH")):
    config.available_features.add("ptxas")

# A GPU this process can use (the NVIDIA driver and a device): tests that run
# cuda code say `REQUIRES: cuda-device`; those that check the error without
# one say `UNSUPPORTED: cuda-device`.
def _has_cuda_device():
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0

if _has_cuda_device():
    config.available_features.add("cuda-device")
