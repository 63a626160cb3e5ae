"""Whether variables are initialised, as TF1's ``tf.is_variable_initialized``,
``tf.report_uninitialized_variables``, ``tf.assert_variables_initialized``,
and ``tf.tables_initializer``.

Re-exports :mod:`jaxsess._tf1.ops.variable_checks`.
"""

from jaxsess._tf1.ops.variable_checks import *  # noqa: F403
