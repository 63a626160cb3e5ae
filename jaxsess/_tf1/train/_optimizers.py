"""Optimizers, as ``tf.compat.v1.train``, built on optax transformations.

What ``apply_gradients`` adds to the graph:

1. **slot variables** — one non-trainable ``Variable`` (collection
   ``GLOBAL_VARIABLES``, so ``global_variables_initializer`` sets it) per
   leaf of the optax state. Leaves that belong to one parameter are its
   *slots* (named ``'<var>/<Optimizer>'``, ``'<var>/<Optimizer>_1'`` … as
   TF1); the others (Adam's ``beta1_power``/``beta2_power``) are *non-slot*
   variables, created first (``NON_SLOT_NAMES`` names them). Shapes and initial values come from
   ``tx.init`` on zeros of the parameters' shapes, computed once here as
   one compiled program (cached per optimizer and shapes);
2. **one pure ``OptaxUpdate`` op**: inputs are the hyperparameters (learning
   rate, momentum, … as scalar tensors, so ``exponential_decay`` and fed
   values work), the gradients, the parameter values and the slot values;
   outputs are the new parameters and the new slot values. Its
   implementation builds the optax transformation from the hyperparameter
   values and calls ``tx.update`` once;
3. one ``Assign`` per parameter and slot, grouped into the train op (a
   variable with a ``constraint`` is assigned ``constraint(new value)``, as
   TF's ``var.assign(var.constraint(var))`` after the update of a resource
   variable); with a ``global_step``, ``global_step.assign_add(1)`` runs after the group.

The parameter and slot reads see the values at the start of the run (the
ordering rule of :mod:`jaxsess._core.graph._lowering`), and ``sess.run(train_op)``
is one jitted call that donates the variable buffers it rewrites.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._attr_json import register_function, register_transformation_spec
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor, executing_eagerly, group
from jaxsess._core.graph._graph import GraphKeys, Operation, Tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.gradients import gradients as _gradients
from jaxsess._tf1.ops.state_ops import Variable, _as_variable, trainable_variables

if TYPE_CHECKING:  # optax is imported when an update is built (keeps `import jaxsess` light)
    import optax

__all__ = [
    "Optimizer",
    "OptaxOptimizer",
    "GradientDescentOptimizer",
    "MomentumOptimizer",
    "AdamOptimizer",
    "RMSPropOptimizer",
    "AdagradOptimizer",
]

_FLOAT_DTYPES = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64)

Builder = Callable[..., Any]  # (hyper, state, **static) -> optax.GradientTransformation


@dataclass(frozen=True)
class TransformationSpec:
    """How to build the optax transformation inside the ``OptaxUpdate`` op.

    Hashable, so it can be an op attribute (equal specs share shape-inference
    and eager-jit caches).

    Attributes:
      build: ``build(hyper, state, **static) -> optax.GradientTransformation``.
        ``hyper`` maps each name of ``hyper_names`` to a scalar array (the
        op's hyperparameter inputs, cast to the parameters' dtype);
        ``state`` is the current optax state, or ``None`` when the
        transformation is built for ``init`` at graph-build time.
      hyper_names: the hyperparameters that are op inputs, in input order.
      static: keyword arguments fixed at graph-build time (e.g.
        ``nesterov``, initial accumulator values), as ``((name, value), ...)``.
    """

    build: Builder
    hyper_names: tuple[str, ...]
    static: tuple[tuple[str, Any], ...] = ()

    def __call__(self, hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
        return self.build(hyper, state, **dict(self.static))


def _param_keys(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def _n_update_outputs(attrs: dict[str, Any]) -> int:
    return int(attrs["n_params"]) + int(attrs["treedef"].num_leaves)


@register_op("OptaxUpdate", num_outputs=_n_update_outputs, default_name="OptaxUpdate", reads_current=True)
def _optax_update(*values: Any, spec: TransformationSpec, treedef: Any, n_params: int) -> Any:
    """One optimizer step: ``(hyper..., grads..., params..., slots...) -> (new params..., new slots...)``."""
    import optax

    h = len(spec.hyper_names)
    n = n_params
    hyper_vals = values[:h]
    grads = values[h:h + n]
    params = values[h + n:h + 2 * n]
    slots = values[h + 2 * n:]
    kinds = {jnp.asarray(p).dtype for p in params}
    dtype = kinds.pop() if len(kinds) == 1 else jnp.float32
    if not jnp.issubdtype(dtype, jnp.floating):
        dtype = jnp.float32
    hyper = {k: jnp.asarray(v, dtype=dtype) for k, v in zip(spec.hyper_names, hyper_vals, strict=True)}
    keys = _param_keys(n)
    p = dict(zip(keys, params, strict=True))
    g = {k: jnp.asarray(v, dtype=jnp.asarray(q).dtype) for k, v, q in zip(keys, grads, params, strict=True)}
    state = jax.tree_util.tree_unflatten(treedef, list(slots))
    tx = spec(hyper, state)
    updates, new_state = tx.update(g, state, p)
    new_p = optax.apply_updates(p, updates)
    new_leaves, new_def = jax.tree_util.tree_flatten(new_state)
    if new_def != treedef:  # pragma: no cover - a transformation that changes its state's structure
        raise ValueError(f"optax state changed structure during update: {treedef} -> {new_def}")
    out = [jnp.asarray(new_p[k], dtype=jnp.asarray(q).dtype) for k, q in zip(keys, params, strict=True)]
    out += [jnp.asarray(v, dtype=jnp.asarray(o).dtype) for v, o in zip(new_leaves, slots, strict=True)]
    return out[0] if len(out) == 1 else tuple(out)  # one output: a bare value (registry convention)


def _slot_init_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape(attrs["shape"]), attrs["dtype"])]


@register_op("OptaxSlotInit", infer=_slot_init_infer, default_name="initial_value")
def _slot_init(*, shape: tuple[int, ...], dtype: _dtypes.DType, value: float) -> Any:
    """A slot's uniform initial value (zeros, ones, an initial accumulator), made on device."""
    return jnp.full(shape, value, dtype=dtype.np_dtype)


