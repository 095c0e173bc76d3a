"""The fair step machines: messages and their history, the public record every peer keeps
(``record``), one seat's side (``seat``), private rolls (``cups``), the step announcements every
peer derives from the game log (``announce``) and sealed choices judged live (``referee``).
"""
