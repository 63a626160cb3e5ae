"""Frozen Keras applications written by real TF, run by jaxsess and by TF: steps/s and first call.

Models (``tf_keras.applications``, random weights, batch 8, 224×224×3; ``--quick``: batch 1,
96×96): ``resnet50``, ``mobilenetv2``, ``efficientnetb0``, and ``lstm`` (a Keras LSTM(64)
over 16 steps of 8 features, unrolled: TF's loop form freezes into TensorList ops of
``DT_VARIANT`` that jaxsess does not import yet; then Dense(10)). Each is frozen by TF at bench time
(``convert_variables_to_constants_v2`` of the model's concrete function) into a GraphDef
``.pb`` in ``--artifacts`` (default: a temporary directory).

Candidates:

* ``jaxsess``: ``import_graph_def`` of the ``.pb`` in a ``jaxsess`` graph ``Session``;
* ``tf``: TF 2.21's ``tf.compat.v1.Session`` on the same GraphDef;
* ``tfxla``: the same with XLA auto-clustering (``global_jit_level = ON_1``,
  ``TF_XLA_FLAGS=--tf_xla_cpu_global_jit``);
* ``onnxruntime``: via ``tf2onnx``, where both are installed in TF's interpreter (else
  skipped, saying so).

TF runs in a child process (``--tf-python``, default this interpreter when it has
``tensorflow``) that writes the artifacts, then runs timing blocks on request, so that all
candidates interleave. Printed per model: median ms per batch [min–max], the ratios
(> 1: jaxsess faster), and first-call seconds (graph import + first run; TF's in its child,
jaxsess's here, both after their libraries are imported; jaxsess's persistent compilation
cache is pointed at an empty directory so that the figure is a cold compile), with
jaxsess's ``import_graph_def`` alone in milliseconds a node. Without
TensorFlow there is nothing to import: the script says so and exits 0.

Usage: ``python benchmarks/bench_models.py [--quick] [--models mobilenetv2,resnet50]
[--tf-python PATH] [--no-xla] [--artifacts DIR]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from _tf_child import TFChild, serve, tf_python

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODELS = ["resnet50", "mobilenetv2", "efficientnetb0", "lstm"]


def sizes(quick: bool) -> tuple[int, int]:
    """(batch, image side)."""
    return (1, 96) if quick else (8, 224)


def input_shape(model: str, quick: bool) -> tuple[int, ...]:
    batch, side = sizes(quick)
    return (batch, 16, 8) if model == "lstm" else (batch, side, side, 3)


def input_value(model: str, quick: bool) -> Any:
    import numpy as np

    return np.random.RandomState(0).uniform(0.0, 1.0, input_shape(model, quick)).astype(np.float32)


# -- the TF child -------------------------------------------------------------------------


def freeze(model: str, quick: bool, path: str) -> dict[str, str]:
    """Writes ``model`` frozen to ``path``; its input and output tensor names."""
    import tensorflow as tf  # type: ignore[import-not-found,unused-ignore]
    import tf_keras as keras  # type: ignore[import-not-found,unused-ignore]
    from tensorflow.python.framework.convert_to_constants import (  # type: ignore[import-not-found,unused-ignore]
        convert_variables_to_constants_v2,
    )

    shape = input_shape(model, quick)
    keras.utils.set_random_seed(0)
    if model == "lstm":
        m = keras.Sequential([keras.Input(shape[1:]), keras.layers.LSTM(64, unroll=True),
                              keras.layers.Dense(10)])
    else:
        ctor = {"resnet50": keras.applications.ResNet50, "mobilenetv2": keras.applications.MobileNetV2,
                "efficientnetb0": keras.applications.EfficientNetB0}[model]
        m = ctor(weights=None, input_shape=shape[1:])
    fn = tf.function(lambda x: m(x, training=False)).get_concrete_function(tf.TensorSpec(shape, tf.float32))
    frozen = convert_variables_to_constants_v2(fn)
    with open(path, "wb") as f:
        f.write(frozen.graph.as_graph_def().SerializeToString())
    return {"input": frozen.inputs[0].name, "output": frozen.outputs[0].name}


class TFRunner:
    """A frozen GraphDef in a TF1 session (``xla``: auto-clustered)."""

    def __init__(self, path: str, names: dict[str, str], value: Any, xla: bool) -> None:
        import tensorflow.compat.v1 as tf1  # type: ignore[import-not-found,unused-ignore]

        gd = tf1.GraphDef.FromString(open(path, "rb").read())
        g = tf1.Graph()
        t0 = time.perf_counter()
        with g.as_default():
            self.x, self.y = tf1.import_graph_def(gd, return_elements=[names["input"], names["output"]], name="")
        config = tf1.ConfigProto()
        if xla:
            config.graph_options.optimizer_options.global_jit_level = tf1.OptimizerOptions.ON_1
        self.sess = tf1.Session(graph=g, config=config)
        self.value = value
        self.out = self.sess.run(self.y, {self.x: value})
        self.first_s = time.perf_counter() - t0

    def block(self, calls: int) -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            self.sess.run(self.y, {self.x: self.value})
        return (time.perf_counter() - t0) / calls


class OnnxRunner:
    def __init__(self, path: str, names: dict[str, str], value: Any) -> None:
        import onnxruntime as ort  # type: ignore[import-not-found,unused-ignore]
        import tensorflow.compat.v1 as tf1  # type: ignore[import-not-found,unused-ignore]
        import tf2onnx  # type: ignore[import-not-found,unused-ignore]

        gd = tf1.GraphDef.FromString(open(path, "rb").read())
        t0 = time.perf_counter()
        proto, _ = tf2onnx.convert.from_graph_def(gd, input_names=[names["input"]], output_names=[names["output"]])
        self.sess = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
        self.feed = {self.sess.get_inputs()[0].name: value}
        self.sess.run(None, self.feed)
        self.first_s = time.perf_counter() - t0

    def block(self, calls: int) -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            self.sess.run(None, self.feed)
        return (time.perf_counter() - t0) / calls


def tf_child(artifacts: str, models: list[str], quick: bool, xla: bool) -> None:
    """Writes the artifacts, then answers ``kind model calls`` lines with seconds per call."""
    import tensorflow as tf  # type: ignore[import-not-found,unused-ignore]

    runners: dict[tuple[str, str], Any] = {}
    info: dict[str, Any] = {"tensorflow": tf.__version__, "models": {}, "skipped": {}}
    onnx = importlib.util.find_spec("tf2onnx") is not None and importlib.util.find_spec("onnxruntime") is not None
    info["onnx"] = "" if onnx else "tf2onnx/onnxruntime not installed with TF"
    for model in models:
        path = os.path.join(artifacts, f"{model}.pb")
        try:
            names = freeze(model, quick, path)
        except Exception as e:  # a model TF cannot freeze here: say so, go on
            info["skipped"][model] = f"TF could not freeze it: {type(e).__name__}: {str(e)[:200]}"
            continue
        value = input_value(model, quick)
        first = {}
        for kind in ["tf"] + (["tfxla"] if xla else []):
            runners[(kind, model)] = TFRunner(path, names, value, xla=kind == "tfxla")
            first[kind] = runners[(kind, model)].first_s
        if onnx:
            try:
                runners[("onnxruntime", model)] = OnnxRunner(path, names, value)
                first["onnxruntime"] = runners[("onnxruntime", model)].first_s
            except Exception as e:
                first["onnxruntime_error"] = f"{type(e).__name__}: {str(e)[:200]}"
        info["models"][model] = {"path": path, **names, "first_s": first,
                                 "tf_output": runners[("tf", model)].out.tolist()}
    serve(info, lambda kind, model, calls: runners[(kind, model)].block(int(calls)))


# -- the parent: jaxsess, and the TF child driven over a pipe ----------------------------------


def start_tf_child(python: str, artifacts: str, models: list[str], quick: bool, xla: bool) -> TFChild:
    """The TF child of this benchmark (legacy Keras; XLA auto-clustering on CPU when ``xla``)."""
    env = dict(os.environ)
    env["TF_USE_LEGACY_KERAS"] = "1"
    if xla:
        env["TF_XLA_FLAGS"] = (env.get("TF_XLA_FLAGS", "") + " --tf_xla_cpu_global_jit").strip()
    cmd = [python, os.path.abspath(__file__), "--tf-child", artifacts, "--models", ",".join(models)]
    cmd += (["--quick"] if quick else []) + ([] if xla else ["--no-xla"])
    return TFChild(cmd, env, close_timeout_s=120)


class JaxsessRunner:
    def __init__(self, tf: Any, path: str, names: dict[str, str], value: Any) -> None:
        gd = tf.GraphDef.FromString(open(path, "rb").read())
        g = tf.Graph()
        t0 = time.perf_counter()
        with g.as_default():
            self.x, self.y = tf.import_graph_def(gd, return_elements=[names["input"], names["output"]], name="")
        self.import_ms_per_node = (time.perf_counter() - t0) * 1e3 / max(1, len(gd.node))
        self.sess = tf.Session(graph=g)
        self.value = value
        self.out = self.sess.run(self.y, {self.x: value})
        self.first_s = time.perf_counter() - t0

    def block(self, calls: int) -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            self.sess.run(self.y, {self.x: self.value})
        return (time.perf_counter() - t0) / calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small inputs, few blocks")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--tf-python", default=None)
    ap.add_argument("--no-xla", action="store_true", help="leave out TF with XLA auto-clustering")
    ap.add_argument("--artifacts", default=None, help="where TF writes the frozen .pb files (default: a temp dir)")
    ap.add_argument("--tf-child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    if args.tf_child:
        tf_child(args.tf_child, models, args.quick, not args.no_xla)
        return
    python, why = tf_python(args.tf_python)
    load = os.getloadavg()[0]
    if python is None:
        print(f"# bench_models: skipped: {why}; the models are written by TF at bench time (load average {load:.1f})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        artifacts = args.artifacts or tmp
        os.makedirs(artifacts, exist_ok=True)
        os.environ["JAXSESS_COMPILATION_CACHE_DIR"] = os.path.join(tmp, "xla-cache")  # cold first calls
        tfc = start_tf_child(python, artifacts, models, args.quick, not args.no_xla)
        import jax
        import jaxsess.compat.v1 as tfj
        import numpy as np

        info = tfc.info
        print(f"# bench_models: {os.cpu_count()} CPUs, jax {jax.__version__}, tensorflow {info['tensorflow']}, "
              f"load average {load:.1f}{', quick run' if args.quick else ''}; batch, side = {sizes(args.quick)}"
              + (f"; onnxruntime: skipped ({info['onnx']})" if info["onnx"] else ""))
        print("# ms per batch, median [min-max] over interleaved blocks; ratios of medians (> 1: jaxsess faster); "
              "first call: import_graph_def + first run, seconds")
        for model in models:
            if model in info["skipped"]:
                print(f"{model:15s} skipped: {info['skipped'][model]}")
                continue
            m = info["models"][model]
            value = input_value(model, args.quick)
            try:
                ours = JaxsessRunner(tfj, m["path"], m, value)
            except Exception as e:
                print(f"{model:15s} jaxsess cannot run it: {type(e).__name__}: {str(e)[:300]}")
                continue
            err = float(np.max(np.abs(np.asarray(ours.out) - np.asarray(m["tf_output"]))))
            kinds = ["jaxsess", "tf"] + [k for k in ("tfxla", "onnxruntime") if k in m["first_s"]]
            slowest = max(ours.block(1), tfc.block("tf", model, 1))
            calls = max(1, min(50, int((0.2 if args.quick else 1.0) / slowest)))
            repeats = args.repeats or (2 if args.quick else 7)
            times: dict[str, list[float]] = {k: [] for k in kinds}
            for r in range(repeats):
                for k in kinds[r % len(kinds):] + kinds[:r % len(kinds)]:
                    time.sleep(0.05)
                    times[k].append(ours.block(calls) if k == "jaxsess" else tfc.block(k, model, calls))
            ours.sess.close()
            med = {k: statistics.median(v) for k, v in times.items()}
            cols = "  ".join(f"{k} {med[k] * 1e3:8.1f} [{min(v) * 1e3:.0f}-{max(v) * 1e3:.0f}]"
                             for k, v in times.items())
            ratios = "  ".join(f"{k}/jaxsess {med[k] / med['jaxsess']:.2f}" for k in kinds[1:])
            firsts = "  ".join([f"jaxsess {ours.first_s:.1f}"]
                               + [f"{k} {v:.1f}" for k, v in m["first_s"].items() if isinstance(v, float)])
            print(f"{model:15s} {cols}\n{'':15s} ratios: {ratios}\n{'':15s} first call s: {firsts}  "
                  f"(jaxsess's import_graph_def {ours.import_ms_per_node:.2f} ms a node; "
                  f"max |jaxsess - tf| of the outputs {err:.1e})", flush=True)
        tfc.close()
    print(f"# load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
