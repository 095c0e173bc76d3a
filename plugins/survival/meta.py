"""What Survival of the Fittest is: its name, seats, animals, points and movable obstacles (rules S1-S5)."""

from __future__ import annotations

from atoll import GameInfo

INFO = GameInfo(
    "survival",
    "Survival of the Fittest",
    2,
    4,
    variants=("standard", "snake"),
    summary="hunt the other players' prey with your predator and keep your own prey alive",
)
#: The variant in which prey are placed in snake order rather than in turn order (rule S6).
SNAKE = "snake"

#: Seat colours in seat order (they are the seats' names) and the letter that marks their tokens.
COLOURS = ("red", "blue", "green", "yellow")
LETTERS = ("R", "B", "G", "Y")
#: Each player's predator (rule S4): the same moves for all, only the names differ.
PREDATORS = ("lion", "leopard", "cheetah", "wild dog")

#: Each player's five prey with their points (rule S4), in the order every list of prey keeps.
ANIMALS = ("impala", "warthog", "zebra", "kudu", "buffalo")
POINTS = {"impala": 1, "warthog": 2, "zebra": 3, "kudu": 4, "buffalo": 5}
#: The letter each prey wears on the board.
INITIALS = {"impala": "i", "warthog": "w", "zebra": "z", "kudu": "k", "buffalo": "b"}

#: The four movable obstacles (rule S5): name, the places they cover as offsets from the place
#: named in the text, and how many distinct turns they have.
OBSTACLES = {
    1: ("log", ((0, 0), (1, 0)), 3),
    2: ("thornbush", ((-1, 0), (0, 0), (1, 0)), 3),
    3: ("boulders", ((0, 0), (1, 0), (1, 1)), 2),
    4: ("donga", ((1, 0), (0, 0), (0, 1)), 6),
}

#: After this many rounds the game ends even with several players keeping prey (rule S19).
ROUND_LIMIT = 60
