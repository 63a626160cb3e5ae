"""``jaxsess.saved_model.main_op``: re-exports :mod:`jaxsess._tf1.saved_model.main_op`."""

from jaxsess._tf1.saved_model.main_op import main_op as main_op, main_op_with_restore as main_op_with_restore
