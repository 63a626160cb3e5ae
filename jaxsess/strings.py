"""``jaxsess.strings``: string ops, as ``tf.strings`` (host values; see
:mod:`jaxsess._tf1.ops.string_ops`)."""

from jaxsess._tf1.ops.parsing_ops import string_to_number as to_number
from jaxsess._tf1.ops.string_ops import (
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
from jaxsess._tf1.ops.unicode_ops import (
    bytes_split as bytes_split,
    ngrams as ngrams,
    unicode_decode as unicode_decode,
    unicode_decode_with_offsets as unicode_decode_with_offsets,
    unicode_encode as unicode_encode,
    unicode_split as unicode_split,
    unicode_transcode as unicode_transcode,
    unsorted_segment_join as unsorted_segment_join,
)

__all__ = [
    "as_string", "format", "join", "to_number", "length", "lower", "upper", "reduce_join", "regex_full_match",
    "regex_replace", "split", "strip", "substr", "to_hash_bucket_fast", "to_hash_bucket", "to_hash_bucket_strong",
    "bytes_split", "ngrams", "unicode_decode", "unicode_encode", "unicode_split", "unicode_transcode",
    "unicode_decode_with_offsets", "unsorted_segment_join",
]
