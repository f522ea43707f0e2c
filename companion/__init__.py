"""The Streamlit companion, its SQLite tables and the `muster` command line."""
