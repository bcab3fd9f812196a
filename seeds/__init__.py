"""The named deal seed lists shipped with arena (`<name>.txt`), read by arena.tournament.planning.deals."""
