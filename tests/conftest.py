"""Shared test configuration."""

from hypothesis import settings

# Bounded property tests: the machine is small and shared.
settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")