@functools.partial(jax.jit, static_argnums=0)
def _optax_init(spec: TransformationSpec, hyper: dict[str, Any], zeros: dict[str, Any]) -> Any:
    """``tx.init`` of zero parameters, as one compiled program (eagerly, each
    ``zeros_like`` of a new shape would compile one), cached per optimizer
    spec and parameter shapes and dtypes: the optax state, as device arrays.

    Args:
      spec: the transformation.
      hyper: the hyperparameters' build-time values (float32 scalars).
      zeros: NumPy zeros of each parameter's shape and dtype, by state key
        (64-bit ones are computed in 32 bits unless x64 is on, as eagerly).
    """
    return spec(hyper, None).init(zeros)


def _initial_value(init: Any) -> Any:
    """``init`` as a variable initial value: a fill op when uniform (no big constant in the graph)."""
    value = np.asarray(init)
    if value.size > 1 and bool(np.all(value == value.flat[0])):
        attrs = {"shape": tuple(value.shape), "dtype": _dtypes.as_dtype(value.dtype), "value": value.flat[0].item()}
        return lambda: apply_op("OptaxSlotInit", (), attrs, name="initial_value")
    return value


# -- builders (module level: hashable, picklable) ----------------------------------


def _build_sgd(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    import optax

    return optax.sgd(hyper["learning_rate"])


def _build_momentum(hyper: dict[str, Any], state: Any, *, use_nesterov: bool) -> optax.GradientTransformation:
    import optax

    return optax.sgd(hyper["learning_rate"], momentum=hyper["momentum"], nesterov=use_nesterov)


class TF1AdamState(NamedTuple):
    """The state of TF1's Adam: the running products ``beta1^t``, ``beta2^t``
    (TF1's non-slot variables ``beta1_power``, ``beta2_power``) and the
    moments ``mu``/``nu`` (slots ``m``, ``v``)."""

    beta1_power: Any
    beta2_power: Any
    mu: Any
    nu: Any


def _build_adam(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    """TF1's Adam as an optax transformation, written as TF's ``ApplyAdam`` kernel
    computes it (optax's ``adam`` counts steps and adds ``eps`` after the bias
    correction, so its state has no ``beta1_power``/``beta2_power``)."""
    import optax

    lr, b1, b2, eps = hyper["learning_rate"], hyper["beta1"], hyper["beta2"], hyper["epsilon"]

    def init(params: Any) -> TF1AdamState:
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return TF1AdamState(jnp.asarray(b1, jnp.float32), jnp.asarray(b2, jnp.float32), zeros, zeros)

    def update(grads: Any, st: TF1AdamState, params: Any = None) -> tuple[Any, TF1AdamState]:
        b1p, b2p = st.beta1_power, st.beta2_power
        lr_t = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
        mu = jax.tree_util.tree_map(lambda m, g: m + (g - m) * (1 - b1), st.mu, grads)
        nu = jax.tree_util.tree_map(lambda v, g: v + (g * g - v) * (1 - b2), st.nu, grads)
        updates = jax.tree_util.tree_map(lambda m, v: -(m * lr_t) / (jnp.sqrt(v) + eps), mu, nu)
        return updates, TF1AdamState(b1p * b1, b2p * b2, mu, nu)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


def _build_rmsprop(hyper: dict[str, Any], state: Any, *, centered: bool) -> optax.GradientTransformation:
    import optax

    # optax.rmsprop's pieces, with its momentum trace kept positive as TF1's
    # "momentum" slot (``mom``; optax.rmsprop's trace holds ``-mom``).
    scale_by = optax.scale_by_stddev if centered else optax.scale_by_rms
    return optax.chain(
        scale_by(decay=hyper["decay"], eps=hyper["epsilon"], initial_scale=1.0, eps_in_sqrt=True),  # "rms" starts at ones
        optax.scale_by_learning_rate(hyper["learning_rate"], flip_sign=False),
        optax.trace(decay=hyper["momentum"]),
        optax.scale(-1.0),
    )


def _build_adagrad(hyper: dict[str, Any], state: Any, *, initial_accumulator_value: float) -> optax.GradientTransformation:
    import optax

    return optax.adagrad(hyper["learning_rate"], initial_accumulator_value=initial_accumulator_value, eps=0.0)


for _fn in (_build_sgd, _build_momentum, _build_adam, _build_rmsprop, _build_adagrad):
    register_function(f"train.{_fn.__name__}", _fn)  # graph defs may hold these (by name)
register_transformation_spec(TransformationSpec)


def _build_user(hyper: dict[str, Any], state: Any, *, fn: Callable[[Any], optax.GradientTransformation]) -> optax.GradientTransformation:
    return fn(hyper["learning_rate"])


# -- the base class ---------------------------------------------------------------------


def _as_var(v: Any) -> Variable:
    if isinstance(v, Variable):
        return v
    try:
        return _as_variable(v)
    except TypeError:
        raise TypeError(f"Argument is not a tf.Variable: {v!r:.80}") from None


def _var_iterable(var_list: Any) -> list[Any]:
    """``var_list`` as a list: one variable, any iterable of them (list,
    tuple, set, generator, ``dict.values()``), or a dict (its values in key
    order, as ``tf.nest.flatten``)."""
    if isinstance(var_list, Mapping):
        return [var_list[k] for k in sorted(var_list)]
    if isinstance(var_list, Variable | Tensor | Operation | str) or not isinstance(var_list, Iterable):
        return [var_list]
    return list(var_list)


def _leaf_field(path: Sequence[Any]) -> str:
    """The last named field in a key path (``'mu'`` for ``[0].mu['p3']``)."""
    for k in reversed(path):
        name = getattr(k, "name", None)
        if isinstance(name, str):
            return name
    return jax.tree_util.keystr(tuple(path)).strip(".[]'") or "state"


class Optimizer:
    """Base class of the optimizers, as ``tf.compat.v1.train.Optimizer``.

    A subclass says which optax transformation it is by :meth:`_spec` (a
    :class:`TransformationSpec`) and the values of its hyperparameters by
    :meth:`_hyper`; it never writes update math. ``SLOT_NAMES`` maps optax
    state fields to TF1 slot names (``{'mu': 'm', 'nu': 'v'}`` for Adam); its
    order is the order slots are created, which fixes the ``_1``, ``_2``
    suffixes of their variable names as in TF1.

    Args:
      use_locking: accepted for compatibility (updates are one pure op).
      name: the name of the optimizer's ops and the suffix of its slot names.

    Raises:
      ValueError: ``name`` is empty.
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    SLOT_NAMES: ClassVar[dict[str, str]] = {}
    # optax state fields that are not per-parameter -> their variable's name
    # (default ``'<Optimizer>/<field>'``), e.g. Adam's ``beta1_power``.
    NON_SLOT_NAMES: ClassVar[dict[str, str]] = {}

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        # slot name -> {variable op -> slot Variable}
        self._slots: dict[str, dict[Operation, Variable]] = {}
        # (graph, field) -> non-slot Variable
        self._non_slots: dict[tuple[Any, str], Variable] = {}

    def get_name(self) -> str:
        return self._name

    # -- subclass hooks -----------------------------------------------------------

    def _spec(self) -> TransformationSpec:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} must define _spec()")

    def _hyper(self) -> dict[str, Any]:
        """Hyperparameter name -> value (a number, a tensor, or a callable giving one)."""
        raise NotImplementedError(f"{type(self).__name__} must define _hyper()")  # pragma: no cover

    # -- the TF1 API ----------------------------------------------------------------

    def minimize(
        self,
        loss: Any,
        global_step: Any = None,
        var_list: Any = None,
        gate_gradients: int = GATE_OP,
        aggregation_method: Any = None,
        colocate_gradients_with_ops: bool = False,
        name: str | None = None,
        grad_loss: Any = None,
    ) -> Operation:
        """``compute_gradients`` then ``apply_gradients``, as ``tf.compat.v1.train.Optimizer.minimize``.

        Args:
          loss: the tensor to minimise.
          global_step: optional variable incremented by one after the update.
          var_list: the variables to update (default: trainable variables).
          name: name of the returned op (default: the optimizer's name).
          grad_loss: optional cotangent of ``loss``.

        Returns:
          The train op: an ``Operation`` that updates ``var_list`` (and
          increments ``global_step``).

        Raises:
          ValueError: no variables to optimise, a variable that is not of a
            float dtype, or no variable has a gradient (names them and the loss).
        """
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss,
        )
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                f"support gradients, between variables {[v.name for _, v in grads_and_vars]} "
                f"and loss {loss}."
            )
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(
        self,
        loss: Any,
        var_list: Any = None,
        gate_gradients: int = GATE_OP,
        aggregation_method: Any = None,
        colocate_gradients_with_ops: bool = False,
        grad_loss: Any = None,
    ) -> list[tuple[Any, Variable]]:
        """Gradients of ``loss`` for each variable, as ``tf.compat.v1.train.Optimizer.compute_gradients``.

        Args:
          loss: the tensor to differentiate (non-scalar losses are summed).
          var_list: variables (default: ``GraphKeys.TRAINABLE_VARIABLES``).
          grad_loss: optional cotangent of ``loss``.

        Returns:
          A list of ``(gradient, variable)``; the gradient is ``None`` for a
          variable ``loss`` does not depend on.

        Raises:
          RuntimeError: inside an ``EagerSession``.
          ValueError: no variables, or one with a gradient that is not of a float dtype.
        """
        if executing_eagerly() or callable(loss) and not isinstance(loss, Tensor):
            raise RuntimeError(
                "jaxsess optimizers build graphs: call minimize/compute_gradients with a loss "
                "tensor outside an EagerSession (use optax directly for eager training)."
            )
        loss = convert_to_tensor(loss)
        if var_list is None:
            with loss.graph.as_default():
                var_list = trainable_variables()
        else:
            var_list = [_as_var(v) for v in _var_iterable(var_list)]
        if not var_list:
            raise ValueError("No variables to optimize.")
        seen: set[Operation] = set()
        unique = []
        for v in var_list:
            if v.op not in seen:
                seen.add(v.op)
                unique.append(v)
        grads = _gradients(loss, unique, grad_ys=None if grad_loss is None else [grad_loss])
        # As TF: only variables the loss reaches must be floats (a trainable
        # `tf.Variable(0)` counter next to the model gets a None gradient).
        self._check_dtypes([v for g, v in zip(grads, unique, strict=True) if g is not None])
        return list(zip(grads, unique, strict=True))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Operation:
        """Applies gradients to variables, as ``tf.compat.v1.train.Optimizer.apply_gradients``.

        Args:
          grads_and_vars: ``(gradient, variable)`` pairs (from
            :meth:`compute_gradients`, possibly transformed). Pairs with a
            ``None`` gradient are skipped.
          global_step: optional variable incremented by one after the update.
          name: name of the returned op (default: the optimizer's name).

        Returns:
          The train op (an ``Operation``), also added to ``GraphKeys.TRAIN_OP``.

        Raises:
          ValueError: no pairs, no gradient at all, a variable twice, or a
            gradient whose shape or dtype differs from its variable's.
          TypeError: a pair's second element is not a variable.
        """
        pairs = list(grads_and_vars)
        if not pairs:
            raise ValueError("No variables provided.")
        live: list[tuple[Any, Variable]] = []
        seen: set[Operation] = set()
        for pair in pairs:
            try:
                g, v = pair
            except (TypeError, ValueError):
                raise TypeError(f"grads_and_vars must be a list of (gradient, variable) pairs; got {pair!r:.80}") from None
            v = _as_var(v)
            if v.op in seen:
                raise ValueError(f"Variable {v.name} appears more than once in grads_and_vars.")
            seen.add(v.op)
            if g is not None:
                live.append((g, v))
        if not live:
            raise ValueError(f"No gradients provided for any variable: {[_as_var(v).name for _, v in pairs]}.")
        self._check_dtypes([v for _, v in live])
        graph = live[0][1].graph
        with graph.as_default(), graph.name_scope(name or self._name) as scope:
            grads = []
            for g, v in live:
                try:
                    t = convert_to_tensor(g, dtype=v.dtype)
                except ValueError as e:
                    raise ValueError(f"Gradient for variable {v.name} has the wrong dtype: {e}") from None
                if not t.shape.is_compatible_with(v.shape):
                    raise ValueError(
                        f"Gradient for variable {v.name} has shape {t.shape}, the variable has shape {v.shape}."
                    )
                grads.append(t)
            params = [v for _, v in live]
            spec = self._spec()
            hyper_tensors = self._hyper_tensors(spec)
            treedef, slot_vars, owners = self._make_slots(graph, spec, hyper_tensors, params)
            outs = apply_op(
                "OptaxUpdate",
                [*hyper_tensors, *grads, *[v.op.outputs[0] for v in params], *[s.op.outputs[0] for s in slot_vars]],
                {"spec": spec, "treedef": treedef, "n_params": len(params)},
            )
            outs = list(outs) if isinstance(outs, list) else [outs]
            new_slots = outs[len(params):]
            updates = []
            for i, (v, new) in enumerate(zip(params, outs[:len(params)], strict=True)):
                with graph.name_scope("update_" + v.op.name), graph.colocate_with(v.op):  # as TF1
                    if v.constraint is not None:  # TF: var.assign(var.constraint(var)) after the update
                        new = v.constraint(new)
                    updates.append(v.assign(new))
                    updates += [s.assign(t) for s, t, o in zip(slot_vars, new_slots, owners, strict=True) if o == i]
            updates += [s.assign(t) for s, t, o in zip(slot_vars, new_slots, owners, strict=True) if o is None]
            if global_step is None:
                train_op = group(*updates, name=scope)
            else:
                step = _as_var(global_step)
                with graph.control_dependencies([group(*updates, name="update")]), graph.colocate_with(step.op):
                    train_op = step.assign_add(1, name=scope).op
        if train_op not in graph.get_collection(GraphKeys.TRAIN_OP):
            graph.add_to_collection(GraphKeys.TRAIN_OP, train_op)
        return train_op

    def get_slot(self, var: Any, name: str) -> Variable | None:
        """The slot ``name`` of ``var`` (e.g. Adam's ``'m'``), or ``None``."""
        table = self._slots.get(name)
        if table is None:
            return None
        return table.get(_as_var(var).op)

    def get_slot_names(self) -> list[str]:
        """The names of the slots this optimizer has created, sorted."""
        return sorted(self._slots)

    def variables(self) -> list[Variable]:
        """Every variable this optimizer created (slots and non-slots), sorted by name."""
        out = [v for table in self._slots.values() for v in table.values()]
        out += list(self._non_slots.values())
        return sorted(out, key=lambda v: v.name)

    # -- internals ---------------------------------------------------------------------

    @staticmethod
    def _check_dtypes(var_list: Sequence[Variable]) -> None:
        for v in var_list:
            if v.dtype not in _FLOAT_DTYPES:
                raise ValueError(
                    f"Invalid type {v.dtype.name} for {v.op.name}, expected: "
                    f"{[d.name for d in _FLOAT_DTYPES]}."
                )
            if not v.shape.is_fully_defined():
                raise ValueError(
                    f"Variable {v.op.name} has shape {v.shape}: jaxsess optimizers need fully defined "
                    "variable shapes (their slots are variables of the same shape)."
                )

    def _hyper_tensors(self, spec: TransformationSpec) -> list[Tensor]:
        values = self._hyper()
        out = []
        for k in spec.hyper_names:
            v = values[k]
            if callable(v) and not isinstance(v, Tensor | Variable):
                v = v()
            t = convert_to_tensor(v, name=k) if isinstance(v, Tensor | Variable) else convert_to_tensor(
                np.asarray(v, dtype=np.float32), name=k
            )
            if t.shape.ndims not in (None, 0):
                raise ValueError(f"Hyperparameter {k} of {self._name} must be a scalar; got shape {t.shape}.")
            out.append(t)
        return out

    def _make_slots(
        self, graph: Any, spec: TransformationSpec, hyper_tensors: Sequence[Tensor], params: Sequence[Variable]
    ) -> tuple[Any, list[Variable], list[int | None]]:
        """The optax state's treedef, one variable per state leaf (created or
        reused) and, per leaf, the index of the parameter it belongs to (or None)."""
        keys = _param_keys(len(params))
        zeros = {
            k: np.zeros(tuple(int(d or 0) for d in v.shape.as_list()), dtype=v.dtype.np_dtype)
            for k, v in zip(keys, params, strict=True)
        }
        init_hyper = {}
        for k, t in zip(spec.hyper_names, hyper_tensors, strict=True):
            c = constant_value(t)
            init_hyper[k] = np.float32(0.0 if c is None else c)
        state = _optax_init(spec, init_hyper, zeros)
        leaves_with_path, treedef = jax.tree_util.tree_flatten_with_path(state)
        key_set = set(keys)

        def param_key(k: Any) -> str | None:
            key = getattr(k, "key", None)
            return key if isinstance(key, str) and key in key_set else None

        # Classify leaves: (parameter index or None, field, path without the parameter key).
        info: list[tuple[int | None, str, str]] = []
        for path, _ in leaves_with_path:
            found = [key for key in (param_key(k) for k in path) if key is not None]
            idx = keys.index(found[0]) if found else None
            rest = jax.tree_util.keystr(tuple(k for k in path if param_key(k) is None))
            info.append((idx, _leaf_field(path), rest))
        # Field -> TF1 slot name; a field that repeats across the chain is named by its path.
        field_paths: dict[str, set[str]] = {}
        for _, fld, rest in info:
            field_paths.setdefault(fld, set()).add(rest)
        names = []
        for _, fld, rest in info:
            if len(field_paths[fld]) > 1:
                names.append(re.sub(r"[^A-Za-z0-9_.]+", "_", rest).strip("_."))
            else:
                names.append(self.SLOT_NAMES.get(fld, fld))
        order = {n: i for i, n in enumerate(self.SLOT_NAMES.values())}
        leaf_vars: list[Variable | None] = [None] * len(info)
        # Non-slot variables first (as TF1 creates Adam's beta1_power/beta2_power before its slots) ...
        for j, (idx, fld, _) in enumerate(info):
            if idx is None:
                leaf_vars[j] = self._non_slot(graph, self.NON_SLOT_NAMES.get(fld, f"{self._name}/{names[j]}"),
                                              leaves_with_path[j][1])
        # ... then the slots: per variable, in TF1 slot order (fixes the _1, _2 name suffixes).
        for i, v in enumerate(params):
            mine = [j for j, (idx, _, _) in enumerate(info) if idx == i]
            mine.sort(key=lambda j: (order.get(names[j], len(order)), j))
            for j in mine:
                leaf_vars[j] = self._slot(graph, v, names[j], leaves_with_path[j][1])
        return treedef, [v for v in leaf_vars if v is not None], [idx for idx, _, _ in info]

    def _slot(self, graph: Any, var: Variable, slot_name: str, init: Any) -> Variable:
        table = self._slots.setdefault(slot_name, {})
        s = table.get(var.op)
        if s is None:
            dtype = _dtypes.as_dtype(np.asarray(init).dtype)
            with graph.name_scope(None), graph.control_dependencies(None), graph.device(var.device or None):
                s = Variable(_initial_value(init), trainable=False, name=f"{var.op.name}/{self._name}", dtype=dtype)
            table[var.op] = s
        elif tuple(s.shape.as_list()) != tuple(np.shape(init)):  # pragma: no cover - a changed variable shape
            raise ValueError(f"Slot {slot_name} of {var.op.name} has shape {s.shape}, expected {np.shape(init)}.")
        return s

    def _non_slot(self, graph: Any, name: str, init: Any) -> Variable:
        key = (graph, name)
        s = self._non_slots.get(key)
        if s is None:
            dtype = _dtypes.as_dtype(np.asarray(init).dtype)
            with graph.name_scope(None), graph.control_dependencies(None):
                s = Variable(_initial_value(init), trainable=False, name=name, dtype=dtype)
            self._non_slots[key] = s
        return s


# -- the TF1 optimizers -----------------------------------------------------------------


class GradientDescentOptimizer(Optimizer):
    """``var -= learning_rate * grad``, as ``tf.compat.v1.train.GradientDescentOptimizer``.

    Built on ``optax.sgd(learning_rate)``; identical to TF1. No slots.

    Args:
      learning_rate: a float, a scalar tensor (fed, or a schedule such as
        :func:`exponential_decay`), or a callable returning one.
      name: op name prefix (default ``'GradientDescent'``).
    """

    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_sgd, ("learning_rate",))

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}


class MomentumOptimizer(Optimizer):
    """Momentum SGD, as ``tf.compat.v1.train.MomentumOptimizer``.

    ``accum = momentum * accum + grad``; ``var -= lr * accum`` (Nesterov:
    ``var -= lr * (grad + momentum * accum)``). Built on
    ``optax.sgd(lr, momentum, nesterov)``, whose ``trace`` is exactly TF1's
    accumulator; identical to TF1. Slot: ``'momentum'`` (zeros).

    Args:
      learning_rate: float, scalar tensor or callable.
      momentum: float or scalar tensor.
      use_nesterov: use Nesterov momentum.
      name: default ``'Momentum'``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"trace": "momentum"}

    def __init__(
        self, learning_rate: Any, momentum: Any, use_locking: bool = False, name: str = "Momentum",
        use_nesterov: bool = False,
    ) -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_momentum, ("learning_rate", "momentum"), (("use_nesterov", self._use_nesterov),))

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate, "momentum": self._momentum}


class AdamOptimizer(Optimizer):
    """Adam, as ``tf.compat.v1.train.AdamOptimizer``.

    TF1: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g^2``,
    ``var -= lr_t * m / (sqrt(v) + epsilon)``, computed in the order of TF's
    ``ApplyAdam`` kernel (``epsilon`` is the paper's "epsilon hat"). Like
    TF1 it keeps the running products in two float32 non-slot variables
    ``beta1_power`` and ``beta2_power`` (initialised to ``beta1``/``beta2``,
    created before the slots, so variable lists and checkpoints match TF's).
    Slots: ``'m'`` and ``'v'`` (zeros).

    Args:
      learning_rate, beta1, beta2, epsilon: floats or scalar tensors.
      name: default ``'Adam'``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"mu": "m", "nu": "v"}
    NON_SLOT_NAMES: ClassVar[dict[str, str]] = {"beta1_power": "beta1_power", "beta2_power": "beta2_power"}

    def __init__(
        self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-08,
        use_locking: bool = False, name: str = "Adam",
    ) -> None:
        super().__init__(use_locking, name)
        self._hyper_values = {"learning_rate": learning_rate, "beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_adam, ("learning_rate", "beta1", "beta2", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)


class RMSPropOptimizer(Optimizer):
    """RMSProp, as ``tf.compat.v1.train.RMSPropOptimizer``.

    TF1: ``ms = decay ms + (1 - decay) g^2`` (``ms`` starts at ones),
    ``mom = momentum mom + lr g / sqrt(ms + epsilon)``, ``var -= mom``;
    centered: ``mg = decay mg + (1 - decay) g`` and the denominator is
    ``sqrt(ms - mg^2 + epsilon)``. Built from the pieces of ``optax.rmsprop``
    (``scale_by_rms``/``scale_by_stddev`` with ``initial_scale=1.0``,
    ``eps_in_sqrt=True``, then the learning rate and a ``trace``), which
    compute the same thing; the trace is kept as TF1's ``mom``.
    Identical to TF1 up to float rounding. Slots: ``'rms'`` (ones),
    ``'mg'`` (centered only, zeros), ``'momentum'`` (zeros; present even
    when ``momentum=0``, as TF1).

    Args:
      learning_rate, decay, momentum, epsilon: floats or scalar tensors.
      centered: normalise by the centered second moment.
      name: default ``'RMSProp'``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"nu": "rms", "mu": "mg", "trace": "momentum"}

    def __init__(
        self, learning_rate: Any, decay: Any = 0.9, momentum: Any = 0.0, epsilon: Any = 1e-10,
        use_locking: bool = False, centered: bool = False, name: str = "RMSProp",
    ) -> None:
        super().__init__(use_locking, name)
        self._hyper_values = {"learning_rate": learning_rate, "decay": decay, "momentum": momentum, "epsilon": epsilon}
        self._centered = bool(centered)

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(
            _build_rmsprop, ("learning_rate", "decay", "momentum", "epsilon"), (("centered", self._centered),)
        )

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)


class AdagradOptimizer(Optimizer):
    """Adagrad, as ``tf.compat.v1.train.AdagradOptimizer``.

    TF1: ``accum += g^2``; ``var -= lr g / sqrt(accum)``, ``accum`` starting
    at ``initial_accumulator_value``. Built on ``optax.adagrad(lr,
    initial_accumulator_value, eps=0.0)``; identical to TF1 (optax's
    ``eps`` is set to 0 because TF1 adds none). Slot: ``'accumulator'``.

    Args:
      learning_rate: float or scalar tensor.
      initial_accumulator_value: a positive float (fixed at graph-build time).
      name: default ``'Adagrad'``.

    Raises:
      ValueError: ``initial_accumulator_value`` is not positive.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"sum_of_squares": "accumulator"}

    def __init__(
        self, learning_rate: Any, initial_accumulator_value: float = 0.1, use_locking: bool = False,
        name: str = "Adagrad",
    ) -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = float(initial_accumulator_value)

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(
            _build_adagrad, ("learning_rate",), (("initial_accumulator_value", self._initial_accumulator_value),)
        )

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}


class OptaxOptimizer(Optimizer):
    """Any optax transformation as a TF1-style optimizer (a jaxsess extension).

    Args:
      transformation: ``fn(learning_rate) -> optax.GradientTransformation``;
        ``learning_rate`` is a scalar array (the value of the
        ``learning_rate`` tensor in this run). Keep it the same function
        object between graphs to share compiled shapes.
      learning_rate: float, scalar tensor or callable.
      slot_names: optional map from optax state field to slot name.
      name: default ``'Optax'``.

    Slot initial values are ``tx.init`` of zeros: transformations whose
    state copies the parameters (e.g. lookahead) start from zeros here.

    Example:
      >>> import optax, jaxsess as tf  # doctest: +SKIP
      >>> opt = tf.train.OptaxOptimizer(lambda lr: optax.lion(lr), 1e-4)  # doctest: +SKIP
    """

    def __init__(
        self, transformation: Callable[[Any], optax.GradientTransformation], learning_rate: Any,
        slot_names: dict[str, str] | None = None, name: str = "Optax",
    ) -> None:
        super().__init__(False, name)
        self._fn = transformation
        self._learning_rate = learning_rate
        self.SLOT_NAMES = dict(slot_names or {})  # type: ignore[misc]

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_user, ("learning_rate",), (("fn", self._fn),))

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}
