"""TF1's control-flow frames (control flow v1), rewritten before import.

TF1 writes ``tf.cond`` and ``tf.while_loop`` (control flow v1, and the frozen
RNNs of ``dynamic_rnn``) as dataflow with dead tensors: ``Switch``,
``Merge``, ``Enter``, ``Exit``, ``NextIteration``, ``LoopCond``. A while
loop forms a cycle (``Merge`` <- ``NextIteration``), which a plan cannot
hold. :func:`functionalize` rewrites a ``GraphDef`` into control flow v2,
as TF's own ``functionalize_control_flow`` pass does, and import then reads
the result like any TF 2.x graph (``graph/_tf_function``):

* **conds** — a ``Merge`` outside a loop's head joins the two sides of a
  ``Switch(data, pred)``: each ``Switch`` output becomes its data, and the
  ``Merge`` becomes ``SelectV2(pred, true side, false side)``. Both sides
  are computed (they are pure: TF1's conds in models compute values); the
  side of each ``Merge`` input is the side of the nearest ``Switch`` it
  depends on (through data and control edges, as TF's ``switch_t``/
  ``switch_f`` pivots). A ``Merge`` whose inputs do not come from the two
  sides of one predicate is refused, naming it.
* **while loops** — each frame (the ``Enter`` nodes of one ``frame_name``)
  becomes one ``While`` node: its loop variables are the non-constant
  ``Enter``\\ s (``Enter -> Merge -> Switch(., LoopCond) -> Exit``), its
  invariants the constant ``Enter``\\ s (carried unchanged); the nodes that
  compute ``LoopCond``'s input become the ``cond`` function and the nodes
  that compute the ``NextIteration`` inputs the ``body`` function (added to
  the library, named ``<frame>/cond``, ``<frame>/body``); each ``Exit``
  becomes an ``Identity`` of the ``While``'s output, under its own name.
  Nested frames are rewritten innermost first (the inner ``While`` is then
  a node of the outer frame's body).
* **TensorArrays** (``TensorArray*V3``, as ``dynamic_rnn`` writes them) carry
  their contents in their flow (``graph/_tf_lists``): in a loop the flow is a
  loop variable like any other.

Imports: ``_core`` only (graph/ modules before this one).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tensorboard.compat.proto import function_pb2

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._tf_node import arg_counts, decode_attrs
from jaxsess._core.graph._tf_opset import tf_op_def

__all__ = ["V1_CONTROL_FLOW", "has_v1_control_flow", "functionalize"]

V1_CONTROL_FLOW = frozenset({"Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit",
                             "NextIteration", "RefNextIteration", "LoopCond"})


def has_v1_control_flow(graph_def: Any) -> bool:
    """Whether ``graph_def`` holds TF1 control-flow nodes."""
    return any(n.op in V1_CONTROL_FLOW for n in graph_def.node)


def _split(ref: str) -> tuple[str, int]:
    name, _, idx = ref.lstrip("^").partition(":")
    return name, int(idx) if idx else 0


def _err(node: Any, why: str) -> ValueError:
    return ValueError(f"Invalid graph def: node '{node.name}' (op '{node.op}'): {why}")


def functionalize(graph_def: Any) -> Any:
    """A copy of ``graph_def`` with TF1's conds and while frames rewritten as control flow v2
    (see the module docstring).

    Raises:
      ValueError: a frame or ``Merge`` that does not have the shape TF1 writes, nested
        frames, ``TensorArray``\\ s in a frame (names the node).
    """
    gd = _tfproto.GraphDef()
    gd.CopyFrom(graph_def)
    _rewrite_conds(gd)
    _rewrite_loops(gd)
    return gd


# -- conds --------------------------------------------------------------------------------


def _rewrite_conds(gd: Any) -> None:
    by_name = {n.name: n for n in gd.node}
    loop_conds = {n.name for n in gd.node if n.op == "LoopCond"}
    switches = {n.name: n for n in gd.node if n.op in ("Switch", "RefSwitch")
                and _split(n.input[1])[0] not in loop_conds}
    loop_merge = {n.name for n in gd.node if n.op in ("Merge", "RefMerge")
                  and any(by_name.get(_split(i)[0]) is not None and by_name[_split(i)[0]].op in (
                      "Enter", "RefEnter", "NextIteration", "RefNextIteration") for i in n.input)}
    merges = [n for n in gd.node if n.op in ("Merge", "RefMerge") and n.name not in loop_merge]
    if not switches and not merges:
        return
    for m in merges:
        data = [i for i in m.input if not i.startswith("^")]
        if len(data) != 2:
            raise _err(m, f"a cond's Merge joins two sides; it has {len(data)} inputs")
        sides = [_side(by_name, switches, ref) for ref in data]
        if any(s is None for s in sides):
            raise _err(m, "an input does not depend on a Switch: not a cond TF1 writes")
        (p0, s0), (p1, s1) = sides  # type: ignore[misc]
        if p0 != p1 or s0 == s1:
            raise _err(m, "its inputs do not come from the two sides of one Switch predicate")
        true_ref, false_ref = (data[0], data[1]) if s0 == 1 else (data[1], data[0])
        controls = [i for i in m.input if i.startswith("^")]
        dtype = m.attr["T"].type
        m.op = "SelectV2"
        del m.input[:]
        m.input.extend([p0, true_ref, false_ref, *controls])
        for k in list(m.attr):
            del m.attr[k]
        m.attr["T"].type = dtype
    for n in gd.node:
        if any(_split(i)[0] == m.name and _split(i)[1] == 1 and not i.startswith("^")
               for m in merges for i in n.input):
            raise _err(n, "reads a cond Merge's value_index (output 1), which jaxsess does not support")
    # Each Switch output is its data; control edges on a Switch go to the data's node.
    for n in gd.node:
        new = []
        for i in n.input:
            name, _ = _split(i)
            sw = switches.get(name)
            if sw is None:
                new.append(i)
            elif i.startswith("^"):
                new.append("^" + _split(sw.input[0])[0])
            else:
                new.append(sw.input[0])
        if new != list(n.input):
            del n.input[:]
            n.input.extend(new)
    keep = [n for n in gd.node if n.name not in switches]
    del gd.node[:]
    gd.node.extend(keep)


def _side(by_name: dict[str, Any], switches: dict[str, Any], ref: str) -> tuple[str, int] | None:
    """``(predicate tensor, side)`` of the nearest cond ``Switch`` that ``ref`` depends on."""
    seen: set[str] = set()
    todo: deque[str] = deque([ref])
    while todo:
        r = todo.popleft()
        name, idx = _split(r)
        sw = switches.get(name)
        if sw is not None and not r.startswith("^"):
            return sw.input[1], idx
        if name in seen:
            continue
        seen.add(name)
        node = by_name.get(name)
        if node is None or node.op in ("Merge", "RefMerge") and r is not ref:
            continue
        todo.extend(node.input)
    return None


# -- while loops --------------------------------------------------------------------------


def _frame_of(n: Any) -> str:
    return str(n.attr["frame_name"].s.decode("utf-8", "replace"))


def _rewrite_loops(gd: Any) -> None:
    """Rewrites the frames innermost first: a frame whose nodes hold no other frame's ``Enter``
    becomes a ``While`` node, which its outer frame then holds as an ordinary node."""
    while True:
        frames: dict[str, list[Any]] = {}
        for n in gd.node:
            if n.op in ("Enter", "RefEnter"):
                frames.setdefault(_frame_of(n), []).append(n)
        if not frames:
            return
        by_name = {n.name: n for n in gd.node}
        users = _consumers(gd)
        innermost = None
        for frame, enters in frames.items():
            inside = _frame_nodes(enters, by_name, users)
            if all(_frame_of(n) == frame for n in inside.values() if n.op in ("Enter", "RefEnter")):
                innermost = frame
                break
        if innermost is None:
            raise ValueError(f"Invalid graph def: TF1 while frames {sorted(frames)} nest in each other in a way "
                             "jaxsess cannot order")
        _rewrite_frame(gd, innermost, frames[innermost])


def _frame_nodes(enters: list[Any], by_name: dict[str, Any], users: dict[str, list[Any]]) -> dict[str, Any]:
    """The frame of ``enters``: what they reach, up to (and with) the ``Exit`` nodes."""
    inside: dict[str, Any] = {}
    todo = [e.name for e in enters]
    while todo:
        name = todo.pop()
        if name in inside:
            continue
        node = by_name[name]
        inside[name] = node
        if node.op in ("Exit", "RefExit"):
            continue
        todo.extend(u.name for u in users.get(name, ()))
    return inside


def _consumers(gd: Any) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for n in gd.node:
        for i in n.input:
            out.setdefault(_split(i)[0], []).append(n)
    return out


def _rewrite_frame(gd: Any, frame: str, enters: list[Any]) -> None:
    by_name = {n.name: n for n in gd.node}
    users = _consumers(gd)
    inside = _frame_nodes(enters, by_name, users)
    loop_conds = [n for n in inside.values() if n.op == "LoopCond"]
    if len(loop_conds) != 1:
        raise ValueError(f"Invalid graph def: TF1 while frame '{frame}' has {len(loop_conds)} LoopCond nodes; "
                         "TF writes one")
    loop_cond = loop_conds[0]
    variables: list[Any] = []
    invariants: list[Any] = []
    for e in enters:
        (invariants if e.attr["is_constant"].b else variables).append(e)
    merge_of, switch_of, next_of, exit_of = {}, {}, {}, {}
    for e in variables:
        ms = [u for u in users.get(e.name, ()) if u.op in ("Merge", "RefMerge")]
        if len(ms) != 1:
            raise _err(e, f"a loop variable's Enter feeds one Merge in TF1's frames; it feeds {len(ms)}")
        m = ms[0]
        merge_of[e.name] = m
        nxt = [by_name[_split(i)[0]] for i in m.input if _split(i)[0] != e.name and not i.startswith("^")]
        if len(nxt) != 1 or nxt[0].op not in ("NextIteration", "RefNextIteration"):
            raise _err(m, "a loop Merge joins its Enter and one NextIteration")
        next_of[e.name] = nxt[0]
        sws = [u for u in users.get(m.name, ()) if u.op in ("Switch", "RefSwitch")]
        if len(sws) != 1:
            raise _err(m, f"a loop Merge feeds one Switch; it feeds {len(sws)}")
        switch_of[e.name] = sws[0]
        exits = [u for u in users.get(sws[0].name, ()) if u.op in ("Exit", "RefExit")]
        exit_of[e.name] = exits[0] if exits else None
    carries = variables + invariants
    arg_names = [f"arg{k}" for k in range(len(carries))]
    boundary: dict[tuple[str, int], str] = {}  # (node, output) -> argument, per function
    for k, e in enumerate(carries):
        boundary[(e.name, 0)] = arg_names[k]
    for k, e in enumerate(variables):
        boundary[(merge_of[e.name].name, 0)] = arg_names[k]
        boundary[(switch_of[e.name].name, 1)] = arg_names[k]
    dtypes = [e.attr["T"].type for e in carries]
    skip = {loop_cond.name} | {m.name for m in merge_of.values()} | {s.name for s in switch_of.values()} | {
        n.name for n in next_of.values()} | {x.name for x in exit_of.values() if x is not None} | {
        e.name for e in carries}
    body_names = [f"{frame}/cond", f"{frame}/body"]
    cond_fn = _function(body_names[0], inside, skip, boundary, arg_names, dtypes,
                        [("cond", loop_cond.input[0], _tfproto.types_pb2.DT_BOOL)], by_name)
    body_outs = [(arg_names[k], next_of[e.name].input[0], dtypes[k]) for k, e in enumerate(variables)]
    body_outs += [(arg_names[len(variables) + j], arg_names[len(variables) + j], dtypes[len(variables) + j])
                  for j in range(len(invariants))]
    body_fn = _function(body_names[1], inside, skip, boundary, arg_names, dtypes, body_outs, by_name)
    for f in (cond_fn, body_fn):
        gd.library.function.add().CopyFrom(f)
    while_name = frame + "/functional_while"
    w = _tfproto.NodeDef(name=while_name, op="While")
    w.input.extend(e.input[0] for e in carries)
    w.attr["T"].list.type.extend(dtypes)
    w.attr["cond"].func.name = body_names[0]
    w.attr["body"].func.name = body_names[1]
    w.attr["parallel_iterations"].i = int(enters[0].attr["parallel_iterations"].i or 10)
    new_nodes = []
    placed = False
    for n in gd.node:
        if n.name not in inside:
            new_nodes.append(n)
            continue
        if not placed:
            new_nodes.append(w)
            placed = True
    for k, e in enumerate(variables):
        x = exit_of[e.name]
        if x is None:
            continue
        ident = _tfproto.NodeDef(name=x.name, op="Identity", device=x.device)
        ident.input.append(f"{while_name}:{k}" if k else while_name)
        ident.attr["T"].type = dtypes[k]
        new_nodes.append(ident)
    del gd.node[:]
    gd.node.extend(new_nodes)


def _function(name: str, inside: dict[str, Any], skip: set[str], boundary: dict[tuple[str, int], str],
              arg_names: list[str], dtypes: list[int], outs: list[tuple[str, str, int]],
              by_name: dict[str, Any]) -> Any:
    """A ``FunctionDef`` of the frame nodes that compute ``outs`` (``(name, tensor ref, dtype)``)."""
    f = function_pb2.FunctionDef()
    f.signature.name = name
    for a, dt in zip(arg_names, dtypes):
        f.signature.input_arg.add(name=a, type=dt)
    needed: list[str] = []
    seen: set[str] = set()
    todo = [r for _, r, _ in outs]
    while todo:
        r = todo.pop()
        node_name, idx = _split(r)
        if (node_name, idx) in boundary and not r.startswith("^") or node_name in seen or node_name in arg_names:
            continue
        node = inside.get(node_name)
        if node is None or node_name in skip:
            if r.startswith("^"):
                continue
            n = by_name.get(node_name)
            raise _err(n if n is not None else _tfproto.NodeDef(name=node_name, op="?"),
                       f"used in TF1 while frame function '{name}' without an Enter")
        seen.add(node_name)
        needed.append(node_name)
        todo.extend(node.input)
    for node_name in needed:
        src = inside[node_name]
        nd = f.node_def.add()
        nd.CopyFrom(src)
        del nd.input[:]
        for r in src.input:
            dep, idx = _split(r)
            if r.startswith("^"):
                if dep in seen:
                    nd.input.append(r)
                continue
            arg = boundary.get((dep, idx))
            nd.input.append(arg if arg is not None else _fn_ref(inside[dep], idx))
    for out_name, _r, dt in outs:
        f.signature.output_arg.add(name=out_name if out_name not in arg_names else f"out_{out_name}", type=dt)
    for (_o, r, _), a in zip(outs, f.signature.output_arg):
        dep, idx = _split(r)
        if r in arg_names:
            f.ret[a.name] = r
        else:
            arg = boundary.get((dep, idx))
            f.ret[a.name] = arg if arg is not None else _fn_ref(inside[dep], idx)
    return f


def _fn_ref(node: Any, idx: int) -> str:
    """TF's spelling of output ``idx`` of ``node`` inside a function: ``'node:out_arg:i'``."""
    op_def = tf_op_def(node.op)
    if op_def is None:
        return f"{node.name}:{idx}"
    try:
        attrs = decode_attrs(node.op, node.attr, op_def)
        counts = arg_counts(op_def.output_arg, attrs)
    except (ValueError, TypeError, KeyError):
        return f"{node.name}:{idx}"
    offset = 0
    for a, n in zip(op_def.output_arg, counts):
        if idx < offset + n:
            return f"{node.name}:{a.name}:{idx - offset}"
        offset += n
    return f"{node.name}:{idx}"

