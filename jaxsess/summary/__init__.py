"""TensorBoard summaries, as ``tf.compat.v1.summary``: summary ops (computed in the run's
plan, serialized on the host) and ``FileWriter`` (TensorBoard's event files)."""

from jaxsess._core._tfproto import (
    Event as Event,
    SessionLog as SessionLog,
    Summary as Summary,
    SummaryDescription as SummaryDescription,
    SummaryMetadata as SummaryMetadata,
    TaggedRunMetadata as TaggedRunMetadata,
)
from jaxsess._tf1.summary._ops import (
    audio as audio,
    histogram as histogram,
    image as image,
    merge as merge,
    merge_all as merge_all,
    scalar as scalar,
    tensor_summary as tensor_summary,
    text as text,
)
from jaxsess._tf1.summary._tf2_writers import (
    all_v2_summary_ops as all_v2_summary_ops,
    initialize as initialize,
)
from jaxsess._tf1.summary._writer import (
    FileWriter as FileWriter,
    FileWriterCache as FileWriterCache,
    summary_iterator as summary_iterator,
)
