"""A faithful, stateful local implementation of the Lead Data API (`leadtui sandbox`).

Importing this package is cheap; FastAPI, uvicorn and Faker are imported by the submodules
that need them, which only run when a sandbox is started.
"""
