"""What is generic: determinized search, its shared helpers, the memory strategies' mathematics, the
random bot."""
