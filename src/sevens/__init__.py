"""Sevens: Tony Reeves's seven-a-side rugby tournament game, as software."""

__version__ = "0.1.0"
__all__ = ["__version__"]
