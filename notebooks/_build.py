"""Writes the example notebooks from the cells below, executed, with their outputs.

    python notebooks/_build.py              # (re)write and execute notebooks/*.ipynb
    python notebooks/_build.py --no-execute # (re)write them without outputs
    python notebooks/_build.py --check      # exit 1 if a notebook's cells differ from this script

Edit the cells here, not the ``.ipynb`` files: the notebooks in the repository
are this script's output (stable cell ids), executed top to bottom in a fresh
``python3`` kernel so that a reader on the web sees the tables and plots.
``tests/test_notebooks.py`` checks that their cells match this script, that
they have outputs, and runs them again, comparing the structure of the outputs.
Execution needs ``nbclient``, ``ipykernel`` and ``matplotlib``; graph pictures
need graphviz's ``dot`` (without it the notebooks say so instead).
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import nbclient
import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CELL_TIMEOUT_S = 120

Cell = tuple[str, str]  # ("md" | "code", source)


def md(text: str) -> Cell:
    return ("md", textwrap.dedent(text).strip())


def code(text: str) -> Cell:
    return ("code", textwrap.dedent(text).strip())


QUICKSTART: list[Cell] = [
    md(
        """
        # Quick start: TF1 sessions on JAX

        `import jaxsess as tf` gives TF1's graph API — graphs, placeholders, variables,
        `Session.run` — lowered to one jitted XLA function per fetch signature. What
        `run` returns is TF1's: NumPy host values that are **yours** and outlive the
        session. What lives on the device — variables, random state, intermediates, and
        the `jax.Array`s `run` returns when you ask for device fetches
        (`Session(device_fetches=True)`) — is **owned** by the session: deleted when its
        cleanup strategy says so, and at the latest when the session closes.

        `%load_ext jaxsess.ipython` installs the notebook displays (sessions, stats and
        graphs render as tables and pictures) and the `%jaxsess_stats` and
        `%%jaxsess_eager` magics.
        """
    ),
    code(
        """
        import numpy as np

        import jaxsess as tf

        %load_ext jaxsess.ipython
        tf.reset_default_graph()  # a clean default graph, also when the notebook is re-run
        """
    ),
    md(
        """
        ## The classic example

        Building the graph computes nothing: `result` is a symbolic tensor.
        """
    ),
    code(
        """
        a = tf.constant([1.0, 2.0], name="a")
        b = tf.constant([2.0, 3.0], name="b")
        result = a + b
        result
        """
    ),
    md("A `Session` runs it. `eval()` uses the default session, `run` the one you call."),
    code(
        """
        sess = tf.Session()
        print(sess.run(result))  # [3. 5.]
        with sess.as_default():
            print(result.eval())
        print(result.eval(session=sess))
        sess.close()
        """
    ),
    md(
        """
        ## What `run` returns: host values, yours

        As in TF1, `run` and `eval` return NumPy values (`ndarray`, a 0-d result as a
        NumPy scalar) that belong to you and outlive the session. The session owns what
        stays on the device: variables, intermediates, random state. For accelerator
        loops that feed a result back into the next run, `Session(device_fetches=True)`
        (or `make_callable(..., device_fetches=True)`) returns `jax.Array`s instead,
        owned by the session and deleted when it closes.
        """
    ),
    code(
        """
        with tf.Session() as sess:
            value = sess.run(result)  # a NumPy array: yours
            print(type(value).__name__, value, sess.stats().live_buffers, "live buffer(s)")
        print("after close:", value + 1)
        with tf.Session(device_fetches=True) as sess:
            on_device = sess.run(result)  # a jax.Array owned by the session
            print(type(on_device).__name__, sess.owns(on_device))
        print("device fetch deleted at close:", on_device.is_deleted())
        """
    ),
    md(
        """
        ## `InteractiveSession`

        As in TF1, an `InteractiveSession` installs itself as the default session, so
        `eval()` needs no `with` — handy in notebooks. Displaying a session shows what it
        owns: its strategy, live buffers and bytes, the peak, and a per-device table.
        """
    ),
    code(
        """
        sess = tf.InteractiveSession()
        print(result.eval())
        sess
        """
    ),
    code(
        """
        %jaxsess_stats
        """
    ),
    code(
        """
        sess.close()
        sess
        """
    ),
    md(
        """
        ## `ConfigProto`: soft placement and placement logging

        Ops pinned to a GPU that is not there run on the CPU with
        `allow_soft_placement=True`; `log_device_placement=True` prints where each op of
        a run was placed (on stderr, as TF1).
        """
    ),
    code(
        """
        with tf.device("/device:GPU:0"):
            scaled = result * 2.0
        config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True)
        with tf.Session(config=config) as sess:
            print(sess.run(scaled))
        """
    ),
    md(
        """
        ## Looking at the graph

        A graph displays as a summary (op count, ops by type, its first ops) with a
        picture drawn by graphviz; `visualize()` returns the `graphviz.Digraph` itself.
        Name scopes become boxes (`visualize(max_depth=0)` folds each into one node).
        """
    ),
    code(
        """
        with tf.name_scope("normalize"):
            total = tf.reduce_sum(result)
            normalized = result / total
        tf.get_default_graph()
        """
    ),
    code(
        """
        try:
            picture = tf.get_default_graph().visualize(rankdir="LR")
        except (ImportError, RuntimeError) as missing:  # graphviz is not installed
            picture = None
            print(missing)
        picture
        """
    ),
]


MEMORY: list[Cell] = [
    md(
        """
        # Memory: the three cleanup strategies

        A session owns every array it produces and deletes whatever it still owns at
        `close()`, even arrays your code still references. Before that, the strategy —
        TensorFlow Java's `EagerSession.ResourceCleanupStrategy` — decides how it holds
        them:

        | strategy | the session holds its arrays | freed before `close()` |
        | --- | --- | --- |
        | `IN_BACKGROUND` (default) | by weak reference | the moment your code drops the last reference, as in plain JAX; a cleaner thread handles reference cycles and bookkeeping |
        | `ON_SAFE_POINTS` | by weak reference | the same; cycles and bookkeeping at the next call into the library |
        | `ON_SESSION_CLOSE` | by strong reference | nothing |

        TF Java's strategies once timed the release of what Java's garbage collector had
        found unreachable; it moved on to weak references plus `close()`. In CPython an
        array is freed the moment its last reference goes, so a session holding its arrays
        weakly never keeps memory plain JAX would have freed.
        """
    ),
    code(
        """
        import gc

        import jax
        import jax.numpy as jnp
        import matplotlib.pyplot as plt

        import jaxsess
        from jaxsess import ResourceCleanupStrategy

        %matplotlib inline
        %load_ext jaxsess.ipython
        """
    ),
    md(
        """
        ## The n·m loop, against plain `jax.jit`

        A step produces `n` arrays; the loop runs it `m` times and keeps only the last
        step's outputs (`outs = step(x)`). After every step we record the bytes of every
        live array on the device (`jax.live_arrays()`), for plain `jax.jit` and for each
        strategy's `session.jit`.
        """
    ),
    code(
        """
        n, m = 4, 60
        size = 64 * 1024  # float32 elements: 256 KiB per output, 1 MiB per step
        x = jnp.ones((size,), jnp.float32)  # made outside any session: never deleted by one


        def live_mib_now():
            return sum(a.nbytes for a in jax.live_arrays() if not a.is_deleted()) / 2**20


        def fn(v):
            return tuple(v * (i + 1) for i in range(n))


        live_mib = {}
        sessions = {}
        for strategy in [None, *ResourceCleanupStrategy]:
            name = "plain jax.jit" if strategy is None else strategy.name
            session = None if strategy is None else jaxsess.EagerSession(cleanup=strategy)
            step = jax.jit(fn) if session is None else session.jit(fn)
            trace = []
            for it in range(m):
                outs = step(x)  # the previous step's outputs lose their last reference
                jax.block_until_ready(outs)
                trace.append(live_mib_now())
            del outs
            live_mib[name] = trace
            if session is not None:
                session.close()
                sessions[name] = session

        for name, trace in live_mib.items():
            print(f"{name:<17} device peak {max(trace):5.1f} MiB")
        for name, s in sessions.items():
            st = s.stats()
            print(f"{name:<17} peak {st.peak_bytes / 2**20:5.1f} MiB, freed {st.freed_buffers} buffers")
        """
    ),
    code(
        """
        fig, ax = plt.subplots(figsize=(7, 4))
        styles = {
            "plain jax.jit": dict(linestyle=":", color="black", linewidth=3),
            "IN_BACKGROUND": dict(linestyle="-", marker="o", markevery=6),
            "ON_SAFE_POINTS": dict(linestyle="--", marker="s", markevery=(3, 6)),
            "ON_SESSION_CLOSE": dict(linestyle="-", marker="^", markevery=6),
        }
        steps = range(1, m + 1)
        for name, trace in live_mib.items():
            ax.plot(steps, trace, label=name, **styles[name])
        ax.set_xlabel("iteration")
        ax.set_ylabel("live device MiB (jax.live_arrays)")
        ax.set_title(f"n·m loop: {n} outputs of 256 KiB per iteration")
        ax.legend()
        plt.show()
        """
    ),
    md(
        """
        `IN_BACKGROUND` and `ON_SAFE_POINTS` are plain JAX's line (they overlap it): one
        step's outputs plus the input. The session's own `peak_bytes` says 2 MiB — it
        counts the previous step's outputs, still named `outs` while the next step's are
        adopted, as the device holds them then. `ON_SESSION_CLOSE` holds all `n·m`
        buffers until `close()`: use it only for short-lived sessions. Whatever the
        strategy, the closed session owns nothing:
        """
    ),
    code(
        """
        sessions["ON_SESSION_CLOSE"]
        """
    ),
    md(
        """
        ## What holds memory

        `stats()` groups the owned live arrays by the function that made them, shape and
        dtype, the most bytes first (`stats().held`, also shown by `%jaxsess_stats`):
        """
    ),
    code(
        """
        s = jaxsess.EagerSession()


        def embedding(v):
            return jnp.tile(v, 4096)


        tables = [s.jit(embedding)(jnp.ones(64)) for _ in range(3)]
        logits = s.jit(lambda v: v @ v.T)(jnp.ones((8, 8)))
        for h in s.stats(top=3).held:
            print(f"{h.arrays} x {h.dtype}{list(h.shape)} from {h.producer}: {h.bytes / 2**20:.1f} MiB")
        s.close()
        """
    ),
    md(
        """
        ## `memory_limit_bytes`: buffers held by reference cycles

        Reference counting cannot see that an array held only by a cycle of objects is
        garbage; CPython's cycle collector finds it, but at a time of its own choosing.
        With `memory_limit_bytes`, a session whose owned live bytes pass the budget runs
        `gc.collect()` (in its cleaner thread, or at the next safe point). Below, every
        step leaves a 1 MiB output in a self-referencing dict. (The automatic collector is
        switched off during the demonstration, so that the picture does not depend on
        when it would have run.)
        """
    ),
    code(
        """
        def leaky_step(f, v):
            node = {"value": f(v)}
            node["self"] = node  # a cycle: the dict keeps itself, and the array, alive


        big = jnp.ones((256 * 1024,), jnp.float32)  # 1 MiB
        budget = 8 * 2**20
        cycle_mib = {}
        gc.disable()
        try:
            for limit in (None, budget):
                with jaxsess.EagerSession(cleanup="ON_SAFE_POINTS", memory_limit_bytes=limit) as session:
                    double = session.jit(lambda v: v * 2)
                    trace = []
                    for it in range(40):
                        leaky_step(double, big)
                        trace.append(session.stats().live_bytes / 2**20)
                label = "no limit" if limit is None else "memory_limit_bytes = 8 MiB"
                cycle_mib[label] = trace
        finally:
            gc.enable()

        fig, ax = plt.subplots(figsize=(7, 4))
        for label, trace in cycle_mib.items():
            ax.plot(range(1, 41), trace, label=label)
        ax.axhline(budget / 2**20, color="grey", linestyle=":", label="budget")
        ax.set_xlabel("iteration")
        ax.set_ylabel("owned live MiB")
        ax.set_title("1 MiB per iteration, reachable only through a reference cycle")
        ax.legend()
        plt.show()
        """
    ),
    md(
        """
        ## Notebooks keep what they display

        IPython stores every displayed result: `Out[n]` and `_n` hold cell `n`'s result,
        `_`, `__` and `___` the last three. An array that a cell displayed stays
        referenced after you drop your own names for it — plain JAX frees it only when the
        cache lets go (`%reset -f out`), and so does a session holding it weakly; closing
        the session deletes the array anyway, and `Out[n]` then holds a deleted array.
        (End a line with `;` to keep its result out of the cache.)
        """
    ),
    code(
        """
        s = jaxsess.EagerSession(cleanup="ON_SAFE_POINTS")
        double = s.jit(lambda v: v * 2)
        double(jnp.arange(4.0))  # displayed: the output cache now references it
        """
    ),
    code(
        """
        # We kept no name for it, but `_` and `Out` do: it is still alive.
        print("live buffers:", s.stats().live_buffers)
        s.close()
        print("deleted after close:", _.is_deleted())
        """
    ),
    md(
        """
        ## A cell in its own session: `%%jaxsess_eager`

        `%%jaxsess_eager` runs a cell inside a fresh `EagerSession` — op functions such
        as `jaxsess.square` execute at once — and closes it when the cell ends. It owns
        every array created while the cell runs, by whatever code (plain `jax.jit` and
        `jnp` included: it compares `jax.live_arrays()` before and after), and so frees
        them all except those reachable from the names given to `--keep`. `--cleanup`
        picks the strategy while the cell runs; `%jaxsess_stats` prints the current
        session's stats.
        """
    ),
    code(
        """
        %%jaxsess_eager --keep total --cleanup ON_SAFE_POINTS
        squares = jaxsess.square(jnp.arange(1000.0))
        shifted = jax.jit(lambda v: v + 1.0)(squares)  # plain JAX: owned by the cell too
        total = jaxsess.reduce_sum(shifted)
        %jaxsess_stats
        """
    ),
    code(
        """
        print(
            "total =", total, "| total deleted:", total.is_deleted(),
            "| squares deleted:", squares.is_deleted(), "| shifted deleted:", shifted.is_deleted(),
        )
        """
    ),
]


TRAINING: list[Cell] = [
    md(
        """
        # Training an MLP on handwritten digits

        A TF1 program — placeholders, variables, `AdamOptimizer`, `Session.run` — training
        a 64-128-10 multilayer perceptron on the UCI handwritten digits that ship with
        jaxsess (`jaxsess.datasets.load_digits()`: 8×8 images, 10 classes, no download).
        """
    ),
    code(
        """
        import matplotlib.pyplot as plt
        import numpy as np

        import jaxsess as tf
        from jaxsess.datasets import load_digits

        %matplotlib inline
        %load_ext jaxsess.ipython

        data = load_digits()
        print("train:", data.x_train.shape, "test:", data.x_test.shape)
        fig, axes = plt.subplots(1, 8, figsize=(8, 1.4))
        for ax, image, label in zip(axes, data.x_train, data.y_train):
            ax.imshow(image.reshape(8, 8), cmap="gray_r")
            ax.set_title(str(label))
            ax.axis("off")
        plt.show()
        """
    ),
    md("## The model"),
    code(
        """
        graph = tf.Graph()
        with graph.as_default():
            tf.set_random_seed(0)
            x = tf.placeholder(tf.float32, [None, 64], name="x")
            y = tf.placeholder(tf.int32, [None], name="y")
            with tf.name_scope("hidden"):
                w1 = tf.Variable(tf.truncated_normal([64, 128], stddev=0.1), name="weights")
                b1 = tf.Variable(tf.zeros([128]), name="biases")
                hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
            with tf.name_scope("logits"):
                w2 = tf.Variable(tf.truncated_normal([128, 10], stddev=0.1), name="weights")
                b2 = tf.Variable(tf.zeros([10]), name="biases")
                logits = tf.matmul(hidden, w2) + b2
            with tf.name_scope("loss"):
                loss = tf.reduce_mean(
                    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
                )
            train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
            with tf.name_scope("metrics"):
                predictions = tf.argmax(logits, 1, output_type=tf.int32)
                accuracy = tf.reduce_mean(tf.cast(tf.equal(predictions, y), tf.float32))
            init = tf.global_variables_initializer()
        graph
        """
    ),
    md(
        """
        The picture folds the scopes nested two levels deep (a variable with its
        initializer, `Assign`, `read` and Adam slots becomes one folder); draw every op
        with `graph.visualize()`, or pick the folding with `graph.visualize(max_depth=0)`.

        ## Training

        Each `run` returns host NumPy values (the loss is yours to keep in a list); the
        variables and every intermediate stay on the device, owned by the session.
        """
    ),
    code(
        """
        steps, batch = 400, 128
        rng = np.random.default_rng(0)
        losses = []
        sess = tf.Session(graph=graph)
        sess.run(init)
        for step in range(steps):
            idx = rng.integers(0, len(data.x_train), batch)
            feed = {x: data.x_train[idx], y: data.y_train[idx]}
            loss_value = sess.run([train_op, loss], feed)[1]
            losses.append(float(loss_value))
            if (step + 1) % 100 == 0:  # plain lines: kept by static HTML, unlike a widget bar
                print(f"step {step + 1}/{steps}: loss {losses[-1]:.4f}")
        test_accuracy = float(sess.run(accuracy, {x: data.x_test, y: data.y_test}))
        print(f"test accuracy: {test_accuracy:.3f}")
        """
    ),
    code(
        """
        window = 20
        smooth = np.convolve(losses, np.ones(window) / window, mode="valid")
        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.plot(losses, alpha=0.35, label="batch loss")
        ax.plot(range(window - 1, len(losses)), smooth, label=f"mean of {window}")
        ax.set_yscale("log")
        ax.set_xlabel("step")
        ax.set_ylabel("cross-entropy")
        ax.set_title("training loss")
        ax.legend()
        plt.show()
        """
    ),
    code(
        """
        predicted = np.asarray(sess.run(predictions, {x: data.x_test}))
        confusion = np.zeros((10, 10), dtype=int)
        np.add.at(confusion, (data.y_test, predicted), 1)

        fig, ax = plt.subplots(figsize=(5, 5))
        ax.imshow(confusion, cmap="Blues")
        for i in range(10):
            for j in range(10):
                if confusion[i, j]:
                    color = "white" if confusion[i, j] > confusion.max() / 2 else "black"
                    ax.text(j, i, confusion[i, j], ha="center", va="center", color=color, fontsize=8)
        ax.set_xticks(range(10))
        ax.set_yticks(range(10))
        ax.set_xlabel("predicted")
        ax.set_ylabel("true")
        ax.set_title(f"confusion matrix (test accuracy {test_accuracy:.3f})")
        plt.show()
        """
    ),
    md(
        """
        ## What the session owns

        The session holds the variables (weights, biases, Adam's moments and step count);
        closing it frees them all.
        """
    ),
    code(
        """
        %jaxsess_stats sess
        """
    ),
    code(
        """
        sess.close()
        sess
        """
    ),
]


FROZEN: list[Cell] = [
    md(
        """
        # A frozen model made by real TensorFlow

        `frozen_mlp.pb`, shipped with jaxsess (package data, `jaxsess/data/`), is a small conv +
        dense classifier that TensorFlow 2.21 (`tf.compat.v1`) froze with
        `convert_variables_to_constants`: a binary `GraphDef` whose
        weights are `Const` nodes holding `TensorProto`s. jaxsess reads it with TensorFlow's own
        protocol buffers (shipped by the `tensorboard` package, no TensorFlow needed), imports it
        into a graph and runs it as one XLA computation.
        """
    ),
    code(
        """
        import json
        from collections import Counter

        import numpy as np

        import jaxsess as tf

        %load_ext jaxsess.ipython

        from importlib.resources import files

        DATA = files("jaxsess") / "data"  # the installed package's data files
        graph_def = tf.GraphDef.FromString((DATA / "frozen_mlp.pb").read_bytes())
        print(len(graph_def.node), "nodes:", dict(Counter(n.op for n in graph_def.node)))
        """
    ),
    md(
        """
        ## Import and run

        `import_graph_def` maps each TF op type to jaxsess's op (the registry owns the mapping:
        `Conv2D`'s 4-element `strides`, `Mean`'s constant `reduction_indices` input...). The
        inputs and outputs keep TF's names under the `import/` prefix.
        """
    ),
    code(
        """
        graph = tf.Graph()
        with graph.as_default():
            probs, mean_prob = tf.import_graph_def(graph_def, return_elements=["probs:0", "mean_prob:0"])

        recorded = json.loads((DATA / "frozen_mlp.json").read_text())  # what TensorFlow computed
        x = np.array(recorded["input"], np.float32)
        with tf.Session(graph=graph) as sess:
            p = np.asarray(sess.run(probs, {"import/input:0": x}))
        print("probabilities:", p.round(4).tolist())
        print("max difference from TensorFlow:", float(np.abs(p - np.array(recorded["probs"])).max()))
        """
    ),
    md(
        """
        ## Its graph

        The graph displays as a table of its ops (and a picture when graphviz is installed).
        It can be written back as TF's text format, or for TensorBoard's graph tab.
        """
    ),
    code(
        """
        graph
        """
    ),
    code(
        """
        import tempfile

        out = tempfile.mkdtemp()
        path = tf.train.write_graph(graph, out, "imported.pbtxt", as_text=True)
        with tf.summary.FileWriter(out, graph):  # an event file with the graph, for `tensorboard --logdir`
            pass
        print(sorted(f.split(".")[0] for f in tf.gfile.ListDirectory(out)))
        print(open(path).read()[:200])
        """
    ),
]


NOTEBOOKS: dict[str, list[Cell]] = {
    "01_quickstart.ipynb": QUICKSTART,
    "02_memory_strategies.ipynb": MEMORY,
    "03_training_digits.ipynb": TRAINING,
    "04_frozen_model.ipynb": FROZEN,
}


def build(name: str, cells: list[Cell]) -> str:
    """The notebook ``name`` as ``.ipynb`` text: nbformat 4, no outputs, stable cell ids."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    stem = name.split("_", 1)[0]
    for i, (kind, source) in enumerate(cells):
        cell = nbformat.v4.new_markdown_cell(source) if kind == "md" else nbformat.v4.new_code_cell(source)
        cell.id = f"nb{stem}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def strip(nb: Any) -> Any:
    """A copy of ``nb`` as :func:`build` writes it: no outputs, counts or run metadata."""
    nb = copy.deepcopy(nb)
    nb.metadata = {
        "kernelspec": nb.metadata.get("kernelspec", {}),
        "language_info": {"name": nb.metadata.get("language_info", {}).get("name", "python")},
    }
    for cell in nb.cells:
        cell.metadata = {k: v for k, v in cell.metadata.items() if k != "execution"}
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def kernel_env() -> dict[str, str]:
    """The kernel's environment: headless matplotlib, CPU JAX, this checkout importable."""
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env["JAX_PLATFORMS"] = "cpu"
    env.pop("XLA_FLAGS", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    return env


def execute(nb: Any, cwd: Path = HERE) -> Any:
    """Runs ``nb`` in place in a fresh python3 kernel; raises ``CellExecutionError`` on a failed cell."""
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute(env=kernel_env())
    return nb


def executed(name: str, cells: list[Cell]) -> str:
    """The notebook ``name`` as ``.ipynb`` text, executed, with its outputs."""
    nb = nbformat.reads(build(name, cells), as_version=4)
    execute(nb)
    nb.metadata["language_info"] = {"name": "python"}  # not the kernel's exact version
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the notebooks' cells are up to date")
    parser.add_argument("--no-execute", action="store_true", help="write the notebooks without outputs")
    parser.add_argument("names", nargs="*", help="only these notebooks (default: all)")
    args = parser.parse_args(argv)
    stale = []
    for name, cells in NOTEBOOKS.items():
        if args.names and name not in args.names:
            continue
        path = HERE / name
        if args.check:
            text = build(name, cells)
            current = nbformat.writes(strip(nbformat.read(path, as_version=4))) + "\n" if path.exists() else ""
            if current != text:
                stale.append(name)
            continue
        path.write_text(build(name, cells) if args.no_execute else executed(name, cells), encoding="utf-8")
        print(f"wrote {path}")
    if stale:
        print(f"out of date (run python notebooks/_build.py): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
