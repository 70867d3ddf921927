"""The channel to a model: settings in layers, the endpoint lint, providers, doctor.

Owns reading settings (``config``: defaults, config.toml, the Codex config,
the environment, flags; the files they come from, ``files``; the grader's
channel, ``grader``; ``--local``, ``local``), the lint of URL, key and model
(``checks``, with a URL's parts and secrets in ``urls``), what a local
engine says about itself and its tokenizer (``engine``), the providers
behind one complete contract (``providers``: offline answer key and any
OpenAI-compatible endpoint) and channel diagnosis (``doctor``).

May import: learn, bank, costs, storage and the shared modules; never study, output or cli.
"""
