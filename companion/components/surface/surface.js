// A page's read-only HTML and its pads as one element (a Streamlit components-v2 frontend, no build step).
//
// Streamlit draws each element of its own, and a phone pays for every one at every redraw (React, styling,
// sanitising, laying out). Here a stretch of a page is one element whose data is a list of blocks:
//   {key, html}: HTML the server made (Markdown rendered with raw HTML shown as text, every player's text
//                escaped), set as it is;
//   {key, pad}:  a pad of buttons (below), drawn with text set as text, never as markup.
//   {key, fold}: a shut box whose contents the server builds only while it is open (companion.folds): a tap
//                on its label is a tap ({pad: key, open: true}); the redraw that follows draws it open.
//   {key, group, blocks, beside, fold}: blocks kept together (a keyed group; `beside`: a bordered box whose first
//                block and a pad right after it stand side by side, the others under them; `fold`: a box that folds under this label,
//                shut at first, <details data-fold=KEY>).
// A block whose data did not change keeps its nodes, so a redraw touches only what changed; a folded box
// (<details data-fold=KEY>) keeps the player's open or shut across redraws. A countdown in a block's HTML
// (<div class="muster-clock" data-clock=...>, companion.clock) ticks here (`tick`).
//
// A pad: {head, items, columns, title, lines, note, boxed, notices, withdrawn}. Items:
//   {kind: "button", id, label, value, primary, chosen, disabled, help, ask} (`chosen`: a choice that makes no
//   move, picked now or not: a toggle, aria-pressed), or
//   {kind: "select", id, label, go, options: [{label, value}]} (a long list: pick, then one button; nothing
//   is picked for the player, so the button waits until they pick).
// Each tap reports the pad, the item, its value (an engine action) and the position ("head") the pad was
// drawn at, so a tap means what the player saw: Python refuses a tap made at a position the table has left.
// An item with `ask` ({question, yes}) asks on the phone first, as a popover would; nothing is sent until
// "yes". A question still open when the table moves on is withdrawn, with the pad's `withdrawn` words.
// After a tap the pad is dimmed until it is redrawn, or for PENDING_MS when the redraw brings the same pad
// (a question asked in a dialog), so a double tap sends nothing twice; the server keeps a repeated tap once
// and refuses a stale one in any case.

const PENDING_MS = 1000;
// A tap decides only what its player saw (sight.js, set before this code): a control (a pad's button, a shut
// fold's label) takes a tap once the same control (its pad or fold, item id and the position it was drawn at)
// has stood under the finger for a human moment. Until then it is marked aria-disabled (data-settling) and a tap
// on it is ignored. A redraw that draws the same controls in their places keeps their time; a control newly
// drawn, or moved, under the finger waits.
// The looks that mark controls always end: a control of no size (in a shut box, not displayed) is out of the
// look, as no finger can reach it (it is looked at when shown, which resizes the page), and after a cause (a
// redraw, a resize, a tap) the look is taken again at most LOOKS_AFTER times while some control waits: one that
// cannot settle (covered by another) stays marked, and a tap on it takes a look of its own in any case.
const LOOKS_AFTER = 8;
let placed = [];  // each control at the last look, with its box on the page: [control, x, y, w, h]
const controls = new Sight(() => {
  const scrollers = new Map();  // a surface -> what scrolls its page: looked up once a look, not once a control
  placed = [];
  for (const b of document.querySelectorAll(".mp-btn[data-sight], .sf-fold > summary[data-sight]")) {
    const surface = b.closest(".sf");
    if (!scrollers.has(surface)) scrollers.set(surface, pageScroller(b));
    const [x, y, w, h] = pagePlace(b, scrollers.get(surface)).map(Math.round);
    placed.push([b, x, y, w, h]);
  }
  const boxes = placed.filter(([, , , w, h]) => w > 0 && h > 0).map(([b, ...box]) => [b.dataset.sight, ...box]);
  return {
    key: JSON.stringify(boxes),
    at: (px, py) => {
      const hit = boxes.find(([, x, y, w, h]) => px >= x && px < x + w && py >= y && py < y + h);
      return hit ? hit[0] : null;
    },
  };
});
let settleTimer = null;
let looksLeft = 0;  // looks still to take after the last cause while a control waits

