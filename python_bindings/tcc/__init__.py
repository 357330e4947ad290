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

import os as _os

# Compiled code runs on LLVM's OpenMP runtime (libomp), whose idle workers
# spin for 200 ms after each parallel region by default. In a process with
# PyTorch's own OpenMP pool (GNU's) both pools share the cores, and the
# spinning starves PyTorch's threads (2-50x slower on 2 cores): idle tcc
# workers sleep at once instead. Read when libomp starts its pool (the
# first parallel call), so setting it here is in time; a value the user
# set wins.
_os.environ.setdefault("KMP_BLOCKTIME", "0")

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
