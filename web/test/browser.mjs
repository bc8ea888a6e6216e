// The built page in headless Chromium (Debian's /usr/bin/chromium, driven
// by puppeteer-core through real mouse and keyboard events), opened from
// disk:
//   1. the list-scheduling drill for a seed, placed operation by operation
//      with one wrong placement (its cell shows the CLI's reason), then
//      corrected by typing (accepted) and checked as a whole;
//   2. two quiz questions answered with the keyboard, one right, one wrong;
//   3. a flashcard reviewed with the keyboard, the page reloaded: its box
//      is kept (local storage); a state file made by `course flash`
//      imported, listed as the CLI lists it, and exported byte for byte;
//   4. a lab sample submission uploaded and checked: the CLI's verdict;
//   5. the llvm-mca view: nothing loads a processor model's table before
//      it (nor a kernel in the lab format), the assembly kernels on skylake
//      and neoverse-v2 load theirs (mca/*.js) and print what the CLI
//      prints; every section at 360 px without page scrolling;
//   6. the Progress view: the checks, answers and rating made above, as
//      `course progress` computes them on the exported review log.
// A screenshot of each step goes to target/web-screenshots/. Nothing may
// be requested from the network. It also measures the load time.
//
//   node web/test/browser.mjs   (after web/build.sh and cargo build)
//
// COURSE_WEB_DIR, COURSE_BIN and CHROMIUM override the defaults; outside
// CI a missing Chromium or build is a visible SKIP.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, web, bin, skip, need, runNative } from "./setup.mjs";

const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = path.join(root, "target/web-screenshots");

need([["Chromium (apt-get install chromium)", chromium], ["the built page (web/build.sh)", path.join(web, "index.html")], ["the native binary (cargo build)", bin]]);
let puppeteer;
try {
  puppeteer = (await import("puppeteer-core")).default;
} catch (e) {
  skip("puppeteer-core is not installed (cd web/test && npm ci)");
}

function native(args, stdin) {
  return runNative(args, stdin).stdout;
}

let passed = 0;
const failures = [];
function expect(what, ok, detail) {
  if (ok) passed++;
  else failures.push(what + (detail ? ": " + detail : ""));
  console.log((ok ? "✓ " : "✗ ") + what + (ok || !detail ? "" : "\n    " + detail));
}

fs.mkdirSync(shots, { recursive: true });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "course-chromium-"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile],
});
const page = await browser.newPage();
await page.setViewport({ width: 1200, height: 900 });
const offsite = [];
const tables = []; // the processor models' tables requested (mca/NAME.js)
page.on("request", (r) => {
  if (!/^(file|data|blob):/.test(r.url())) offsite.push(r.url());
  const t = r.url().match(/\/mca\/([^/]+)\.js$/);
  if (t) tables.push(t[1]);
});
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("console", (m) => {
  if (m.type() === "error") errors.push(m.text());
});
let step = 0;
async function shot(name) {
  step++;
  const file = path.join(shots, String(step).padStart(2, "0") + "-" + name + ".png");
  await page.screenshot({ path: file, fullPage: true });
}
const text = (sel) => page.$eval(sel, (e) => e.textContent);
const url = pathToFileURL(path.join(web, "index.html")).href;

