"""Implementation of ``jaxsess.keras.preprocessing``."""
