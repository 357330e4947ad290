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

from ._api import (Executable, Library, Module, TCCError, compile, context,
                   import_onnx, load_library, parse, run_pipeline)
from .dynamo import dynamo_backend, make_backend

__all__ = [
    "Executable", "Library", "Module", "TCCError", "compile", "context",
    "dynamo_backend", "import_onnx", "load_library", "make_backend", "parse",
    "run_pipeline",
]