async function open(hash) {
  const t0 = Date.now();
  await page.goto(url + (hash || ""), { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.ready === "1", { timeout: 15000 });
  return { wall: Date.now() - t0, page: await page.evaluate(() => Math.round(window.courseReadyMs)) };
}

async function go(section) {
  await page.click(`nav a[href="#${section}"]`);
  await page.waitForFunction((s) => !document.getElementById(s).hidden, {}, section);
}

try {
  // ---- load --------------------------------------------------------------
  const loads = [];
  for (let i = 0; i < 3; i++) loads.push(await open());
  const best = loads.reduce((a, b) => (a.page < b.page ? a : b));
  console.log("load: interactive after " + loads.map((l) => l.page + " ms").join(", ") + " (page clock); " + loads.map((l) => l.wall + " ms").join(", ") + " (goto to ready)");
  expect("the page is interactive in under 1 s from disk", best.page < 1000, JSON.stringify(loads));
  await shot("loaded");

  // ---- 1. list scheduling --------------------------------------------------
  const seed = 4;
  const sol = JSON.parse(native(["drill", "list-schedule", "--seed", String(seed), "--solution", "--format", "json"]));
  const cycleOf = sol.solution.schedule;
  const order = sol.ops.map((o) => o.label).sort((a, b) => cycleOf[a] - cycleOf[b] || a.localeCompare(b));
  const hasPred = new Set(sol.edges.map((e) => e.to));
  const cap = Object.fromEntries(sol.machine.resources.map((r) => [r.name, r.capacity]));
  const classOf = Object.fromEntries(sol.ops.map((o) => [o.label, o.class]));
  const units = Object.fromEntries(sol.machine.classes.map((c) => [c.name, c.reservation.filter(([r]) => r !== "issue" && cap[r] === 1).map(([r]) => r)]));
  // The wrong one: an operation without predecessors put in the cycle of an
  // earlier one that holds the same single unit.
  let wrong = null;
  for (let i = 1; i < order.length && !wrong; i++) {
    const x = order[i];
    if (hasPred.has(x) || units[classOf[x]].length === 0) continue;
    const y = order.slice(0, i).find((y) => units[classOf[y]].some((u) => units[classOf[x]].includes(u)));
    if (y) wrong = { label: x, at: cycleOf[y] };
  }
  expect("the seed has a resource conflict to make", !!wrong);
  const answerWith = (label, c) => order.map((l) => l + " " + (l === label ? c : cycleOf[l]) + "\n").join("");
  const cli = JSON.parse(native(["drill", "list-schedule", "--seed", String(seed), "--check", "-", "--format", "json"], answerWith(wrong.label, wrong.at)));
  // The CLI names the root cause ("cycle 0: d does not fit: REASON"); the
  // page judges each placement ("d at 0: REASON"): the same reason.
  const rootCause = cli.mistakes.find((m) => m.kind === "resource" && m.message.includes(" " + wrong.label + " does not fit: ")).message;
  const reason = rootCause.split(" does not fit: ")[1];

  await page.click("#ls-seed", { clickCount: 3 });
  await page.keyboard.type(String(seed));
  await page.keyboard.press("Enter");
  for (const label of order) {
    const c = label === wrong.label ? wrong.at : cycleOf[label];
    await page.click("#ls-choose-" + label);
    await page.click(`#ls-table button[data-cycle="${c}"]`);
  }
  const cell = `#ls-table td.placed[data-cycle="${wrong.at}"]`;
  const cellText = await text(cell);
  expect("the wrong placement's cell shows the CLI's reason: " + reason, cellText.includes("✗ " + wrong.label) && cellText.includes(reason), cellText);
  expect("its row says the same", (await text("#ls-verdict-" + wrong.label)) === `✗ ${wrong.label} at ${wrong.at}: ${reason}`, await text("#ls-verdict-" + wrong.label));
  expect("the over-full cell is marked", (await page.$$eval("#ls-table td.over", (t) => t.length)) > 0);
  await shot("list-schedule-conflict");

  // Correct it by typing the cycle.
  await page.click("#ls-cycle-" + wrong.label, { clickCount: 3 });
  await page.keyboard.type(String(cycleOf[wrong.label]));
  await page.keyboard.press("Tab");
  await page.waitForFunction((l) => document.getElementById("ls-verdict-" + l).textContent.includes("accepted"), {}, wrong.label);
  expect("after typing the right cycle it is accepted", (await text("#ls-verdict-" + wrong.label)) === "✓ accepted");
  expect("no conflict is left", (await page.$$eval("#ls-ops tr.conflict", (t) => t.length)) === 0);
  await page.click("#ls-check");
  const report = await text("#ls-report");
  const cliReport = native(["drill", "list-schedule", "--seed", String(seed), "--check", "-"], answerWith(null, 0)).replace("<stdin>", "my-schedule.txt");
  expect("the whole check is the CLI's report", report === cliReport, report);
  expect("it says correct", report.includes("✓ correct"));
  await page.click("#ls-graph");
  await page.click("#ls-heights");
  expect("the dependence graph is drawn", (await page.$$eval("#ls-graph-out svg circle", (c) => c.length)) === sol.ops.length);
  await shot("list-schedule-accepted");

  // ---- 2. quiz -------------------------------------------------------------
  await go("quiz");
  const qseed = 7;
  const reveal = JSON.parse(native(["quiz", "23", "--reveal", "--seed", String(qseed), "--format", "json"])).questions;
  await page.focus("#qz-seed");
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await page.keyboard.type(String(qseed));
  await page.keyboard.press("Enter");
  await page.waitForSelector("#qz-answer-form:not([hidden])");
  // The answer field has the focus: type and press Enter.
  await page.keyboard.type(reveal[0].answer);
  await page.keyboard.press("Enter");
  const wrongReply = reveal[1].kind === "set" ? "{9}" : reveal[1].kind === "number" ? "999" : "zzz";
  await page.keyboard.type(wrongReply);
  await page.keyboard.press("Enter");
  const log = await page.$$eval("#qz-log pre", (p) => p.map((x) => x.textContent));
  const feedback = log.filter((t) => /^(Right|Wrong|Partly|Format error)/.test(t));
  expect("question 1 (" + reveal[0].id + ") is right", feedback[0] && feedback[0].startsWith("Right."), feedback[0]);
  expect("question 2 (" + reveal[1].id + ") is wrong, with the answer and why", feedback[1] && feedback[1].startsWith("Wrong. The answer is ") && feedback[1].includes("Why:"), feedback[1]);
  expect("the quiz shows the CLI's opening line", log[0].startsWith(`Quiz 23`) && log[0].includes(`seed ${qseed} (repeat with --seed ${qseed})`), log[0]);
  await shot("quiz");

  // ---- 3. flashcards ---------------------------------------------------------
  await go("flash");
  await page.click("#fl-start");
  await page.waitForSelector("#fl-card:not([hidden])");
  const front = await text("#fl-front");
  const cardId = front.match(/^\[1\/\d+\] (\S+)/)[1];
  // Keyboard only: the focus is on "Show the answer"; Enter, then Tab twice to "good".
  await page.keyboard.press("Enter");
  await page.waitForSelector("#fl-rate:not([hidden])");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  expect("the rating buttons are reached with Tab", (await page.evaluate(() => document.activeElement.dataset.rating)) === "good");
  await page.keyboard.press("Enter");
  const flog = await text("#fl-log");
  expect("the card went to box 2", flog.includes("-> box 2, next review "), flog);
  await shot("flashcard-rated");
  await page.reload({ waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.ready === "1");
  await go("flash");
  const listed = (await text("#fl-list")).split("\n").find((l) => l.includes(" " + cardId + " "));
  expect("after a reload " + cardId + " is still in box 2", !!listed && /box 2 /.test(listed), listed);
  await shot("flashcards-after-reload");

  // The CLI's state file imported, then exported and read by the CLI.
  const now = new Date(); // the local date, as the page and the CLI count it
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, "0")).join("-");
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "course-flash-"));
  const cliState = path.join(files, "flash-23.json");
  native(["flash", "23", "--state", cliState, "--today", day], "\neasy\n\ngood\nq\n");
  const imported = await page.$("#fl-import");
  await imported.uploadFile(cliState);
  await page.waitForFunction(() => document.getElementById("fl-note").textContent.startsWith("Imported"));
  const cliList = native(["flash", "23", "--state", cliState, "--today", day, "--list"]);
  expect("an imported CLI state file lists as the CLI lists it", (await text("#fl-list")) === cliList, await text("#fl-list"));
  const cdp = await page.createCDPSession();
  const downloads = path.join(files, "downloads");
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  await page.click("#fl-export");
  const exported = path.join(downloads, "flash-23.json");
  for (let i = 0; i < 50 && !fs.existsSync(exported); i++) await new Promise((r) => setTimeout(r, 100));
  expect("the exported state file is the CLI's file, byte for byte", fs.existsSync(exported) && fs.readFileSync(exported, "utf8") === fs.readFileSync(cliState, "utf8"));
  fs.rmSync(files, { recursive: true, force: true });

  // ---- 4. lab checker ----------------------------------------------------------
  await go("lab");
  const sample = path.join(root, "solutions/ch23-sched/samples/running--resource.sched");
  await page.select("#lab-input", "labs/ch23-sched/inputs/running.txt");
  const upload = await page.$("#lab-file");
  await upload.uploadFile(sample);
  await page.waitForFunction(() => document.getElementById("lab-sub").value.length > 0);
  await page.click("#lab-form button[type=submit]");
  const verdict = await text("#lab-out");
  const cliVerdict = native(["grade", "labs/ch23-sched/inputs/running.txt", path.relative(root, sample)]);
  expect("the lab checker prints the CLI's verdict", verdict === cliVerdict, verdict + "\n--- CLI:\n" + cliVerdict);
  expect("it says INVALID", verdict.includes("running: INVALID"));
  expect("both reservation tables are shown", (await text("#lab-mine")).startsWith("cycle") && (await text("#lab-ref")).startsWith("cycle"));
  await shot("lab-checker");

  // ---- Hints on a drill: one more step each press, as `course drill … --hint`.
  await go("drills");
  await page.click("#dr-hint");
  const h1 = await text("#dr-hints");
  const cliHint = native(["drill", "mii", "--seed", "2", "--hint"]);
  expect("a hint appears, as the CLI's", h1.startsWith("Hint 1:") && cliHint.includes(h1.split("\n")[0]), h1 + "\n--- CLI:\n" + cliHint);
  await page.click("#dr-hint");
  const h2 = await text("#dr-hints");
  expect("the second press adds hint 2", h2.includes("Hint 2:") && h2.startsWith(h1.split("\n")[0]), h2);
  await shot("drill-hints");

  // ---- 6. progress: the reviews made above (a list-schedule check, right;
  // two quiz answers, one right; a flashcard rated good), as the CLI counts
  // them in the exported log.
  await go("progress");
  const prog = await text("#pg-out");
  expect("the progress view counts 4 reviews, 3 right", prog.startsWith(`Progress of me on ${day}: 4 attempt(s), 3 right (75 %).`), prog);
  const lsRow = prog.split("\n").find((l) => l.startsWith("list scheduling"));
  expect("list scheduling: 1 attempt, 100 % right", !!lsRow && /^list scheduling\s+1\s+100 %/.test(lsRow), lsRow);
  expect("the wrong quiz answer's kind is listed", /mistakes made most: \S+-wrong 1/.test(prog), prog);
  expect("a next problem is offered", (await text("#pg-practice")).startsWith("Practise "), await text("#pg-practice"));
  const logFiles = fs.mkdtempSync(path.join(os.tmpdir(), "course-reviews-"));
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: logFiles });
  await page.click("#pg-export");
  const logFile = path.join(logFiles, "reviews.log");
  for (let i = 0; i < 50 && !fs.existsSync(logFile); i++) await new Promise((r) => setTimeout(r, 100));
  const logLines = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l && !l.startsWith("#")) : [];
  expect("the exported review log has the 4 lines", logLines.length === 4, logLines.join("\n"));
  const cliProg = native(["progress", "--review-log", logFile, "--who", "me", "--today", day]);
  expect("the progress view is course progress on the exported log, byte for byte", prog === cliProg, prog + "\n--- CLI:\n" + cliProg);
  const cliPractice = native(["practice", "--review-log", logFile, "--who", "me", "--today", day]);
  expect("the next problem is course practice's", (await text("#pg-practice")) === cliPractice, cliPractice);
  fs.rmSync(logFiles, { recursive: true, force: true });
  await shot("progress");

  // ---- 5. llvm-mca, and 360 px ---------------------------------------------------
  expect("no processor model's table was loaded before the llvm-mca view", tables.length === 0 &&
    (await page.evaluate(() => typeof window.COURSE_MCA_TABLES === "undefined" && !document.querySelector('script[src^="mca/"]'))), tables.join(", "));
  const kernel = (stem) => "labs/ch23-sched/inputs/mca/" + stem;
  const mcaDone = () => page.waitForFunction(() => document.getElementById("mca-out").dataset.state === "done", { timeout: 15000 });
  // What the CLI prints for the page's run (its boxes: bottleneck, timeline
  // and pressure; instruction info off, which assembly has on by default).
  const nativeMca = (input, machine) => native(["mca", input, "--machine", machine, "--iterations", "100", "--timeline", "--resource-pressure", "--instruction-info=false", "--bottleneck"]);
  // A kernel in the lab format first (on the skylake of the course's
  // machines): it runs when the section is first shown, and needs no table.
  await page.select("#mca-input", kernel("div.txt"));
  await go("mca");
  await mcaDone();
  expect("a lab-format kernel runs without a processor model's table", tables.length === 0, tables.join(", "));
  expect("it prints what course mca prints", (await text("#mca-out")) === nativeMca(kernel("div.txt"), "skylake"), await text("#mca-out"));
  // The assembly on skylake, then on neoverse-v2: each loads its model's
  // tables the first time.
  for (const [stem, machine, want] of [["div.s", "skylake", ["x86.forms", "skylake.model"]],
    ["dot-a64.s", "neoverse-v2", ["aarch64.forms", "neoverse-v2.model"]]]) {
    const before = tables.length;
    await page.select("#mca-input", kernel(stem));
    expect(`${stem} selects ${machine}`, (await page.$eval("#mca-machine", (s) => s.value)) === machine);
    await page.click("#mca-form button[type=submit]");
    await mcaDone();
    const got = await text("#mca-out");
    expect(`${stem} on ${machine} loads its tables: ${want.join(", ")}`, JSON.stringify(tables.slice(before).sort()) === JSON.stringify([...want].sort()), tables.join(", "));
    expect(`${stem} on ${machine} prints what course mca prints`, got === nativeMca(kernel(stem), machine), got.slice(0, 300));
    // The command the page shows, run as shown (from the kernels' folder).
    const shown = (await text("#mca-cli")).split(" ");
    expect(`${stem}: the command shown is the one run`, shown[0] === "course" && shown[2] === stem &&
      native([...shown.slice(1, 2), kernel(stem), ...shown.slice(3)]) === got, shown.join(" "));
    expect(`${stem} on ${machine}: the summary, timeline and pressure`, ["Iterations:", "Block RThroughput:", "Timeline view:", "Resource pressure"].every((s) => got.includes(s)), got.slice(0, 200));
    await shot("mca-" + machine);
  }
  await page.click("#mca-form button[type=submit]");
  await mcaDone();
  expect("a second run loads nothing more", tables.length === 4, tables.join(", "));
  // The student's own text: the lesson's dot-x86.s pasted into the editor.
  const dot = fs.readFileSync(path.join(root, "labs/ch23-sched/inputs/mca/dot-x86.s"), "utf8");
  await page.evaluate((t) => {
    const a = document.getElementById("mca-text");
    a.value = t;
    a.dispatchEvent(new Event("input", { bubbles: true }));
  }, dot);
  await page.select("#mca-machine", "skylake");
  await page.click("#mca-form button[type=submit]");
  await mcaDone();
  const own = await text("#mca-out");
  expect("pasted assembly runs: 410 cycles on skylake", own.includes("Total Cycles:      410"), own.slice(0, 300));
  expect("the bottleneck names the recurrence", own.includes("Binding: the recurrence at 4"), own);
  const kept = await page.evaluate(() => localStorage.getItem("course-mca-text"));
  expect("the pasted text is kept in local storage", kept === dot);
  expect("skylake's tables were loaded once", tables.length === 4, tables.join(", "));
  await shot("mca-own-text");
  await page.setViewport({ width: 360, height: 740 });
  for (const s of ["list-schedule", "drills", "quiz", "flash", "progress", "lab", "mca"]) {
    await go(s);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(`#${s} fits 360 px (page width ${w})`, w <= 360);
  }
  await go("list-schedule");
  await shot("narrow-list-schedule");
  await go("lab");
  await shot("narrow-lab");
  expect("nothing was requested from the network", offsite.length === 0, offsite.join(", "));
  expect("no script error", errors.length === 0, errors.join(" | "));
} catch (e) {
  failures.push("the test stopped: " + e.stack);
  console.error(e);
  await shot("stopped").catch(() => {});
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log("screenshots in " + path.relative(root, shots));
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
