"""Planning a run: a config read and checked, its deals, its canonical text and digest, and the
schedule of tasks it describes. The tournament's lowest layer: it imports nothing else of it."""
