"""The full-screen terminal client (prompt_toolkit, asyncio): the table screen, the replay screen
and the lobby list. It reads a table through :class:`atoll.client.source.TableSource`, so local
games and network tables share one screen."""
