"""The op registry: one entry per op type, written once.

An :class:`OpDef` holds the op's JAX implementation, its number of outputs
and whether it is stateful. The graph builder infers output shapes and dtypes
by ``jax.eval_shape`` on the implementation (cached per input signature;
under JAX's scoped x64 mode when an input or attribute is 64-bit, so graph
tensors report TF's 64-bit dtypes); the
lowering calls the implementation inside the traced plan function; the eager
executor calls it (jitted per attribute set) on concrete arrays; gradients and
export see only the traced result.

Implementations:

* plain ops: ``impl(*input_values, **attrs) -> value | tuple[value, ...]``;
* stateful ops: ``impl(ctx, *input_values, **attrs)`` where ``ctx`` gives
  access to variable state and randomness (see ``_lowering.RunContext``);
* ops the lowering evaluates itself (placeholders, control flow, gradients)
  set ``lowering`` to a function ``(evaluator, op, input_values) -> outputs``.
"""

from __future__ import annotations

import inspect
import itertools
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.export  # a submodule that older `import jax` does not load
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._host import string_input_specs
from jaxsess._core.graph._shape import TensorShape

__all__ = [
    "OpDef", "TFOp", "register_op", "get_op_def", "infer_output_specs", "OutputSpec", "REGISTRY",
    "tf_op_def", "tf_type_to_op", "ShapeContext", "InputSpec",
]

OutputSpec = tuple[TensorShape, _dtypes.DType]
InputSpec = tuple[tuple[int | None, ...] | None, _dtypes.DType]
"""What shape inference sees of one input: its static shape (``None``: unknown rank) and dtype."""

ToTF = Callable[[dict[str, Any], Sequence[OutputSpec]], tuple[dict[str, Any], list[np.ndarray]]]
FromTF = Callable[[dict[str, Any], list[np.ndarray]], dict[str, Any]]


@dataclass(frozen=True)
class TFOp:
    """How a registered op is written in TensorFlow's ``GraphDef`` (see ``graph/_graph_def.py``).

    Attributes:
      op: TF's op type (default: the registered type, which is TF's name
        for most ops: ``'MatMul'``, ``'AddV2'``).
      types: TF's type attributes, derived from dtypes: ``{attr: i}`` is
        the dtype of TF input ``i`` (``i < 0``: of output ``-1 - i``).
        Default: ``{'T': 0}`` for an op with inputs. They are dropped on
        import (the inputs give them).
      to_tf: ``(our attrs, input specs) -> (TF attrs, trailing constant
        inputs)``: TF attribute values as Python values (``bool``, ``int``,
        ``float``, ``str``, ``DType``, ``TensorShape``, NumPy arrays,
        tuples of those); the constant inputs (Mean's reduction axes,
        Reshape's shape) become ``Const`` nodes. Default: our attrs as they
        are, under the same names.
      from_tf: ``(TF attrs without the type attrs, values of the trailing
        constant inputs) -> our attrs``. Default: the TF attrs that the
        implementation takes as keyword arguments.
      n_const: how many trailing TF inputs are constants folded into attrs.
      const_pos: where the constant inputs go among TF's inputs: after
        this many data inputs (``-1``, the default: after all of them;
        ``0``: first, as ``Fill(dims, value)``; ``1``: ``Pad(x, paddings, value)``).
      shapes: TF's outputs have our shapes (``_output_shapes`` is written);
        false for summary ops (TF: a string scalar).
      also: other TF op types read as this op (``VarHandleOp`` as
        ``VariableV2``: TF2's resource variables as TF1's variables).

    Export checks ``from_tf(to_tf(attrs)) == attrs``; where that does not
    hold (attributes TF has no place for), the exact attrs travel in a
    private ``_jaxsess_attrs`` attribute too, which TF ignores, so every
    registered op round-trips.
    """

    op: str | None = None
    types: Mapping[str, int] | None = None
    to_tf: ToTF | None = None
    from_tf: FromTF | None = None
    n_const: int = 0
    const_pos: int = -1
    also: tuple[str, ...] = ()
    shapes: bool = True


