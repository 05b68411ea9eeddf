"""The fit-check engine: build a kb.fit.engine.FitEngine once, then check requests and questions."""
