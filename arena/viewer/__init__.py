"""Pages for the browser: self-contained HTML (inline JS, CSS and data, no network) that shows
the arena's games as a person at the table would see them."""
