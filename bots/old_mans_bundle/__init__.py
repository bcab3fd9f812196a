"""The Old Man's Bundle's bots: simple, sharp, bundle-search and its search hints."""
