"""Worked examples that ``scripts/new-plugin --example NAME`` turns into a plugin of your own."""
