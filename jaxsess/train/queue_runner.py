"""``jaxsess.train.queue_runner``, as ``tf.compat.v1.train.queue_runner``.

Only re-exports; see :mod:`jaxsess._tf1.train._queue_runners`.
"""

from jaxsess._tf1.train._queue_runners import (
    QueueRunner as QueueRunner,
    add_queue_runner as add_queue_runner,
    start_queue_runners as start_queue_runners,
)

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]
