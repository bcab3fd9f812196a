"""The bundled bots, registered as entry points of group 'arena.bots'."""
