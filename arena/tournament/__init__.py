"""The tournament: a config to records, in the order of a run (`run.run_tournament`).

- `planning/`: the config read and checked, its deals, canonical text and schedule (`plan`);
- `playing/`: a task played into its record (`tasks`), here, in workers (`runner`) or on Ray;
- `records/`: the run directory (`results`), its log, replays, the seat's view, the finder;
- `update/`: a run directory brought up to date with its config (`bring`, `reconcile`,
  `identity`);
- here: a whole run (`run`), its ratings (`rating`), and the runs played in steps: a duel
  (`duel`) and a run that stops early (`stopping`).

Each sub-room imports only those listed before it (`tests/test_layering.py`)."""
