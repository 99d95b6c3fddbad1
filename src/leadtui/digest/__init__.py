"""What changed for an account between two times: the jobs that settled, what was spent and
by which surface, the approvals asked and answered, the spends still pending.

Free of every surface (no Textual, no argparse): the app's "While you were away" panel and
`leadtui digest` both show what `gather` returns, and both remember when they last looked
(`marks`).
"""
