"""Frogs in the Pond's bots: simple, sharp, frogs-search and its search hints."""
