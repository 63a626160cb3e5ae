"""TF's op set, lowered to JAX: one lowering per TF op type, as TF's ``OpDef`` lists it.

Importing this package fills ``jaxsess._core.graph._tf_opset.TF_LOWERINGS``
(the table ``import_graph_def``/``import_meta_graph`` read), one module per
family. Each lowering takes TF's inputs and attributes as TF's ``OpDef``
lists them and calls the implementation jaxsess's own op of the same math
runs (``jaxsess._tf1.ops``), so the math is written once.
"""

from jaxsess._tf1.tf_opset import (
    array as array,
    elementwise as elementwise,
    export as export,
    image as image,
    linalg as linalg,
    math as math,
    nn as nn,
    random as random,
    training as training,
)
