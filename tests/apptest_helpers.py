"""Running the companion's page script headless with Streamlit's AppTest."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from companion import context

APP = str(Path(context.__file__).with_name("app.py"))


def page(**params: str) -> AppTest:
    """The page as a phone opening this link would get it."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def page_text(at: AppTest) -> str:
    """Every line of text the page shows, for assertions on wording."""
    parts = [*at.title, *at.subheader, *at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    return "\n".join(str(p.value) for p in parts)