@dataclass(frozen=True, eq=False)
class OpDef:
    """One registered op type.

    Attributes:
      type: the op type name (``'AddV2'``, ``'MatMul'``).
      impl: the JAX implementation (see the module docstring).
      num_outputs: an int, or a function of the attrs giving it.
      stateful: ``impl`` takes a run context first (variables, randomness).
      graph_only: cannot execute eagerly (``Placeholder``).
      default_name: TF1's default node name (``'add'`` for ``AddV2``).
      infer: optional ``(input_specs, attrs) -> list[OutputSpec]``, used
        instead of ``jax.eval_shape`` (stateful ops, placeholders, consts).
      lowering: optional ``(evaluator, op, input_values) -> outputs`` for ops
        the lowering evaluates itself (control flow, gradients).
      jittable: the eager executor may ``jax.jit`` the impl per attrs.
      ref_inputs: input positions that are variable references: the
        implementation gets the variable's op there, not its value.
      reads_ref: the op reads the variable at ``ref_inputs[0]`` (AssignAdd).
      reads_current: the op is an update of the variables it takes as
        (non-reference) inputs: it reads each one's value when it runs, after
        the run's earlier writes (in creation order), as TF's in-place
        ``Apply*`` kernels do (an optimizer's step), not the start-of-run value.
      writes_ref: the op assigns the variable at ``ref_inputs[0]``.
      random: the op draws from ``ctx.rng_key()`` (a per-op counter).
      host_output: optional ``(value as a NumPy array, op) -> Python value``
        applied on the host to the op's fetched output after the run
        (summary ops: the value is computed on the device, the ``Summary``
        proto serialized here). Such an op's string outputs (its ``infer``
        gives TF's dtype) are not host values: they feed only ops that
        take the device value (``MergeSummary``).
      tf: how the op is written in TF's ``GraphDef`` (:class:`TFOp`).
    """

    type: str
    impl: Callable[..., Any]
    num_outputs: int | Callable[[dict[str, Any]], int] = 1
    stateful: bool = False
    graph_only: bool = False
    default_name: str = ""
    infer: Callable[..., list[OutputSpec]] | None = None
    lowering: Callable[..., Any] | None = None
    jittable: bool = True
    ref_inputs: tuple[int, ...] = ()
    reads_ref: bool = False
    reads_current: bool = False
    writes_ref: bool = False
    random: bool = False
    tf: TFOp = field(default_factory=TFOp)
    host_output: Callable[[Any, Any], Any] | None = None
    doc: str = field(default="", repr=False)

    def n_outputs(self, attrs: dict[str, Any]) -> int:
        n = self.num_outputs
        return n(attrs) if callable(n) else n

    def __hash__(self) -> int:
        return hash(self.type)


REGISTRY: dict[str, OpDef] = {}


