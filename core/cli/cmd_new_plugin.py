"""``atoll new-plugin [--example EXAMPLE] NAME DIR``: write a new, separately installable game plugin
from the template that ships in the wheel (:mod:`atoll.authoring.new_plugin`)."""

from atoll.authoring.new_plugin import HELP, add_arguments, run

__all__ = ["HELP", "add_arguments", "run"]
