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
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np

try:
    from . import _tcc
except ImportError as _error:  # the Python files alone: libraries only
    _tcc = None
    _tcc_error = _error


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


def _extension():
    if _tcc is None:
        raise TCCError("the tcc extension (_tcc) is not available here "
                       f"({_tcc_error}); only load_library works")
    return _tcc


def context() -> "_tcc.Context":
    """The calling thread's MLIR context (tcc's dialects loaded). Modules keep
    theirs alive; one per thread because a context is not thread-safe."""
    _extension()
    ctx = getattr(_local, "context", None)
    if ctx is None:
        ctx = _local.context = _tcc.Context()
    return ctx


def _fail(ctx: "_tcc.Context", message: str) -> TCCError:
    return TCCError(message, ctx.take_diagnostics())


class Module:
    """An MLIR module of tcc (and upstream) ops."""

    def __init__(self, handle: "_tcc.Module"):
        self._handle = handle

    def __str__(self) -> str:
        return str(self._handle)

    def clone(self) -> "Module":
        return Module(self._handle.clone())

    def verify(self) -> bool:
        ok = self._handle.verify()
        self._handle.context.take_diagnostics()
        return ok

    def freeze_arguments(self, function: str, values: dict) -> None:
        """Binds arguments of `function` to values for compiling: argument
        i becomes a constant holding values[i] (a numpy array or CPU
        tensor of the argument's static shape and element type) and leaves
        the signature; the other arguments keep their order. Weights
        passed as arguments get what constant weights get (prepacking,
        batch norms folded into convolutions)."""
        indices = sorted(values)
        arrays = [_contiguous(values[i]) for i in indices]
        ctx = self._handle.context
        ctx.take_diagnostics()
        if not self._handle.freeze_arguments(function, indices, arrays):
            raise _fail(ctx, f"cannot freeze arguments {indices} of "
                        f"'{function}'")


def _contiguous(x):
    """A C-contiguous CPU array or tensor with x's elements."""
    if hasattr(x, "detach"):  # a torch tensor: DLPack carries bf16 and bool
        return x.detach().cpu().contiguous()
    return np.ascontiguousarray(x)


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


# The passes that write reports, by flag (tcc- names and their aliases),
# and the key their report is returned under.
_REPORTING_PASSES = {"fuse": "fuse", "tcc-fuse": "fuse",
                     "plan-memory": "plan-memory",
                     "tcc-plan-memory": "plan-memory"}


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
                    key = _REPORTING_PASSES[name]
                    path = os.path.join(tmp, key + ".json")
                    files[key] = path
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
    if not _extension().has_onnx_importer():
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

    def __init__(self, handle: "_tcc.Executable"):
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


def compile(module: Module | str, *, target: str = "cpu",
            options: dict[str, Any] | str | None = None,
            output: str | os.PathLike | None = None):
    """Compiles `module` (a Module or MLIR text).

    target="cpu": JIT-compiled in this process; `options` are the CPU
    pipeline's (tcc-opt --tcc-cpu-pipeline's, e.g. {"fuse": False} or
    "gemm-library-min-macs=0"); returns an Executable.
    target="cuda": a shared library built as tcc-compile --target=cuda
    builds it (`options`: the cuda pipeline's, e.g. {"chip": "sm_90"}),
    loaded with
    load_library; it runs where a CUDA driver is (an NVIDIA GPU machine);
    `output` keeps the library there."""
    module = _as_module(module)
    if target == "cpu":
        handle, error = _extension().compile_cpu(module._handle,
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


def cache_info() -> dict:
    """The compile cache: its directory ("" when TCC_CACHE_DIR=off) and,
    since this process started, its hits, misses and stored entries. Every
    compile (tcc.compile, build_library, the torch.compile backend, the
    tools) looks there first; see docs/compile-cache.md."""
    directory, hits, misses, stores = _extension().compile_cache_info()
    return {"directory": directory, "hits": hits, "misses": misses,
            "stores": stores}


def clear_cache() -> None:
    """Removes every entry of the compile cache."""
    _extension().compile_cache_clear()


def build_library(module: Module | str, *, target: str = "cpu",
                  options: dict[str, Any] | str | None = None,
                  output: str | os.PathLike | None = None) -> str:
    """An ahead-of-time shared library (tcc_model.h's ABI), built in this
    process as tcc-compile builds it: `options` are the target's pipeline
    options (tcc-opt --tcc-cpu-pipeline's or --tcc-cuda-pipeline's, e.g.
    {"fuse": False, "mcpu": "x86-64-v3"} or {"chip": "sm_80"}). Returns the
    library's path (a temporary directory's libmodel.so without
    `output`)."""
    module = _as_module(module)
    if output:
        lib = os.fspath(output)
    else:
        lib = os.path.join(tempfile.mkdtemp(prefix="tcc-lib-"), "libmodel.so")
    error = _extension().build_library(module._handle, target,
                                       _options_string(options), lib)
    if error is not None:
        raise _fail(module._handle.context,
                    "building the library failed: " + error.strip())
    module._handle.context.take_diagnostics()
    return lib


class _TensorStruct(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * 8),
                ("owner", ctypes.c_void_p)]


