// The hexbattle board on a phone (a Streamlit components-v2 frontend, no build step).
//
// Two mounts share this code. The "art" mount says where the generator's drawings are (the printed
// board, every terrain tile face, every unit counter, as SVG strings): they never change during a game,
// so they are fetched once and the browser keeps them (a server without that route sends them whole in
// the mount). The "board" mount carries a small overlay (which tile lies where, the units, the
// marks) and composes the picture from the art, each drawing an <image> of its own file (`pieces`). A tap is
// reported as its position on the drawn board in CSS pixels with the board's drawn width: Python decides which
// hex that is (companion.components.hexboard.hex_at), so the rule is in one tested place.

const ART = "__musterHexboardArt";
const FETCHING = "__musterHexboardArtFetching";  // the version on its way
const MISSING = "__musterHexboardArtMissing";  // why the artwork could not be had: shown where the board goes
const NO_ART = "The board's artwork could not be loaded; reload the page.";
const NO_FACTS = "Tap any unit to see its facts here.";
const ZOOMS = [1, 1.5, 2];
// The zoom a player chose stays for this tab, through a redraw of the whole page (a question asked in a dialog
// draws the board anew) and a reload: a player who needs 44 px hexes zooms once.
const ZOOM_KEY = "muster-hexboard-zoom";
const PINCH_STEP = 1.3;  // fingers this much further apart (or closer) step the zoom once

function savedZoom() {
  try {
    const zoom = Number(window.sessionStorage.getItem(ZOOM_KEY));
    return ZOOMS.includes(zoom) ? zoom : null;
  } catch {
    return null;  // storage refused (a private window): the zoom lasts as long as the board
  }
}

function saveZoom(zoom) {
  try {
    window.sessionStorage.setItem(ZOOM_KEY, String(zoom));
  } catch {
    // as above
  }
}
const NS = "http://www.w3.org/2000/svg";
const views = (window.__musterHexboardViews = window.__musterHexboardViews || {});
const sights = {};  // board key -> its Sight (sight.js): what stood where on the board over the last moments

// A look at the board (sight.js): where it lies on the page and, at a point, what is drawn there (the tiles,
// marks, units and labels about the hex under the finger) with the position it was drawn at. A tap is taken
// only where that has stood for a human moment: a unit or a mark drawn under the finger by the move just made,
// or a board zoomed or panned under it, waits its moment.
function boardLook(svg, board, drawn) {
  const [x, y, w, h] = pagePlace(svg);
  const scale = w / board.size[0];
  const near = board.hex[0] * 0.75;
  return {
    key: JSON.stringify([x, y, w, h].map(Math.round)) + drawn,
    at: (px, py) => {
      if (!(w > 0) || px < x || py < y || px >= x + w || py >= y + h) return null;
      const bx = (px - x) / scale, by = (py - y) / scale;
      const close = (cx, cy) => Math.hypot(cx - bx, cy - by) <= near;
      return JSON.stringify([board.head, board.tiles.filter(([cx, cy]) => close(cx, cy)),
        board.marks.filter(([cx, cy]) => close(cx, cy)), board.units.filter((u) => close(u.x, u.y)),
        board.labels.filter(([cx, cy]) => close(cx, cy)),
        board.arrows.filter(([x1, y1, x2, y2]) => close(x1, y1) || close(x2, y2))]);
    },
  };
}

// Looks at the board; while what it shows has changed within the moment, it says so (aria-busy).
function watchBoard(sight) {
  const now = performance.now();
  const look = sight.see(now);
  const svg = sight.box.querySelector(".hb-svg");
  clearTimeout(sight.timer);
  if (now - look.t < SETTLE_MS) {
    svg.setAttribute("aria-busy", "true");
    sight.timer = setTimeout(() => watchBoard(sight), sight.waitMs(now));
  } else {
    svg.removeAttribute("aria-busy");
  }
}

// The look after a redraw waits for a task of its own (as the surface's `lookSoon`): a look measures where the board
// lies, which in the redraw's own task makes the phone lay the page out once more before it shows the move. Till
// then the board says it is busy, and a tap takes a look of its own before it counts.
function watchBoardSoon(sight) {
  sight.box.querySelector(".hb-svg").setAttribute("aria-busy", "true");
  clearTimeout(sight.timer);
  sight.timer = setTimeout(() => watchBoard(sight));
}

