"""Atomic state under interrupts (issue 12 item 1).

A ``run`` or ``make_callable`` call that donates the variables' buffers
either installs all of its new state or leaves the old state intact,
whatever interrupts it. The interrupts here are real asynchronous signals:
``signal.setitimer`` fires ``SIGALRM`` at a random point of a loop of
training steps, and its handler raises ``KeyboardInterrupt`` through the
default ``SIGINT`` handler (``signal.raise_signal``), raises
``KeyboardInterrupt`` itself, or raises ``SystemExit`` — 300 interrupts per
strategy and calling path. Each step adds 1 to a float vector ``w`` and to
an int counter ``c`` in one run, so after every interrupt ``w == c`` (both
or neither installed) and ``c`` is the number of completed steps or one
more (the interrupted step may have installed its state before the
exception surfaced).
"""

from __future__ import annotations

import random
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from _alarm import Alarm

import jaxsess as tf
from jaxsess import ResourceCleanupStrategy
from jaxsess._core import _signals as _signals

STRATEGIES = list(ResourceCleanupStrategy)
INTERRUPTS = 300
STEPS_PER_TRIAL = 400  # bounded: a trial whose signal was swallowed (e.g. by a gc callback) ends
MAX_DELAY_S = 0.002

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"),
    reason="signal timers need the main thread on a POSIX system",
)


class _Model:
    def __init__(self) -> None:
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.x = tf.placeholder(tf.float32, [4], name="x")
            self.w = tf.Variable(np.zeros(4, np.float32), name="w")
            self.c = tf.Variable(0, name="c")
            self.step = tf.group(tf.assign_add(self.w, tf.ones_like(self.x)), tf.assign_add(self.c, 1), name="step")
            self.init = tf.global_variables_initializer()
        self.xb = np.ones(4, np.float32)


@pytest.fixture
def model() -> Iterator[_Model]:
    yield _Model()


def _hammer(model: _Model, sess: tf.Session, step: Callable[[], Any]) -> int:
    """Runs INTERRUPTS interrupted trials; returns how many were interrupted."""
    rng = random.Random(12)
    kinds = ("sigint", "keyboard", "exit")
    done = int(sess.run(model.c))  # steps completed so far
    interrupted = 0
    with Alarm() as alarm:
        for trial in range(INTERRUPTS):
            try:
                alarm.arm(rng.random() * MAX_DELAY_S + 1e-6, kinds[trial % 3])
                for _ in range(STEPS_PER_TRIAL):
                    step()
                    done += 1
            except (KeyboardInterrupt, SystemExit):
                interrupted += 1
            finally:
                alarm.disarm()
            w, c = sess.run([model.w, model.c])
            c = int(c)
            assert c in (done, done + 1), f"trial {trial}: counter {c}, {done} steps completed"
            np.testing.assert_array_equal(np.asarray(w), np.full(4, c, np.float32), err_msg=f"trial {trial}")
            done = c
    return interrupted


@pytest.mark.parametrize("path", ["run", "make_callable"])
def test_interrupts_never_lose_or_split_the_state(model: _Model, strategy: ResourceCleanupStrategy, path: str) -> None:
    with tf.Session(graph=model.graph, cleanup=strategy) as sess:
        sess.run(model.init)
        if path == "run":
            feed = {model.x: model.xb}

            def step() -> Any:
                return sess.run(model.step, feed)
        else:
            call = sess.make_callable(model.step, [model.x])

            def step() -> Any:
                return call(model.xb)

        step()  # compiled before the interrupts start
        interrupted = _hammer(model, sess, step)
        assert interrupted >= INTERRUPTS * 0.9  # a few signals may be swallowed by gc callbacks
        c0 = int(sess.run(model.c))
        for _ in range(3):
            step()
        assert int(sess.run(model.c)) == c0 + 3  # still trains
        np.testing.assert_array_equal(np.asarray(sess.run(model.w)), np.full(4, c0 + 3, np.float32))


def test_interrupt_lands_during_the_first_call_while_it_compiles(model: _Model) -> None:
    """The first call of a plan goes through JAX's Python path (trace, compile,
    execute): an interrupt anywhere in it leaves a consistent state."""
    with tf.Session(graph=model.graph) as sess, Alarm() as alarm:
        sess.run(model.init)
        rng = random.Random(3)
        for trial in range(20):
            call = sess.make_callable([model.step, model.c], [model.x])  # a new plan: compiled on first call
            before = int(sess.run(model.c))
            try:
                alarm.arm(rng.random() * 0.05 + 1e-6, "sigint")
                for _ in range(50):
                    call(model.xb)
            except KeyboardInterrupt:
                pass
            finally:
                alarm.disarm()
            sess._plans.clear()  # the next trial compiles again
            w, c = sess.run([model.w, model.c])
            assert int(c) >= before, trial
            np.testing.assert_array_equal(np.asarray(w), np.full(4, int(c), np.float32))


