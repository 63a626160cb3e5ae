"""Implementation of ``jaxsess.runtime``."""
