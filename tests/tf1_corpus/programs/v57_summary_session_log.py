"""Event files as Supervisor-era tutorials write them: SessionLog START/CHECKPOINT events and
tagged run metadata through FileWriter, read back with summary_iterator."""
import os
import tempfile

import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

logdir = tempfile.mkdtemp()
writer = tf.summary.FileWriter(logdir)
writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.START), global_step=0)
writer.add_session_log(tf.SessionLog(status=tf.SessionLog.CHECKPOINT, checkpoint_path="/tmp/model.ckpt"), 10)
writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.25)]), 10)
writer.close()

events = []
for path in sorted(os.listdir(logdir)):
    for event in tf.train.summary_iterator(os.path.join(logdir, path)):
        kind = event.WhichOneof("what")
        if kind == "session_log":
            events.append([kind, event.step, tf.SessionLog.SessionStatus.Name(event.session_log.status),
                           event.session_log.checkpoint_path])
        elif kind == "summary":
            events.append([kind, event.step, event.summary.value[0].tag, event.summary.value[0].simple_value])
        else:
            events.append([kind, event.step])
RESULTS["events"] = events
RESULTS["v2_ops"] = len(tf.summary.all_v2_summary_ops())
RESULTS["description"] = tf.summary.SummaryDescription(type_hint="scalar").type_hint
try:
    tf.summary.initialize()
except RuntimeError as e:
    RESULTS["initialize"] = str(e)
