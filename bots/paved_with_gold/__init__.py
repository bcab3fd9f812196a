"""Paved with Gold's bots: prospector, assayer, and paved-search with its search hints."""
