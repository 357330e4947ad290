"""tcc's Python API over the _tcc extension (tcc's C API).

Every failure raises TCCError with the compiler's diagnostics; nothing here
prints or exits.
"""
from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from . import _tcc


class TCCError(Exception):
    """A compile, parse, import or run failure; `diagnostics` holds the
    compiler's messages (with their locations), oldest first."""

    def __init__(self, message: str, diagnostics: Sequence[str] = ()):
        self.diagnostics = list(diagnostics)
        text = message
        if self.diagnostics:
            text += "\n" + "\n".join(self.diagnostics)
        super().__init__(text)


_local = threading.local()


def context() -> _tcc.Context:
    """The calling thread's MLIR context (tcc's dialects loaded). Modules keep
    theirs alive; one per thread because a context is not thread-safe."""
    ctx = getattr(_local, "context", None)
    if ctx is None:
        ctx = _local.context = _tcc.Context()
    return ctx


def _fail(ctx: _tcc.Context, message: str) -> TCCError:
    return TCCError(message, ctx.take_diagnostics())


class Module:
    """An MLIR module of tcc (and upstream) ops."""

    def __init__(self, handle: _tcc.Module):
        self._handle = handle

    def __str__(self) -> str:
        return str(self._handle)

    def clone(self) -> "Module":
        return Module(self._handle.clone())

    def verify(self) -> bool:
        ok = self._handle.verify()
        self._handle.context.take_diagnostics()
        return ok


def parse(text: str) -> Module:
    """Parses MLIR text (tcc's dialects and MLIR's)."""
    ctx = context()
    ctx.take_diagnostics()
    handle = _tcc.Module.parse(ctx, text)
    if handle is None:
        raise _fail(ctx, "cannot parse the module")
    return Module(handle)


def _as_module(module: Module | str) -> Module:
    return parse(module) if isinstance(module, str) else module


