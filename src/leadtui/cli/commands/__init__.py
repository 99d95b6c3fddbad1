"""One module per resource; each function runs one `leadtui <resource> <verb>`."""
