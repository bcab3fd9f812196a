"""`python -m arena.cli`: the command line."""

from arena.cli import main

main()
