"""Implementation of ``jaxsess.contrib``."""
