"""Small games made for testing the engine, the kit and the bots."""
