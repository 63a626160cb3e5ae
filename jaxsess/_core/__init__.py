"""The session layer: graph, lowering, runtime, ownership. Imports nothing outside ``jaxsess._core``."""
