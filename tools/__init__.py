"""Repository tools above kb: they may import kb, indexer and service, and nothing imports them (not in the wheel)."""
