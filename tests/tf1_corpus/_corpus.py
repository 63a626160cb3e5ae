"""The differential TF1 corpus: run a TF1 program, encode and compare its results.

Each program in ``programs/`` is a TF1 script as a tutorial would write it,
starting with ``import tensorflow.compat.v1 as tf`` (or ``import tensorflow as
tf``) and ``tf.disable_eager_execution()``. It stores what it wants checked in
a module-level dict ``RESULTS`` (name -> value: whatever ``sess.run`` returned,
a dtype name, a shape list, an error class name, ...). It may set
``TOLERANCE = {"rtol": ..., "atol": ...}`` for floating-point values.

``record_goldens.py`` runs the programs under real TensorFlow (no jaxsess) and
writes ``goldens/<program>.json``; ``tests/test_tf1_corpus.py`` runs them with
the import swapped to jaxsess (no TensorFlow) and compares strictly: Python
type, NumPy dtype, shape and value.

This module imports neither TensorFlow nor jaxsess.
"""

from __future__ import annotations

import base64
import json
import math
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
GOLDENS = HERE / "goldens"

DEFAULT_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

_TF_IMPORTS = {
    "import tensorflow.compat.v1 as tf": "import jaxsess.compat.v1 as tf",
    "import tensorflow as tf": "import jaxsess as tf",
}


def program_names() -> list[str]:
    return sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))


def source(name: str, *, swap_to_jaxsess: bool) -> str:
    text = (PROGRAMS / f"{name}.py").read_text(encoding="utf-8")
    if swap_to_jaxsess:
        for tf_line, ours in _TF_IMPORTS.items():
            text = re.sub(rf"^{re.escape(tf_line)}\s*$", ours, text, flags=re.M)
    return text


def run_program(name: str, *, swap_to_jaxsess: bool) -> dict[str, Any]:
    """Executes one program in a fresh namespace; returns (RESULTS, TOLERANCE)."""
    ns: dict[str, Any] = {"__name__": "__main__", "__file__": str(PROGRAMS / f"{name}.py")}
    code = compile(source(name, swap_to_jaxsess=swap_to_jaxsess), str(PROGRAMS / f"{name}.py"), "exec")
    with warnings.catch_warnings():
        # The deprecation warnings TF itself gives a program (Keras' random_binomial, ...) are
        # not failures of the program (the suite turns other warnings into errors).
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            exec(code, ns)
        finally:  # a program's disable_v2_behavior() does not outlive it (each TF program runs in a fresh process)
            compat_module = sys.modules.get("jaxsess._tf1._compat")
            if compat_module is not None:
                compat_module.enable_v2_behavior()
    results = ns.get("RESULTS")
    if not isinstance(results, dict) or not results:
        raise AssertionError(f"program {name} left no RESULTS")
    return {"results": results, "tolerance": ns.get("TOLERANCE", DEFAULT_TOLERANCE)}


def _float(x: float) -> Any:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _unfloat(x: Any) -> float:
    return float(x) if isinstance(x, str) else x


def encode(value: Any) -> Any:
    """A JSON-able description of ``value`` that keeps its type and dtype."""
    if isinstance(value, np.ndarray):
        kind = value.dtype.kind
        if kind in "OSU":
            data: Any = [_enc_obj(v) for v in value.ravel().tolist()]
        elif kind in "fc":
            flat = value.ravel()
            if kind == "c":
                data = [[_float(v.real), _float(v.imag)] for v in flat.tolist()]
            else:
                data = [_float(float(v)) for v in flat.astype(np.float64).tolist()]
        else:
            data = value.ravel().tolist()
        return {"type": "ndarray", "dtype": value.dtype.name, "shape": list(value.shape), "data": data}
    if isinstance(value, np.generic):
        return {"type": "npscalar", "dtype": value.dtype.name, "data": encode(np.asarray(value))["data"][0]}
    if isinstance(value, bool):
        return {"type": "bool", "data": value}
    if isinstance(value, int):
        return {"type": "int", "data": value}
    if isinstance(value, float):
        return {"type": "float", "data": _float(value)}
    if isinstance(value, str):
        return {"type": "str", "data": value}
    if isinstance(value, bytes):
        return {"type": "bytes", "data": base64.b64encode(value).decode("ascii")}
    if value is None:
        return {"type": "none"}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"type": "namedtuple", "name": type(value).__name__,
                "data": {f: encode(getattr(value, f)) for f in value._fields}}
    if isinstance(value, (list, tuple)):
        return {"type": type(value).__name__, "data": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"type": "dict", "data": {str(k): encode(v) for k, v in value.items()}}
    raise TypeError(f"cannot encode result of type {type(value).__module__}.{type(value).__name__}: {value!r}")