def _split_top_level(pipeline: str) -> list[str]:
    """Splits "a,b{x=1,y=2},c(d,e)" at the commas outside braces/parens."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(pipeline):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(pipeline[start:i].strip())
            start = i + 1
    parts.append(pipeline[start:].strip())
    return [p for p in parts if p]


_REPORTING_PASSES = ("fuse", "plan-memory")


def run_pipeline(module: Module, pipeline: str, *, reports: bool = False):
    """Runs a textual pass pipeline on `module` in place.

    `pipeline` is what tcc-opt's --pass-pipeline takes, with or without the
    `builtin.module(...)` around it: "fuse,plan-memory",
    "tcc-cpu-pipeline{fuse=false}", "canonicalize,cse". With `reports`, the
    fuse and plan-memory passes of the top level write their JSON reports
    and the call returns them as {"fuse": {...}, "plan-memory": {...}};
    otherwise it returns the module."""
    text = pipeline.strip()
    wrapped = text.startswith("builtin.module(")
    inner = text[len("builtin.module("):-1] if wrapped else text
    files: dict[str, str] = {}
    tmp = tempfile.mkdtemp(prefix="tcc-report-") if reports else None
    try:
        if reports:
            parts = []
            for part in _split_top_level(inner):
                m = re.fullmatch(r"([\w.-]+)(?:\{(.*)\})?", part, re.S)
                if m and m.group(1) in _REPORTING_PASSES:
                    name, opts = m.group(1), (m.group(2) or "").strip()
                    path = os.path.join(tmp, name + ".json")
                    files[name] = path
                    opts = (opts + " " if opts else "") + f"report-file={path}"
                    part = f"{name}{{{opts}}}"
                parts.append(part)
            inner = ",".join(parts)
        handle = module._handle
        handle.context.take_diagnostics()
        ok, parse_error = handle.run_pipeline(f"builtin.module({inner})")
        if not ok:
            if parse_error:
                raise TCCError(f"invalid pipeline '{pipeline}': "
                               + parse_error.strip(),
                               handle.context.take_diagnostics())
            raise _fail(handle.context, f"pipeline '{pipeline}' failed")
        if not reports:
            return module
        return {name: json.loads(Path(path).read_text())
                for name, path in files.items()}
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def import_onnx(model: str | os.PathLike | bytes, *, function: str = "main",
                weights_as_arguments: bool = False) -> Module:
    """Imports an ONNX model (a path or the serialized bytes)."""
    if not _tcc.has_onnx_importer():
        raise TCCError("this tcc was built without the ONNX importer "
                       "(libonnx-dev)")
    if isinstance(model, (bytes, bytearray)):
        data, source = bytes(model), "<bytes>"
    else:
        data, source = Path(model).read_bytes(), os.fspath(model)
    ctx = context()
    ctx.take_diagnostics()
    handle = _tcc.import_onnx(ctx, data, source, function,
                              weights_as_arguments)
    if handle is None:
        raise _fail(ctx, f"cannot import {source}")
    return Module(handle)


def _options_string(options: dict[str, Any] | str | None) -> str:
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    out = []
    for key, value in options.items():
        key = key.replace("_", "-")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        out.append(f"{key}={value}")
    return " ".join(out)


def _to_array(x) -> Any:
    """numpy arrays and DLPack CPU tensors pass through (read in place when
    dense); anything else becomes a numpy array."""
    if isinstance(x, np.ndarray):
        return x if x.flags.c_contiguous else np.ascontiguousarray(x)
    if hasattr(x, "__dlpack__"):
        if hasattr(x, "is_contiguous") and not x.is_contiguous():
            x = x.contiguous()
        return x
    return np.asarray(x)


class Executable:
    """Functions of a module JIT-compiled for this CPU. Call with the inputs
    of the only public function (or pick one with `function=`); returns a
    numpy array, or a tuple for several results. bf16 results are their
    bits (uint16)."""

    def __init__(self, handle: _tcc.Executable):
        self._handle = handle
        self.signatures = json.loads(handle.signatures())

    @property
    def functions(self) -> list[str]:
        return list(self.signatures)

    def run(self, function: str, *inputs) -> list[np.ndarray]:
        try:
            return self._handle.run(function, [_to_array(x) for x in inputs])
        except ValueError as e:
            raise TCCError(str(e)) from None
        except RuntimeError as e:
            raise TCCError(str(e)) from None
        except TypeError as e:
            raise TCCError(str(e)) from None

    def __call__(self, *inputs, function: str | None = None):
        if function is None:
            if len(self.signatures) != 1:
                raise TCCError("the module has several functions "
                               f"({', '.join(self.signatures)}): pass "
                               "function=")
            function = next(iter(self.signatures))
        results = self.run(function, *inputs)
        return results[0] if len(results) == 1 else tuple(results)

    @property
    def last_run_seconds(self) -> float:
        """The compiled code's time in the last call (without the checks and
        the copies of the results)."""
        return self._handle.last_run_seconds


def _tool(name: str) -> str:
    """A tcc tool: $TCC_BIN_DIR, then beside the package in a build tree or
    an install prefix, then PATH."""
    here = Path(__file__).resolve().parent
    candidates = []
    if os.environ.get("TCC_BIN_DIR"):
        candidates.append(Path(os.environ["TCC_BIN_DIR"]) / name)
    candidates += [here.parent.parent / "bin" / name,
                   here.parent.parent.parent / "bin" / name]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which(name)
    if not found:
        raise TCCError(f"cannot find the {name} tool (set TCC_BIN_DIR)")
    return found


def compile(module: Module | str, *, target: str = "cpu",
            options: dict[str, Any] | str | None = None,
            output: str | os.PathLike | None = None):
    """Compiles `module` (a Module or MLIR text).

    target="cpu": JIT-compiled in this process; `options` are the CPU
    pipeline's (tcc-opt --tcc-cpu-pipeline's, e.g. {"fuse": False} or
    "gemm-library-min-macs=0"); returns an Executable.
    target="cuda": a shared library built by tcc-compile --target=cuda
    (`options`: its flags, e.g. {"chip": "sm_90"}), loaded with
    load_library; it runs where a CUDA driver is (an NVIDIA GPU machine);
    `output` keeps the library there."""
    module = _as_module(module)
    if target == "cpu":
        handle, error = _tcc.compile_cpu(module._handle,
                                         _options_string(options))
        if handle is None:
            raise _fail(module._handle.context,
                        "compilation failed: " + error.strip())
        module._handle.context.take_diagnostics()
        return Executable(handle)
    if target == "cuda":
        return load_library(build_library(module, target="cuda",
                                          options=options, output=output))
    raise TCCError(f"unknown target '{target}' (expected cpu or cuda)")


def build_library(module: Module | str, *, target: str = "cpu",
                  options: dict[str, Any] | str | None = None,
                  output: str | os.PathLike | None = None) -> str:
    """tcc-compile: an ahead-of-time shared library (tcc_model.h's ABI)."""
    module = _as_module(module)
    out_dir = tempfile.mkdtemp(prefix="tcc-lib-")
    src = os.path.join(out_dir, "model.mlir")
    Path(src).write_text(str(module))
    lib = os.fspath(output) if output else os.path.join(out_dir,
                                                        "libmodel.so")
    args = [_tool("tcc-compile"), src, "-o", lib, f"--target={target}"]
    if isinstance(options, str):
        args += options.split()
    elif options:
        for key, value in options.items():
            key = key.replace("_", "-")
            args.append(f"--{key}" if value is True else f"--{key}={value}")
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TCCError("tcc-compile failed", proc.stderr.strip().splitlines())
    return lib


class _TensorStruct(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * 8),
                ("owner", ctypes.c_void_p)]


