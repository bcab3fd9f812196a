"""A run's records: the run directory and what it holds (`results`), recorded games replayed and
checked (`replay`), seen from one seat (`seat_view`), and found (`finder`). Imports `planning`
and `playing` (a replay seats its bots as the run did)."""
