"""Playing a run's tasks: who sits at each seat and a task played into its record line
(`tasks`), in this process, a pool of workers (`runner`) or on Ray (`ray_backend`). Imports
only `planning` of the tournament."""
