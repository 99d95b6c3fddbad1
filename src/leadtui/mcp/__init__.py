"""`leadtui mcp`: the tool server for AI agents, over the Model Context Protocol (stdio).

A surface beside the command line: it reads through `api/`, spends through `spend/` and adds
no spend logic of its own. The `mcp` SDK (an optional extra) is imported by this package only,
and this package only by the `leadtui mcp` command.
"""
