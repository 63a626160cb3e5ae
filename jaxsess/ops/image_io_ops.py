"""Image files and file contents, as TF1's: ``read_file``/``write_file``,
``image.decode_jpeg``/``decode_png``/``decode_bmp``/``decode_gif``/``decode_image``
and ``image.encode_jpeg``/``encode_png``.

Re-exports :mod:`jaxsess._tf1.ops.image_io_ops`.
"""

from jaxsess._tf1.ops.image_io_ops import *  # noqa: F403
