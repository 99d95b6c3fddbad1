"""What the app watches: jobs on the server; on this machine the spends other processes
of its profile journal or ask it to approve; what changed while it was away."""
