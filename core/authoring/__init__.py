"""Tools for game authors: ``python -m atoll.authoring.new_plugin NAME DIR`` starts a plugin."""
