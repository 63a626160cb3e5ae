"""The TF1 surface: a client of :mod:`jaxsess._core`; the public modules re-export it."""
