"""Card Arena: AI bots play classic memory and children's card games, in seeded tournaments."""