// Looks at the page and marks each control settled or settling (then looks again when one may have settled).
// `again`: this look was one of those (not a redraw, a resize or a tap).
function watchControls(again = false) {
  if (!again) looksLeft = LOOKS_AFTER;
  const now = performance.now();
  controls.see(now);
  let waiting = false;
  for (const [b, x, y, w, h] of placed) {
    const shown = w > 0 && h > 0;
    if (shown && controls.settled(x + w / 2, y + h / 2, now)) {
      if (b.dataset.settling) {
        delete b.dataset.settling;
        b.removeAttribute("aria-disabled");
      }
    } else {
      if (!b.dataset.settling) {
        b.dataset.settling = "1";
        b.setAttribute("aria-disabled", "true");
      }
      waiting = waiting || shown;
    }
  }
  clearTimeout(settleTimer);
  settleTimer = null;
  if (waiting && looksLeft > 0) {
    looksLeft -= 1;
    settleTimer = setTimeout(() => watchControls(true), controls.waitMs(now));
  }
}

// Whether a tap at `event` on control `el` is taken: a look of its own, then whether what it hit has settled.
function sawIt(event, el) {
  const now = performance.now();
  controls.see(now);
  const [x, y] = tapPoint(event, el);
  if (controls.settled(x, y, now)) return true;
  watchControls();  // appeared or moved under the finger: ignored
  return false;
}

// A look after a redraw, a resize or a scroll waits for a task of its own, so the phone shows the page first: a
// ResizeObserver's callback runs inside the frame, before its paint, and a look measures every control.
function lookSoon() {
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => watchControls());
}

// Anything that changes the size of the page's content or of a surface may have moved a button: a look.
const resized = new ResizeObserver(lookSoon);
const asking = new Map(); // pad key -> the question open on this phone: {head, id, withdrawn}
// A block's node -> what it was drawn from (`drawnAs`): kept beside the page, not in it, as an attribute
// of several KB would be copied into the DOM and reported to every observer of it at each redraw.
const drawnFrom = new WeakMap();

