"""bots."""
