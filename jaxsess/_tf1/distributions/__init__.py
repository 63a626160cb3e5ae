"""``jaxsess._tf1.distributions``: ``tf.compat.v1.distributions`` (TF 1.x's distributions library):
batches of distributions whose methods build graph ops."""

from jaxsess._tf1.distributions._distribution import (
    FULLY_REPARAMETERIZED as FULLY_REPARAMETERIZED,
    NOT_REPARAMETERIZED as NOT_REPARAMETERIZED,
    Distribution as Distribution,
    RegisterKL as RegisterKL,
    ReparameterizationType as ReparameterizationType,
    kl_divergence as kl_divergence,
)
from jaxsess._tf1.distributions._families import (
    Bernoulli as Bernoulli,
    Beta as Beta,
    Categorical as Categorical,
    Dirichlet as Dirichlet,
    Exponential as Exponential,
    Gamma as Gamma,
    Laplace as Laplace,
    Multinomial as Multinomial,
    MultivariateNormalDiag as MultivariateNormalDiag,
    Normal as Normal,
    Uniform as Uniform,
)