// The board's Sight: looks at what it last drew (none before its first drawing); a pan, a zoom or a move of
// the page around it is a change too.
function boardSight(key, box) {
  let sight = sights[key];
  if (!sight) {
    sight = sights[key] = new Sight(() =>
      sight.board ? boardLook(sight.box.querySelector(".hb-svg"), sight.board, sight.drawn) : { key: "", at: () => null });
  }
  if (sight.box !== box) {
    sight.box = box;
    const again = () => watchBoard(sight);
    box.querySelector(".hb-scroll").addEventListener("scroll", again, { passive: true });
    new ResizeObserver(again).observe(box.querySelector(".hb-svg"));
    new ResizeObserver(again).observe(pageContent(box));
  }
  return sight;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Each drawing as a file of the page's own (a blob), by its id: placed as an <image>, a drawing is painted from the
// browser's picture of it, kept between frames, rather than traced anew from hundreds of nodes whenever anything
// on the board changes (a <use> of a drawing copies its nodes into the board: the printed board alone has 685).
// Each file is read ahead (`decode`), so a piece first drawn by a move does not show a moment late.
function pieces(art) {
  const urls = {};
  for (const [id, text] of Object.entries(art.pieces)) {
    urls[id] = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
    const ahead = new Image();
    ahead.src = urls[id];
    ahead.decode().catch(() => {});  // a drawing the browser cannot read shows as a gap, as an <image> would
  }
  return urls;
}

function piece(parent, urls, id, x, y, w, h) {
  return el("image", { href: urls[id], x, y, width: w, height: h, "data-piece": id }, parent);
}

function skeleton(root, key) {
  let box = root.querySelector(".hb");
  if (box) return box;
  box = document.createElement("div");
  box.className = "hb";
  box.innerHTML =
    '<div class="hb-sticky"><div class="hb-facts" role="status"></div><div class="hb-top">' +
    '<svg class="hb-drawn" role="img" style="display: none"></svg><div class="hb-hint" role="status"></div>' +
    '<div class="hb-bar">' +
    '<button class="hb-out" aria-label="Zoom out">−</button><span class="hb-zoom"></span>' +
    '<button class="hb-in" aria-label="Zoom in">+</button></div></div></div><div class="hb-scroll"></div>';
  root.appendChild(box);
  // The bar's height, for the zoomed frame's (board.css), measured when it changes rather than read at each redraw
  // (a read in the redraw's task lays the page out an extra time).
  const sticky = box.querySelector(".hb-sticky");
  new ResizeObserver(() => box.style.setProperty("--hb-bar", `${sticky.offsetHeight}px`)).observe(sticky);
  const svg = el("svg", { class: "hb-svg", role: "img", "aria-label": "Battle map" }, box.querySelector(".hb-scroll"));
  el("g", { class: "hb-layer" }, svg);
  // One zoom step, keeping the point of the frame at (fx, fy) (its middle for a button; between the fingers
  // for a pinch) over the same place of the board.
  const zoomBy = (step, fx, fy) => {
    const view = views[key];
    const at = Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(view.zoom) + step));
    const scroll = box.querySelector(".hb-scroll");
    const ox = fx === undefined ? scroll.clientWidth / 2 : fx, oy = fy === undefined ? scroll.clientHeight / 2 : fy;
    const cx = (scroll.scrollLeft + ox) / view.zoom;
    const cy = (scroll.scrollTop + oy) / view.zoom;
    const from = view.zoom;
    view.zoom = ZOOMS[at];
    saveZoom(view.zoom);
    size(box, view);
    scroll.scrollLeft = cx * view.zoom - ox;
    scroll.scrollTop = cy * view.zoom - oy;
    if (view.zoom > 1 && view.zoom !== from) box.scrollIntoView({ block: "nearest" });  // the zoomed board whole, its bar above
  };
  // Two fingers spread or pinched on the board step the zoom as the buttons do (the frame pans with one
  // finger; the page's own pinch zoom is off over the board, which would otherwise scale the whole page).
  const scroll = box.querySelector(".hb-scroll");
  const apart = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  let pinch = null;  // the fingers' distance at the last zoom step of this gesture
  scroll.addEventListener("touchstart", (e) => { pinch = e.touches.length === 2 ? apart(e.touches) : null; }, { passive: true });
  scroll.addEventListener("touchmove", (e) => {
    if (pinch === null || e.touches.length !== 2) return;
    const now = apart(e.touches);
    if (now > pinch * PINCH_STEP || now < pinch / PINCH_STEP) {
      const frame = scroll.getBoundingClientRect();
      zoomBy(now > pinch ? 1 : -1, (e.touches[0].clientX + e.touches[1].clientX) / 2 - frame.left,
        (e.touches[0].clientY + e.touches[1].clientY) / 2 - frame.top);
      pinch = now;
    }
  }, { passive: true });
  scroll.addEventListener("touchend", () => { pinch = null; }, { passive: true });
  box.querySelector(".hb-out").onclick = () => zoomBy(-1);
  box.querySelector(".hb-in").onclick = () => zoomBy(1);
  return box;
}

