"""Implementation of ``jaxsess.estimator``."""
