"""Customised gradients, as TF1: ``tf.RegisterGradient`` with
``Graph.gradient_override_map``, ``tf.NotDifferentiable`` and
``tf.custom_gradient``.

jaxsess differentiates through ``jax.vjp`` of the forward sub-graph (see
:mod:`jaxsess._tf1.ops.gradients`), not through TF's per-op gradient registry.
This module holds the registry of *user* gradient functions only: when
``tf.gradients`` meets an op whose gradient is overridden (its type mapped by
``gradient_override_map``, or a type registered here), it calls the
function ``fn(op, *output_grads)`` once to build the gradient sub-graph, and
the lowering evaluates the op inside a ``jax.custom_vjp`` whose backward
pass is that sub-graph. Ops without an override are differentiated by JAX
and pay nothing.

``custom_gradient`` is TF1's graph-mode construction: the function's
outputs, inputs and the trainable variables it reads pass through one
``IdentityN`` op whose gradient is overridden by a registered wrapper of
``grad_fn``.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax import tree_util

from jaxsess._core.graph._builder import apply_op, convert_to_tensor, executing_eagerly
from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._core.graph._registry import REGISTRY, TFOp, register_op

__all__ = [
    "RegisterGradient", "NotDifferentiable", "no_gradient", "custom_gradient", "identity_n",
    "gradient_function", "GradientFunction", "recompute_grad", "grad_pass_through",
]

GradientFunction = Callable[..., Any]

# Registered name -> gradient function (None: not differentiable).
_GRADIENTS: dict[str, GradientFunction | None] = {}
_uid = itertools.count(1)


def _register(name: str, fn: GradientFunction | None) -> None:
    if not isinstance(name, str):
        raise TypeError(f"op_type must be a string, got {type(name).__name__}")
    if name in _GRADIENTS:
        prev = _GRADIENTS[name]
        where = "NotDifferentiable" if prev is None else f"{prev.__module__}.{prev.__qualname__}"
        raise KeyError(f"Registering two gradient with name '{name}'! (Previous registration was in {where})")
    _GRADIENTS[name] = fn


class RegisterGradient:
    """Registers a gradient function under a name, as ``tf.RegisterGradient``.

    Used as a decorator: ``@tf.RegisterGradient("Reverse")`` on
    ``fn(op, *grads) -> list of input gradients``, where ``op`` is the
    forward :class:`Operation` (``op.inputs``, ``op.outputs``,
    ``op.get_attr``) and ``grads`` are the gradients of its outputs (tensors
    of the outputs' shapes and dtypes). ``fn`` returns one tensor (or
    ``None``) per input of ``op``. Ops use it when their type is mapped to
    the name by ``Graph.gradient_override_map``, or when the name is their
    type.

    Raises:
      TypeError: ``op_type`` is not a string.
      KeyError: a gradient is already registered under the name (as TF).
    """

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: GradientFunction) -> GradientFunction:
        _register(self._op_type, f)
        return f


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TF1 name
    """Declares ops of ``op_type`` (or of a type mapped to it) not
    differentiable: their inputs get no gradient through them, as
    ``tf.NotDifferentiable``.

    Raises:
      TypeError: ``op_type`` is not a string.
      KeyError: a gradient is already registered under the name.
    """
    _register(op_type, None)


no_gradient = NotDifferentiable


def gradient_function(op: Operation) -> tuple[bool, GradientFunction | None, str | None]:
    """How ``tf.gradients`` differentiates ``op``.

    Returns:
      ``(False, None, None)``: JAX autodiff of the op's own lowering (no
      override). ``(True, fn, None)``: the registered ``fn`` (``None``: not
      differentiable). ``(True, None, type)``: the op is mapped to the name of
      another op type without a registered function (``{"Sign":
      "Identity"}``): JAX autodiff of that type's implementation on the op's
      inputs.

    Raises:
      LookupError: the op is mapped to a name nothing registered (TF's
        message, naming the op and the name).
    """
    name = op._gradient_op_type
    if name is None:
        if op.type in _GRADIENTS:
            return True, _GRADIENTS[op.type], None
        return False, None, None
    if name in _GRADIENTS:
        return True, _GRADIENTS[name], None
    if name == op.type:
        return False, None, None
    other = REGISTRY.get(name)
    if other is not None and other.lowering is None and not other.stateful and not other.graph_only:
        return True, None, name
    raise LookupError(
        f"No gradient defined for operation'{op.name}' (op type: {op.type}). In general every operation "
        "must have an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking: "
        f"gradient_override_map maps it to {name!r}, which no tf.RegisterGradient registered. If you want "
        "to pretend this operation is a constant in your program, you may insert `tf.stop_gradient`."
    )


# -- IdentityN ------------------------------------------------------------------------------------------------


def _identity_n_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {"T": tuple(d for _, d in specs)}, []


def _identity_n_from_tf(attrs: dict[str, Any], consts: list[Any]) -> dict[str, Any]:
    return {"n": len(attrs["T"])}


@register_op(
    "IdentityN",
    num_outputs=lambda attrs: attrs["n"],
    default_name="IdentityN",
    tf=TFOp(types={}, to_tf=_identity_n_to_tf, from_tf=_identity_n_from_tf),
)
def _identity_n(*xs: Any, n: int) -> Any:
    return xs[0] if n == 1 else tuple(xs)  # one output: the array itself, as every one-output op


def identity_n(input: list[Any], name: str | None = None) -> list[Any]:
    """Each of ``input`` unchanged, through one op, as ``tf.identity_n``.

    Returns:
      A list of tensors with the inputs' shapes and dtypes.
    """
    tensors = [convert_to_tensor(x) for x in input]
    out = apply_op("IdentityN", tensors, {"n": len(tensors)}, name=name)
    return list(out) if isinstance(out, list | tuple) else [out]


# -- GradientInput: the gradient of an output, bound by the backward pass ------------------------------------


@register_op("GradientInput", default_name="grad")
def _gradient_input(output: Any) -> Any:
    # Bound by the backward pass; evaluated elsewhere (a loop body tracing the
    # gradient graph) it stands for a zero gradient.
    return jnp.zeros_like(output)


def gradient_input(t: Tensor) -> Tensor:
    """A stand-in for the gradient of ``t`` (an op's output) in a registered
    gradient's sub-graph: same shape and dtype; its input is ``t`` itself."""
    return apply_op("GradientInput", [t], name=t.op.name.rsplit("/", 1)[-1] + "_grad_in")  # type: ignore[no-any-return]


# -- custom_gradient ----------------------------------------------------------------------------------------


def _is_leaf(x: Any) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element")


def _read_variables(ops: list[Operation]) -> list[Any]:
    """The trainable variables the ops read (directly or through a read
    ``Identity``), sorted by name, as TF's variable watcher."""
    found: dict[int, Any] = {}
    for op in ops:
        for t in op.inputs:
            src = t.op
            if src.type == "Identity" and src.inputs and src.inputs[0].op.type == "VariableV2":
                src = src.inputs[0].op
            var = src._variable if src.type == "VariableV2" else None
            if var is not None and var.trainable:
                found[id(var)] = var
    return sorted(found.values(), key=lambda v: v.name)


def _accepts_variables(fn: Callable[..., Any]) -> bool:
    try:
        spec = inspect.getfullargspec(fn)
    except TypeError:
        return True
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None


def _eager_call(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``f``'s result in an ``EagerSession``, inside a ``jax.custom_vjp``
    whose backward pass calls ``grad_fn`` (``f`` runs again there, on the
    saved inputs, to rebuild ``grad_fn``)."""

    def forward(*xs: Any) -> Any:
        return f(*xs, **kwargs)[0]

    def fwd(*xs: Any) -> tuple[Any, tuple[Any, ...]]:
        return forward(*xs), xs

    def bwd(xs: tuple[Any, ...], ct: Any) -> tuple[Any, ...]:
        _, grad_fn = f(*xs, **kwargs)
        grads = grad_fn(*tree_util.tree_leaves(ct))
        flat = list(grads) if isinstance(grads, list | tuple) else [grads]
        if len(flat) != len(xs):
            raise ValueError(f"@tf.custom_gradient grad_fn returned {len(flat)} input gradients for {len(xs)} inputs")
        return tuple(
            None if g is None or not jnp.issubdtype(jnp.result_type(x), jnp.inexact) else jnp.asarray(g, jnp.result_type(x))
            for g, x in zip(flat, xs)
        )

    call = jax.custom_vjp(forward)
    call.defvjp(fwd, bwd)
    return call(*args)


def custom_gradient(f: Callable[..., Any] | None = None) -> Any:
    """Decorates ``f(*tensors) -> (outputs, grad_fn)`` so that gradients
    through the outputs are ``grad_fn``'s, as ``tf.custom_gradient``
    (graph mode).

    ``grad_fn(*output_grads)`` returns the gradients of ``f``'s inputs (a
    tensor or a list, one per input, ``None`` allowed). When ``f`` reads
    trainable variables, ``grad_fn`` must take ``variables=`` (the list of
    those variables, sorted by name) and return ``(input_grads,
    variable_grads)``. No gradient flows through the ops inside ``f``.

    Returns:
      The decorated function; it returns ``f``'s outputs (same structure).
      In an ``EagerSession`` it is a ``jax.custom_vjp`` of ``f``: ``jax.grad``
      of code calling it uses ``grad_fn`` (variables are not tracked there).

    Raises:
      ValueError: keyword arguments in graph mode (as TF); ``grad_fn``
        returns a number of variable gradients other than the number of
        variables (when ``tf.gradients`` is built).
      TypeError: ``f`` reads variables and ``grad_fn`` takes no
        ``variables`` argument (TF's message, listing them).
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        if executing_eagerly():
            return _eager_call(f, args, kwargs)
        if kwargs:
            raise ValueError(
                "The custom_gradient decorator currently supports keywords arguments only when eager "
                "execution is enabled."
            )
        graph = get_default_graph()
        flat_args, args_def = tree_util.tree_flatten(args, is_leaf=_is_leaf)
        arg_tensors = [convert_to_tensor(a) for a in flat_args]
        start = len(graph._ops)
        result, grad_fn = f(*tree_util.tree_unflatten(args_def, arg_tensors))
        flat, result_def = tree_util.tree_flatten(result, is_leaf=_is_leaf)
        flat = [convert_to_tensor(r) for r in flat]
        variables = _read_variables(graph._ops[start:])
        if variables and not _accepts_variables(grad_fn):
            raise TypeError(
                "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses "
                f"variables: {variables}"
            )
        n_out = len(flat)
        n_in = len(arg_tensors)

        def grad_wrapper(op: Operation, *grads: Any) -> list[Any]:
            out_grads = grads[:n_out]
            if variables:
                input_grads, variable_grads = grad_fn(*out_grads, variables=variables)
                if len(variable_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
            else:
                input_grads = grad_fn(*out_grads)
                variable_grads = []
            flat_grads = tree_util.tree_leaves(input_grads, is_leaf=lambda x: x is None or _is_leaf(x))
            if len(flat_grads) != n_in:
                raise ValueError(
                    f"@tf.custom_gradient grad_fn returned {len(flat_grads)} input gradients for "
                    f"{n_in} inputs of {getattr(f, '__name__', 'the function')}"
                )
            return [None] * n_out + list(flat_grads) + list(variable_grads)

        name = f"CustomGradient-{next(_uid)}"
        _register(name, grad_wrapper)
        with graph.gradient_override_map({"IdentityN": name}):
            outs = identity_n(flat + arg_tensors + [v._ref for v in variables])
        return tree_util.tree_unflatten(result_def, outs[:n_out])

    return decorated


def recompute_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` itself, as ``tf.recompute_grad``: TF recomputes ``f``'s activations in the backward
    pass to save memory; the values and gradients are the same, and XLA schedules the memory."""
    return f


def grad_pass_through(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` with an identity gradient (the straight-through estimator), as ``tf.grad_pass_through``:
    ``y = f(x)`` forward, ``dy/dx`` taken as the identity backward."""

    @custom_gradient
    def passed(*args: Any) -> Any:
        def grad(*grads: Any, variables: Any = None) -> Any:
            out = grads if len(grads) > 1 else grads[0]
            return out if variables is None else (out, [None] * len(variables))

        return f(*args), grad

    return passed
