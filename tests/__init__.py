"""The tests of `arena`, laid out as the source is."""
