"""The app frame: the app and its handle, launch, sessions and services, quitting, the
screen list, the palette, keys, jumps between screens and the spend flow."""
