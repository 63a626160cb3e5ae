"""TF1's op modules (TF's module names), a client of :mod:`jaxsess._core`.

Importing the package (so any op module) registers ``Tensor``'s Python
operators with the core (:mod:`._operators`).
"""

from jaxsess._tf1.ops import _operators as _operators
