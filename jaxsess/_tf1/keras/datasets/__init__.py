"""Implementation of ``jaxsess.keras.datasets``."""
