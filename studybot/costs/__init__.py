"""Costs: tokens, cache rules and simulators, money, the what-if, the KV estimator.

Owns the one token counter (``tokens``), prefix-cache rules and the radix and
block simulators (``cache``), prices and a session's cost (``prices``),
pricing a request sequence (``strategy``) and comparing strategies
(``whatif``), and the KV-cache and attention estimator (``kv``). It measures
requests others built; it never builds one.

May import: storage and the shared modules only.
"""
