"""The KV-cache and attention estimator: what a context of n tokens costs.

``shapes`` holds the model shapes, ``estimate`` the analytic figures (pure
arithmetic), ``measure`` the PyTorch measurement (the only module that
imports torch), ``turns`` the figures of a study session's turns and
``report`` the estimate as data with stable keys.
"""
