"""Animals' bots: simple, sharp, and its search hints."""