_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
           np.dtype(np.float16): 2, np.dtype(np.bool_): 4,
           np.dtype(np.int8): 5, np.dtype(np.int32): 6,
           np.dtype(np.int64): 7}
_NUMPY = {0: np.float32, 1: np.float64, 2: np.float16, 3: np.uint16,
          4: np.bool_, 5: np.int8, 6: np.int32, 7: np.int64}


class Library:
    """A library built by tcc-compile (cpu or cuda), called through its C ABI
    (tcc/Runtime/tcc_model.h) with ctypes: needs no MLIR, so it also runs on
    machines with only numpy. Inputs are numpy arrays (copied to the GPU by
    cuda libraries); results come back as numpy arrays."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self._lib = ctypes.CDLL(self.path)
        self._lib.tcc_last_error.restype = ctypes.c_char_p
        self._lib.tcc_manifest.restype = ctypes.c_char_p
        self.manifest = json.loads(self._lib.tcc_manifest().decode())

    @property
    def functions(self) -> list[str]:
        n = self._lib.tcc_num_entries()
        self._lib.tcc_entry_name.restype = ctypes.c_char_p
        return [self._lib.tcc_entry_name(i).decode() for i in range(n)]

    def run(self, function: str, *inputs) -> list[np.ndarray]:
        n_in, n_out = ctypes.c_int(), ctypes.c_int()
        if self._lib.tcc_entry_arity(function.encode(), ctypes.byref(n_in),
                                     ctypes.byref(n_out)):
            raise TCCError(f"no function '{function}' in {self.path}")
        arrays = [np.ascontiguousarray(_to_numpy(x)) for x in inputs]
        ins = (_TensorStruct * max(1, len(arrays)))()
        for i, a in enumerate(arrays):
            if a.dtype not in _DTYPES:
                raise TCCError(f"input {i}: element type {a.dtype} not "
                               "supported by tcc")
            ins[i].data = a.ctypes.data
            ins[i].dtype = _DTYPES[a.dtype]
            ins[i].rank = a.ndim
            for d, s in enumerate(a.shape):
                ins[i].shape[d] = s
        outs = (_TensorStruct * max(1, n_out.value))()
        code = self._lib.tcc_run(function.encode(), ins, len(arrays), outs,
                                 n_out.value)
        if code != 0:
            raise TCCError(self._lib.tcc_last_error().decode())
        results = []
        for r in range(n_out.value):
            t = outs[r]
            shape = tuple(t.shape[d] for d in range(t.rank))
            dtype = np.dtype(_NUMPY[t.dtype])
            count = int(np.prod(shape)) if shape else 1
            buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(
                t.data) if count else b""
            results.append(np.frombuffer(buf, dtype=dtype).reshape(shape)
                           .copy() if count else np.zeros(shape, dtype))
            self._lib.tcc_release(ctypes.byref(t))
        return results

    def __call__(self, *inputs, function: str | None = None):
        if function is None:
            names = self.functions
            if len(names) != 1:
                raise TCCError(f"the library has several functions "
                               f"({', '.join(names)}): pass function=")
            function = names[0]
        results = self.run(function, *inputs)
        return results[0] if len(results) == 1 else tuple(results)


def _to_numpy(x):
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor
        return x.detach().cpu().numpy()
    return np.asarray(x)


def load_library(path: str | os.PathLike) -> Library:
    """Loads a library built by tcc-compile or build_library."""
    return Library(path)
