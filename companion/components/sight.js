// What a player saw: the one rule every control that takes taps follows (issue 30). Set before the surface's
// and the hexbattle board's own code (companion.components.frontend), so both take taps by the same rule.
//
// A tap decides only what its player saw: it is taken only if the control under the finger has stood there,
// the same control, for SETTLE_MS (a human moment). "The same" is the control's identity, not its DOM node:
// a pad button is its pad, item id and the position (head) it was drawn at; a place on the board is what is
// drawn there and the position. So a redraw that draws the same control where it was keeps its time (a page
// redrawn every 100 ms by a loaded server still takes taps), while a control that is new, or another one now
// at that place (moved there, or drawn there by the move just made), waits its moment: a double tap never
// reaches a control that appeared under the finger (waterloo's "Draw a card", then "Keep it" 166 ms later).
//
// A Sight keeps what stood where over the last moments as looks: {t, at(x, y) -> identity or null}, taken
// whenever the page may have changed (a redraw, a resize, a scroll of a board, a tap). Places are measured
// within what scrolls the page, so scrolling the page moves nothing.

const SETTLE_MS = 300;

function pageScroller(el) {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === "auto" || o === "scroll") && p.scrollHeight > p.clientHeight) return p;
  }
  return document.scrollingElement || document.documentElement;
}

// The content of what scrolls `el`'s page: a change of its size may have moved whatever lies below the change
// (Streamlit's page scrolls in a box of its own, and the body keeps no size, so watching the body sees nothing).
// The box that may scroll is taken whether or not it overflows yet (a page grows after its first drawing).
function pageContent(el) {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === "auto" || o === "scroll") && p.firstElementChild) return p.firstElementChild;
  }
  return document.body;
}

// An element's box on the page, within what scrolls the page: [x, y, width, height].
function pagePlace(el, scroller) {
  const r = el.getBoundingClientRect();
  const s = scroller || pageScroller(el);
  return [r.left + s.scrollLeft, r.top + s.scrollTop, r.width, r.height];
}

// A tap's point on the page in the same measure (a key's "click" has no point: the control's middle).
function tapPoint(event, el) {
  const s = pageScroller(el);
  if (event.detail === 0 || (event.clientX === 0 && event.clientY === 0)) {
    const [x, y, w, h] = pagePlace(el, s);
    return [x + w / 2, y + h / 2];
  }
  return [event.clientX + s.scrollLeft, event.clientY + s.scrollTop];
}

class Sight {
  // look(): what stands where now, as {key, at}: `key` a text equal for equal looks, `at(x, y)` the identity
  // of what stands at that point (null: nothing that takes taps).
  constructor(look) {
    this.look = look;
    this.looks = [];  // oldest first, each {t, key, at}; a look equal to the last one is not kept again
  }

  // Takes a look now; returns it.
  see(now = performance.now()) {
    const seen = this.look();
    const last = this.looks[this.looks.length - 1];
    if (!last || last.key !== seen.key) this.looks.push({ t: now, key: seen.key, at: seen.at });
    // only the looks of the last moment are needed, and the one that stood when it began
    while (this.looks.length > 1 && this.looks[1].t <= now - SETTLE_MS) this.looks.shift();
    return this.looks[this.looks.length - 1];
  }

  // Whether the control at (x, y) in the newest look has stood there, the same, for SETTLE_MS: every look since
  // then, and the one that stood when that moment began, shows it at that point. Take a look first (`see`), so
  // a change not seen before counts as made now.
  settled(x, y, now = performance.now()) {
    const here = this.looks.length ? this.looks[this.looks.length - 1].at(x, y) : null;
    if (here === null) return false;
    for (let i = this.looks.length - 1; i >= 0; i--) {
      const look = this.looks[i];
      if (look.at(x, y) !== here) return false;
      if (look.t <= now - SETTLE_MS) return true;
    }
    return false;  // it has been seen for less than SETTLE_MS
  }

  // How long until a control that is not settled now might be: when the newest look is SETTLE_MS old.
  waitMs(now = performance.now()) {
    const last = this.looks[this.looks.length - 1];
    return last ? Math.max(20, last.t + SETTLE_MS - now + 5) : SETTLE_MS;
  }
}
