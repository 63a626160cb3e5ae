"""Implementation of ``jaxsess.summary``."""