def _enc_obj(v: Any) -> Any:
    if isinstance(v, bytes):
        return {"bytes": base64.b64encode(v).decode("ascii")}
    return {"str": str(v)}


def dumps(results: dict[str, Any], meta: dict[str, Any]) -> str:
    return json.dumps({"meta": meta, "results": {k: encode(v) for k, v in results.items()}}, indent=1, sort_keys=True) + "\n"


def load_golden(name: str) -> dict[str, Any]:
    path = GOLDENS / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def compare(path: str, golden: Any, actual: Any, tol: dict[str, float]) -> list[str]:
    """Differences between an encoded golden and an actual value, as messages."""
    errs: list[str] = []
    got = encode(actual) if not _is_encoded(actual) else actual
    if golden["type"] != got["type"]:
        return [f"{path}: type {got['type']} ({type(actual).__name__}), TF gives {golden['type']}"]
    kind = golden["type"]
    if kind in ("ndarray", "npscalar"):
        if golden["dtype"] != got["dtype"]:
            errs.append(f"{path}: dtype {got['dtype']}, TF gives {golden['dtype']}")
        if kind == "ndarray" and golden["shape"] != got["shape"]:
            return errs + [f"{path}: shape {got['shape']}, TF gives {golden['shape']}"]
        g = golden["data"] if kind == "ndarray" else [golden["data"]]
        a = got["data"] if kind == "ndarray" else [got["data"]]
        dt = np.dtype(golden["dtype"]) if golden["dtype"] not in ("object",) else np.dtype(object)
        if dt.kind in "fc":
            ga = np.asarray([_unfloat_c(v) for v in g], dtype=np.complex128 if dt.kind == "c" else np.float64)
            aa = np.asarray([_unfloat_c(v) for v in a], dtype=np.complex128 if dt.kind == "c" else np.float64)
            if not np.allclose(aa, ga, rtol=tol["rtol"], atol=tol["atol"], equal_nan=True):
                worst = float(np.max(np.abs(aa - ga))) if aa.size else 0.0
                errs.append(f"{path}: values differ (max abs diff {worst:g}; rtol={tol['rtol']}, atol={tol['atol']})\n"
                            f"  got {aa.tolist()[:8]}\n  TF  {ga.tolist()[:8]}")
        elif g != a:
            errs.append(f"{path}: values {a[:8]}, TF gives {g[:8]}")
        return errs
    if kind == "float":
        gv, av = _unfloat(golden["data"]), _unfloat(got["data"])
        if not np.allclose(av, gv, rtol=tol["rtol"], atol=tol["atol"], equal_nan=True):
            errs.append(f"{path}: {av}, TF gives {gv}")
        return errs
    if kind in ("bool", "int", "str", "bytes", "none"):
        if golden.get("data") != got.get("data"):
            errs.append(f"{path}: {got.get('data')!r}, TF gives {golden.get('data')!r}")
        return errs
    if kind in ("list", "tuple"):
        if len(golden["data"]) != len(got["data"]):
            return [f"{path}: {kind} of length {len(got['data'])}, TF gives {len(golden['data'])}"]
        for i, (g, a) in enumerate(zip(golden["data"], got["data"])):
            errs += compare(f"{path}[{i}]", g, a, tol)
        return errs
    if kind in ("dict", "namedtuple"):
        if sorted(golden["data"]) != sorted(got["data"]):
            return [f"{path}: keys {sorted(got['data'])}, TF gives {sorted(golden['data'])}"]
        if kind == "namedtuple" and golden["name"] != got["name"]:
            errs.append(f"{path}: namedtuple {got['name']}, TF gives {golden['name']}")
        for k in golden["data"]:
            errs += compare(f"{path}.{k}", golden["data"][k], got["data"][k], tol)
        return errs
    raise AssertionError(f"{path}: unknown golden type {kind}")


def _unfloat_c(v: Any) -> Any:
    if isinstance(v, list):
        return complex(_unfloat(v[0]), _unfloat(v[1]))
    return _unfloat(v)


def _is_encoded(x: Any) -> bool:
    return isinstance(x, dict) and "type" in x and set(x) <= {"type", "dtype", "shape", "data", "name"}
