"""Implementation of ``jaxsess.saved_model``."""
