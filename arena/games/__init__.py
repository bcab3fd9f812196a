"""The bundled games; importing this package registers each of them."""

from arena.games import concentration  # noqa: F401
