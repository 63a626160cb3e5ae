"""Test configuration: JAX on 8 CPU devices, strict, and the strategy fixture.

The environment and ``jax_num_cpu_devices`` are set at import time, before
any test module touches a JAX backend.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator

os.environ["JAX_PLATFORMS"] = "cpu"
# The persistent compilation cache, on as for users, in one directory for the whole run:
# the controller makes it and removes it (pytest_unconfigure); xdist workers and the
# programs tests start inherit the variables, so a program several tests compile (the demo,
# a rebuilt Estimator graph) compiles once. Never the user's cache in the home.
_OWN_CACHE_DIR: str | None = None
if not os.environ.get("JAXSESS_TEST_CACHE_DIR"):
    _OWN_CACHE_DIR = tempfile.mkdtemp(prefix="jaxsess-test-xla-cache-")
    os.environ["JAXSESS_TEST_CACHE_DIR"] = _OWN_CACHE_DIR
os.environ["JAXSESS_COMPILATION_CACHE"] = "1"
os.environ["JAXSESS_COMPILATION_CACHE_DIR"] = os.environ["JAXSESS_TEST_CACHE_DIR"]
# Quiet in tests: a slow compile's stderr notice (tests/test_compile_notice.py turns it on).
os.environ.setdefault("JAXSESS_COMPILE_NOTICE", "0")

import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", 8)

import pytest  # noqa: E402

import jaxsess  # noqa: E402
from jaxsess import ResourceCleanupStrategy  # noqa: E402

STRATEGIES = list(ResourceCleanupStrategy)


@pytest.fixture(params=STRATEGIES, ids=[s.name for s in STRATEGIES])
def strategy(request: pytest.FixtureRequest) -> ResourceCleanupStrategy:
    """Each of the three cleanup strategies in turn."""
    return request.param


# Property tests explore new examples on developer machines and replay a fixed
# set in CI, so a CI run is reproducible.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _fresh_graph() -> Iterator[None]:
    """Each test starts on an empty default graph."""
    with contextlib.suppress(AssertionError):  # a test that leaked a default session
        jaxsess.reset_default_graph()
    yield
    # a test's disable_v2_behavior() does not outlive it (a TF program runs it once, in its own process)
    jaxsess.compat.v1.enable_v2_behavior()


@pytest.fixture
def sess() -> Iterator[jaxsess.Session]:
    """A graph session on the default graph, closed after the test."""
    s = jaxsess.Session()
    try:
        yield s
    finally:
        s.close()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The process that made the run's compilation cache removes it."""
    if _OWN_CACHE_DIR is not None and not hasattr(config, "workerinput"):
        shutil.rmtree(_OWN_CACHE_DIR, ignore_errors=True)


# `pytest -m "not slow"` (the fast subset, a few minutes) leaves these files out: each runs
# many programs or fresh interpreters (the TF1 corpus, notebooks, the README's and the docs'
# code blocks, multi-process runs, the command line, TensorFlow reading our files). The whole suite is what CI runs.
SLOW_FILES = frozenset(
    {
        "test_tf1_corpus.py",
        "test_notebooks.py",
        "test_readme.py",
        "test_docs.py",
        "test_distributed.py",
        "test_distrib.py",
        "test_demo.py",
        "test_cli.py",
        "test_ipython.py",
        "test_fidelity.py",
        "test_tf_files.py",  # real TensorFlow in subprocesses (CI installs it while the fast subset runs)
        "test_compile_notice.py",
        "test_keras_progress.py",
    }
)
# Single slow tests in otherwise fast files: real TensorFlow reading our files.
SLOW_TESTS = frozenset({"test_records.py::test_our_records_read_by_real_tensorflow"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW_FILES or f"{item.path.name}::{item.originalname}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
