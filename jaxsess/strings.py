"""``jaxsess.strings``: string ops, as ``tf.strings`` (host values; see
:mod:`jaxsess.ops.string_ops`)."""

from jaxsess.ops.parsing_ops import string_to_number as to_number
from jaxsess.ops.string_ops import (
    as_string as as_string,
    lower as lower,
    reduce_join as reduce_join,
    regex_full_match as regex_full_match,
    regex_replace as regex_replace,
    string_format as format,  # noqa: A004
    string_join as join,
    string_length as length,
    string_split_v2 as split,
    string_to_hash_bucket_fast as to_hash_bucket_fast,
    string_to_hash_bucket_strong as to_hash_bucket_strong,
    strip as strip,
    substr as substr,
    to_hash_bucket as to_hash_bucket,
    upper as upper,
)

__all__ = [
    "as_string", "format", "join", "to_number", "length", "lower", "upper", "reduce_join", "regex_full_match",
    "regex_replace", "split", "strip", "substr", "to_hash_bucket_fast", "to_hash_bucket", "to_hash_bucket_strong",
]
