"""The floor Streamlit itself sets: one button that appends to a list every session shares, with the
table page's polling (and, with `BARE_ELEMENTS=N`, N more elements redrawn per tap: the cost of a
page's size alone). `bench_browser.py` runs it beside `muster app` in the same run, so Muster's
figures are read against what a bare Streamlit page costs on the same machine at the same moment."""

from __future__ import annotations

import os

import streamlit as st

from companion.table_page import POLL_SECONDS


@st.cache_resource
def shared_log() -> list[int]:
    """One list for every phone, as one table's log is."""
    return []


# With `BARE_COMPONENT=1`, the button and the mark are a components-v2 element in a fragment, as Muster's table
# part is: a tap is the element's trigger and reruns the fragment. The floor Streamlit's public component API sets.
TAP_JS = """export default function ({ parentElement, data, setTriggerValue }) {
  let box = parentElement.querySelector("div.bare");
  if (!box) {
    box = document.createElement("div"); box.className = "bare";
    box.innerHTML = '<button type="button" kind="secondary" style="width:100%">Add</button><span class="muster-head"></span>';
    box.querySelector("button").addEventListener("click", () => setTriggerValue("tap", Date.now()));
    parentElement.appendChild(box);
  }
  box.querySelector("span.muster-head").dataset.head = String(data.head);
}"""


log = shared_log()
seen = len(log)
if os.environ.get("BARE_COMPONENT"):
    tapped = st.components.v2.component("bare_tap", js=TAP_JS, isolate_styles=False)

    @st.fragment
    def part() -> None:
        tapped(data={"head": len(log)}, key="add", on_tap_change=lambda: log.append(len(log)))

    part()
else:
    if st.button("Add", key="add", width="stretch"):
        log.append(seen)
        seen = len(log)
    st.html(f'<span class="muster-head" data-head="{seen}"></span>')  # as the table page marks it
for i in range(int(os.environ.get("BARE_ELEMENTS", "0"))):  # as many elements as a table part, when asked
    if i % 2:
        st.button(f"Another button {i} ({seen})", key=f"other-{i}", width="stretch")
    else:
        st.markdown(f"Line {i}: **{seen}** moves so far, and some words to lay out on a phone.")


@st.fragment(run_every=POLL_SECONDS)
def poll() -> None:
    if len(log) != seen:
        st.rerun(scope="app")


poll()
