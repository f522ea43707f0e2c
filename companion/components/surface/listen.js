// A table part's listener, part of the table's surface (set before surface.js; companion.live draws it as the
// surface's last block, {key: "listen", listen: [url, page, head]}, so it costs no element of its own).
//
// [url, page, head]: where this server tells of moves (companion.heads), the name the page's run gave this
// listener, and the head the table part was drawn at. It asks `url?page=…&head=…` and waits (a long poll);
// when the answer's head is past the one drawn, it asks Streamlit to rerun the table part, through the surface
// element's trigger ("moved"), and waits for that drawing before it asks again. The phone that made the move
// has drawn it already, and the server knows (it answers only pages behind), so that phone does not rerun again.
// A refusal (400, 404: not listening here) stops it until the part is drawn anew; 429 and 503 wait as the
// server says; a lost connection waits a little longer each time. Nothing here is needed for correctness: the
// page's own poll shows every move, later.
// A hidden tab holds no request (a browser keeps six connections per address over HTTP/1.1, and the page's
// own requests need some): it asks again, with the head it drew, when it is shown.

const RETRY_MS = [1000, 2000, 5000, 10000, 30000];
const REDRAW_WAIT_MS = 5000; // after asking for a rerun, how long to wait for the new drawing before asking again
const listeners = new WeakMap(); // parentElement -> its listener

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

async function listen(l, signal) {
  let failures = 0;
  while (!signal.aborted) {
    let reply;
    try {
      const answer = await fetch(`${l.url}?page=${encodeURIComponent(l.page)}&head=${l.head}`,
                                 { signal, cache: "no-store" });
      if (answer.status === 400 || answer.status === 404) return;  // refused: drawn anew, it starts again
      if (answer.status === 429 || answer.status === 503) {
        await pause(1000 * (Number(answer.headers.get("Retry-After")) || 30), signal);
        continue;
      }
      if (!answer.ok) throw new Error(String(answer.status));
      reply = await answer.json();
      failures = 0;
    } catch (err) {
      if (signal.aborted) return;
      await pause(RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)], signal);
      continue;
    }
    if (typeof reply.head === "number" && reply.head > l.head) {
      l.setTriggerValue("moved", reply.head);
      await Promise.race([new Promise((resolve) => { l.redrawn = resolve; }), pause(REDRAW_WAIT_MS, signal)]);
    }
  }
}

function start(l) {
  if (l.abort) l.abort.abort();
  const abort = l.abort = new AbortController();
  l.running = !document.hidden;
  if (!l.running) return;
  listen(l, abort.signal).finally(() => { if (l.abort === abort) l.running = false; });
}

// The listener of the surface element drawn in `parentElement`: `data` as drawn now ([url, page, head]), or null
// when this element draws none (it stops).
function follow(parentElement, data, setTriggerValue) {
  let l = listeners.get(parentElement);
  if (!data) {
    if (l) {
      document.removeEventListener("visibilitychange", l.onVisible);
      if (l.abort) l.abort.abort();
      listeners.delete(parentElement);
    }
    return;
  }
  const [url, page, head] = data;
  if (!l) {
    l = {};
    listeners.set(parentElement, l);
    l.onVisible = () => start(l);
    document.addEventListener("visibilitychange", l.onVisible);
  }
  const fresh = l.page !== page || l.url !== url || !l.running;
  Object.assign(l, { url, page, head, setTriggerValue });
  if (l.redrawn) {
    l.redrawn();
    l.redrawn = null;
  }
  if (fresh) start(l);
}