function node(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

// A button of pad `key` drawn at position `head`: its identity is the pad, the item id and that position.
function button(key, head, item, onTap) {
  const b = node("button", "mp-btn" + (item.primary ? " mp-primary" : "") + (item.chosen ? " mp-chosen" : ""), item.label);
  b.type = "button";
  if (item.chosen !== undefined) b.setAttribute("aria-pressed", String(item.chosen));
  b.dataset.id = item.id;
  b.dataset.sight = JSON.stringify([key, item.id, head]);
  b.dataset.settling = "1";  // until a look says otherwise
  b.setAttribute("aria-disabled", "true");
  b.disabled = !!item.disabled;
  if (item.help) b.title = item.help;
  b.addEventListener("click", (event) => {
    if (!sawIt(event, b)) return;
    onTap(item, b);
    // A finger's or a mouse's tap lets go of the focus while the phone waits for the server, not in the redraw
    // (`letGoOfFocus`), whose restyle it would otherwise cost; a key's press keeps it (the keyboard's place).
    // In a task after the one that sends the tap, as the pad's dimming (`drawPad`).
    if (event.detail > 0) setTimeout(() => document.activeElement === b && b.blur());
  });
  return b;
}

function drawPad(box, key, data, tap) {
  let pending = false;  // a tap of this pad is on its way: a second one sends nothing
  const send = (item, value) => {
    if (pending) return;
    pending = true;
    asking.delete(key);
    tap({ pad: key, id: item.id, value, head: data.head, label: item.label });
    // Dimmed in a task after Streamlit's, which sends the tap (its own `setTimeout`): a restyle now would
    // fall in the frame the phone draws before it sends.
    setTimeout(() => box.classList.add("mp-sent"));
    setTimeout(() => {
      pending = false;
      box.classList.remove("mp-sent");
    }, PENDING_MS);
  };
  const ask = (item, b) => {
    asking.set(key, { head: JSON.stringify(data.head), id: item.id, withdrawn: data.withdrawn });
    const panel = node("div", "mp-ask");
    panel.append(node("p", "mp-ask-what", item.label), node("p", "", item.ask.question)); // what, then why
    const yes = button(key, data.head, { id: item.id + "-yes", label: item.ask.yes, primary: false }, () => send(item, item.value));
    const no = button(key, data.head, { id: item.id + "-no", label: "Cancel" }, () => {
      asking.delete(key);
      panel.replaceWith(b);
      watchControls();
    });
    panel.append(yes, no);
    b.replaceWith(panel);
    yes.focus();
    watchControls();
  };
  const onTap = (item, b) => {
    if (pending) return;  // as the dimmed pad takes no tap: no question opens under it either
    if (item.ask) ask(item, b);
    else send(item, item.value);
  };
  box.className = "mp" + (data.boxed ? " mp-boxed" : "");
  if (data.title) box.appendChild(node("p", "mp-title", data.title));
  if (data.lines) {
    const text = node("div", "mp-lines");
    data.lines.forEach((line) => text.appendChild(node("p", "", line)));
    box.appendChild(text);
  }
  if (data.note) box.appendChild(node("p", "mp-note", data.note));
  const grid = node("div", "mp-grid");
  grid.style.setProperty("--mp-columns", String(data.columns || 1));
  for (const item of data.items || []) {
    if (item.kind === "select") {
      const group = node("div", "mp-group");
      group.style.gridColumn = "1 / -1";
      const label = node("label", "mp-label", item.label);
      const select = node("select", "mp-select");
      select.setAttribute("aria-label", item.label);
      // Nothing is chosen for the player: the list opens on "Choose…" and its button waits for a choice.
      select.appendChild(Object.assign(node("option", "", "Choose…"), { value: "", disabled: true, selected: true }));
      item.options.forEach((o, i) => select.appendChild(Object.assign(node("option", "", o.label), { value: String(i) })));
      const go = button(key, data.head, { id: item.id, label: "Choose one above first", disabled: true }, () => {
        if (select.value === "") return;
        const o = item.options[Number(select.value)];
        send({ id: item.id, label: o.label }, o.value);
      });
      select.addEventListener("change", () => {
        go.textContent = item.go + item.options[Number(select.value)].label;
        go.disabled = false;
      });
      label.appendChild(select);
      group.append(label, go);
      grid.appendChild(group);
    } else {
      grid.appendChild(button(key, data.head, item, onTap));
    }
  }
  box.appendChild(grid);
  // A question open when the pad is drawn again: still asked at the same position, else withdrawn, in words
  // under its button (a "yes" given now would answer for a table that is no longer there).
  const notices = [...(data.notices || [])];
  const open = asking.get(key);
  if (open) {
    const item = (data.items || []).find((i) => i.id === open.id && i.ask);
    const b = item && grid.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
    if (b && open.head === JSON.stringify(data.head)) {
      ask(item, b);
    } else {
      asking.delete(key);
      notices.push({ kind: "warning", text: open.withdrawn, id: open.id });
    }
  }
  // A refusal of a tap: right under the button tapped (the whole row), else under the pad; then in view.
  let shown = null;
  for (const notice of notices) {
    const el = node("div", `mp-notice mp-notice-${notice.kind} refusal-${notice.id || "pad"}`, notice.text);
    el.setAttribute("role", "alert");
    el.style.gridColumn = "1 / -1";
    const tapped = notice.id && grid.querySelector(`[data-id="${CSS.escape(notice.id)}"]`);
    const row = tapped && (tapped.closest(".mp-group") || tapped);
    if (row) {
      // after the last button of the tapped button's row, so a grid keeps its columns
      const cells = Array.from(grid.children);
      const columns = data.columns || 1;
      const at = cells.indexOf(row);
      const end = Math.min(cells.length - 1, at + (columns - 1 - (at % columns)));
      cells[end].after(el);
    } else {
      box.appendChild(el);
    }
    shown = shown || el;
  }
  if (shown) setTimeout(() => shown.scrollIntoView({ block: "center", behavior: "smooth" }), 50);
  // Why a button is greyed out, in words under the pad (a phone shows no tooltips).
  for (const item of data.items || []) {
    if (item.help && item.disabled) box.appendChild(node("p", "mp-help", item.help));
  }
}

// A shut fold: tapping its label asks the server to build it open (nothing else is sent; it shows busy till then).
function drawFold(el, block, tap) {
  const box = node("details", "muster-box sf-fold");
  const label = node("summary", "", block.fold);
  label.dataset.sight = JSON.stringify([block.key, "open"]);  // drawn under the finger, it waits as a button does
  label.dataset.settling = "1";  // until a look says otherwise
  label.setAttribute("aria-disabled", "true");
  label.addEventListener("click", (event) => {
    event.preventDefault();
    if (box.dataset.opening || !sawIt(event, label)) return;
    box.dataset.opening = "1";
    label.setAttribute("aria-busy", "true");
    tap({ pad: block.key, open: true });
  });
  box.appendChild(label);
  el.appendChild(box);
}

// A countdown towards a stored deadline ({running, started, now, left, ends, tick, skew}: companion.clock).
// Time left = the deadline minus the server's time now. A phone's own clock is used when it agrees with the
// server's (within `skew` s, delivery included), so every phone shows the same second whatever the network's
// delay; a phone whose clock is wrong counts from the server's time as received instead.
function tick(box) {
  const data = JSON.parse(box.dataset.clock);
  const offset = data.now - Date.now() / 1000;
  const skew = Math.abs(offset) < data.skew ? 0 : offset;
  box.dataset.ends = data.ends === null ? "" : String(data.ends);
  box.dataset.left = data.running ? "" : String(data.left);
  let timer = null;
  const draw = () => {
    if (!box.isConnected && timer !== null) return clearInterval(timer);  // redrawn: a new box ticks
    const left = data.running ? Math.max(0, data.ends - (Date.now() / 1000 + skew)) : data.left;
    const whole = Math.ceil(left - 1e-9);
    const shown = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    box.classList.toggle("up", left <= 0);
    box.classList.toggle("paused", !data.running && left > 0);
    box.textContent = left <= 0 ? "Time's up!" : data.running ? `${shown} left`
      : data.started ? `${shown} left · paused` : `${shown} · not started`;
    if (left <= 0 && timer !== null) clearInterval(timer);
  };
  draw();
  if (data.running && data.left > 0) timer = setInterval(draw, data.tick);
}

function drawBlock(block, tap) {
  // A block's outer node carries the class Streamlit gives a keyed element (st-key-KEY), so a pad or a
  // group is found the same way whoever draws it.
  const keyed = block.group || (block.pad || block.fold ? block.key : null);
  const el = node("div", (block.group ? "sf sf-group" + (block.beside ? " sf-beside" : "") : "sf-block")
    + (keyed ? ` st-key-${keyed}` : ""));
  el.dataset.key = block.key;
  if (block.group && block.fold) {
    const box = node("details", "muster-box");
    box.dataset.fold = block.group;
    const inner = node("div", "sf");
    box.append(node("summary", "", block.fold), inner);
    el.className = `sf-block st-key-${block.group}`;
    el.appendChild(box);
    place(inner, block.blocks, tap);
  } else if (block.group) {
    place(el, block.blocks, tap);
  } else if (block.fold) {
    drawFold(el, block, tap);
  } else if (block.pad) {
    const box = node("div", "mp");
    el.appendChild(box);
    drawPad(box, block.key, block.pad, tap);
  } else {
    el.innerHTML = block.html;
    el.querySelectorAll(".muster-clock[data-clock]").forEach(tick);
  }
  return el;
}

// What a block was drawn from, to tell whether it changed: a block of HTML its HTML as sent (compared, not
// copied), any other its JSON.
const drawnAs = (block) => (block.html !== undefined ? block.html : JSON.stringify(block));

// The control that has the focus (the button just tapped), when this redraw replaces or drops its block: let go
// of it before the redraw changes the page. Removed with its block, it would make the browser move the focus in
// the middle of the redraw, restyling the half-changed page there and then (about 2 ms of a tap on a phone)
// before the redraw's own styling; the focus ends on the page's body either way. A control whose block is
// kept keeps its focus.
function letGoOfFocus(root, blocks) {
  const focused = document.activeElement;
  if (!focused || focused === document.body || !root.contains(focused)) return;
  const top = Array.from(root.children).find((el) => el.contains(focused));
  const block = top && blocks.find((b) => b.key === top.dataset.key);
  if (!block || drawnFrom.get(top) !== drawnAs(block)) focused.blur();
}

// The blocks, in order, in `root`: a block drawn as before keeps its nodes; others are drawn anew.
function place(root, blocks, tap) {
  const kept = new Map(Array.from(root.children, (el) => [el.dataset.key, el]));
  const folds = new Map(Array.from(root.querySelectorAll("details[data-fold]"), (d) => [d.dataset.fold, d.open]));
  let at = root.firstElementChild;
  for (const block of blocks) {
    const text = drawnAs(block);
    let el = kept.get(block.key);
    if (!el || drawnFrom.get(el) !== text) {
      const fresh = drawBlock(block, tap);
      drawnFrom.set(fresh, text);
      fresh.querySelectorAll("details[data-fold]").forEach((d) => {
        if (folds.has(d.dataset.fold)) d.open = folds.get(d.dataset.fold);
      });
      if (el) el.replaceWith(fresh);
      if (el === at) at = fresh;
      el = fresh;
    }
    kept.delete(block.key);
    if (el !== at) root.insertBefore(el, at);
    else at = at.nextElementSibling;
  }
  kept.forEach((el) => el.remove());
}

export default function (component) {
  const { data: sent, parentElement, setTriggerValue } = component;
  if (!sent) return;
  // The table part's listener (listen.js) rides in the surface's last stretch: a block of its own, not drawn.
  const listening = sent.find((block) => block.listen);
  const data = listening ? sent.filter((block) => block !== listening) : sent;
  let root = parentElement.querySelector(":scope > .sf");
  if (!root) {
    root = node("div", "sf");
    parentElement.appendChild(root);
    resized.observe(root);  // once: finding the page's content reads styles, which a redraw has just changed
    resized.observe(pageContent(root));
  }
  // A shut fold still drawn after a redraw was not opened by it (its tap was lost): it takes a tap again.
  root.querySelectorAll(".sf-fold[data-opening]").forEach((box) => {
    delete box.dataset.opening;
    box.firstElementChild.removeAttribute("aria-busy");
  });
  letGoOfFocus(root, data);
  // A tap goes to the server as this element's trigger (`tap`): Streamlit's own channel, in order with its runs.
  place(root, data, (value) => setTriggerValue("tap", value));
  // The look after a redraw waits for a task of its own (`lookSoon`), so the phone lays out and shows the move
  // first: a look measures every button, which in the redraw's own task makes the browser lay the page out once
  // more. Until then a button drawn anew is settling (`button`), and a tap takes a look of its own before it counts.
  lookSoon();
  follow(parentElement, listening ? listening.listen : null, setTriggerValue);
  return () => follow(parentElement, null);
}
