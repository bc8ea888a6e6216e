// The class report of `course grade --report` in headless Chromium
// (Debian's /usr/bin/chromium, driven by puppeteer-core): a small class
// (right, wrong and broken submissions, hostile folder names) is graded by
// the native binary, and its page is opened from file:// with every
// request that is not a file refused. Checked: no script or console
// error, nothing requested from the network, every SVG chart has drawn
// bars, and every figure the page shows (summaries, histogram counts,
// causes, misplaced operations, student names) equals the JSON written
// beside it. A screenshot goes to target/web-screenshots/report.png.
//
//   node web/test/report.mjs   (after cargo build)
//
// COURSE_BIN and CHROMIUM override the defaults; outside CI a missing
// Chromium or binary is a visible SKIP.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, bin, skip, need, runNative } from "./setup.mjs";

const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = path.join(root, "target/web-screenshots");

need([["Chromium (apt-get install chromium)", chromium], ["the native binary (cargo build)", bin]]);
let puppeteer;
try {
  puppeteer = (await import("puppeteer-core")).default;
} catch (e) {
  skip("puppeteer-core is not installed (cd web/test && npm ci)");
}

let passed = 0;
const failures = [];
function expect(what, ok, detail) {
  if (ok) passed++;
  else failures.push(what + (detail ? ": " + detail : ""));
  console.log((ok ? "✓ " : "✗ ") + what + (ok || !detail ? "" : "\n    " + detail));
}

// The class: every student starts from the reference solutions.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "course-report-"));
const cls = path.join(tmp, "class");
const solutions = path.join(root, "solutions/ch23-sched");
const names = ["ann", "<b onmouseover=\"alert(1)\">bo", "o'brien & <i>co", "&amp;", "zed"];
for (const n of names) {
  const d = path.join(cls, n);
  fs.mkdirSync(d, { recursive: true });
  for (const f of fs.readdirSync(solutions).filter((f) => f.endsWith(".sched"))) {
    fs.copyFileSync(path.join(solutions, f), path.join(d, f));
  }
}
const edit = (student, file, from, to) => {
  const p = path.join(cls, student, file);
  fs.writeFileSync(p, fs.readFileSync(p, "utf8").replace(from, to));
};
edit(names[1], "divide.sched", /^e 8$/m, "e 6"); // the divider's occupancy
edit(names[2], "divide.sched", /^e 8$/m, "e 6");
edit(names[2], "running.sched", /^i 8$/m, "i 7"); // a load's latency
edit(names[3], "dot.sched", /^ii 4$/m, "ii 1"); // II below MII
fs.writeFileSync(path.join(cls, names[3], "alias.sched"), "garbage\n");
fs.rmSync(path.join(cls, "zed", "fib.sched"));
fs.writeFileSync(path.join(tmp, "roster.csv"), "folder,id,email\nann,1001,ann@u.edu\nzed,<script>alert(3)</script>,z@u.edu\nabsent,1003,x@u.edu\n");
const html = path.join(tmp, "class.html");
const r = runNative(["grade", "--lab", "ch23-sched", cls, "--roster", path.join(tmp, "roster.csv"), "--report", html]);
expect("course grade --report exits 1 (some schedules are invalid)", r.status === 1, r.stderr);
const json = JSON.parse(fs.readFileSync(path.join(tmp, "class.json"), "utf8"));