# tcc_dtype codes (tcc/Runtime/tcc_model.h). bf16 (3) travels as its bits
# in uint16 arrays, but a uint16 array passed in is ui16 (10).
_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
           np.dtype(np.float16): 2, np.dtype(np.bool_): 4,
           np.dtype(np.int8): 5, np.dtype(np.int32): 6,
           np.dtype(np.int64): 7, np.dtype(np.int16): 8,
           np.dtype(np.uint8): 9, np.dtype(np.uint16): 10,
           np.dtype(np.uint32): 11, np.dtype(np.uint64): 12}
_NUMPY = {0: np.float32, 1: np.float64, 2: np.float16, 3: np.uint16,
          4: np.bool_, 5: np.int8, 6: np.int32, 7: np.int64, 8: np.int16,
          9: np.uint8, 10: np.uint16, 11: np.uint32, 12: np.uint64}


class _CudaArray:
    """A device buffer as __cuda_array_interface__, for torch.as_tensor."""

    def __init__(self, ptr: int, shape: tuple, typestr: str):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (ptr, False),
            "version": 3, "strides": None}


_TYPESTR = {0: "<f4", 1: "<f8", 2: "<f2", 3: "<u2", 4: "|b1", 5: "|i1",
            6: "<i4", 7: "<i8", 8: "<i2", 9: "|u1", 10: "<u2", 11: "<u4",
            12: "<u8"}