def test_interrupt_is_delivered_after_the_install_not_lost(model: _Model) -> None:
    """A Ctrl-C that arrives inside the deferred section is raised when it
    ends (the Python path: it lands in the registry's swap)."""
    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        real = sess._registry.swap_pinned

        def swap_then_sigint(olds: Any, news: Any) -> None:
            real(olds, news)
            signal.raise_signal(signal.SIGINT)  # lands in the deferred section

        sess._registry.swap_pinned = swap_then_sigint  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            sess.run(model.step, {model.x: model.xb})
        del sess._registry.swap_pinned
        assert int(sess.run(model.c)) == 1  # the interrupted step was installed
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored
        sess.run(model.step, {model.x: model.xb})
        assert int(sess.run(model.c)) == 2


@pytest.mark.skipif(tf._core.runtime._graph_session._c_hot is None, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
@pytest.mark.parametrize("path", ["run", "make_callable"])
def test_interrupt_in_the_c_step_is_delivered_after_the_install(model: _Model, path: str) -> None:
    """On the C hot path a Ctrl-C that arrives once XLA has consumed the
    donated buffers (raised by the plan's function after it returns) is
    raised after the new state is installed, with the handler restored."""
    strings = tf.Graph()
    with strings.as_default():  # a graph of host ops elsewhere: this graph's runs stay in C
        tf.strings.join([tf.constant("a"), tf.constant("b")])
    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        call = sess.make_callable(model.step, [model.x])
        call(model.xb)  # compiled: a cache hit from now on
        key = ((model.step,), (model.x,))
        entry = sess._plans[key]
        fn, donated, kept, written = entry.step
        calls: list[int] = []

        def fn_then_sigint(*args: Any) -> Any:
            out = fn(*args)
            calls.append(1)
            signal.raise_signal(signal.SIGINT)  # the donated buffers are gone, the new ones not installed
            return out

        sess._plans[key] = entry._replace(step=(fn_then_sigint, donated, kept, written))
        sess._last_hit = None
        hooked = sess.make_callable(model.step, [model.x]) if path == "make_callable" else None
        with pytest.raises(KeyboardInterrupt):
            if hooked is not None:
                hooked(model.xb)
            else:
                sess.run(model.step, {model.x: model.xb})
        assert calls == [1]  # the C path ran the step
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        w, c = sess.run([model.w, model.c])
        assert int(c) == 2  # installed
        np.testing.assert_array_equal(np.asarray(w), np.full(4, 2, np.float32))
        sess._plans[key] = entry
        call(model.xb)
        assert int(sess.run(model.c)) == 3


def test_defer_restores_handlers_and_delivers_in_order() -> None:
    seen: list[int] = []
    prev = signal.signal(signal.SIGUSR1, lambda s, f: seen.append(s))
    try:
        held = _signals.defer()
        assert held is not None
        assert _signals.defer() is None  # nested: already deferred
        signal.raise_signal(signal.SIGUSR1)
        signal.raise_signal(signal.SIGINT)
        assert seen == []
        with pytest.raises(KeyboardInterrupt):
            _signals.deliver(held)
        assert seen == [signal.SIGUSR1]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGUSR1, prev)


def test_defer_is_a_no_op_off_the_main_thread() -> None:
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(_signals.defer()))
    t.start()
    t.join()
    assert out == [None]


def test_close_from_another_thread_during_training(model: _Model, strategy: ResourceCleanupStrategy) -> None:
    """``close()`` racing a training loop: every step either completes or
    raises the closed-session ``RuntimeError``; no raw XLA error."""
    for trial in range(5):
        sess = tf.Session(graph=model.graph, cleanup=strategy)
        sess.run(model.init)
        call = sess.make_callable(model.step, [model.x])
        call(model.xb)
        started = threading.Event()
        errors: list[BaseException] = []

        def train(
            sess: tf.Session = sess, call: Any = call, started: Any = started, errors: list[BaseException] = errors
        ) -> None:
            started.set()
            try:
                for i in range(100_000):
                    if i % 2:
                        call(model.xb)
                    else:
                        sess.run(model.step, {model.x: model.xb})
            except BaseException as e:  # inspected below
                errors.append(e)

        th = threading.Thread(target=train)
        th.start()
        started.wait()
        sess.close()
        th.join()
        assert len(errors) == 1, trial
        assert isinstance(errors[0], RuntimeError) and "closed Session" in str(errors[0]), repr(errors[0])