// The board's width as a share of its frame's (no measure read, so a redraw lays the page out once), its zoom.
function size(box, view) {
  box.querySelector(".hb-svg").style.width = `${view.zoom * 100}%`;
  box.querySelector(".hb-zoom").textContent = `${view.zoom}×`;
  box.classList.toggle("hb-zoomed", view.zoom > 1);  // zoomed, the bar and the frame fit the screen together (board.css)
  box.querySelector(".hb-out").disabled = view.zoom === ZOOMS[0];
  box.querySelector(".hb-in").disabled = view.zoom === ZOOMS[ZOOMS.length - 1];
}

function place(layer, urls, id, cx, cy, w, h, rotate) {
  const g = el("g", { transform: `translate(${cx} ${cy}) rotate(${rotate || 0})` }, layer);
  piece(g, urls, id, -w / 2, -h / 2, w, h);
  return g;
}

// The board's parts in drawing order, each in a group of its own: the printed board, the laid tiles, the marks,
// the units, the labels, the arrows.
const PARTS = ["ground", "tiles", "marks", "units", "labels", "arrows"];

// Draws `parts` ([description, draw]) in `group`, keeping the nodes of a part drawn before with the same
// description: a tap's redraw makes only what changed (its marks, the unit that moved) and leaves the rest of the
// board as it stood, styled and laid out. No two parts of a board lie over each other, so a new one may go last.
function keep(group, parts) {
  const had = new Map();
  for (const node of group.children) had.set(node.partKey, node);
  const seen = new Map();
  const wanted = parts.map(([key, draw]) => {
    const n = (seen.get(key) || 0) + 1;  // the same part twice (two labels alike) is two parts
    seen.set(key, n);
    return [`${key}#${n}`, draw];
  });
  const keys = new Set(wanted.map(([key]) => key));
  for (const [key, node] of had) if (!keys.has(key)) node.remove();
  for (const [key, draw] of wanted) {
    if (had.has(key)) continue;
    const g = el("g", {}, group);
    g.partKey = key;
    draw(g);
  }
}

function drawUnit(g, urls, u, hh, hex) {
  const side = hh * 0.62;
  const counter = place(g, urls, `unit-${u.art}`, u.x, u.y, side * u.aspect, side, 60 * u.facing);
  counter.setAttribute("class", u.broken ? "hb-unit hb-broken" : "hb-unit");
  if (u.selected) el("polygon", { points: hex(u.x, u.y, 0.9), class: "hb-selected" }, g);
  const r = hh * 0.16;
  const bx = u.x + hh * 0.3, by = u.y + hh * 0.27;
  el("circle", { cx: bx, cy: by, r, fill: u.broken ? "#777777" : u.colour, stroke: "#fff", "stroke-width": r * 0.15 }, g);
  const t = el("text", { x: bx, y: by + r * 0.42, class: "hb-badge", "font-size": r * 1.25 }, g);
  t.textContent = String(u.strength);
  if (u.broken) {  // not by colour alone: a broken unit carries a warning sign on its counter
    const w = el("text", { x: u.x - hh * 0.3, y: u.y - hh * 0.12, class: "hb-badge hb-warn", "font-size": r * 1.6 }, g);
    w.textContent = "⚠";
  }
}

