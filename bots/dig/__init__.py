"""Dig's bots: simple, sharp, dig-search (Dig's expert) and its search hints."""
