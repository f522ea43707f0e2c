"""Typed models for each game's data; one module per game id."""