class Library:
    """A library built by tcc-compile, called through its C ABI
    (tcc/Runtime/tcc_model.h) with ctypes: needs no MLIR, so it also runs
    on machines with only numpy (and PyTorch for cuda libraries).

    cpu libraries take and return host memory: numpy arrays (or CPU
    tensors) in, numpy arrays out. cuda libraries take and return device
    memory: PyTorch CUDA tensors in (read in place; numpy arrays are
    copied to the GPU first), CUDA tensors out, on PyTorch's current
    stream (tcc_run_on_stream)."""

    def __init__(self, path: str | os.PathLike):
        # A bare name would be looked up on the loader's path, not here.
        self.path = os.path.abspath(os.fspath(path))
        try:
            self._lib = ctypes.CDLL(self.path)
        except OSError as e:  # a cuda library where there is no driver
            raise TCCError(f"cannot load {self.path}: {e}") from None
        self._lib.tcc_last_error.restype = ctypes.c_char_p
        self._lib.tcc_manifest.restype = ctypes.c_char_p
        self._lib.tcc_entry_name.restype = ctypes.c_char_p
        self._lib.tcc_run_on_stream.argtypes = [
            ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
            ctypes.c_int, ctypes.c_void_p]
        self.manifest = json.loads(self._lib.tcc_manifest().decode())
        self.on_device = self.manifest.get("memory") == "device"

    @property
    def functions(self) -> list[str]:
        n = self._lib.tcc_num_entries()
        return [self._lib.tcc_entry_name(i).decode() for i in range(n)]

    def run(self, function: str, *inputs) -> list:
        n_in, n_out = ctypes.c_int(), ctypes.c_int()
        if self._lib.tcc_entry_arity(function.encode(), ctypes.byref(n_in),
                                     ctypes.byref(n_out)):
            raise TCCError(f"no function '{function}' in {self.path}")
        if self.on_device:
            converted = [_device_input(i, x) for i, x in enumerate(inputs)]
        else:
            converted = [_library_input(i, x) for i, x in enumerate(inputs)]
        ins = (_TensorStruct * max(1, len(converted)))()
        for i, (a, code) in enumerate(converted):
            ins[i].data = a.data_ptr() if self.on_device else a.ctypes.data
            ins[i].dtype = code
            ins[i].rank = a.ndim
            for d, s in enumerate(a.shape):
                ins[i].shape[d] = s
        outs = (_TensorStruct * max(1, n_out.value))()
        if self.on_device:
            import torch
            stream = torch.cuda.current_stream().cuda_stream
            code = self._lib.tcc_run_on_stream(
                function.encode(), ins, len(converted), outs, n_out.value,
                stream)
        else:
            code = self._lib.tcc_run(function.encode(), ins, len(converted),
                                     outs, n_out.value)
        if code != 0:
            raise TCCError(self._lib.tcc_last_error().decode())
        del converted  # kept alive through the call
        results = []
        for r in range(n_out.value):
            t = outs[r]
            shape = tuple(t.shape[d] for d in range(t.rank))
            count = int(np.prod(shape)) if shape else 1
            if self.on_device:
                # Copied into a tensor PyTorch owns, then given back.
                import torch
                if count:
                    view = torch.as_tensor(
                        _CudaArray(t.data, shape, _TYPESTR[t.dtype]),
                        device="cuda")
                    out = view.clone()
                else:
                    out = torch.empty(shape, device="cuda",
                                      dtype=_torch_dtype(t.dtype))
                if t.dtype == 3:
                    out = out.view(torch.bfloat16)
                results.append(out)

            else:
                dtype = np.dtype(_NUMPY[t.dtype])
                buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(
                    t.data) if count else b""
                results.append(np.frombuffer(buf, dtype=dtype).reshape(shape)
                               .copy() if count else np.zeros(shape, dtype))
            if not self.on_device:
                self._lib.tcc_release(ctypes.byref(t))
        if self.on_device and n_out.value:
            # tcc's block pool does not follow streams: the copies on
            # PyTorch's stream must be done before the blocks go back.
            import torch
            torch.cuda.current_stream().synchronize()
            for r in range(n_out.value):
                self._lib.tcc_release(ctypes.byref(outs[r]))
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


def _torch_dtype(code: int):
    import torch
    return {0: torch.float32, 1: torch.float64, 2: torch.float16,
            3: torch.bfloat16, 4: torch.bool, 5: torch.int8, 6: torch.int32,
            7: torch.int64, 8: torch.int16, 9: torch.uint8, 10: torch.uint16,
            11: torch.uint32, 12: torch.uint64}[code]


def _device_input(i, x):
    """(dense CUDA tensor, tcc_dtype code) for a cuda library's input."""
    import torch
    if not isinstance(x, torch.Tensor):
        x = torch.from_numpy(np.ascontiguousarray(_to_numpy(x)))
    x = x.detach()
    if not x.is_cuda:
        x = x.cuda()
    x = x.contiguous()
    codes = {torch.float32: 0, torch.float64: 1, torch.float16: 2,
             torch.bfloat16: 3, torch.bool: 4, torch.int8: 5, torch.int32: 6,
             torch.int64: 7, torch.int16: 8, torch.uint8: 9,
             torch.uint16: 10, torch.uint32: 11, torch.uint64: 12}
    if x.dtype not in codes:
        raise TCCError(f"input {i}: element type {x.dtype} not supported by "
                       "tcc")
    return x, codes[x.dtype]


def _library_input(i, x):
    """(dense numpy array, tcc_dtype code) for a library input; torch bf16
    tensors go as their bits."""
    if getattr(x, "dtype", None) is not None and str(x.dtype) == "torch.bfloat16":
        import torch
        bits = x.detach().cpu().contiguous().view(torch.int16).numpy()
        return bits.view(np.uint16), 3
    a = np.ascontiguousarray(_to_numpy(x))
    if a.dtype not in _DTYPES:
        raise TCCError(f"input {i}: element type {a.dtype} not supported by "
                       "tcc")
    return a, _DTYPES[a.dtype]


def _to_numpy(x):
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor
        return x.detach().cpu().numpy()
    return np.asarray(x)


def load_library(path: str | os.PathLike) -> Library:
    """Loads a library built by tcc-compile or build_library."""
    return Library(path)
