"""The channel to a model: settings in layers, the endpoint lint, providers, doctor.

Owns reading settings (``config``: defaults, config.toml, the Codex config,
the environment, flags; the grader's channel, ``grader``), the lint of URL,
key and model (``checks``), the providers behind one complete contract
(``providers``: offline answer key and any OpenAI-compatible endpoint) and
channel diagnosis (``doctor``).

May import: learn, bank, costs, storage and the shared modules; never study, output or cli.
"""
