"""A person's seat at the table in the browser (`arena play GAME -b human --web`): the seat and its
messages (`seat`), the page (`page`), and the web server (`server`, the optional `web` extra,
imported only by that command)."""
