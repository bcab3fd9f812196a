"""Bringing a run up to date with its config, before anything is played (`bring`): what a run
was played on (`identity`), its records matched to a changed schedule by game identity
(`reconcile`). Imports `planning` and `records`."""