def register_op(
    type: str,
    *,
    num_outputs: int | Callable[[dict[str, Any]], int] = 1,
    stateful: bool = False,
    graph_only: bool = False,
    default_name: str | None = None,
    infer: Callable[..., list[OutputSpec]] | None = None,
    lowering: Callable[..., Any] | None = None,
    jittable: bool = True,
    ref_inputs: tuple[int, ...] = (),
    reads_ref: bool = False,
    reads_current: bool = False,
    writes_ref: bool = False,
    random: bool = False,
    tf: TFOp | None = None,
    host_output: Callable[[Any, Any], Any] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator registering ``impl`` as op type ``type``; returns ``impl``.

    ``tf`` says how the op is written in TF's ``GraphDef`` (:class:`TFOp`;
    default: TF's op of the same name, attributes as they are).

    Raises:
      ValueError: ``type`` is already registered.
    """

    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:
        if type in REGISTRY:
            raise ValueError(f"Op type {type!r} is already registered.")
        REGISTRY[type] = OpDef(
            type=type,
            impl=impl,
            num_outputs=num_outputs,
            stateful=stateful,
            graph_only=graph_only,
            default_name=default_name or _snake(type),
            infer=infer,
            lowering=lowering,
            jittable=jittable and not stateful and lowering is None,
            ref_inputs=ref_inputs,
            reads_ref=reads_ref,
            reads_current=reads_current,
            writes_ref=writes_ref,
            random=random,
            tf=tf or TFOp(),
            host_output=host_output,
            doc=impl.__doc__ or "",
        )
        if tf is not None and tf.op is not None:
            _BY_TF_TYPE[tf.op] = type
        for alias in tf.also if tf is not None else ():
            _BY_TF_TYPE[alias] = type
        return impl

    return deco


def get_op_def(type: str) -> OpDef:
    """The :class:`OpDef` of ``type``.

    Raises:
      KeyError: no op of that type is registered (names it).
    """
    try:
        return REGISTRY[type]
    except KeyError:
        raise KeyError(f"No op type {type!r} is registered in jaxsess.") from None


_BY_TF_TYPE: dict[str, str] = {}


def tf_type_to_op(tf_type: str) -> OpDef | None:
    """The registered op that reads TF's ``tf_type``: the op of that name, else the op written
    as it (``None`` if none is)."""
    return REGISTRY.get(tf_type) or REGISTRY.get(_BY_TF_TYPE.get(tf_type, ""))


def tf_op_def(op_def: OpDef) -> TFOp:
    """``op_def``'s TF mapping with its defaults filled in (``op``, ``to_tf``, ``from_tf``)."""
    m = op_def.tf
    return TFOp(
        op=m.op or op_def.type,
        types=m.types,
        to_tf=m.to_tf or _attrs_as_they_are,
        from_tf=m.from_tf or _keyword_attrs(op_def.impl),
        n_const=m.n_const,
        const_pos=m.const_pos,
        shapes=m.shapes,
    )


def _attrs_as_they_are(attrs: dict[str, Any], specs: Sequence[OutputSpec]) -> tuple[dict[str, Any], list[np.ndarray]]:
    return dict(attrs), []


def _keyword_attrs(impl: Callable[..., Any]) -> FromTF:
    params: list[inspect.Parameter]
    try:
        params = list(inspect.signature(impl).parameters.values())
    except (TypeError, ValueError):  # builtins without a signature: keep every attr
        params = []
    if any(p.kind is p.VAR_KEYWORD for p in params) or not params:
        names = None
    else:
        names = {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}

    def from_tf(tf_attrs: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
        return {k: v for k, v in tf_attrs.items() if names is None or k in names}

    return from_tf


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


# -- shape and dtype inference ------------------------------------------------

_infer_cache: dict[Any, list[OutputSpec]] = {}
_MAX_CACHE = 100_000


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return ("nd", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, Tensor):
        # A weak reference, not id(): a freed tensor's id is reused by a new
        # one, and a dead reference equals only itself, so the key never goes stale.
        return ("tensor", weakref.ref(value))
    hash(value)
    return value


def _spec_of(t: Tensor) -> InputSpec:
    return t.shape.as_tuple(), t.dtype


def infer_output_specs(op_def: OpDef, inputs: Sequence[Tensor], attrs: dict[str, Any]) -> list[OutputSpec]:
    """Output shapes and dtypes of ``op_def`` applied to ``inputs`` (Tensors).

    Uses ``op_def.infer`` when given, else ``jax.eval_shape`` on the
    implementation: unknown dimensions become symbolic dimensions; if that
    fails, two concrete trials (unknown dims as 5, then 7) tell the dims that
    depend on them; as a last resort the shape is unknown.

    Raises:
      ValueError: the op cannot apply to inputs of these shapes and dtypes
        (names the op type, the input shapes and JAX's reason).
      TypeError: a string input to an op that does not run on the host.
    """
    # strings are host values (graph/_host), but for a summary's (made on the host after the run)
    if any(t.dtype == _dtypes.string and t.op._op_def.host_output is None for t in inputs):
        return string_input_specs(op_def.type, inputs, attrs)
    specs = [_spec_of(t) for t in inputs]
    if op_def.infer is not None:
        return op_def.infer(specs, attrs)
    try:
        key: Any = (op_def.type, tuple((s, d.name) for s, d in specs), _freeze(attrs))
    except TypeError:
        key = None
    if key is not None:
        hit = _infer_cache.get(key)
        if hit is not None:
            return hit
    if any(_dtypes.is_64bit(d) for _, d in specs) or _wide_attrs(attrs):
        with _dtypes.x64_scope():  # 64-bit graph tensors: infer as the plan will trace
            out = _infer_by_eval_shape(op_def, specs, attrs)
    else:
        out = _infer_by_eval_shape(op_def, specs, attrs)
    if key is not None:
        if len(_infer_cache) > _MAX_CACHE:
            _infer_cache.clear()
        _infer_cache[key] = out
    return out


def _wide_attrs(attrs: dict[str, Any]) -> bool:
    """Whether an attribute names a 64-bit dtype or holds a 64-bit array."""
    for v in attrs.values():
        if isinstance(v, _dtypes.DType):
            if _dtypes.is_64bit(v):
                return True
        elif isinstance(v, np.ndarray | np.generic):
            if _dtypes.is_64bit(v.dtype):
                return True
    return False


class ShapeContext:
    """The run context seen by ``jax.eval_shape`` during shape inference."""

    def rng_key(self, *seeds: int) -> jax.Array:
        return jax.random.key(0)

    def rng_stream(self, seed: int, seed2: int, n: int) -> np.uint32:
        return np.uint32(0)

    def read_variable(self, var_op: Operation | None = None) -> jax.Array:  # pragma: no cover - vars infer by attrs
        raise NotImplementedError

    def assign_variable(self, var_op: Operation, value: jax.Array) -> jax.Array:
        return value


def _call_for_shapes(op_def: OpDef, attrs: dict[str, Any]) -> Callable[..., Any]:
    if op_def.stateful:
        def f(*xs: jax.Array) -> Any:
            return op_def.impl(ShapeContext(), *xs, **attrs)

        return f

    def g(*xs: jax.Array) -> Any:
        return op_def.impl(*xs, **attrs)

    return g


def _to_specs(out: Any, n: int) -> list[tuple[tuple[Any, ...], Any]]:
    leaves = list(out) if n != 1 or isinstance(out, list) else [out]
    if n != 1 and len(leaves) != n:
        raise ValueError(f"expected {n} outputs, implementation gave {len(leaves)}")
    return [(tuple(x.shape), x.dtype) for x in leaves]


def _infer_by_eval_shape(
    op_def: OpDef, specs: list[tuple[Any, _dtypes.DType]], attrs: dict[str, Any]
) -> list[OutputSpec]:
    has_unknown_rank = any(s is None for s, _ in specs)
    if has_unknown_rank:
        return _infer_unknown_rank(op_def, specs, attrs)
    n = op_def.n_outputs(attrs)
    f = _call_for_shapes(op_def, attrs)
    has_unknown = any(s is None or any(d is None for d in s) for s, _ in specs)
    if not has_unknown:
        args = [jax.ShapeDtypeStruct(s, d.np_dtype) for s, d in specs]
        try:
            res = _to_specs(jax.eval_shape(f, *args), n)
        except Exception as e:  # a real shape/dtype error
            raise _shape_error(op_def, specs, e) from None
        return [(TensorShape(s), _dtypes.as_dtype(d)) for s, d in res]
    if not has_unknown_rank:
        names = (f"_d{i}" for i in itertools.count())
        try:
            args = []
            for s, d in specs:
                sym = ", ".join(next(names) if x is None else str(x) for x in s)
                shape = jax.export.symbolic_shape(f"({sym},)" if len(s) == 1 else f"({sym})") if s else ()
                args.append(jax.ShapeDtypeStruct(shape, d.np_dtype))
            res = _to_specs(jax.eval_shape(f, *args), n)
            return [
                (TensorShape([x if isinstance(x, int) else None for x in s]), _dtypes.as_dtype(d))
                for s, d in res
            ]
        except Exception:
            pass
    trials: list[list[tuple[tuple[Any, ...], Any]] | None] = []
    for fill in (5, 7):
        args = [
            jax.ShapeDtypeStruct((fill,) if s is None else tuple(fill if x is None else x for x in s), d.np_dtype)
            for s, d in specs
        ]
        try:
            trials.append(_to_specs(jax.eval_shape(f, *args), n))
        except Exception:
            trials.append(None)
    a, b = trials
    if a is not None and b is not None and not has_unknown_rank:
        out = []
        for (sa, da), (sb, _) in zip(a, b):
            if len(sa) != len(sb):
                out.append((TensorShape(None), _dtypes.as_dtype(da)))
            else:
                out.append((TensorShape([x if x == y else None for x, y in zip(sa, sb)]), _dtypes.as_dtype(da)))
        return out
    if (a is None or b is None) and not has_unknown_rank:
        known = sorted({x for s, _ in specs if s for x in s if x is not None})
        # One unknown dim may have to equal a known size (conv2d's input
        # channels): pin it, fill the others with 5 and then 7.
        for i, (s, _) in enumerate(specs):
            for j, x in enumerate(s):
                if x is not None:
                    continue
                for size in known:
                    pinned = []
                    for fill in (5, 7):
                        args = [
                            jax.ShapeDtypeStruct(
                                tuple(size if (p, q) == (i, j) else fill if y is None else y for q, y in enumerate(sp)),
                                d.np_dtype,
                            )
                            for p, (sp, d) in enumerate(specs)
                        ]
                        try:
                            pinned.append(_to_specs(jax.eval_shape(f, *args), n))
                        except Exception:
                            break
                    if len(pinned) == 2:
                        return [
                            (
                                TensorShape(None) if len(sa) != len(sb)
                                else TensorShape([u if u == v else None for u, v in zip(sa, sb)]),
                                _dtypes.as_dtype(da),
                            )
                            for (sa, da), (sb, _) in zip(*pinned)
                        ]
        # An unknown dim may have to equal a known one (matmul's contraction,
        # broadcasting against a fixed size): try each known size in turn.
        wins = []
        for fill in known:
            args = [jax.ShapeDtypeStruct(tuple(fill if x is None else x for x in s), d.np_dtype) for s, d in specs]
            try:
                wins.append((fill, _to_specs(jax.eval_shape(f, *args), n)))
            except Exception:
                continue
        if wins:
            fill0, first = wins[0]
            out = []
            for k, (s0, d0) in enumerate(first):
                dims: list[int | None] = []
                for j, x in enumerate(s0):
                    same = all(len(w[k][0]) == len(s0) and w[k][0][j] == x for _, w in wins)
                    dims.append(x if same and (len(wins) > 1 or x != fill0) else None)
                if any(len(w[k][0]) != len(s0) for _, w in wins):
                    out.append((TensorShape(None), _dtypes.as_dtype(d0)))
                else:
                    out.append((TensorShape(dims), _dtypes.as_dtype(d0)))
            return out
    base = a or b
    if base is None:
        args = [
            jax.ShapeDtypeStruct(() if s is None else tuple(1 if x is None else x for x in s), d.np_dtype)
            for s, d in specs
        ]
        try:
            base = _to_specs(jax.eval_shape(f, *args), n)
        except Exception as e:
            raise _shape_error(op_def, specs, e) from None
    return [(TensorShape(None), _dtypes.as_dtype(d)) for _, d in base]


_RANKS = (0, 1, 2, 3, 4, 5)


def _infer_unknown_rank(
    op_def: OpDef, specs: list[tuple[Any, _dtypes.DType]], attrs: dict[str, Any]
) -> list[OutputSpec]:
    """Inputs of unknown rank: infer with each rank in turn (all their dims
    unknown) and keep what every rank that the op accepts agrees on, as TF's
    shape functions do (``conv2d`` only takes rank 4, so its output is
    ``[?, ?, ?, C]``; ``matmul`` takes any rank >= 1, so its output is
    unknown; a full reduction is a scalar whatever the rank).

    Raises:
      ValueError: the op accepts no rank (a dtype error).
    """
    results: list[list[OutputSpec]] = []
    first_error: ValueError | None = None
    for r in _RANKS:
        trial = [((None,) * r if s is None else s, d) for s, d in specs]
        try:
            results.append(_infer_by_eval_shape(op_def, trial, attrs))
        except ValueError as e:
            first_error = first_error or e
    if not results:
        assert first_error is not None
        reason = str(first_error).split("): ", 1)[-1]  # JAX's reason, for the inputs as given
        raise _shape_error(op_def, specs, ValueError(reason))
    out: list[OutputSpec] = []
    for k, (shape0, dtype0) in enumerate(results[0]):
        shape = shape0
        for res in results[1:]:
            other = res[k][0]
            if shape.ndims is None or other.ndims is None or shape.ndims != other.ndims:
                shape = TensorShape(None)
                break
            shape = TensorShape([a if a == b else None for a, b in zip(shape.as_list(), other.as_list())])
        out.append((shape, dtype0))
    return out


def _shape_error(op_def: OpDef, specs: list[tuple[Any, _dtypes.DType]], e: Exception) -> ValueError:
    shown = ", ".join(f"{d.name}{TensorShape(s).tf_str()}" for s, d in specs)
    reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return ValueError(f"Op {op_def.type} cannot take inputs ({shown}): {reason}")