fs.mkdirSync(shots, { recursive: true });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "course-chromium-"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  await page.setJavaScriptEnabled(false);
  await page.setRequestInterception(true);
  const offsite = [];
  page.on("request", (q) => {
    if (/^file:/.test(q.url())) q.continue();
    else {
      offsite.push(q.url());
      q.abort();
    }
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
  });
  page.on("requestfailed", (q) => errors.push("failed: " + q.url()));
  await page.goto(pathToFileURL(html).href, { waitUntil: "load" });

  // What the page shows, read from the rendered DOM (text, not markup).
  // The page has no script of its own; this one runs in the test's world.
  const shown = await page.evaluate(() => {
    const num = (s) => Number(String(s).replace(/\s*%$/, "").trim());
    const scope = (sec) => {
      const field = (root, f) => num(root.querySelector(`[data-field="${f}"]`).textContent);
      const sum = sec.querySelector("table.summary");
      return {
        input: sec.dataset.input || null,
        hidden: sec.dataset.hidden || null,
        summary: Object.fromEntries(["count", "valid", "mean", "median", "min", "max"].map((f) => [f, field(sum, f)])),
        bins: [...sec.querySelectorAll("g.bin")].map((g) => ({
          count: num(g.querySelector("text.count").textContent),
          data: num(g.dataset.count),
          drawn: g.querySelector("rect").getBBox().height,
        })),
        causes: [...sec.querySelectorAll("tr.cause")].map((tr) => ({
          cause: tr.dataset.cause,
          label: tr.querySelector("td.label").textContent,
          students: field(tr, "students"),
          of: field(tr, "of"),
          percent: field(tr, "percent"),
          count: field(tr, "count"),
        })),
        chart: [...sec.querySelectorAll("svg.causes-chart g")].map((g) => ({
          cause: g.dataset.cause,
          width: g.querySelector("rect").getBBox().width,
        })),
        ops: [...sec.querySelectorAll("tr.op")].map((tr) => ({
          op: tr.dataset.op,
          students: field(tr, "students"),
          percent: field(tr, "percent"),
        })),
      };
    };
    const svgs = [...document.querySelectorAll("svg")].map((s) => {
      const b = s.getBoundingClientRect();
      return { w: b.width, h: b.height, rects: [...s.querySelectorAll("rect")].filter((r) => r.getBBox().width > 0 && r.getBBox().height > 0).length };
    });
    return {
      scopes: [...document.querySelectorAll("section.scope")].map(scope),
      students: [...document.querySelectorAll("tr.student")].map((tr) => ({
        name: tr.dataset.name,
        shown: tr.querySelector("td.name .who").textContent,
        id: tr.querySelector("td.id").textContent,
        total: tr.querySelector('[data-field="total"]').textContent,
      })),
      svgs,
      scripts: document.scripts.length,
      injected: document.querySelectorAll("b, i, img, script").length,
    };
  });
  await page.screenshot({ path: path.join(shots, "report.png"), fullPage: true });

  expect("no script or console error", errors.length === 0, errors.join("; "));
  expect("nothing was requested from the network", offsite.length === 0, offsite.join(", "));
  expect("the page has no script and no injected element", shown.scripts === 0 && shown.injected === 0, JSON.stringify([shown.scripts, shown.injected]));
  expect("every chart is drawn (an SVG with a size and bars)", shown.svgs.length === 2 * (1 + json.inputs.length) && shown.svgs.every((s) => s.w > 0 && s.h > 0 && s.rects > 0),
    JSON.stringify(shown.svgs));

  const wanted = [json.total, ...json.inputs];
  expect("a section for the class and one per input", shown.scopes.length === wanted.length, `${shown.scopes.length} ≠ ${wanted.length}`);
  wanted.forEach((j, k) => {
    const s = shown.scopes[k];
    if (!s) return;
    const what = k === 0 ? "the class" : j.input;
    if (k > 0) expect(`${what}: its section names it`, s.input === j.input && s.hidden === String(j.hidden), `${s.input} ${s.hidden}`);
    const sum = ["count", "valid", "mean", "median", "min", "max"].every((f) => s.summary[f] === j.summary[f]);
    expect(`${what}: the summary is the JSON's`, sum, JSON.stringify([s.summary, j.summary]));
    const top = Math.max(...j.histogram.map((b) => b.count));
    const bins = s.bins.length === j.histogram.length && s.bins.every((b, i) => b.count === j.histogram[i].count && b.data === j.histogram[i].count
      && (b.count === 0 ? b.drawn === 0 : b.drawn > 0) && (b.count !== top || b.drawn > 50));
    expect(`${what}: the histogram shows the JSON's counts, bars to scale`, bins, JSON.stringify([s.bins, j.histogram]));
    const causes = s.causes.length === j.causes.length && s.causes.every((c, i) => {
      const w = j.causes[i];
      return c.cause === w.cause && c.label === w.label && c.students === w.students && c.of === w.of && c.percent === w.percent && c.count === w.count;
    });
    expect(`${what}: the causes are the JSON's`, causes, JSON.stringify([s.causes, j.causes]));
    const chart = s.chart.length === Math.min(12, j.causes.length) && s.chart.every((c, i) => c.cause === j.causes[i].cause && (j.causes[i].percent > 0) === (c.width > 0));
    expect(`${what}: the causes chart has a bar per cause`, chart, JSON.stringify(s.chart));
    const ops = (j.misplaced || []);
    const same = s.ops.length === ops.length && s.ops.every((o, i) => o.op === ops[i].op && o.students === ops[i].students && o.percent === ops[i].percent);
    expect(`${what}: the misplaced operations are the JSON's`, same, JSON.stringify([s.ops, ops]));
  });
  const st = shown.students.length === json.students.length && shown.students.every((s, i) => {
    const w = json.students[i];
    return s.name === w.name && s.shown === w.name && s.id === w.id && s.total === (w.total === null ? "" : String(w.total));
  });
  expect("the students are shown as named, with the roster's ids", st, JSON.stringify([shown.students, json.students.map((s) => [s.name, s.id, s.total])]));
  const divide = json.inputs.find((i) => i.input === "divide");
  expect("the divider's occupancy is named on divide", divide.causes.some((c) => c.cause === "occupancy:div:mul" && c.students === 2), JSON.stringify(divide.causes));
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failures.length} failed`);
if (failures.length) process.exit(1);
