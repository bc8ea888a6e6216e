// The page: each section asks the engine (engine.js) and shows what it
// returns. Texts come from the engine's views, so they are the CLI's; this
// file only lays them out, keeps the placements of the list-scheduling
// table, and keeps the flashcard state in local storage.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const FLASH_KEY = "course.flash.ch23";
  const LOG_KEY = "course.reviews.log";
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

  function call(req) {
    return engine.call(req);
  }

  // Shows a response's text (or its error, as the CLI prints it) in a <pre>.
  function show(pre, res, field) {
    pre.hidden = false;
    if (!res.ok) {
      pre.textContent = "course: error: " + res.error;
      pre.classList.add("bad");
      return false;
    }
    pre.classList.remove("bad");
    pre.textContent = res[field || "text"];
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

  // ---- the review log ------------------------------------------------------

  // The local calendar date, as the CLI counts "today" (src/host/clock.rs).
  function today() {
    const d = new Date();
    const two = (n) => String(n).padStart(2, "0");
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  function logText() {
    try { return localStorage.getItem(LOG_KEY) || ""; } catch (e) { return ""; }
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
    try { localStorage.setItem(LOG_KEY, logText() + res.review_line); } catch (e) {
      $("pg-note").textContent = "✗ Could not save the review log: " + e.message + ". Export it to keep it.";
    }
  }

  function pgRender() {
    const who = $("pg-who").value.trim();
    const res = call({ cmd: "progress", log: logText(), today: today(), who: who === "" ? null : who });
    if (!show($("pg-out"), res, "progress_text")) return;
    $("pg-practice").textContent = res.practice_text;
    $("pg-note").textContent = res.warnings.map((w) => "course: warning: " + w).join("\n");
  }

  function pgInit() {
    $("pg-refresh").addEventListener("click", pgRender);
    $("pg-export").addEventListener("click", () => {
      const res = call({ cmd: "progress_export", log: logText() });
      if (!res.ok) { $("pg-note").textContent = "✗ course: error: " + res.error; return; }
      const a = el("a", { href: URL.createObjectURL(new Blob([res.text], { type: "text/plain" })), download: "reviews.log" });
      document.body.append(a);
      a.click();
      a.remove();
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
        ? call({ cmd: "progress_import", name: f.name, size: f.size })
        : call({ cmd: "progress_import", name: f.name, text: await f.text() });
      if (!res.ok) { $("pg-note").textContent = "✗ course: error: " + res.error; return; }
      try { localStorage.setItem(LOG_KEY, logText() + res.lines); } catch (err) {
        $("pg-note").textContent = "✗ Could not save the review log: " + err.message;
        return;
      }
      pgRender();
      $("pg-note").textContent = ["Imported " + f.name + " (" + res.count + " review(s))."]
        .concat(res.warnings.map((w) => "course: warning: " + w)).join("\n");
    });
    window.addEventListener("hashchange", () => { if (location.hash === "#progress") pgRender(); });
    pgRender();
  }

  // ---- sections --------------------------------------------------------

  function route() {
    const id = (location.hash || "#list-schedule").slice(1);
    const sections = document.querySelectorAll("main > section");
    let found = false;
    for (const s of sections) {
      s.hidden = s.id !== id;
      found = found || s.id === id;
    }
    if (!found) $("list-schedule").hidden = false;
    if (found && id === "mca") mcaShown();
    for (const a of document.querySelectorAll("nav a")) {
      if (a.getAttribute("href") === "#" + (found ? id : "list-schedule")) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
  }

  // ---- list scheduling --------------------------------------------------

  const ls = {
    seed: 4,
    problem: null, // the drill's JSON (ops, edges, machine)
    placed: [], // [label, cycle] in the order placed
    chosen: null,
    solution: null,
  };

  function lsLoad(seed) {
    ls.seed = seed;
    $("ls-seed").value = String(seed);
    $("ls-cli").textContent = "course drill list-schedule --seed " + seed;
    const res = call({ cmd: "drill", drill: "list-schedule", seed });
    if (!show($("ls-problem"), res)) return;
    ls.problem = JSON.parse(res.json);
    ls.placed = [];
    ls.solution = null;
    ls.chosen = ls.problem.ops[0].label;
    for (const [b, box] of [["ls-heights", "ls-heights-out"], ["ls-graph", "ls-graph-out"], ["ls-solution", "ls-solution-out"]]) {
      toggle($(b), $(box), false);
    }
    $("ls-report").hidden = true;
    $("ls-status").textContent = "Block " + ls.problem.name + " (seed " + seed + "): " + ls.problem.ops.length + " operations.";
    lsMachine();
    lsRender();
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
    lsRender();
  }

  function lsRender() {
    const p = ls.problem;
    const res = call({ cmd: "place", seed: ls.seed, placed: ls.placed });
    if (!res.ok) {
      $("ls-status").textContent = "course: error: " + res.error;
      return;
    }
    const verdict = new Map(res.placed.map((x) => [x.label, x]));
    // Operations, with a cycle field and the verdict.
    const tbody = $("ls-ops").tBodies[0];
    tbody.replaceChildren();
    for (const op of p.ops) {
      const v = verdict.get(op.label);
      const radio = el("input", {
        type: "radio", name: "ls-choose", value: op.label, id: "ls-choose-" + op.label,
        checked: ls.chosen === op.label,
        onchange: () => { ls.chosen = op.label; },
      });
      const cycle = el("input", {
        type: "number", min: "0", max: "999", step: "1", inputmode: "numeric",
        id: "ls-cycle-" + op.label, class: "cycle",
        "aria-label": "cycle of " + op.label,
        value: v ? String(v.cycle) : "",
        "aria-invalid": v && v.conflicts.length ? "true" : null,
        "aria-describedby": "ls-verdict-" + op.label,
        onchange: (e) => {
          const t = e.target.value.trim();
          const n = Number.parseInt(t, 10);
          ls.chosen = op.label;
          lsPlace(op.label, t === "" || !(n >= 0) ? null : Math.min(n, 999));
          const again = $("ls-cycle-" + op.label);
          if (again) again.focus();
        },
      });
      let check;
      if (!v) check = el("span", { class: "muted" }, "— not placed");
      else if (v.conflicts.length === 0) check = el("span", { class: "ok" }, "✓ accepted");
      else check = el("span", { class: "bad" }, ...v.conflicts.flatMap((c, i) => [i ? el("br") : null, "✗ " + c.message]));
      tbody.append(
        el("tr", { class: v && v.conflicts.length ? "conflict" : "" },
          el("td", {}, radio),
          el("th", { scope: "row" }, el("label", { for: "ls-choose-" + op.label }, op.label + ": " + op.text)),
          el("td", {}, op.class),
          el("td", {}, cycle),
          el("td", { id: "ls-verdict-" + op.label }, check))
      );
    }
    // The reservation table of what is placed.
    const m = p.machine;
    const rows = new Map(res.rows.map((r) => [r.cycle, r]));
    const last = Math.max(-1, ...ls.placed.map(([, c]) => c), ...res.rows.map((r) => r.cycle));
    const nrows = Math.min(1000, Math.max(last + 3, p.ops.length + 2, 12));
    const table = $("ls-table");
    const head = el("tr", {}, el("th", { scope: "col" }, "cycle"));
    for (const r of m.resources) head.append(el("th", { scope: "col" }, r.name + " (" + r.capacity + ")"));
    head.append(el("th", { scope: "col" }, "placed"));
    const body = el("tbody");
    for (let c = 0; c < nrows; c++) {
      const row = rows.get(c);
      const tr = el("tr");
      tr.append(el("th", { scope: "row" },
        el("button", {
          type: "button", class: "cyc", "data-cycle": String(c),
          "aria-label": "place the chosen operation at cycle " + c,
          onclick: () => {
            if (!ls.chosen) return;
            const label = ls.chosen;
            lsPlace(label, c);
            $("ls-status").textContent = label + " placed at cycle " + c + ".";
            const b = document.querySelector('#ls-table button[data-cycle="' + c + '"]');
            if (b) b.focus();
          },
        }, String(c))));
      m.resources.forEach((r, i) => {
        const cell = row ? row.cells[i] : { used: 0, holders: [] };
        const over = cell.used > r.capacity;
        let txt;
        if (r.name === "issue") txt = String(cell.used);
        else txt = cell.used ? cell.holders.join(",") : ".";
        tr.append(el("td", { class: over ? "over" : cell.used ? "busy" : "" }, txt + (over ? " ✗" : "")));
      });
      const here = res.placed.filter((x) => x.cycle === c);
      const td = el("td", { class: "placed", "data-cycle": String(c) });
      if (here.length === 0) td.textContent = "—";
      for (const x of here) {
        const op = p.ops.find((o) => o.label === x.label);
        const bad = x.conflicts.length > 0;
        td.append(el("div", { class: bad ? "bad" : "ok", "data-label": x.label },
          (bad ? "✗ " : "✓ ") + x.label + " (" + opcode(op) + ")",
          ...x.conflicts.map((c) => el("div", { class: "reason" }, c.message))));
      }
      tr.append(td);
      body.append(tr);
    }
    table.replaceChildren(el("thead", {}, head), body);
    const bad = res.placed.filter((x) => x.conflicts.length).length;
    const status = ls.placed.length + " of " + p.ops.length + " placed" + (bad ? ", " + bad + " with a conflict" : "") + ".";
    $("ls-table-h").textContent = "Your reservation table — " + status;
    for (const x of res.ignored) $("ls-status").textContent = "✗ " + x.message;
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

  function lsSolution() {
    if (!ls.solution) {
      const res = call({ cmd: "drill", drill: "list-schedule", seed: ls.seed, solution: true });
      if (!res.ok) return null;
      ls.solution = { json: JSON.parse(res.json), text: res.text };
    }
    return ls.solution;
  }

  function lsHeights() {
    const s = lsSolution();
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

  function lsInit() {
    $("ls-seed-form").addEventListener("submit", (e) => { e.preventDefault(); lsLoad(seedOf($("ls-seed"))); });
    $("ls-random").addEventListener("click", () => lsLoad(randomSeed()));
    $("ls-clear").addEventListener("click", () => { ls.placed = []; $("ls-report").hidden = true; lsRender(); });
    $("ls-check").addEventListener("click", () => {
      const res = call({ cmd: "drill", drill: "list-schedule", seed: ls.seed, check: { file: "my-schedule.txt", text: lsAnswer() }, stamp: stamp() });
      logReview(res);
      show($("ls-report"), res);
      $("ls-report").className = "out " + (res.ok && res.correct ? "good" : "bad");
    });
    $("ls-heights").addEventListener("click", (e) => {
      const open = $("ls-heights-out").hidden;
      if (open) lsHeights();
      toggle(e.target, $("ls-heights-out"), open);
    });
    $("ls-graph").addEventListener("click", (e) => {
      const open = $("ls-graph-out").hidden;
      if (open) lsGraph();
      toggle(e.target, $("ls-graph-out"), open);
    });
    $("ls-solution").addEventListener("click", (e) => {
      const open = $("ls-solution-out").hidden;
      const s = open ? lsSolution() : null;
      if (s) $("ls-solution-out").textContent = solutionPart(s.text);
      toggle(e.target, $("ls-solution-out"), open);
    });
    lsLoad(4);
  }

  // ---- the other drills --------------------------------------------------

  const dr = { name: "mii", seed: 2, hints: 0 };

  function drLoad() {
    dr.name = $("dr-name").value;
    dr.seed = seedOf($("dr-seed"));
    const d = info.drills.find((x) => x.name === dr.name);
    $("dr-summary").textContent = d ? d.summary + " — same as course drill " + dr.name + " --seed " + dr.seed : "";
    show($("dr-problem"), call({ cmd: "drill", drill: dr.name, seed: dr.seed }));
    $("dr-report").hidden = true;
    dr.hints = 0;
    $("dr-hints").hidden = true;
    $("dr-hint").disabled = false;
    toggle($("dr-solution"), $("dr-solution-out"), false);
  }

  function drInit() {
    options($("dr-name"), info.drills.filter((d) => d.name !== "list-schedule").map((d) => [d.name, d.name]));
    $("dr-name").value = "mii";
    $("dr-form").addEventListener("submit", (e) => { e.preventDefault(); drLoad(); });
    $("dr-name").addEventListener("change", drLoad);
    $("dr-random").addEventListener("click", () => { $("dr-seed").value = String(randomSeed()); drLoad(); });
    // Each press asks for one more hint (course drill … --hint, repeated).
    $("dr-hint").addEventListener("click", () => {
      dr.hints += 1;
      const res = call({ cmd: "drill", drill: dr.name, seed: dr.seed, hints: dr.hints });
      if (res.ok && res.hints.length < dr.hints) {
        dr.hints = res.hints.length;
        $("dr-hint").disabled = true;
      }
      show($("dr-hints"), res);
      if (res.ok) $("dr-hints").textContent = res.text.trim();
      $("dr-hints").hidden = false;
    });
    $("dr-check").addEventListener("click", () => {
      const res = call({ cmd: "drill", drill: dr.name, seed: dr.seed, check: { file: "answer.txt", text: $("dr-answer").value }, stamp: stamp() });
      logReview(res);
      show($("dr-report"), res);
      $("dr-report").className = "out " + (res.ok && res.correct ? "good" : "bad");
    });
    $("dr-solution").addEventListener("click", (e) => {
      const open = $("dr-solution-out").hidden;
      if (open) {
        const res = call({ cmd: "drill", drill: dr.name, seed: dr.seed, solution: true });
        if (show($("dr-solution-out"), res)) $("dr-solution-out").textContent = solutionPart(res.text);
      }
      toggle(e.target, $("dr-solution-out"), open);
    });
    drLoad();
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
      $("qz-answer").value = "";
      $("qz-answer").focus();
    } else {
      $("qz-answer-form").hidden = true;
      qzLog(res.summary_text, res.summary && res.summary.all_right ? "good" : "summary");
    }
  }

  function qzInit() {
    $("qz-seed").value = String(randomSeed());
    $("qz-start-form").addEventListener("submit", (e) => {
      e.preventDefault();
      $("qz-log").replaceChildren();
      const res = call({ cmd: "quiz_start", seed: seedOf($("qz-seed")) });
      if (!res.ok) { qzLog("course: error: " + res.error, "bad"); return; }
      qzLog(res.intro_text.trim());
      qzNext(res);
    });
    $("qz-answer-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const line = $("qz-answer").value;
      qzLog($("qz-prompt").textContent + " " + line, "reply");
      const res = call({ cmd: "quiz_reply", line, stamp: stamp() });
      logReview(res);
      if (!res.ok) { qzLog("course: error: " + res.error, "bad"); return; }
      if (res.retry_text) {
        qzLog(res.retry_text, "bad");
        $("qz-answer").value = "";
        $("qz-answer").focus();
        return;
      }
      qzLog(res.feedback_text, res.status === "right" ? "good" : "bad");
      qzNext(res);
    });
    $("qz-stop").addEventListener("click", () => {
      const res = call({ cmd: "quiz_end" });
      if (!res.ok) return;
      qzLog(res.ended_text.trim());
      qzNext(res);
    });
  }

  // ---- flashcards ---------------------------------------------------------------

  function flStored() {
    try { return localStorage.getItem(FLASH_KEY); } catch (e) { return null; }
  }

  function flStore(text) {
    try { localStorage.setItem(FLASH_KEY, text); } catch (e) {
      $("fl-note").textContent = "✗ Could not save to local storage: " + e.message + ". Export the state file to keep it.";
    }
  }

  function flOpen(all, review) {
    const res = call({ cmd: "flash_open", today: today(), state: flStored(), all });
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
    flShow(res);
  }

  function flShow(res) {
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
      flOpen(false, false);
    }
  }

  function flInit() {
    $("fl-start").addEventListener("click", () => flOpen(false, true));
    $("fl-all").addEventListener("click", () => flOpen(true, true));
    $("fl-show").addEventListener("click", () => {
      const res = call({ cmd: "flash_reveal", reply: "" });
      if (!res.ok) return;
      $("fl-back").hidden = false;
      $("fl-back").textContent = res.back_text;
      $("fl-show").hidden = true;
      $("fl-rate").hidden = false;
      $("fl-rate").querySelector("button").focus();
    });
    for (const b of $("fl-rate").querySelectorAll("button")) {
      b.addEventListener("click", () => {
        const res = call({ cmd: "flash_rate", reply: b.dataset.rating, stamp: stamp() });
        logReview(res);
        if (!res.ok) { $("fl-note").textContent = "course: error: " + res.error; return; }
        flStore(res.state);
        if (res.scheduled_text) $("fl-log").textContent += res.scheduled_text;
        flShow(res);
      });
    }
    $("fl-export").addEventListener("click", () => {
      const res = call({ cmd: "flash_open", today: today(), state: flStored() });
      if (!res.ok) return;
      const a = el("a", { href: URL.createObjectURL(new Blob([res.state], { type: "application/json" })), download: "flash-23.json" });
      document.body.append(a);
      a.click();
      a.remove();
      $("fl-note").textContent = "Saved flash-23.json: use it with course flash 23 --state flash-23.json";
    });
    $("fl-import").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      const res = call({ cmd: "flash_import", name: f.name, text: await f.text() });
      e.target.value = "";
      if (!res.ok) { $("fl-note").textContent = "✗ course: error: " + res.error; return; }
      flStore(res.state);
      flOpen(false, false);
      $("fl-note").textContent = ["Imported " + f.name + "."].concat(res.warnings.map((w) => "course: warning: " + w)).join("\n");
    });
    flOpen(false, false);
  }

  // ---- lab checker --------------------------------------------------------------

  function labInputText() {
    const res = call({ cmd: "file", path: $("lab-input").value });
    $("lab-input-text").value = res.ok ? res.text : "";
  }

  function labInit() {
    options($("lab-input"), info.lab_inputs.map((p) => [p, basename(p)]));
    options($("lab-machine"), info.machines.map((m) => [m, m]));
    $("lab-input").addEventListener("change", labInputText);
    labInputText();
    $("lab-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      if (f.size > 1 << 20) {
        $("lab-sub").value = "";
        $("lab-sub").dataset.name = f.name;
        $("lab-out").hidden = false;
        $("lab-out").textContent = f.name + ": larger than the 1024 KiB limit; not graded";
        return;
      }
      $("lab-sub").value = await f.text();
      $("lab-sub").dataset.name = f.name;
    });
    $("lab-sub").addEventListener("input", () => { $("lab-sub").dataset.name = "my-schedule.sched"; });
    $("lab-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const res = call({
        cmd: "grade",
        input: basename($("lab-input").value),
        input_text: $("lab-input-text").value,
        name: $("lab-sub").dataset.name || "my-schedule.sched",
        submission: $("lab-sub").value,
        machine: $("lab-machine").value,
      });
      show($("lab-out"), res);
      $("lab-out").className = "out " + (res.ok && res.valid ? "good" : "bad");
      const t = res.ok ? res.tables : null;
      $("lab-tables").hidden = !t;
      if (t) {
        $("lab-mine").textContent = t.mine || "(no table: not every operation has exactly one cycle)";
        $("lab-ref").textContent = t.reference;
      }
    });
  }

  // ---- llvm-mca --------------------------------------------------------------------

  const MCA_KEY = "course-mca-text";

  // The kernel text: what the student typed (kept in local storage), or the
  // chosen kernel's own text.
  function mcaLoad(path) {
    const file = call({ cmd: "file", path });
    $("mca-text").value = file.ok ? file.text : "";
    $("mca-text").dataset.name = basename(path);
  }

  // Runs the kernel. Assembly on a built-in processor model needs that
  // model's tables, which the page loads the first time (mca/NAME.js):
  // so a run is asynchronous, and only the last one started is shown.
  // #mca-out's data-state is "running" until it is shown, then "done".
  let mcaRuns = 0;
  async function mcaRun() {
    const run = ++mcaRuns;
    const out = $("mca-out");
    out.dataset.state = "running";
    const text = $("mca-text").value;
    // An edited text has no file name: the engine tells assembly from the
    // lab format by its content.
    const name = $("mca-text").dataset.name || "my-kernel";
    const machine = $("mca-machine").value;
    const iterations = Math.max(1, Math.min(100000, seedOf($("mca-iter")) || 1));
    const req = {
      cmd: "mca", input: name, input_text: text, machine, iterations,
      timeline: $("mca-timeline").checked,
      resource_pressure: $("mca-pressure").checked,
      instruction_info: $("mca-info").checked,
      bottleneck: $("mca-bottleneck").checked,
    };
    // The views are spelled out either way: their defaults differ between
    // assembly (llvm-mca's: both on) and the lab format.
    $("mca-cli").textContent = "course mca " + name + " --machine " + machine + " --iterations " + iterations +
      (req.timeline ? " --timeline" : "") +
      (req.resource_pressure ? " --resource-pressure" : " --resource-pressure=false") +
      (req.instruction_info ? " --instruction-info" : " --instruction-info=false") +
      (req.bottleneck ? " --bottleneck" : "");
    let res = call(req);
    if (!res.ok && res.missing_tables) {
      out.hidden = false;
      out.classList.remove("bad");
      out.textContent = "Loading the tables of the processor model " + machine + " (" + res.missing_tables.join(", ") + ")…";
      res = (await engine.loadTables(res.missing_tables)) || call(req);
    }
    if (run !== mcaRuns) return;
    show(out, res);
    out.dataset.state = "done";
  }

  // The first run waits for the section to be shown, so that the page
  // loads no processor model's tables before they are asked for.
  let mcaStarted = false;
  function mcaShown() {
    if (mcaStarted) return;
    mcaStarted = true;
    mcaRun();
  }

  function mcaInit() {
    options($("mca-input"), info.kernels.map((k) => [k.path, basename(k.path)]).concat(info.lab_inputs.map((p) => [p, "lab: " + basename(p)])));
    options($("mca-machine"), info.machines.map((m) => [m, m]));
    $("mca-input").addEventListener("change", () => {
      const k = info.kernels.find((x) => x.path === $("mca-input").value);
      $("mca-machine").value = k ? k.machine : "toy";
      mcaLoad($("mca-input").value);
      try { localStorage.removeItem(MCA_KEY); } catch (e) { /* storage off */ }
    });
    $("mca-text").addEventListener("input", () => {
      $("mca-text").dataset.name = "";
      try { localStorage.setItem(MCA_KEY, $("mca-text").value); } catch (e) { /* storage off */ }
    });
    $("mca-machine").value = info.kernels[0].machine;
    let saved = null;
    try { saved = localStorage.getItem(MCA_KEY); } catch (e) { saved = null; }
    if (saved) {
      $("mca-text").value = saved;
      $("mca-text").dataset.name = "";
    } else {
      mcaLoad(info.kernels[0].path);
    }
    $("mca-form").addEventListener("submit", (e) => { e.preventDefault(); mcaStarted = true; mcaRun(); });
  }

  // ---- start ------------------------------------------------------------------------

  async function main() {
    try {
      engine = await CourseEngine.load();
    } catch (e) {
      $("loading").textContent = "The engine could not start: " + e.message + " (this page needs WebAssembly).";
      return;
    }
    const res = call({ cmd: "info" });
    if (!res.ok) { $("loading").textContent = "course: error: " + res.error; return; }
    info = res;
    lsInit();
    drInit();
    qzInit();
    flInit();
    labInit();
    mcaInit();
    pgInit();
    $("loading").remove();
    window.addEventListener("hashchange", route);
    route();
    window.courseReadyMs = performance.now();
    document.body.dataset.ready = "1";
  }

  main();
})();
