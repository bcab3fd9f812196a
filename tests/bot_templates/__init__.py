"""Tests of arena.bot_templates."""
