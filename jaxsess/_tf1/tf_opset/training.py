"""TF's optimizer ops: ``ApplyGradientDescent``, ``ApplyMomentum``,
``ApplyAdam``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``, ``ApplyAdagrad``,
``ApplyAdadelta`` and their ``ResourceApply*`` twins, with TF's update
rules (``tensorflow/core/kernels/training_ops.cc``), and the variable ops
that read and write through the node's context (``Assign``, ``AssignAdd``,
``ReadVariableOp``, ``AssignVariableOp``...).

The variable inputs (``Ref(T)`` for ``Apply*``, ``resource`` for
``ResourceApply*``) arrive as handles: a lowering reads them with
``ctx.read_variable`` and writes them with ``ctx.assign_variable``. An
``Apply*`` op outputs the variable's new value (TF: the ref); a
``ResourceApply*`` op has no outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jax.numpy as jnp

from jaxsess._tf1.tf_opset._common import lowering

__all__: list[str] = []

# name -> (number of variable inputs, update(vars, scalars..., attrs) -> new vars)
_Update = Callable[[list[Any], list[Any], Mapping[str, Any]], list[Any]]
_RULES: dict[str, tuple[int, _Update]] = {}


def _rule(name: str, n_vars: int) -> Callable[[_Update], _Update]:
    def deco(fn: _Update) -> _Update:
        _RULES[name] = (n_vars, fn)
        return fn
    return deco


@_rule("GradientDescent", 1)
def _sgd(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var,), (alpha, delta) = v, a
    return [var - alpha * delta]


@_rule("Momentum", 2)
def _momentum(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, accum), (lr, grad, momentum) = v, a
    accum = accum * momentum + grad
    if attrs.get("use_nesterov"):
        return [var - (grad * lr + accum * momentum * lr), accum]
    return [var - lr * accum, accum]


@_rule("Adam", 3)
def _adam(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, m, s), (beta1_power, beta2_power, lr, beta1, beta2, eps, grad) = v, a
    alpha = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    m = m + (grad - m) * (1 - beta1)
    s = s + (jnp.square(grad) - s) * (1 - beta2)
    if attrs.get("use_nesterov"):
        return [var - (m * beta1 + (1 - beta1) * grad) * alpha / (jnp.sqrt(s) + eps), m, s]
    return [var - m * alpha / (jnp.sqrt(s) + eps), m, s]


@_rule("RMSProp", 3)
def _rmsprop(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, ms, mom), (lr, rho, momentum, eps, grad) = v, a
    ms = ms + (jnp.square(grad) - ms) * (1 - rho)
    mom = mom * momentum + lr * grad / jnp.sqrt(ms + eps)
    return [var - mom, ms, mom]


@_rule("CenteredRMSProp", 4)
def _centered_rmsprop(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, mg, ms, mom), (lr, rho, momentum, eps, grad) = v, a
    ms = ms + (jnp.square(grad) - ms) * (1 - rho)
    mg = mg + (grad - mg) * (1 - rho)
    mom = mom * momentum + lr * grad / jnp.sqrt(ms - jnp.square(mg) + eps)
    return [var - mom, mg, ms, mom]


@_rule("Adagrad", 2)
def _adagrad(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, accum), (lr, grad) = v, a
    if attrs.get("update_slots", True):
        accum = accum + jnp.square(grad)
    return [var - lr * grad / jnp.sqrt(accum), accum]


@_rule("AdagradV2", 2)
def _adagrad_v2(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, accum), (lr, eps, grad) = v, a
    if attrs.get("update_slots", True):
        accum = accum + jnp.square(grad)
    return [var - lr * grad / (jnp.sqrt(accum) + eps), accum]


@_rule("Adadelta", 3)
def _adadelta(v: list[Any], a: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    (var, accum, accum_update), (lr, rho, eps, grad) = v, a
    accum = accum * rho + jnp.square(grad) * (1 - rho)
    update = jnp.sqrt(accum_update + eps) / jnp.sqrt(accum + eps) * grad
    accum_update = accum_update * rho + jnp.square(update) * (1 - rho)
    return [var - update * lr, accum, accum_update]


def _register(name: str, n_vars: int, update: _Update) -> None:
    def apply(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], resource: bool) -> Any:
        handles = list(inputs[:n_vars])
        old = [jnp.asarray(ctx.read_variable(h)) for h in handles]
        dt = old[0].dtype
        new = update(old, [jnp.asarray(x, dt) for x in inputs[n_vars:]], attrs)
        for h, value in zip(handles, new, strict=True):
            ctx.assign_variable(h, value.astype(dt))
        return () if resource else (new[0].astype(dt),)

    def ref_op(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        return apply(ctx, inputs, attrs, False)

    def resource_op(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        return apply(ctx, inputs, attrs, True)

    ref_op.__doc__ = resource_op.__doc__ = f"TF's Apply{name} update, on {n_vars} variable(s)."
    lowering(f"Apply{name}", stateful=True, multi=True)(ref_op)
    lowering(f"ResourceApply{name}", stateful=True, multi=True)(resource_op)


for _name, (_n, _update) in _RULES.items():
    _register(_name, _n, _update)


@lowering("AssignAddVariableOp", stateful=True, multi=True)
def _assign_add_variable(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``var += value`` on a resource variable (no outputs), as TF's ``AssignAddVariableOp``."""
    v = jnp.asarray(ctx.read_variable(inputs[0]))
    ctx.assign_variable(inputs[0], (v + jnp.asarray(inputs[1], v.dtype)).astype(v.dtype))
    return ()


@lowering("AssignSubVariableOp", stateful=True, multi=True)
def _assign_sub_variable(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``var -= value`` on a resource variable (no outputs), as TF's ``AssignSubVariableOp``."""
    v = jnp.asarray(ctx.read_variable(inputs[0]))
    ctx.assign_variable(inputs[0], (v - jnp.asarray(inputs[1], v.dtype)).astype(v.dtype))
    return ()


@lowering("ResourceGather", stateful=True)
def _resource_gather(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Rows ``indices`` of a resource variable (Keras' ``Embedding``), as TF's ``ResourceGather``."""
    v = jnp.asarray(ctx.read_variable(inputs[0]))
    bd = attrs.get("batch_dims", 0)
    if bd:
        raise ValueError(f"node '{getattr(ctx, 'name', '?')}' (op 'ResourceGather'): batch_dims {bd} is not supported")
    return jnp.take(v, jnp.asarray(inputs[1]), axis=0)
