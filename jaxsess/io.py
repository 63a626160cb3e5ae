"""``tf.io`` (the part jaxsess covers): ``gfile``, ``write_graph``, TFRecord files
(:mod:`jaxsess.python_io`) and the parsing ops (:mod:`jaxsess._tf1.ops.parsing_ops`)."""

from jaxsess import gfile as gfile
from jaxsess._core.graph._graph_def import write_graph as write_graph
from jaxsess._tf1.ops.data_flow_ops import (
    PaddingFIFOQueue as PaddingFIFOQueue,
    QueueBase as QueueBase,
    RandomShuffleQueue as RandomShuffleQueue,
)
from jaxsess._tf1.ops.image_io_ops import (
    decode_and_crop_jpeg as decode_and_crop_jpeg,
    decode_bmp as decode_bmp,
    decode_gif as decode_gif,
    decode_image as decode_image,
    decode_jpeg as decode_jpeg,
    decode_png as decode_png,
    encode_jpeg as encode_jpeg,
    encode_png as encode_png,
    extract_jpeg_shape as extract_jpeg_shape,
    is_jpeg as is_jpeg,
    read_file as read_file,
    write_file as write_file,
)
from jaxsess._tf1.ops.parsing_ops import (
    FixedLenFeature as FixedLenFeature,
    FixedLenSequenceFeature as FixedLenSequenceFeature,
    VarLenFeature as VarLenFeature,
    decode_csv as decode_csv,
    decode_raw as decode_raw,
    parse_example as parse_example,
    parse_single_example as parse_single_example,
)
from jaxsess._tf1.ops.sequence_parsing_ops import (
    parse_sequence_example as parse_sequence_example,
    parse_single_sequence_example as parse_single_sequence_example,
)
from jaxsess._tf1.ops.serialization_ops import (
    decode_compressed as decode_compressed,
    match_filenames_once as match_filenames_once,
    matching_files as matching_files,
    parse_tensor as parse_tensor,
    serialize_tensor as serialize_tensor,
)
from jaxsess._tf1.ops.string_ops import decode_base64 as decode_base64, encode_base64 as encode_base64
from jaxsess.python_io import (
    TFRecordCompressionType as TFRecordCompressionType,
    TFRecordOptions as TFRecordOptions,
    TFRecordWriter as TFRecordWriter,
    tf_record_iterator as tf_record_iterator,
)

__all__ = [
    "gfile", "write_graph", "FixedLenFeature", "FixedLenSequenceFeature", "decode_csv", "decode_raw",
    "parse_example", "parse_single_example", "TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter",
    "tf_record_iterator", "PaddingFIFOQueue", "QueueBase", "RandomShuffleQueue",
    "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png", "encode_jpeg",
    "encode_png", "read_file", "write_file",
    "decode_base64", "encode_base64", "VarLenFeature", "decode_compressed", "match_filenames_once",
    "matching_files", "parse_tensor", "serialize_tensor", "decode_and_crop_jpeg", "extract_jpeg_shape", "is_jpeg", "parse_sequence_example", "parse_single_sequence_example",
]
