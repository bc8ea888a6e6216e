// The page: each section asks the engine (engine.js, in Web Workers) and
// shows what it returns. Texts come from the engine's views, so they are
// the CLI's; this file only lays them out, keeps the placements and answers
// per problem in local storage, and keeps each tab's state in the address
// (`#TAB?seed=7&…`), so that a link reopens the same problem.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const FLASH_KEY = "course.flash.ch23";
  const LOG_KEY = "course.reviews.log";
  const THEME_KEY = "course.theme";
  // The CLI reads no file above 64 MiB (src/cli/mod.rs, MAX_FILE_BYTES).
  const MAX_TEXT_BYTES = 64 << 20;
  // Output longer than this is cut in the page (the whole is downloadable).
  const MAX_SHOWN = 400000;
  // A link keeps an edited text up to this many packed characters.
  const MAX_LINK_TEXT = 60000;
  // An editor holds a text aside past this many lines or characters, and
  // shows this many of its lines.
  const BIG_LINES = 5000;
  const BIG_BYTES = 256 << 10;
  const BIG_SHOWN = 500;
  let engine = null;
  let info = null;

  // ---- helpers ---------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // The engine's response to `req` (a promise; the engine runs in a worker).
  function call(req, onTables) {
    return engine.run(req, onTables);
  }

  // Sets a <pre>'s text, cut at MAX_SHOWN characters with a note.
  function setText(pre, text) {
    if (text.length <= MAX_SHOWN) {
      pre.textContent = text;
      return;
    }
    const cut = text.lastIndexOf("\n", MAX_SHOWN);
    const more = text.slice(cut).split("\n").length - 1;
    pre.textContent = text.slice(0, cut) + "\n… " + more + " more lines: save the whole output below.";
  }

  // Shows a response's text (or its error, as the CLI prints it) in a <pre>.
  function show(pre, res, field) {
    pre.hidden = false;
    if (!res.ok) {
      pre.textContent = res.cancelled ? "Cancelled." : "course: error: " + res.error;
      pre.classList.add("bad");
      return false;
    }
    pre.classList.remove("bad");
    setText(pre, res[field || "text"]);
    return true;
  }

  function randomSeed() {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    return a[0] % 1000000;
  }

  function seedOf(input) {
    const n = Number.parseInt(input.value, 10);
    if (!Number.isFinite(n) || n < 0) {
      input.value = "0";
      return 0;
    }
    return n;
  }

  function toggle(button, box, open) {
    box.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  }

  function options(select, items) {
    select.replaceChildren(...items.map(([value, label]) => el("option", { value }, label)));
  }

  const basename = (p) => p.split("/").pop();

  // Offers `text` as a file NAME to save.
  function download(name, text, type) {
    const href = URL.createObjectURL(new Blob([text], { type: type || "text/plain" }));
    const a = el("a", { href, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    // The blob is freed once the browser has taken it (an output can be large).
    setTimeout(() => URL.revokeObjectURL(href), 60000);
  }

  // Local storage, which may be off or full: null / false then.
  function load(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function keep(key, value) {
    try {
      if (value === null || value === "") localStorage.removeItem(key);
      else localStorage.setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  }

  // Runs `f` 300 ms after the last call (a live update after typing).
  function debounce(f, ms) {
    let t = null;
    const d = (...args) => {
      clearTimeout(t);
      t = setTimeout(() => f(...args), ms);
    };
    d.now = (...args) => { clearTimeout(t); return f(...args); };
    return d;
  }

  // A text's size in UTF-8 bytes, refused above the CLI's limit with its
  // message (a text of more UTF-16 units than the limit is over it).
  function tooLarge(name, text) {
    // (A character is at most 3 UTF-8 bytes: most texts need no count.)
    const big = text.length > MAX_TEXT_BYTES || (text.length * 3 > MAX_TEXT_BYTES && new Blob([text]).size > MAX_TEXT_BYTES);
    return big ? name + ": larger than the " + (MAX_TEXT_BYTES >> 20) + " MiB limit" : null;
  }

  // ---- the text editors: line numbers, and markers at errors ------------------

  // A textarea with a gutter of line numbers; `mark(list)` puts a ✗ at
  // each {line, column, message} and lists them under the editor, each a
  // button that moves the caret there. The gutter numbers only the lines
  // in view, moved with the text. A text above BIG_LINES lines or
  // BIG_BYTES characters (a pasted megabyte) is held aside, the textarea
  // showing its first lines read-only: a browser's textarea takes about a
  // second to lay out 60,000 lines, on the page's thread. `text()` is the
  // whole text, `set(text)` replaces it; `onChange` is told of every edit.
  function editor(textarea, listLabel, onChange) {
    textarea.setAttribute("wrap", "off");
    const numbersBox = el("div", { class: "numbers" });
    const gutter = el("div", { class: "gutter", "aria-hidden": "true" }, numbersBox);
    const box = el("div", { class: "editor" });
    textarea.replaceWith(box);
    box.append(gutter, textarea);
    const list = el("ul", { class: "marks", id: textarea.id + "-marks", "aria-label": listLabel, hidden: true });
    box.after(list);
    textarea.setAttribute("aria-describedby", list.id);
    let marks = new Map();
    let lines = 1;
    let painted = "";
    let held = null; // the whole text, when it is too big for the textarea
    const note = el("p", { class: "held", id: textarea.id + "-held", role: "status" });
    const whole = el("button", { type: "button", onclick: () => { const t = held; held = null; put(t, true); } }, "Edit the whole text");
    const clear = el("button", { type: "button", onclick: () => { set(""); onChange(); textarea.focus(); } }, "Clear");
    const noteBox = el("div", { class: "row held-box", hidden: true }, note, whole, clear);
    box.before(noteBox);
    function linesOf(v) {
      let n = 1;
      for (let i = v.indexOf("\n"); i >= 0; i = v.indexOf("\n", i + 1)) n++;
      return n;
    }
    function count() {
      lines = held === null ? linesOf(textarea.value) : Math.min(linesOf(textarea.value), BIG_LINES);
    }
    // Puts `t` in the textarea, or its first lines when it is big (unless
    // `all`, the student's choice).
    function put(t, all) {
      const n = linesOf(t);
      const big = !all && (n > BIG_LINES || t.length > BIG_BYTES);
      held = big ? t : null;
      textarea.readOnly = big;
      noteBox.hidden = !big;
      if (!big) textarea.value = t;
      else {
        let cut = 0;
        for (let i = 0; i < BIG_SHOWN && cut >= 0; i++) cut = t.indexOf("\n", cut + 1);
        textarea.value = t.slice(0, cut < 0 ? Math.min(t.length, BIG_BYTES) : Math.min(cut, BIG_BYTES));
        note.textContent = "A large text (" + n.toLocaleString("en") + " lines, " + Math.round(t.length / 1024).toLocaleString("en") +
          " KB): the editor shows its first lines, read-only; the whole text is used.";
      }
      count();
      painted = "";
      paint();
    }
    function set(t) {
      put(t, false);
    }
    // A paste that would make the text big: held aside instead of laid out.
    textarea.addEventListener("paste", (e) => {
      const pasted = e.clipboardData && e.clipboardData.getData("text/plain");
      if (!pasted || (pasted.length <= BIG_BYTES && linesOf(pasted) <= BIG_LINES)) return;
      e.preventDefault();
      const v = textarea.value;
      set(v.slice(0, textarea.selectionStart) + pasted + v.slice(textarea.selectionEnd));
      onChange();
    });
    function paint() {
      const lh = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
      const pad = parseFloat(getComputedStyle(textarea).paddingTop) || 0;
      const first = Math.max(1, Math.floor(textarea.scrollTop / lh) + 1 - 10);
      const last = Math.min(lines, first + Math.ceil((textarea.clientHeight || 400) / lh) + 20);
      numbersBox.style.transform = "translateY(" + (pad + (first - 1) * lh - textarea.scrollTop) + "px)";
      const key = first + "/" + last + "/" + marks.size;
      if (key === painted) return;
      painted = key;
      const parts = [];
      for (let i = first; i <= last; i++) {
        const m = marks.get(i);
        parts.push(m ? el("div", { class: "mark", "data-line": String(i), title: m.message }, "✗" + i) : el("div", {}, String(i)));
      }
      numbersBox.replaceChildren(...parts);
    }
    textarea.addEventListener("input", () => {
      if (textarea.value.length > BIG_BYTES || linesOf(textarea.value) > BIG_LINES) set(textarea.value);
      else { count(); paint(); }
      onChange();
    });
    textarea.addEventListener("scroll", paint);
    count();
    requestAnimationFrame(paint);
    return {
      text: () => (held === null ? textarea.value : held),
      set,
      mark(list2) {
        marks = new Map(list2.map((m) => [m.line, m]));
        painted = "";
        paint();
        textarea.setAttribute("aria-invalid", list2.length ? "true" : "false");
        list.hidden = list2.length === 0;
        list.replaceChildren(...list2.slice(0, 50).map((m) => el("li", {},
          el("button", {
            type: "button", class: "link", "data-line": String(m.line),
            onclick: () => goTo(m.line, m.column),
          }, "line " + m.line + ", column " + m.column), ": " + m.message)));
      },
    };
    function goTo(line, column) {
      const v = textarea.value;
      let at = 0;
      for (let i = 1; i < line && at >= 0; i++) at = v.indexOf("\n", at) + 1;
      const pos = Math.min(v.length, at + Math.max(0, column - 1));
      textarea.focus();
      textarea.setSelectionRange(pos, pos);
    }
  }

  // The {line, column, message} of every `NAME:LINE:COLUMN: message` in
  // `text` that names `name` (the CLI's form for a place in a file).
  function placesIn(text, name) {
    const out = [];
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const re = new RegExp("(?:^|\\s)" + esc + ":(\\d+):(\\d+): ([^\\n]*)", "g");
    for (const m of text.matchAll(re)) {
      out.push({ line: Number(m[1]), column: Number(m[2]), message: m[3] });
      if (out.length >= 1000) break;
    }
    return out;
  }

  // ---- text in links: deflate-raw, then base64url ------------------------

  async function pack(text) {
    const s = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(s).arrayBuffer());
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function unpack(b64) {
    const bin = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const s = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(s).text();
  }

  // ---- the address: the tab and its state -----------------------------------

  const TABS = ["list-schedule", "drills", "quiz", "flash", "progress", "lab", "mca", "worksheet"];
  // Each tab's state as link parameters (set by the tabs).
  const linkState = {};
  let currentTab = "list-schedule";

  // The tab and parameters of the address: `#TAB?k=v…`, and `?k=v` before
  // the `#` (for links written by hand: `index.html?seed=7#list-schedule`).
  function address() {
    const h = location.hash.slice(1);
    const q = h.indexOf("?");
    const tab = q >= 0 ? h.slice(0, q) : h;
    const params = new URLSearchParams(location.search);
    for (const [k, v] of new URLSearchParams(q >= 0 ? h.slice(q + 1) : "")) params.set(k, v);
    return { tab: TABS.includes(tab) ? tab : null, params };
  }

  // Writes the current tab's state into the address (no new history entry).
  let addressLive = false; // the address is read before it is written
  function writeAddress() {
    if (!addressLive) return;
    const p = linkState[currentTab] ? linkState[currentTab]() : null;
    const q = p && String(p) ? "?" + p : "";
    const want = location.pathname + "#" + currentTab + q;
    if (location.pathname + location.search + location.hash !== want) {
      try { history.replaceState(null, "", want); } catch (e) { /* some hosts refuse: the page works on */ }
    }
  }

  // ---- the busy state of the long runs -------------------------------------

  function onBusy(lane, n) {
    if (lane !== "heavy") return;
    for (const b of document.querySelectorAll(".working")) b.hidden = n === 0;
    document.body.dataset.busy = n ? "1" : "";
  }

  // ---- the review log ------------------------------------------------------

  // The local calendar date, as the CLI counts "today" (src/host/clock.rs).
  function today() {
    const d = new Date();
    const two = (n) => String(n).padStart(2, "0");
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  function logText() {
    return load(LOG_KEY) || "";
  }

  // Who and when, for the engine to write a review's log line.
  function stamp() {
    const who = ($("pg-who") && $("pg-who").value) || "me";
    return { who, day: today(), time: Math.floor(Date.now() / 1000) };
  }

  // Appends the line the engine wrote for a review (drill check, quiz
  // answer, flashcard rating), as course appends to reviews.log.
  function logReview(res) {
    if (!res || !res.ok || !res.review_line) return;
    if (!keep(LOG_KEY, logText() + res.review_line)) {
      $("pg-note").textContent = "✗ Could not save the review log. Export it to keep it.";
    }
  }

  async function pgRender() {
    const who = $("pg-who").value.trim();
    const res = await call({ cmd: "progress", log: logText(), today: today(), who: who === "" ? null : who });
    if (!show($("pg-out"), res, "progress_text")) return;
    $("pg-practice").textContent = res.practice_text;
    pgNext(res.path);
    $("pg-note").textContent = res.warnings.map((w) => "course: warning: " + w).join("\n");
  }

  // The next exercise on the chapter's path (`course next`), with a link
  // that opens it.
  function pgNext(path) {
    const box = $("pg-next");
    if (!path.next) {
      box.replaceChildren("The chapter's path is done: all " + path.total + " steps answered right.");
      return;
    }
    const n = path.next;
    const href = n.drill === "list-schedule" ? "#list-schedule?seed=" + n.seed : "#drills?drill=" + n.drill + "&seed=" + n.seed;
    box.replaceChildren("Next exercise on the chapter's path (step " + n.number + " of " + path.total + ", " + path.done + " done): ",
      el("a", { href, id: "pg-next-link" }, "drill " + n.drill + ", seed " + n.seed),
      " — the one ", el("code", {}, "course next"), " writes.");
  }

  async function pgInit() {
    $("pg-refresh").addEventListener("click", pgRender);
    $("pg-export").addEventListener("click", async () => {
      const res = await call({ cmd: "progress_export", log: logText() });
      if (!res.ok) { $("pg-note").textContent = "✗ course: error: " + res.error; return; }
      download("reviews.log", res.text);
      $("pg-note").textContent = "Saved reviews.log: use it with course progress --review-log reviews.log";
    });
    $("pg-import").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      e.target.value = "";
      // The engine reads the lines: the records are kept as course writes
      // them, the bad lines reported and left out; a file too large for
      // the page is refused before it is read.
      const res = f.size > info.max_import_bytes
        ? await call({ cmd: "progress_import", name: f.name, size: f.size })
        : await call({ cmd: "progress_import", name: f.name, text: await f.text() });
      if (!res.ok) { $("pg-note").textContent = "✗ course: error: " + res.error; return; }
      if (!keep(LOG_KEY, logText() + res.lines)) {
        $("pg-note").textContent = "✗ Could not save the review log in this browser.";
        return;
      }
      await pgRender();
      $("pg-note").textContent = ["Imported " + f.name + " (" + res.count + " review(s))."]
        .concat(res.warnings.map((w) => "course: warning: " + w)).join("\n");
    });
    await pgRender();
  }

  // ---- sections --------------------------------------------------------

  // Shows the tab of the address, first applying its parameters.
  async function route() {
    const { tab, params } = address();
    currentTab = tab || currentTab;
    if (tab && [...params.keys()].length && applyLink[tab]) await applyLink[tab](params);
    for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== currentTab;
    if (currentTab === "mca") mcaShown();
    if (currentTab === "progress") pgRender();
    for (const a of document.querySelectorAll("nav a")) {
      if (a.getAttribute("href") === "#" + currentTab) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    writeAddress();
  }

  // What each tab does with a link's parameters.
  const applyLink = {};

  // A whole number parameter, or `fallback`.
  function intParam(params, key, fallback) {
    const n = Number.parseInt(params.get(key) || "", 10);
    return Number.isFinite(n) && n >= 0 ? n : fallback;
  }

  // Sets a <select> to `value` when it is one of its options.
  function choose(select, value) {
    if (value !== null && [...select.options].some((o) => o.value === value)) select.value = value;
  }

  // ---- theme -------------------------------------------------------------------

  // The choice (auto, light, dark) is kept; data-theme is the theme in
  // force, the system's (prefers-color-scheme) while the choice is auto.
  const THEMES = ["auto", "light", "dark"];
  const systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  let themeChoice = "auto";
  function setTheme(t) {
    themeChoice = t;
    const dark = t === "dark" || (t === "auto" && systemDark && systemDark.matches);
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    document.documentElement.dataset.themeChoice = t;
    $("theme").textContent = "Theme: " + t;
    $("theme").setAttribute("aria-label", "Colour theme: " + t + " (press to change)");
  }
  function themeInit() {
    const saved = load(THEME_KEY);
    setTheme(THEMES.includes(saved) ? saved : "auto");
    if (systemDark) systemDark.addEventListener("change", () => setTheme(themeChoice));
    $("theme").addEventListener("click", () => {
      const next = THEMES[(THEMES.indexOf(themeChoice) + 1) % THEMES.length];
      setTheme(next);
      keep(THEME_KEY, next === "auto" ? null : next);
    });
  }

  // ---- list scheduling --------------------------------------------------

  const ls = {
    seed: 4,
    problem: null, // the drill's JSON (ops, edges, machine)
    placed: [], // [label, cycle] in the order placed
    chosen: null,
    solution: null,
    hints: 0,
    rows: 0, // rows of the table asked for with "More cycles"
    render: 0, // the latest render asked for (older answers are dropped)
  };

  const lsKey = (seed) => "course.ls." + seed;

  async function lsLoad(seed) {
    ls.seed = seed;
    $("ls-seed").value = String(seed);
    $("ls-cli").textContent = "course drill list-schedule --seed " + seed;
    const res = await call({ cmd: "drill", drill: "list-schedule", seed });
    if (!show($("ls-problem"), res)) return;
    ls.problem = JSON.parse(res.json);
    let saved = [];
    try { saved = JSON.parse(load(lsKey(seed)) || "[]"); } catch (e) { saved = []; }
    const labels = new Set(ls.problem.ops.map((o) => o.label));
    ls.placed = Array.isArray(saved)
      ? saved.filter((x) => Array.isArray(x) && labels.has(x[0]) && Number.isInteger(x[1]) && x[1] >= 0 && x[1] <= 999)
      : [];
    ls.solution = null;
    ls.hints = 0;
    ls.rows = 0;
    ls.chosen = ls.problem.ops[0].label;
    for (const [b, box] of [["ls-heights", "ls-heights-out"], ["ls-graph", "ls-graph-out"], ["ls-solution", "ls-solution-out"]]) {
      toggle($(b), $(box), false);
    }
    $("ls-report").hidden = true;
    $("ls-hints").hidden = true;
    $("ls-hint").disabled = false;
    $("ls-status").textContent = "Block " + ls.problem.name + " (seed " + seed + "): " + ls.problem.ops.length + " operations" +
      (ls.placed.length ? "; " + ls.placed.length + " placement(s) kept from your last visit." : ".");
    lsMachine();
    lsBuildOps();
    writeAddress();
    await lsRender();
  }

  // Each class's reservation table: resources by offset, X where held.
  function lsMachine() {
    const m = ls.problem.machine;
    const box = $("ls-machine");
    box.replaceChildren();
    const used = new Set(ls.problem.ops.map((o) => o.class));
    for (const c of m.classes) {
      if (!used.has(c.name)) continue;
      const width = Math.max(1, ...c.reservation.map(([, k]) => k + 1));
      const head = el("tr", {}, el("th", { scope: "col" }, "k"));
      for (let k = 0; k < width; k++) head.append(el("th", { scope: "col" }, String(k)));
      const body = [];
      for (const r of m.resources) {
        const row = el("tr", {}, el("th", { scope: "row" }, r.name));
        let any = false;
        for (let k = 0; k < width; k++) {
          const n = c.reservation.filter(([name, off]) => name === r.name && off === k).length;
          any = any || n > 0;
          row.append(el("td", { class: n ? "busy" : "" }, n ? "X".repeat(n) : "."));
        }
        if (any) body.push(row);
      }
      box.append(
        el("table", { class: "rt" },
          el("caption", {}, c.name + " — latency " + c.latency + " (" + c.opcodes.join(" ") + ")"),
          el("thead", {}, head),
          el("tbody", {}, ...body))
      );
    }
  }

  function lsPlace(label, cycle) {
    ls.placed = ls.placed.filter(([l]) => l !== label);
    if (cycle !== null) ls.placed.push([label, cycle]);
    keep(lsKey(ls.seed), ls.placed.length ? JSON.stringify(ls.placed) : null);
    return lsRender();
  }

  // The operations' rows, built once a problem: renders update them in
  // place, so that the focus stays where the keyboard put it (typing a
  // cycle then Tab moves on to the next operation's cycle).
  function lsBuildOps() {
    const tbody = $("ls-ops").tBodies[0];
    tbody.replaceChildren();
    for (const op of ls.problem.ops) {
      const radio = el("input", {
        type: "radio", name: "ls-choose", value: op.label, id: "ls-choose-" + op.label,
        onchange: () => { ls.chosen = op.label; },
      });
      const cycle = el("input", {
        type: "number", min: "0", max: "999", step: "1", inputmode: "numeric",
        id: "ls-cycle-" + op.label, class: "cycle",
        "aria-label": "cycle of " + op.label,
        "aria-describedby": "ls-verdict-" + op.label,
        onchange: (e) => {
          const t = e.target.value.trim();
          const n = Number.parseInt(t, 10);
          ls.chosen = op.label;
          lsPlace(op.label, t === "" || !(n >= 0) ? null : Math.min(n, 999));
        },
      });
      tbody.append(
        el("tr", { id: "ls-row-" + op.label },
          el("td", {}, radio),
          el("th", { scope: "row" }, el("label", { for: "ls-choose-" + op.label }, op.label + ": " + op.text)),
          el("td", {}, op.class),
          el("td", {}, cycle),
          el("td", { id: "ls-verdict-" + op.label }))
      );
    }
  }

  async function lsRender() {
    const p = ls.problem;
    const mine = ++ls.render;
    $("ls-ops").dataset.asked = String(mine);
    const res = await call({ cmd: "place", seed: ls.seed, placed: ls.placed });
    if (mine !== ls.render || p !== ls.problem) return;
    if (!res.ok) {
      $("ls-status").textContent = "course: error: " + res.error;
      $("ls-ops").dataset.rendered = String(mine);
      return;
    }
    const verdict = new Map(res.placed.map((x) => [x.label, x]));
    for (const op of p.ops) {
      const v = verdict.get(op.label);
      $("ls-choose-" + op.label).checked = ls.chosen === op.label;
      const input = $("ls-cycle-" + op.label);
      const want = v ? String(v.cycle) : "";
      if (input.value !== want && document.activeElement !== input) input.value = want;
      if (v && v.conflicts.length) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
      $("ls-row-" + op.label).className = v && v.conflicts.length ? "conflict" : "";
      let check;
      if (!v) check = [el("span", { class: "muted" }, "— not placed")];
      else if (v.conflicts.length === 0) check = [el("span", { class: "ok" }, "✓ accepted")];
      else check = [el("span", { class: "bad" }, ...v.conflicts.flatMap((c, i) => [i ? el("br") : null, "✗ " + c.message]))];
      $("ls-verdict-" + op.label).replaceChildren(...check);
    }
    lsTable(p, res);
    const bad = res.placed.filter((x) => x.conflicts.length).length;
    const status = ls.placed.length + " of " + p.ops.length + " placed" + (bad ? ", " + bad + " with a conflict" : "") + ".";
    $("ls-table-h").textContent = "Your reservation table — " + status;
    for (const x of res.ignored) $("ls-status").textContent = "✗ " + x.message;
    $("ls-ops").dataset.rendered = String(mine);
  }

  // The reservation table of what is placed, updated in place: its rows
  // (and their cycle buttons) stay while the placements change, so that a
  // press or the focus is never lost to a redraw.
  function lsTable(p, res) {
    const m = p.machine;
    const rows = new Map(res.rows.map((r) => [r.cycle, r]));
    const last = Math.max(-1, ...ls.placed.map(([, c]) => c), ...res.rows.map((r) => r.cycle));
    const nrows = Math.min(1000, Math.max(last + 3, p.ops.length + 2, 12, ls.rows));
    const table = $("ls-table");
    if (table.dataset.problem !== p.name + "/" + ls.seed) {
      const head = el("tr", {}, el("th", { scope: "col" }, "cycle"));
      for (const r of m.resources) head.append(el("th", { scope: "col" }, r.name + " (" + r.capacity + ")"));
      head.append(el("th", { scope: "col" }, "placed"));
      table.replaceChildren(el("thead", {}, head), el("tbody"));
      table.dataset.problem = p.name + "/" + ls.seed;
    }
    const body = table.tBodies[0];
    while (body.rows.length > nrows) body.lastElementChild.remove();
    for (let c = body.rows.length; c < nrows; c++) {
      const tr = el("tr", {}, el("th", { scope: "row" },
        el("button", {
          type: "button", class: "cyc", "data-cycle": String(c),
          "aria-label": "place the chosen operation at cycle " + c,
          onclick: () => {
            if (!ls.chosen) return;
            const label = ls.chosen;
            $("ls-status").textContent = label + " placed at cycle " + c + ".";
            lsPlace(label, c);
          },
        }, String(c))));
      for (let i = 0; i < m.resources.length; i++) tr.append(el("td"));
      tr.append(el("td", { class: "placed", "data-cycle": String(c) }));
      body.append(tr);
    }
    for (let c = 0; c < nrows; c++) {
      const row = rows.get(c);
      const cells = body.rows[c].cells;
      m.resources.forEach((r, i) => {
        const cell = row ? row.cells[i] : { used: 0, holders: [] };
        const over = cell.used > r.capacity;
        let txt;
        if (r.name === "issue") txt = String(cell.used);
        else txt = cell.used ? cell.holders.join(",") : ".";
        const td = cells[i + 1];
        td.className = over ? "over" : cell.used ? "busy" : "";
        td.textContent = txt + (over ? " ✗" : "");
      });
      const here = res.placed.filter((x) => x.cycle === c);
      const td = cells[m.resources.length + 1];
      if (here.length === 0) td.textContent = "—";
      else {
        td.replaceChildren(...here.map((x) => {
          const op = p.ops.find((o) => o.label === x.label);
          const bad = x.conflicts.length > 0;
          return el("div", { class: bad ? "bad" : "ok", "data-label": x.label },
            (bad ? "✗ " : "✓ ") + x.label + " (" + opcode(op) + ")",
            ...x.conflicts.map((k) => el("div", { class: "reason" }, k.message)));
        }));
      }
    }
  }

  // The opcode of an operation (`r1 = load [x]` → load), as the CLI's table shows it.
  function opcode(op) {
    const t = op.text.includes(" = ") ? op.text.split(" = ")[1] : op.text;
    return t.split(" ")[0];
  }

  // A drill's text with --solution, from its "Solution" heading on (all of
  // it when there is none).
  function solutionPart(t) {
    const at = t.indexOf("\nSolution");
    return at >= 0 ? t.slice(at + 1) : t;
  }

  function lsAnswer() {
    return ls.placed.map(([l, c]) => l + " " + c + "\n").join("");
  }

  async function lsSolution() {
    if (!ls.solution) {
      const res = await call({ cmd: "drill", drill: "list-schedule", seed: ls.seed, solution: true });
      if (!res.ok) return null;
      ls.solution = { json: JSON.parse(res.json), text: res.text };
    }
    return ls.solution;
  }

  async function lsHeights() {
    const s = await lsSolution();
    if (!s) return;
    const h = s.json.solution.heights;
    const rows = ls.problem.ops.map((o) =>
      el("tr", {}, el("th", { scope: "row" }, o.label), el("td", {}, String(h[o.label])), el("td", {}, o.text)));
    $("ls-heights-out").replaceChildren(
      el("table", { class: "small" },
        el("caption", {}, "Heights h(x) = max(lat(x), max over x→y of ℓ + h(y))"),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "op"), el("th", { scope: "col" }, "height"), el("th", { scope: "col" }, "operation"))),
        el("tbody", {}, ...rows)));
  }

  // The dependence graph as SVG: operations in layers by longest path from
  // the roots, edges labelled with their latency (memory edges dashed).
  function lsGraph() {
    const p = ls.problem;
    const NS = "http://www.w3.org/2000/svg";
    const svgEl = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const level = new Map(p.ops.map((o) => [o.label, 0]));
    const edges = p.edges.filter((e) => e.distance === 0);
    for (let pass = 0; pass < p.ops.length; pass++) {
      for (const e of edges) {
        const want = level.get(e.from) + 1;
        if (level.get(e.to) < want) level.set(e.to, want);
      }
    }
    const layers = [];
    for (const o of p.ops) (layers[level.get(o.label)] = layers[level.get(o.label)] || []).push(o.label);
    const W = 90, H = 80, R = 18;
    const width = Math.max(...layers.map((l) => l.length)) * W + 20;
    const height = layers.length * H + 20;
    const pos = new Map();
    layers.forEach((l, y) => l.forEach((label, x) => {
      const off = (width - l.length * W) / 2;
      pos.set(label, [off + x * W + W / 2, 10 + y * H + H / 2]);
    }));
    const svg = svgEl("svg", { viewBox: "0 0 " + width + " " + height, width: String(width), height: String(height), role: "img", "aria-labelledby": "ls-graph-title ls-graph-desc" });
    svg.append(svgEl("title", { id: "ls-graph-title" }, "Dependence graph of block " + p.name));
    svg.append(svgEl("desc", { id: "ls-graph-desc" }, p.edges.map((e) => e.from + " → " + e.to + " latency " + e.latency + (e.kind === "memory" ? " (memory)" : "")).join("; ") || "no dependences"));
    const defs = svgEl("defs", {});
    const marker = svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
    marker.append(svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }));
    defs.append(marker);
    svg.append(defs);
    for (const e of edges) {
      const [x1, y1] = pos.get(e.from), [x2, y2] = pos.get(e.to);
      const dx = x2 - x1, dy = y2 - y1, d = Math.hypot(dx, dy) || 1;
      const a = [x1 + dx / d * R, y1 + dy / d * R], b = [x2 - dx / d * R, y2 - dy / d * R];
      svg.append(svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: e.kind === "memory" ? "edge mem" : "edge", "marker-end": "url(#arrow)" }));
      svg.append(svgEl("text", { x: (a[0] + b[0]) / 2 + 6, y: (a[1] + b[1]) / 2, class: "lat" }, "ℓ=" + e.latency));
    }
    for (const o of p.ops) {
      const [x, y] = pos.get(o.label);
      const g = svgEl("g", {});
      g.append(svgEl("title", {}, o.label + ": " + o.text));
      g.append(svgEl("circle", { cx: x, cy: y, r: R, class: "node" }));
      g.append(svgEl("text", { x: x, y: y + 5, "text-anchor": "middle", class: "nlabel" }, o.label));
      g.append(svgEl("text", { x: x, y: y + R + 13, "text-anchor": "middle", class: "nclass" }, o.class));
      svg.append(g);
    }
    $("ls-graph-out").replaceChildren(
      el("p", { class: "hint" }, "Solid: register dependence; dashed: memory dependence; ℓ is the edge latency."),
      el("div", { class: "scroll" }, svg));
  }


  async function lsInit() {
    $("ls-seed-form").addEventListener("submit", (e) => { e.preventDefault(); lsLoad(seedOf($("ls-seed"))); });
    $("ls-random").addEventListener("click", () => lsLoad(randomSeed()));
    $("ls-clear").addEventListener("click", () => {
      ls.placed = [];
      keep(lsKey(ls.seed), null);
      $("ls-report").hidden = true;
      for (const op of ls.problem.ops) $("ls-cycle-" + op.label).value = "";
      lsRender();
    });
    $("ls-more").addEventListener("click", () => {
      ls.rows = Math.min(1000, Math.max(ls.rows, $("ls-table").tBodies[0].rows.length) + 6);
      lsRender();
    });
    $("ls-check").addEventListener("click", async () => {
      const res = await call({ cmd: "drill", drill: "list-schedule", seed: ls.seed, check: { file: "my-schedule.txt", text: lsAnswer() }, stamp: stamp() });
      logReview(res);
      show($("ls-report"), res);
      $("ls-report").className = "out " + (res.ok && res.correct ? "good" : "bad");
    });
    // Each press asks for one more hint (course drill … --hint, repeated).
    $("ls-hint").addEventListener("click", () => hint("list-schedule", ls.seed, null, ls, $("ls-hint"), $("ls-hints")));
    $("ls-heights").addEventListener("click", async (e) => {
      const open = $("ls-heights-out").hidden;
      if (open) await lsHeights();
      toggle(e.target, $("ls-heights-out"), open);
    });
    $("ls-graph").addEventListener("click", (e) => {
      const open = $("ls-graph-out").hidden;
      if (open) lsGraph();
      toggle(e.target, $("ls-graph-out"), open);
    });
    // Showing the solution is logged, as `course drill … --solution` logs
    // it: a right answer after it is not practice.
    $("ls-solution").addEventListener("click", async (e) => {
      const open = $("ls-solution-out").hidden;
      if (open) {
        const res = await call({ cmd: "drill", drill: "list-schedule", seed: ls.seed, solution: true, stamp: stamp() });
        logReview(res);
        if (show($("ls-solution-out"), res)) $("ls-solution-out").textContent = solutionPart(res.text);
      }
      toggle(e.target, $("ls-solution-out"), open);
    });
    linkState["list-schedule"] = () => new URLSearchParams({ seed: String(ls.seed) });
    applyLink["list-schedule"] = async (p) => {
      const seed = intParam(p, "seed", ls.seed);
      if (seed !== ls.seed || !ls.problem) await lsLoad(seed);
    };
    await lsLoad(intParam(address().params, "seed", 4));
  }

  // One more hint of a drill (`course drill NAME --seed N --hint`, pressed
  // again for the next level); the button is disabled after the last.
  async function hint(drill, seed, machine, st, button, out) {
    st.hints += 1;
    const res = await call({ cmd: "drill", drill, seed, machine, hints: st.hints, stamp: stamp() });
    logReview(res);
    if (res.ok && res.hints.length < st.hints) {
      st.hints = res.hints.length;
      button.disabled = true;
    }
    if (show(out, res)) out.textContent = res.text.trim();
    out.hidden = false;
  }

  // ---- the other drills --------------------------------------------------

  const dr = { name: "mii", seed: 2, machine: "toy", hints: 0 };
  const drKey = () => "course.drill." + dr.name + "." + dr.machine + "." + dr.seed;

  async function drLoad() {
    dr.name = $("dr-name").value;
    dr.seed = seedOf($("dr-seed"));
    dr.machine = $("dr-machine").value;
    const d = info.drills.find((x) => x.name === dr.name);
    const cli = "course drill " + dr.name + " --seed " + dr.seed + (dr.machine === "toy" ? "" : " --machine " + dr.machine);
    $("dr-summary").textContent = d ? d.summary : "";
    $("dr-cli").textContent = cli;
    $("dr-report").hidden = true;
    dr.hints = 0;
    $("dr-hints").hidden = true;
    $("dr-hint").disabled = false;
    toggle($("dr-solution"), $("dr-solution-out"), false);
    $("dr-answer").value = load(drKey()) || "";
    writeAddress();
    show($("dr-problem"), await call({ cmd: "drill", drill: dr.name, seed: dr.seed, machine: dr.machine }));
  }

  async function drInit() {
    options($("dr-name"), info.drills.filter((d) => d.name !== "list-schedule").map((d) => [d.name, d.name]));
    options($("dr-machine"), info.machines.map((m) => [m, m]));
    $("dr-name").value = "mii";
    $("dr-form").addEventListener("submit", (e) => { e.preventDefault(); drLoad(); });
    $("dr-name").addEventListener("change", drLoad);
    $("dr-machine").addEventListener("change", drLoad);
    $("dr-random").addEventListener("click", () => { $("dr-seed").value = String(randomSeed()); drLoad(); });
    $("dr-answer").addEventListener("input", () => keep(drKey(), $("dr-answer").value));
    $("dr-hint").addEventListener("click", () => hint(dr.name, dr.seed, dr.machine, dr, $("dr-hint"), $("dr-hints")));
    $("dr-check").addEventListener("click", async () => {
      const res = await call({ cmd: "drill", drill: dr.name, seed: dr.seed, machine: dr.machine, check: { file: "answer.txt", text: $("dr-answer").value }, stamp: stamp() });
      logReview(res);
      show($("dr-report"), res);
      $("dr-report").className = "out " + (res.ok && res.correct ? "good" : "bad");
    });
    $("dr-solution").addEventListener("click", async (e) => {
      const open = $("dr-solution-out").hidden;
      if (open) {
        const res = await call({ cmd: "drill", drill: dr.name, seed: dr.seed, machine: dr.machine, solution: true, stamp: stamp() });
        logReview(res);
        if (show($("dr-solution-out"), res)) $("dr-solution-out").textContent = solutionPart(res.text);
      }
      toggle(e.target, $("dr-solution-out"), open);
    });
    linkState.drills = () => new URLSearchParams(Object.assign({ drill: dr.name, seed: String(dr.seed) }, dr.machine === "toy" ? {} : { machine: dr.machine }));
    applyLink.drills = async (p) => {
      choose($("dr-name"), p.get("drill"));
      choose($("dr-machine"), p.get("machine") || "toy");
      $("dr-seed").value = String(intParam(p, "seed", dr.seed));
      await drLoad();
    };
    await drLoad();
  }

  // ---- quiz -----------------------------------------------------------------

  function qzLog(text, cls) {
    const pre = el("pre", { class: "out " + (cls || "") }, text);
    $("qz-log").append(pre);
    return pre;
  }

  function qzNext(res) {
    if (res.question) {
      qzLog(res.question_text, "question");
      $("qz-prompt").textContent = res.prompt_text.trim();
      $("qz-answer-form").hidden = false;
      $("qz-answer").focus();
    } else {
      $("qz-answer-form").hidden = true;
      qzLog(res.summary_text, res.summary && res.summary.all_right ? "good" : "summary");
    }
  }

  function qzInit() {
    const { tab, params } = address();
    $("qz-seed").value = String(tab === "quiz" ? intParam(params, "seed", randomSeed()) : randomSeed());
    linkState.quiz = () => new URLSearchParams({ seed: String(seedOf($("qz-seed"))) });
    applyLink.quiz = async (p) => { $("qz-seed").value = String(intParam(p, "seed", seedOf($("qz-seed")))); };
    $("qz-seed").addEventListener("change", writeAddress);
    $("qz-start-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      $("qz-log").replaceChildren();
      $("qz-answer").value = "";
      writeAddress();
      const res = await call({ cmd: "quiz_start", seed: seedOf($("qz-seed")) });
      if (!res.ok) { qzLog("course: error: " + res.error, "bad"); return; }
      qzLog(res.intro_text.trim());
      qzNext(res);
    });
    // Answers are sent one at a time, in order.
    let busy = Promise.resolve();
    $("qz-answer-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const line = $("qz-answer").value;
      $("qz-answer").value = "";
      busy = busy.then(async () => {
        qzLog($("qz-prompt").textContent + " " + line, "reply");
        const res = await call({ cmd: "quiz_reply", line, stamp: stamp() });
        logReview(res);
        if (!res.ok) { qzLog("course: error: " + res.error, "bad"); return; }
        if (res.retry_text) {
          qzLog(res.retry_text, "bad");
          $("qz-answer").focus();
          return;
        }
        qzLog(res.feedback_text, res.status === "right" ? "good" : "bad");
        qzNext(res);
      });
    });
    $("qz-stop").addEventListener("click", async () => {
      const res = await call({ cmd: "quiz_end" });
      if (!res.ok) return;
      qzLog(res.ended_text.trim());
      qzNext(res);
    });
  }

  // ---- flashcards ---------------------------------------------------------------

  function flStore(text) {
    if (!keep(FLASH_KEY, text)) {
      $("fl-note").textContent = "✗ Could not save to local storage. Export the state file to keep it.";
    }
  }

  async function flOpen(all, review) {
    const res = await call({ cmd: "flash_open", today: today(), state: load(FLASH_KEY), all });
    if (!res.ok) { $("fl-note").textContent = "course: error: " + res.error; return; }
    $("fl-list").textContent = res.list_text;
    const notes = res.warnings.map((w) => "course: warning: " + w);
    if (!review) {
      $("fl-note").textContent = notes.join("\n");
      return;
    }
    $("fl-log").hidden = false;
    $("fl-log").textContent = "";
    if (res.nothing_due_text) {
      $("fl-note").textContent = notes.concat([res.nothing_due_text.replace("--all", "“Review all cards”")]).join("\n");
      $("fl-card").hidden = true;
      return;
    }
    $("fl-note").textContent = notes.concat([res.start_text.trim()]).join("\n");
    await flShow(res);
  }

  async function flShow(res) {
    if (res.front) {
      $("fl-card").hidden = false;
      $("fl-front").textContent = res.front_text.replace("(Enter shows the answer) ", "");
      $("fl-back").hidden = true;
      $("fl-rate").hidden = true;
      $("fl-show").hidden = false;
      $("fl-show").focus();
    } else {
      $("fl-card").hidden = true;
      $("fl-log").textContent += res.end_text;
      await flOpen(false, false);
    }
  }

  async function flInit() {
    $("fl-start").addEventListener("click", () => flOpen(false, true));
    $("fl-all").addEventListener("click", () => flOpen(true, true));
    $("fl-show").addEventListener("click", async () => {
      const res = await call({ cmd: "flash_reveal", reply: "" });
      if (!res.ok) return;
      $("fl-back").hidden = false;
      $("fl-back").textContent = res.back_text;
      $("fl-show").hidden = true;
      $("fl-rate").hidden = false;
      $("fl-rate").querySelector("button").focus();
    });
    for (const b of $("fl-rate").querySelectorAll("button")) {
      b.addEventListener("click", async () => {
        const res = await call({ cmd: "flash_rate", reply: b.dataset.rating, stamp: stamp() });
        logReview(res);
        if (!res.ok) { $("fl-note").textContent = "course: error: " + res.error; return; }
        flStore(res.state);
        if (res.scheduled_text) $("fl-log").textContent += res.scheduled_text;
        await flShow(res);
      });
    }
    $("fl-export").addEventListener("click", async () => {
      const res = await call({ cmd: "flash_open", today: today(), state: load(FLASH_KEY) });
      if (!res.ok) return;
      download("flash-23.json", res.state, "application/json");
      $("fl-note").textContent = "Saved flash-23.json: use it with course flash 23 --state flash-23.json";
    });
    $("fl-import").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      const res = await call({ cmd: "flash_import", name: f.name, text: await f.text() });
      e.target.value = "";
      if (!res.ok) { $("fl-note").textContent = "✗ course: error: " + res.error; return; }
      flStore(res.state);
      await flOpen(false, false);
      $("fl-note").textContent = ["Imported " + f.name + "."].concat(res.warnings.map((w) => "course: warning: " + w)).join("\n");
    });
    await flOpen(false, false);
  }

  // ---- the "Same as" lines: a command and the files it names -------------------

  // Shows `command` in `code` and, after it, a button per file it reads
  // that saves the page's text of that file ([name, text] pairs).
  function sameAs(code, command, files) {
    code.textContent = command;
    const box = code.parentElement;
    for (const b of box.querySelectorAll("button.save")) b.remove();
    for (const [name, text] of files) {
      box.append(" ", el("button", { type: "button", class: "save link", onclick: () => download(name, text) }, "Save " + name));
    }
  }

  // ---- lab checker --------------------------------------------------------------

  const lab = { run: 0, inputEd: null, subEd: null };
  const labKey = () => "course.lab." + basename($("lab-input").value);
  const labName = () => $("lab-sub").dataset.name || "my-schedule.sched";

  async function labInputText() {
    const res = await call({ cmd: "file", path: $("lab-input").value });
    lab.inputEd.set(res.ok ? res.text : "");
    lab.subEd.set(load(labKey()) || "");
    writeAddress();
  }

  // The marks of a grade: each mistake on a line of the submission
  // (`line N: …`), and a place in the input the engine refused.
  function labMarks(res) {
    const input = basename($("lab-input").value);
    if (!res.ok) {
      lab.inputEd.mark(placesIn(res.error, input));
      lab.subEd.mark(placesIn(res.error, labName()));
      return;
    }
    lab.inputEd.mark([]);
    const marks = [];
    for (const m of (res.text || "").matchAll(/✗ [\w-]+: line (\d+): ([^\n]*)/g)) {
      marks.push({ line: Number(m[1]), column: 1, message: m[2] });
    }
    lab.subEd.mark(marks);
  }

  async function labRun() {
    const mine = ++lab.run;
    engine.cancel();
    const input = basename($("lab-input").value);
    const name = labName();
    const inputText = lab.inputEd.text();
    const sub = lab.subEd.text();
    const big = tooLarge(input, inputText) || tooLarge(name, sub);
    const out = $("lab-out");
    out.dataset.state = "running";
    sameAs($("lab-cli"), "course grade " + input + " " + name + " --machine " + $("lab-machine").value,
      [[input, inputText], [name, sub]]);
    const res = big ? { ok: false, error: big } : await call({
      cmd: "grade",
      input,
      input_text: inputText,
      name,
      submission: sub,
      machine: $("lab-machine").value,
    });
    if (mine !== lab.run) return;
    show(out, res);
    out.className = "out " + (res.ok && res.valid ? "good" : "bad");
    labMarks(res);
    const t = res.ok ? res.tables : null;
    $("lab-tables").hidden = !t;
    if (t) {
      $("lab-mine").textContent = t.mine || "(no table: not every operation has exactly one cycle)";
      $("lab-ref").textContent = t.reference;
    }
    out.dataset.state = "done";
  }

  async function labInit() {
    options($("lab-input"), info.lab_inputs.map((p) => [p, basename(p)]));
    options($("lab-machine"), info.machines.map((m) => [m, m]));
    const live = debounce(labRun, 300);
    lab.inputEd = editor($("lab-input-text"), "Problems in the input", () => live());
    lab.subEd = editor($("lab-sub"), "Problems in your schedule", () => {
      $("lab-sub").dataset.name = "my-schedule.sched";
      keep(labKey(), lab.subEd.text());
      live();
    });
    $("lab-input").addEventListener("change", async () => { await labInputText(); live.now(); });
    $("lab-machine").addEventListener("change", () => { writeAddress(); live.now(); });
    $("lab-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      e.target.value = "";
      $("lab-sub").dataset.name = f.name;
      if (f.size > 1 << 20) {
        lab.subEd.set("");
        $("lab-out").hidden = false;
        $("lab-out").textContent = f.name + ": larger than the 1024 KiB limit; not graded";
        return;
      }
      const text = await f.text();
      keep(labKey(), text);
      lab.subEd.set(text);
      live.now();
    });
    $("lab-form").addEventListener("submit", (e) => { e.preventDefault(); live.now(); });
    $("lab-cancel").addEventListener("click", () => engine.cancel());
    linkState.lab = () => new URLSearchParams({ input: basename($("lab-input").value), machine: $("lab-machine").value });
    applyLink.lab = async (p) => {
      const input = info.lab_inputs.find((x) => basename(x) === p.get("input"));
      if (input) $("lab-input").value = input;
      choose($("lab-machine"), p.get("machine"));
      await labInputText();
    };
    await labInputText();
  }

  // ---- llvm-mca --------------------------------------------------------------------

  const MCA_KEY = "course-mca-text";
  const mca = { run: 0, started: false, ed: null, whole: "" };
  const mcaName = () => $("mca-text").dataset.name || "my-kernel";

  // The kernel's own text (an embedded course file).
  async function mcaLoad(path) {
    const file = await call({ cmd: "file", path });
    mca.ed.set(file.ok ? file.text : "");
    $("mca-text").dataset.name = basename(path);
    $("mca-input").value = path;
  }

  // The request of the form.
  function mcaRequest() {
    const n = Number.parseInt($("mca-iter").value, 10);
    return {
      cmd: "mca", input: mcaName(), input_text: mca.ed.text(), machine: $("mca-machine").value,
      iterations: Number.isFinite(n) && n >= 0 ? n : 0,
      timeline: $("mca-timeline").checked,
      resource_pressure: $("mca-pressure").checked,
      instruction_info: $("mca-info").checked,
      bottleneck: $("mca-bottleneck").checked,
    };
  }

  // Runs the kernel in the heavy worker, stopping a run still going.
  // Assembly on a built-in processor model needs that model's tables,
  // which the page loads the first time (mca/NAME.js). #mca-out's
  // data-state is "running" until the newest run is shown, then "done".
  async function mcaRun() {
    const mine = ++mca.run;
    mca.started = true;
    engine.cancel();
    const out = $("mca-out");
    out.dataset.state = "running";
    out.setAttribute("aria-busy", "true");
    out.classList.add("stale");
    const req = mcaRequest();
    // The views are spelled out either way: their defaults differ between
    // assembly (llvm-mca's: both on) and the lab format.
    sameAs($("mca-cli"), "course mca " + req.input + " --machine " + req.machine + " --iterations " + req.iterations +
      (req.timeline ? " --timeline" : "") +
      (req.resource_pressure ? " --resource-pressure" : " --resource-pressure=false") +
      (req.instruction_info ? " --instruction-info" : " --instruction-info=false") +
      (req.bottleneck ? " --bottleneck" : ""), [[req.input, req.input_text]]);
    writeAddress();
    const big = tooLarge(req.input, req.input_text);
    const res = big ? { ok: false, error: big } : await call(req, (names) => {
      if (mine !== mca.run) return;
      out.hidden = false;
      out.classList.remove("bad");
      out.textContent = "Loading the tables of the processor model " + req.machine + " (" + names.join(", ") + ")…";
    });
    if (mine !== mca.run) return;
    out.removeAttribute("aria-busy");
    out.classList.remove("stale");
    if (res.cancelled) return;
    show(out, res);
    mca.whole = res.ok ? res.text : "";
    $("mca-save").hidden = !(res.ok && res.text.length > MAX_SHOWN);
    mca.ed.mark(res.ok ? [] : placesIn(res.error, req.input));
    out.dataset.state = "done";
    out.dataset.runs = String(mine);
  }

  // The first run waits for the section to be shown, so that the page
  // loads no processor model's tables before they are asked for.
  function mcaShown() {
    if (!mca.started) mcaRun();
  }

  // The link of the view: the kernel, machine, iterations and views, and
  // the edited text packed (when it fits a link).
  let mcaPacked = { text: null, z: null };
  function mcaLink() {
    const views = ["timeline", "pressure", "info", "bottleneck"].filter((v) => $("mca-" + v).checked).map((v) => v[0]).join("");
    const p = new URLSearchParams({ machine: $("mca-machine").value, iterations: $("mca-iter").value, views: views || "-" });
    if ($("mca-text").dataset.name) p.set("kernel", $("mca-input").value);
    else if (mcaPacked.text === mca.ed.text() && mcaPacked.z) p.set("z", mcaPacked.z);
    return p;
  }

  // Packs the edited text for the link, then rewrites the address.
  const mcaPack = debounce(async () => {
    const text = mca.ed.text();
    if ($("mca-text").dataset.name || mcaPacked.text === text) return;
    const z = await pack(text);
    mcaPacked = { text, z: z.length <= MAX_LINK_TEXT ? z : null };
    $("mca-link-note").hidden = !!mcaPacked.z;
    if (currentTab === "mca") writeAddress();
  }, 300);

  async function mcaInit() {
    options($("mca-input"), [["", "(your own text)"]].concat(info.kernels.map((k) => [k.path, basename(k.path)]), info.lab_inputs.map((p) => [p, "lab: " + basename(p)])));
    options($("mca-machine"), info.machines.map((m) => [m, m]));
    const live = debounce(mcaRun, 300);
    mca.ed = editor($("mca-text"), "Problems in the kernel", () => {
      $("mca-text").dataset.name = "";
      $("mca-input").value = "";
      keep(MCA_KEY, mca.ed.text());
      mcaPack();
      live();
    });
    $("mca-input").addEventListener("change", async () => {
      if (!$("mca-input").value) return;
      const k = info.kernels.find((x) => x.path === $("mca-input").value);
      $("mca-machine").value = k ? k.machine : "toy";
      await mcaLoad($("mca-input").value);
      keep(MCA_KEY, null);
      live.now();
    });
    for (const id of ["mca-machine", "mca-iter", "mca-timeline", "mca-pressure", "mca-info", "mca-bottleneck"]) {
      $(id).addEventListener("change", () => live.now());
    }
    $("mca-form").addEventListener("submit", (e) => { e.preventDefault(); live.now(); });
    $("mca-cancel").addEventListener("click", () => {
      engine.cancel();
      mca.run++;
      $("mca-out").removeAttribute("aria-busy");
      $("mca-out").classList.remove("stale");
      $("mca-out").textContent = "Cancelled.";
      $("mca-out").dataset.state = "done";
    });
    $("mca-save").addEventListener("click", () => download("mca.txt", mca.whole));
    linkState.mca = mcaLink;
    applyLink.mca = async (p) => {
      const kernel = p.get("kernel");
      if (kernel && info.kernels.concat(info.lab_inputs.map((x) => ({ path: x }))).some((k) => k.path === kernel)) {
        $("mca-input").value = kernel;
        await mcaLoad(kernel);
      } else if (p.get("z")) {
        try {
          mca.ed.set(await unpack(p.get("z")));
          $("mca-text").dataset.name = "";
          $("mca-input").value = "";
          mcaPacked = { text: mca.ed.text(), z: p.get("z") };
        } catch (e) {
          $("mca-out").hidden = false;
          $("mca-out").textContent = "The link's kernel text could not be read (it was cut or changed).";
        }
      }
      choose($("mca-machine"), p.get("machine"));
      if (p.get("iterations")) $("mca-iter").value = String(intParam(p, "iterations", 100));
      const views = p.get("views");
      if (views) {
        for (const v of ["timeline", "pressure", "info", "bottleneck"]) $("mca-" + v).checked = views.includes(v[0]);
      }
      if (mca.started || currentTab === "mca") await mcaRun();
    };
    $("mca-machine").value = info.kernels[0].machine;
    const saved = load(MCA_KEY);
    if (saved) {
      mca.ed.set(saved);
      $("mca-text").dataset.name = "";
      $("mca-input").value = "";
      mcaPack.now();
    } else {
      await mcaLoad(info.kernels[0].path);
    }
  }

  // ---- worksheets ------------------------------------------------------------------

  const ws = { html: "", run: 0 };

  async function wsMake() {
    const mine = ++ws.run;
    const drills = [...document.querySelectorAll("#ws-drills input:checked")].map((c) => c.value);
    const roster = $("ws-roster").value.trim() ? $("ws-roster").value : null;
    const seedsText = $("ws-seeds").value.trim();
    // With a roster the field is the first student's seed (a range's first).
    const first = Number.parseInt(seedsText, 10);
    const out = $("ws-note");
    writeAddress();
    const res = drills.length
      ? await call({ cmd: "worksheet", drills, seeds_text: roster ? null : seedsText, roster, roster_file: "roster.txt", first_seed: roster && first >= 0 ? first : null })
      : { ok: false, error: "choose at least one drill" };
    if (mine !== ws.run) return;
    if (!res.ok) {
      out.textContent = res.cancelled ? "Cancelled." : "course: error: " + res.error;
      out.className = "bad";
      $("ws-out").replaceChildren();
      $("ws-print").disabled = $("ws-save").disabled = true;
      return;
    }
    ws.html = res.html;
    // The document's body only: its <style> (and CSP) are the saved file's;
    // the page styles the sheet itself (.worksheet in style.css).
    const from = res.html.indexOf("<body>");
    const to = res.html.lastIndexOf("</body>");
    const doc = new DOMParser().parseFromString(from >= 0 && to > from ? res.html.slice(from + 6, to) : "", "text/html");
    for (const x of doc.querySelectorAll("script, style, link, meta, title")) x.remove();
    $("ws-out").replaceChildren(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
    const cmd = "course worksheet " + drills.map((d) => "--drill " + d).join(" ") +
      (roster ? " --roster roster.txt" + (first >= 0 ? " --first-seed " + first : "") : " --seeds " + seedsText.replace(/\s+/g, "")) + " --format html";
    out.className = "";
    out.textContent = "";
    sameAs(out.appendChild(el("span", { class: "cli" }, "Same as ", el("code", {}))).querySelector("code"), cmd,
      roster ? [["roster.txt", roster]] : []);
    $("ws-print").disabled = $("ws-save").disabled = false;
  }

  function wsInit() {
    const box = $("ws-drills");
    for (const d of info.drills) {
      box.append(el("label", {}, el("input", { type: "checkbox", value: d.name, checked: d.name === "list-schedule" || d.name === "mii" }), " " + d.name));
    }
    $("ws-form").addEventListener("submit", (e) => { e.preventDefault(); wsMake(); });
    $("ws-print").addEventListener("click", () => window.print());
    $("ws-save").addEventListener("click", () => download("worksheet.html", ws.html, "text/html"));
    linkState.worksheet = () => new URLSearchParams({
      drills: [...document.querySelectorAll("#ws-drills input:checked")].map((c) => c.value).join(","),
      seeds: $("ws-seeds").value,
    });
    applyLink.worksheet = async (p) => {
      if (p.get("drills")) {
        const want = new Set(p.get("drills").split(","));
        for (const c of document.querySelectorAll("#ws-drills input")) c.checked = want.has(c.value);
      }
      if (p.get("seeds")) $("ws-seeds").value = p.get("seeds");
      await wsMake();
    };
  }

  // ---- start ------------------------------------------------------------------------

  async function main() {
    themeInit();
    try {
      engine = await CourseEngine.start({ onBusy });
    } catch (e) {
      $("loading").textContent = "The engine could not start: " + e.message + " (this page needs WebAssembly and Web Workers).";
      return;
    }
    const res = await call({ cmd: "info" });
    if (!res.ok) { $("loading").textContent = "course: error: " + res.error; return; }
    info = res;
    const { tab } = address();
    if (tab) currentTab = tab;
    await Promise.all([lsInit(), drInit(), flInit(), labInit(), mcaInit(), pgInit()]);
    qzInit();
    wsInit();
    $("loading").remove();
    window.addEventListener("hashchange", route);
    addressLive = true;
    await route();
    // The editors' whole texts (a big one is not all in its textarea).
    window.courseText = (id) => ({ "mca-text": mca.ed, "lab-sub": lab.subEd, "lab-input-text": lab.inputEd })[id].text();
    window.courseReadyMs = performance.now();
    document.body.dataset.ready = "1";
  }

  main();
})();
