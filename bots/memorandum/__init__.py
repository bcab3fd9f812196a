"""Memorandum's bots: elephant, goldfish, chancer, and its search hints."""
