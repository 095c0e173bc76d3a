"""Tests of the bots: the search bot, its determinization, and the games made to test them."""
