"""The spend core every surface (the TUI, the command line, an agent tool server) spends through.

A surface prices a spend (`quote.Quote`), builds its `request.SpendRequest`, asks
`gate.SpendGate.decide` (send, ask or refuse, on the price and balance read now) and renders
the `decision.Decision`; to send, it calls `SpendGate.spend`, which decides once more right
before the POST, journals, sends and records the outcome. Each name is imported from the
module that defines it.
"""
