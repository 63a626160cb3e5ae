"""String tensors, as TF1's ``tf.string``: constants, placeholders,
``identity``, and the ``tf.strings`` ops (``join``, ``as_string``, ``format``,
``length``, ``substr``, ``regex_replace``, ``regex_full_match``, ``lower``,
``upper``, ``strip``, ``reduce_join``, ``to_hash_bucket_fast``, ``split``)
and web-safe base64.

Re-exports :mod:`jaxsess._tf1.ops.string_ops`.
"""

from jaxsess._tf1.ops.string_ops import *  # noqa: F403
