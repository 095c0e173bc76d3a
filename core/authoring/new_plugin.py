"""Write a new, separately installable atoll game plugin from the template.

Usage: ``atoll new-plugin [--example EXAMPLE] NAME DIR``, or ``python -m atoll.authoring`` with the
same arguments (``scripts/new-plugin`` runs it from a checkout). The plugin gets its own
pyproject.toml with an ``atoll.games`` entry point, a package ``atoll_NAME`` holding a small dice
game and a bot, a README, and tests that run the conformance kit and check the rules.
``--example dice-under-cups`` starts from a worked example instead: Liar's Dice, whose dice only
their owner sees (:mod:`atoll.authoring.examples`).
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path

from atoll.errors import AtollError

#: Template file (under ``template/``) -> where it goes in the plugin; ``{name}``/``{package}`` filled in.
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "gitignore.tmpl": ".gitignore",
    "package/__init__.py.tmpl": "src/{package}/__init__.py",
    "package/game.py.tmpl": "src/{package}/game.py",
    "package/bots.py.tmpl": "src/{package}/bots.py",
    "package/py.typed.tmpl": "src/{package}/py.typed",
    "tests/test_game.py.tmpl": "tests/test_{name}.py",
}
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")

#: Worked examples (``--example``): name -> (package under ``atoll.authoring.examples``, files).
#: An example is ordinary, importable Python (the suite tests it); writing it out renames its
#: package, class, title and game name after the new plugin. Its README and tests are templates.
EXAMPLES = {
    "dice-under-cups": ("dice_under_cups", {
        "pyproject.toml.tmpl": "pyproject.toml",
        "dice-under-cups.README.md.tmpl": "README.md",
        "gitignore.tmpl": ".gitignore",
        "example:__init__.py": "src/{package}/__init__.py",
        "example:game.py": "src/{package}/game.py",
        "example:bots.py": "src/{package}/bots.py",
        "package/py.typed.tmpl": "src/{package}/py.typed",
        "tests/dice-under-cups.test.py.tmpl": "tests/test_{name}.py",
    }),
}


class TemplateError(AtollError):
    """A plugin that cannot be written as asked (a bad name, a folder that is not empty)."""


def check_name(name: str) -> None:
    """Refuse a game name that is not a lower-case identifier (letters, digits, underscores)."""
    if not NAME_PATTERN.fullmatch(name) or keyword.iskeyword(name):
        raise TemplateError(
            f"game name {name!r} must be a lower-case Python identifier: a letter, then letters, "
            "digits or underscores (for example: dice_race)"
        )


def check_not_installed(name: str, installed: Collection[str] | None = None) -> None:
    """Refuse a game name an installed game already has (ignoring case, as ``atoll play`` reads
    names): a second game of that name would load neither (docs/decisions/0025-authors.md).

    :param installed: the game names to compare with; default: every game the registry finds, and
        every name several plugins already claim.
    """
    if installed is None:
        from atoll.registry import load_registry  # loads every plugin: only when a plugin is written

        found = load_registry()
        installed = [*found.games, *found.conflicts]
    taken = [game for game in installed if game.casefold() == name.casefold()]
    if taken:
        raise TemplateError(
            f"a game named {taken[0]!r} is installed already (atoll games lists it); choose another "
            "name, as two games of one name both stop loading"
        )


def placeholders(name: str) -> dict[str, str]:
    """What each ``{{placeholder}}`` in the template stands for, for the game ``name``."""
    words = [w for w in name.split("_") if w]
    return {
        "{{name}}": name,
        "{{package}}": f"atoll_{name}",
        "{{dist}}": f"atoll-{name.replace('_', '-')}",
        "{{Class}}": "".join(w.capitalize() for w in words),
        "{{title}}": " ".join(w.capitalize() for w in words),
    }


def generate(name: str, target: Path, example: str | None = None) -> list[Path]:
    """Write the plugin for game ``name`` into ``target`` (absent or empty); returns the files.

    ``example`` names a worked example of :data:`EXAMPLES` to start from instead of the template's game.
    """
    check_name(name)
    if example is not None and example not in EXAMPLES:
        raise TemplateError(f"no example {example!r}; the examples are: {', '.join(sorted(EXAMPLES))}")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise TemplateError(f"{target} is not an empty folder; choose a new one")
    values = placeholders(name)
    template = resources.files("atoll.authoring").joinpath("template")
    files = FILES if example is None else EXAMPLES[example][1]
    written = []
    for source, destination in files.items():
        if source.startswith("example:"):
            text = _example_text(EXAMPLES[example or ""][0], source.removeprefix("example:"), values)
        else:
            text = template.joinpath(source).read_text(encoding="utf-8")
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        path = target / destination.format(name=name, package=values["{{package}}"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _example_text(package: str, file: str, values: dict[str, str]) -> str:
    """An example's source file, renamed after the new plugin (its own names become placeholders)."""
    text = resources.files("atoll.authoring.examples").joinpath(package, file).read_text(encoding="utf-8")
    own = placeholders(package)
    for placeholder in ("{{package}}", "{{Class}}", "{{title}}", "{{name}}"):
        # the example's own package path first, so its name inside it is not renamed twice
        source = f"atoll.authoring.examples.{package}" if placeholder == "{{package}}" else own[placeholder]
        text = text.replace(source, values[placeholder])
    return text


#: What ``atoll new-plugin`` does, in ``atoll --help``.
HELP = "write a new game plugin to start from: its own installable package, with tests (--example for one)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the generator's options to ``parser`` (``atoll new-plugin`` and ``python -m``)."""
    parser.add_argument("--example", choices=sorted(EXAMPLES),
                        help="start from a worked example (dice-under-cups: Liar's Dice, private rolls)")
    parser.add_argument("name", help="the game's name: a lower-case identifier such as dice_race")
    parser.add_argument("dir", type=Path, help="an absent or empty folder to write the plugin into")


def run(args: argparse.Namespace) -> int:
    """Write the plugin and say what was written and what to do next; :class:`TemplateError` if it
    cannot be written as asked."""
    check_name(args.name)
    check_not_installed(args.name)
    try:
        files = generate(args.name, args.dir, args.example)
    except OSError as exc:
        raise TemplateError(f"cannot write into {args.dir}: {exc.strerror or exc}") from exc
    print(f"wrote {len(files)} files into {args.dir}:")
    for path in files:
        print(f"  {path.relative_to(args.dir)}")
    print(f"next: pip install -e {args.dir} && atoll games && pytest {args.dir}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the generator from the command line (``python -m atoll.authoring``); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="new-plugin", description="Write a new atoll game plugin (its own installable package)."
    )
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except TemplateError as exc:
        print(f"new-plugin: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
