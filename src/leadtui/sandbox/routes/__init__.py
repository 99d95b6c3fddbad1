"""The /api/v1 operations, one module per resource."""
