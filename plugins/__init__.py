"""The built-in games, each registered through the ``atoll.games`` entry points like any plugin."""
