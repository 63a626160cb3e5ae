"""Implementation of ``jaxsess.keras``."""
