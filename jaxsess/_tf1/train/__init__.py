"""Implementation of ``jaxsess.train``."""
