"""sitegen: a static-site generator for AI-model leaderboards."""

__version__ = "0.1.0"