// The drawn tile waiting to be laid, as printed (from the art, as the board's tiles), beside the hint that says
// where it may go; nothing while none waits.
function drawDrawn(box, board, art) {
  const tile = box.querySelector(".hb-drawn");
  const drawn = JSON.stringify([board.drawn || null, art.version]);
  if (tile.drawn === drawn) return;
  tile.drawn = drawn;
  tile.replaceChildren();
  tile.style.display = board.drawn ? "" : "none";
  if (!board.drawn) return;
  const [id, name] = board.drawn;
  const [hw, hh] = board.hex;
  tile.setAttribute("viewBox", `${-hw / 2} ${-hh / 2} ${hw} ${hh}`);
  tile.setAttribute("aria-label", `The ${name} tile as printed`);
  tile.style.aspectRatio = `${hw} / ${hh}`;  // its height is the bar's (board.css)
  piece(tile, art.urls, `tile-${id}`, -hw / 2, -hh / 2, hw, hh);
}

function drawBoard(box, board, art) {
  const { urls } = art;
  const svg = box.querySelector(".hb-svg");
  const viewBox = `0 0 ${board.size[0]} ${board.size[1]}`;
  if (svg.getAttribute("viewBox") !== viewBox) svg.setAttribute("viewBox", viewBox);
  const layer = svg.querySelector(".hb-layer");
  const geometry = JSON.stringify([board.size, board.hex, art.version]);
  if (layer.geometry !== geometry) {  // another board or its art (never within a game): every part drawn anew
    layer.replaceChildren(...PARTS.map((part) => el("g", { class: `hb-part-${part}` })));
    layer.geometry = geometry;
  }
  const [ground, tiles, marks, units, labels, arrows] = layer.children;
  const [hw, hh] = board.hex;
  const hex = (cx, cy, s) =>
    [0, 60, 120, 180, 240, 300]
      .map((a) => `${cx + (s * hw) / 2 * Math.cos((a * Math.PI) / 180)},${cy + (s * hw) / 2 * Math.sin((a * Math.PI) / 180)}`)
      .join(" ");
  keep(ground, [["board", (g) => piece(g, urls, "board", 0, 0, board.size[0], board.size[1])]]);
  keep(tiles, board.tiles.map(([cx, cy, tile]) => [`${cx} ${cy} ${tile}`, (g) => place(g, urls, `tile-${tile}`, cx, cy, hw, hh)]));
  keep(marks, board.marks.map(([cx, cy, kind]) =>
    [`${cx} ${cy} ${kind}`, (g) => el("polygon", { points: hex(cx, cy, 0.94), class: `hb-mark hb-${kind}` }, g)]));
  keep(units, board.units.map((u) => [JSON.stringify(u), (g) => drawUnit(g, urls, u, hh, hex)]));
  keep(labels, board.labels.map(([cx, cy, text, kind]) => [JSON.stringify([cx, cy, text, kind]), (g) => {
    el("text", { x: cx, y: cy - hh * 0.18, class: `hb-label hb-l-${kind}`, "font-size": hh * 0.26 }, g).textContent = text;
  }]));
  keep(arrows, board.arrows.map(([x1, y1, x2, y2]) =>
    [`${x1} ${y1} ${x2} ${y2}`, (g) => el("line", { x1, y1, x2, y2, class: "hb-arrow", "marker-end": "url(#hb-head)" }, g)]));
}

