"""The league: a folder that grows week by week. Submissions are kept by version (`submissions`),
every pool (game, variant, table size) is a tournament run on the league's one key and deals
(`folder`), and every update keeps its standings as a numbered round (`rounds`).

It uses the tournament and the ratings, and is used by the command line; see docs/league.md."""
