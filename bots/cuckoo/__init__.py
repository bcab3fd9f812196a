"""Cuckoo's bots: simple, sharp, and its search hints."""
