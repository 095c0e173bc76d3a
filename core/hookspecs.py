# mypy: disable-error-code="empty-body"
"""The hooks through which plugins extend atoll (project name ``atoll``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from atoll.bots.base import BotKind
    from atoll.game import Game

hookspec = pluggy.HookspecMarker("atoll")
#: Mark a plugin's hook implementations with this.
hookimpl = pluggy.HookimplMarker("atoll")


# -- contributions, asked once when the registry is built ---------------------


@hookspec
def atoll_games() -> list[Game]:
    """Contribute games.

    :return: the plugin's games, each an instance of :class:`atoll.Game` with a
        unique ``info.name``. Results of all plugins are collected.
    """


@hookspec
def atoll_bots() -> list[BotKind]:
    """Contribute bot kinds (for any game, or for some games only).

    :return: bot kinds, each a :class:`atoll.BotKind` with a unique name. A kind
        that names games (``games``) is offered only for those games. Results of
        all plugins are collected.
    """
