"""odds."""
