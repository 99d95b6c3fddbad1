"""The spend core every surface (the TUI, the command line, an agent tool server) spends through.

A surface prices the spend with `Quote` (e.g. `Quote.unlock(search, 40, balance)`), builds a
`SpendRequest` from it (`SpendRequest.for_unlock(quote, search_id, idempotency_key=None)`), and
asks the one decision: `await gate.decide(request, client, Authorization(surface, ...))` →
`Decision` (send / ask / refuse, a code, the quote re-priced against the price and balance
read now). It renders the decision; when it sends, it calls
`await gate.spend(request, client, authorization, decided=decision)`; when it asks, it
collects the person's yes and calls `await gate.spend(request, client,
Authorization(surface, confirmed=True, accepted=Accepted(request.request_hash, decision.quote)))`,
which reads the price and balance once more right before the POST, holds them to what was
accepted, journals and sends, or raises `SpendRefused` carrying the decision. Pending spends
come from `await gate.pending(client)` and go back through `await gate.resend(intent, client)`.
Each name is imported from the module that defines it.
"""