export default function (component) {
  // data is ["art", art] or ["board", board] (a list: Streamlit looks for dataframes in a dict's values)
  const { parentElement, setTriggerValue, key } = component;
  const [kind, payload] = Array.isArray(component.data) ? component.data : [];
  const data = kind ? { [kind]: payload } : null;
  if (data && data.art) {
    // The art mount shows nothing: hide its place in the page so it leaves no gap above the board.
    const root = parentElement.getRootNode();
    const host = (root && root.host) || parentElement;
    const slot = host.closest && host.closest("[class*='-art ']");
    if (slot && slot.parentElement) slot.parentElement.style.display = "none";
    const arrived = (art) => {
      const had = window[ART];
      if (had) for (const url of Object.values(had.urls)) URL.revokeObjectURL(url);  // another version's files
      window[ART] = { version: art.version, urls: pieces(art) };
      window.dispatchEvent(new CustomEvent("muster-hexboard-art"));
    };
    if (data.art.pieces) {  // a server without the artwork's route sends it whole
      if ((window[ART] || {}).version !== data.art.version) arrived(data.art);
    } else if ((window[ART] || {}).version !== data.art.version && window[FETCHING] !== data.art.version) {
      window[FETCHING] = data.art.version;  // a redraw while it comes fetches it no second time
      // beside the page's own address, as Streamlit's requests are (a proxy may serve the app under a path)
      const here = window.location.pathname.endsWith("/") ? window.location.pathname : window.location.pathname + "/";
      fetch(new URL(data.art.path, window.location.origin + here).href)
        .then(async (reply) => {
          const got = await reply.json().catch(() => ({}));  // the server says why in words when it can
          if (!reply.ok || !got.pieces) throw new Error(got.error || NO_ART);
          window[MISSING] = null;
          arrived(got);
        })
        .catch((err) => {  // an old page after a restart with other cards, or the server gone: say so
          window[MISSING] = err instanceof TypeError ? NO_ART : String(err.message || NO_ART);
          window.dispatchEvent(new CustomEvent("muster-hexboard-art"));
        })
        .finally(() => { window[FETCHING] = null; });
    }
    return;
  }
  if (!data || !data.board) return;
  const view = (views[key] = views[key] || { zoom: savedZoom() || 1, taps: 0, focus: null });
  const box = skeleton(parentElement, key);
  box.querySelector(".hb-hint").textContent = data.board.hint || "";
  // the selected unit's facts over the board, however far it is zoomed and panned; the box keeps its place
  // with none selected, so selecting a unit does not push the board down under the finger
  const facts = box.querySelector(".hb-facts");
  facts.textContent = data.board.facts || NO_FACTS;
  facts.classList.toggle("hb-facts-none", !data.board.facts);
  const svg = box.querySelector(".hb-svg");
  const sight = boardSight(key, box);
  svg.onclick = (event) => {
    const now = performance.now();
    sight.see(now);
    const [px, py] = tapPoint(event, svg);
    if (!sight.settled(px, py, now)) {  // drawn, zoomed or panned under the finger a moment ago: ignored
      watchBoard(sight);
      return;
    }
    const rect = svg.getBoundingClientRect();
    view.taps += 1;
    // With the position the board was drawn at: a tap means what the player saw (Python refuses it if the
    // table has moved on since).
    const value = { x: event.clientX - rect.left, y: event.clientY - rect.top, w: rect.width, n: view.taps,
                    head: data.board.head };
    setTriggerValue("tap", value);  // Streamlit's own channel, in order with its runs
  };
  const render = () => {
    const art = window[ART];
    let missing = box.querySelector(".hb-missing");
    if (!art && window[MISSING]) {
      missing = missing || box.insertBefore(document.createElement("p"), box.querySelector(".hb-scroll"));
      missing.className = "hb-missing";
      missing.setAttribute("role", "alert");
      missing.textContent = window[MISSING];
    } else if (missing) {
      missing.remove();
    }
    if (!art) return false;
    if (!svg.querySelector("defs")) {  // the arrowhead of the facing arrows
      const marker = el("marker", { id: "hb-head", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
        svg.insertBefore(el("defs"), svg.firstChild));
      el("path", { d: "M0,0 L10,5 L0,10 z", class: "hb-head" }, marker);
    }
    size(box, view);
    drawBoard(box, data.board, art);
    drawDrawn(box, data.board, art);
    sight.board = data.board;
    sight.drawn = JSON.stringify(data.board);
    const focus = data.board.focus;
    if (focus && JSON.stringify(focus) !== JSON.stringify(view.focus) && view.zoom > 1) {
      const scroll = box.querySelector(".hb-scroll");
      const scale = svg.getBoundingClientRect().width / data.board.size[0];
      scroll.scrollLeft = focus[0] * scale - scroll.clientWidth / 2;
      scroll.scrollTop = focus[1] * scale - scroll.clientHeight / 2;
    }
    view.focus = focus;
    watchBoardSoon(sight);
    box.dataset.ready = "1";
    return true;
  };
  if (!render()) {
    const later = () => render();
    window.addEventListener("muster-hexboard-art", later, { once: true });
    return () => window.removeEventListener("muster-hexboard-art", later);
  }
}
