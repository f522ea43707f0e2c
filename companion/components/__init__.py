"""Streamlit custom components of the companion (their frontends ship with them; no build step)."""
