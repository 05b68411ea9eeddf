"""Teams' own documents in the knowledge base: the store, its records, price facts, and the index they join."""
