"""Adapters that seat ginbots players in other game frameworks (optional extras)."""
