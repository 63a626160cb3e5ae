"""Records TensorFlow's op registry (every ``OpDef``) into jaxsess/_core/graph/tf_op_defs.pb.

Run once with real TensorFlow (the ``oracle`` extra)::

    python tests/tf_oracle/record_op_defs.py

The file is TF's ``OpList`` proto, serialized, with each op's summary and
description stripped (they are documentation, and half the size). Import
reads inputs, outputs and attribute defaults of TF's ops from it; jaxsess
never imports TensorFlow.
"""

from __future__ import annotations

import pathlib

import tensorflow as tf
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.framework import op_def_registry

OUT = pathlib.Path(__file__).resolve().parents[2] / "jaxsess" / "_core" / "graph" / "tf_op_defs.pb"


def main() -> None:
    ops = op_def_registry.get_registered_ops() if hasattr(op_def_registry, "get_registered_ops") else None
    if ops is None:
        from tensorflow.python.client import pywrap_tf_session as c_api
        from tensorflow.python.framework import ops as _ops  # noqa: F401

        buf = c_api.TF_GetAllOpList()
        data = c_api.TF_GetBuffer(buf)
        op_list = op_def_pb2.OpList.FromString(data)
    else:
        op_list = op_def_pb2.OpList(op=list(ops.values()))
    out = op_def_pb2.OpList()
    for op in sorted(op_list.op, key=lambda o: o.name):
        o = out.op.add()
        o.CopyFrom(op)
        o.ClearField("summary")
        o.ClearField("description")
        for a in list(o.input_arg) + list(o.output_arg) + list(o.attr):
            a.ClearField("description")
    OUT.write_bytes(out.SerializeToString(deterministic=True))
    print(f"{len(out.op)} ops from TensorFlow {tf.__version__} -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
