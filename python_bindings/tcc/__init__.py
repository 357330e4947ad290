"""tcc: an MLIR compiler for tensor programs, from Python.

    import tcc
    m = tcc.parse(open("examples/robot_policy.mlir").read())
    reports = tcc.run_pipeline(m.clone(), "fuse,plan-memory", reports=True)
    exe = tcc.compile(m)                      # JIT for this CPU
    actions, value = exe(obs, *weights)       # numpy arrays or torch tensors

    model = torch.compile(model, backend=tcc.dynamo_backend)

Failures raise TCCError carrying the compiler's diagnostics. See
docs/python.md.
"""
from __future__ import annotations

# Compiled parallel loops run on the process's GNU OpenMP pool where
# PyTorch (imported first) brought one, the pool PyTorch and oneDNN use,
# else on libomp's, which serves oneDNN's calls too: one pool either way
# (lib/Runtime/ParallelRegions.cpp). Its threads keep spinning a while
# between regions (KMP_BLOCKTIME, OMP_WAIT_POLICY): forking a team of
# sleeping threads costs about 0.2 ms a region on a small VM.

from ._api import (Executable, Library, Module, TCCError, cache_info,
                   clear_cache, compile, context, import_onnx, load_library,
                   parse, run_pipeline)
from .dynamo import dynamo_backend, make_backend

__all__ = [
    "Executable", "Library", "Module", "TCCError", "cache_info",
    "clear_cache", "compile", "context",
    "dynamo_backend", "import_onnx", "load_library", "make_backend", "parse",
    "run_pipeline",
]
