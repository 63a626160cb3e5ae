"""Which of the TF model fixtures the peers load and match: tf2jax, and tf2onnx + ONNX Runtime.

Run in a venv with ``tensorflow-cpu==2.21.0 tf_keras tf2jax tf2onnx onnxruntime``::

    python -m venv /work/peersvenv
    /work/peersvenv/bin/pip install tensorflow-cpu==2.21.0 tf_keras tf2jax tf2onnx onnxruntime
    /work/peersvenv/bin/python tests/tf_oracle/peers_side_by_side.py [--out peers.json]

For each model of ``tests/fixtures/tf_models/models.json`` it converts the
artifact the way each peer's documentation says (tf2jax: ``convert`` of the
TF function; tf2onnx: ``from_graph_def`` / ``from_function`` / ``from_keras``,
opset 17, run by ``onnxruntime``), runs TF's fixed input and compares with
TF's goldens with the model's tolerance (``tests/tf_models_runner.rel_err``).
Prints a markdown table (``yes`` / ``no: why``) and writes it as JSON.
The training graph row asks for the forward pass only (neither peer runs a
TF1 ``train_op``); the Keras rows convert the model that ``tf_keras`` loads.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ["JAX_PLATFORMS"] = "cpu"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tf_models_runner import FIXTURES, rel_err  # noqa: E402

v1 = tf.compat.v1
_KEEP: list[Any] = []  # loaded objects whose variables the converted functions read


def _graph_def(path: Path) -> Any:
    gd = tf.compat.v1.GraphDef()
    if path.suffix == ".pbtxt":
        from google.protobuf import text_format
        text_format.Parse(path.read_text(), gd)
    else:
        gd.ParseFromString(path.read_bytes())
    return gd


def _frozen_function(gd: Any, feeds: list[str], fetches: list[str]) -> Any:
    wrapped = v1.wrap_function(lambda: v1.import_graph_def(gd, name=""), [])
    g = wrapped.graph
    return wrapped.prune([g.as_graph_element(f) for f in feeds], [g.as_graph_element(f) for f in fetches])


def _case(entry: dict[str, Any], base: Path, goldens: dict[str, np.ndarray]) -> tuple[Any, list[np.ndarray], list[np.ndarray]]:
    """(a TF function, its positional inputs, TF's outputs in order)."""
    kind = entry["kind"]
    if kind == "frozen":
        fn = _frozen_function(_graph_def(base / entry["file"]), list(entry["feeds"]), entry["fetches"])
        ins = [goldens[v] for v in entry["feeds"].values()]
        return fn, ins, [goldens[f"out{i}"] for i in range(len(entry["fetches"]))]
    if kind == "meta_train":
        wrapped = v1.wrap_function(lambda: [v1.train.import_meta_graph(str(base / entry["meta"]))][:0], [])
        g = wrapped.graph
        fn = wrapped.prune([g.as_graph_element("x:0")], [g.as_graph_element(entry["logits"])])
        # the restored variables: the checkpoint's values assigned into the wrapped graph's variables
        reader = tf.train.load_checkpoint(str(base / entry["checkpoint"]))
        for v in wrapped.variables:
            v.assign(reader.get_tensor(v.name.split(":")[0]))
        return fn, [goldens["x"]], [None]  # type: ignore[list-item]
    if kind == "saved_model_tf1":
        loaded = tf.saved_model.load(str(base / entry["file"]), tags=entry["tags"])
        _KEEP.append(loaded)
        fn = loaded.signatures[entry["signature"]]
        return _keyword(fn, entry["inputs"], entry["outputs"]), [goldens[k] for k in entry["inputs"]], \
            [goldens[k] for k in entry["outputs"]]
    if kind == "saved_model_tf2":
        loaded = tf.saved_model.load(str(base / entry["file"]))
        _KEEP.append(loaded)
        fn = loaded.signatures[entry["signature"]]
        return _keyword(fn, entry["inputs"], entry["outputs"]), [goldens[k] for k in entry["inputs"]], \
            [goldens[k] for k in entry["outputs"]]
    if kind == "keras":
        import tf_keras as keras

        model = keras.models.load_model(str(base / entry["file"]))
        _KEEP.append(model)
        fn = tf.function(lambda x: model(x, training=False))
        return fn, [goldens["input"]], [goldens["out0"]]
    raise ValueError(kind)


def _keyword(fn: Any, inputs: list[str], outputs: list[str]) -> Any:
    spec = [tf.TensorSpec(fn.structured_input_signature[1][k].shape, fn.structured_input_signature[1][k].dtype, name=k)
            for k in inputs]

    @tf.function(input_signature=spec)
    def positional(*args: Any) -> Any:
        out = fn(**dict(zip(inputs, args, strict=True)))
        return [out[k] for k in outputs]

    return positional


def _spec(ins: list[np.ndarray]) -> list[Any]:
    return [tf.TensorSpec((None, *x.shape[1:]), x.dtype, name=f"in{i}") for i, x in enumerate(ins)]


def _as_tf_function(fn: Any, ins: list[np.ndarray]) -> Any:
    """A ``tf.function`` with an input signature calling ``fn`` (what both peers convert)."""
    return tf.function(lambda *a: fn(*a), input_signature=_spec(ins))


def run_tf2jax(fn: Any, ins: list[np.ndarray], entry: dict[str, Any]) -> list[np.ndarray]:
    import jax
    import tf2jax

    jax_fn, params = tf2jax.convert(_as_tf_function(fn, ins), *[np.zeros_like(x) for x in ins])
    out = jax.jit(jax_fn)(params, *ins)
    return [np.asarray(o) for o in jax.tree_util.tree_leaves(out)]


def run_ort(fn: Any, ins: list[np.ndarray], entry: dict[str, Any]) -> list[np.ndarray]:
    import onnxruntime as ort
    import tf2onnx

    if entry["kind"] == "frozen":  # tf2onnx's documented way for a frozen graph
        model, _ = tf2onnx.convert.from_graph_def(_graph_def(FIXTURES / entry["file"]), input_names=list(entry["feeds"]),
                                                  output_names=entry["fetches"], opset=17)
    else:
        model, _ = tf2onnx.convert.from_function(_as_tf_function(fn, ins), input_signature=_spec(ins), opset=17)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    return [np.asarray(o) for o in sess.run(None, dict(zip(names, ins, strict=True)))]


def judge(got: list[np.ndarray], want: list[Any], rtol: float) -> str:
    pairs = [(g, w) for g, w in zip(got, want, strict=False) if w is not None]
    if len(got) < len([w for w in want if w is not None]):
        return f"no: {len(got)} outputs, TF has {len(want)}"
    errs = [rel_err(g, w) for g, w in pairs]
    worst = max(errs) if errs else 0.0
    return "yes" if worst <= rtol else f"no: differs (max rel {worst:.1e})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(FIXTURES / "peers.json"))
    p.add_argument("--only", default="")
    args = p.parse_args()
    manifest = json.loads((FIXTURES / "models.json").read_text())
    rows = []
    for entry in manifest["models"]:
        if args.only and entry["name"] not in args.only.split(","):
            continue
        goldens = dict(np.load(FIXTURES / f"{entry['name']}.npz"))
        row = {"name": entry["name"], "kind": entry["kind"]}
        try:
            fn, ins, want = _case(entry, FIXTURES, goldens)
            if entry["kind"] == "meta_train":
                want = [np.asarray(o) for o in tf.nest.flatten(fn(tf.constant(ins[0])))]  # the forward pass of the restored graph, by TF
        except Exception as e:  # noqa: BLE001
            if os.environ.get("PEERS_TRACEBACK"):
                traceback.print_exc()
            row["tf2jax"] = row["onnxruntime"] = f"no: TF could not build it ({type(e).__name__})"
            rows.append(row)
            continue
        for peer, run in (("tf2jax", run_tf2jax), ("onnxruntime", run_ort)):
            try:
                row[peer] = judge(run(fn, ins, entry), want, entry["rtol"])
            except Exception as e:  # noqa: BLE001 - the table records why
                msg = str(e).strip().splitlines()
                row[peer] = f"no: {type(e).__name__}: {(msg[0] if msg else '')[:160]}"
                if os.environ.get("PEERS_TRACEBACK"):
                    traceback.print_exc()
        print(json.dumps(row), flush=True)
        rows.append(row)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    print("| model | tf2jax | tf2onnx + ONNX Runtime |\n|---|---|---|")
    for r in rows:
        print(f"| {r['name']} | {r['tf2jax']} | {r['onnxruntime']} |")


if __name__ == "__main__":
    main()
