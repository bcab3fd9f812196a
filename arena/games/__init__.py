"""The bundled games, one package each; importing a game's package registers it.

Importing this package itself imports no game, so that a process which needs one game (a bot's
sandbox host, say) does not pay for all of them; `load_all` imports every one.
"""

import importlib
import pkgutil


def load_all() -> None:
    """Import, and so register, every bundled game."""
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:  # a game; `common` is what games share
            importlib.import_module(f"{__name__}.{module.name}")
