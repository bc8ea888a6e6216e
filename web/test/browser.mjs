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

fs.rmSync(shots, { recursive: true, force: true });
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

// The list-schedule table has drawn the last placement asked for.
const lsSettled = () => page.waitForFunction(() => {
  const t = document.getElementById("ls-ops");
  return t.dataset.asked && t.dataset.asked === t.dataset.rendered;
});

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

  const asked = await page.$eval("#ls-ops", (t) => Number(t.dataset.asked));
  await page.click("#ls-seed", { clickCount: 3 });
  await page.keyboard.type(String(seed));
  await page.keyboard.press("Enter");
  await page.waitForFunction((a) => Number(document.getElementById("ls-ops").dataset.asked) > a, {}, asked);
  await lsSettled();
  for (const label of order) {
    const c = label === wrong.label ? wrong.at : cycleOf[label];
    await page.click("#ls-choose-" + label);
    await page.click(`#ls-table button[data-cycle="${c}"]`);
    await lsSettled();
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
  await page.waitForFunction(() => !document.getElementById("ls-report").hidden);
  const report = await text("#ls-report");
  const cliReport = native(["drill", "list-schedule", "--seed", String(seed), "--check", "-"], answerWith(null, 0)).replace("<stdin>", "my-schedule.txt");
  expect("the whole check is the CLI's report", report === cliReport, report);
  expect("it says correct", report.includes("✓ correct"));
  await page.click("#ls-graph");
  await page.click("#ls-heights");
  expect("the dependence graph is drawn", (await page.$$eval("#ls-graph-out svg circle", (c) => c.length)) === sol.ops.length);
  await shot("list-schedule-accepted");

  // ---- 1b. the same drill by keyboard only: type a cycle, Tab, the next.
  // Seed 11 needs cycle 19, past the rows a fresh table shows.
  {
    const kseed = 11;
    const ksol = JSON.parse(native(["drill", "list-schedule", "--seed", String(kseed), "--solution", "--format", "json"]));
    await page.click("#ls-seed", { clickCount: 3 });
    await page.keyboard.type(String(kseed));
    await page.keyboard.press("Enter");
    await page.waitForFunction((s) => document.getElementById("ls-cli").textContent.endsWith("--seed " + s), {}, kseed);
    await lsSettled();
    const rows = await page.$$eval("#ls-table tbody tr", (r) => r.length);
    const most = Math.max(...Object.values(ksol.solution.schedule));
    expect(`seed ${kseed}: a fresh table shows ${rows} cycles, fewer than the ${most + 1} the answer needs`, rows <= most);
    await page.click("#ls-more");
    await lsSettled();
    const more = await page.$$eval("#ls-table tbody tr", (r) => r.length);
    await page.click("#ls-more");
    await lsSettled();
    expect("each press of “More cycles” adds six rows the mouse can press", more === rows + 6 && (await page.$(`#ls-table button[data-cycle="${most}"]`)) !== null, `${rows} → ${more}`);
    await page.click("#ls-hint");
    await page.waitForFunction(() => document.getElementById("ls-hints").textContent.startsWith("Hint 1:"));
    const lsHint = await text("#ls-hints");
    expect("the list-schedule drill has the CLI's hints", native(["drill", "list-schedule", "--seed", String(kseed), "--hint"]).includes(lsHint.split("\n")[0]), lsHint);
    await page.focus("#ls-cycle-" + ksol.ops[0].label);
    let keys = 0;
    for (const op of ksol.ops) {
      await page.keyboard.type(String(ksol.solution.schedule[op.label]));
      await page.keyboard.press("Tab");
      keys += String(ksol.solution.schedule[op.label]).length + 1;
    }
    await lsSettled();
    const typed = await page.$$eval("#ls-ops input.cycle", (xs) => xs.map((x) => x.value));
    const want = ksol.ops.map((o) => String(ksol.solution.schedule[o.label]));
    expect(`type-Tab-type places every operation at its own cycle (${keys} keys for ${ksol.ops.length} operations)`, JSON.stringify(typed) === JSON.stringify(want), typed.join(" "));
    const accepted = await page.$$eval("#ls-ops td[id^=ls-verdict-]", (xs) => xs.filter((x) => x.textContent === "✓ accepted").length);
    expect("each is accepted", accepted === ksol.ops.length, String(accepted));
    await page.focus("#ls-check");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => !document.getElementById("ls-report").hidden);
    expect("the keyboard-made schedule checks correct", (await text("#ls-report")).includes("✓ correct"), await text("#ls-report"));
    await shot("list-schedule-keyboard");
    expect("the address names the seed", page.url().endsWith("#list-schedule?seed=" + kseed), page.url());
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => document.body.dataset.ready === "1");
    await lsSettled();
    const kept = await page.$$eval("#ls-ops input.cycle", (xs) => xs.map((x) => x.value));
    expect("a reload keeps the seed and the placements", JSON.stringify(kept) === JSON.stringify(want), kept.join(" "));
    await shot("list-schedule-after-reload");
  }

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
  await page.waitForFunction(() => [...document.querySelectorAll("#qz-log pre")].filter((p) => /^(Right|Wrong|Partly)/.test(p.textContent)).length >= 2);
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
  await page.waitForFunction(() => document.getElementById("fl-log").textContent.includes("-> box"));
  const flog = await text("#fl-log");
  expect("the card went to box 2", flog.includes("-> box 2, next review "), flog);
  await shot("flashcard-rated");
  await page.reload({ waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.ready === "1");
  await go("flash");
  await page.waitForFunction(() => document.getElementById("fl-list").textContent.length > 0);
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
  await page.waitForFunction(() => document.getElementById("lab-out").dataset.state === "done" && document.getElementById("lab-out").textContent.includes("running:"));
  const verdict = await text("#lab-out");
  const cliVerdict = native(["grade", "labs/ch23-sched/inputs/running.txt", path.relative(root, sample)]);
  expect("the lab checker prints the CLI's verdict", verdict === cliVerdict, verdict + "\n--- CLI:\n" + cliVerdict);
  expect("it says INVALID", verdict.includes("running: INVALID"));
  expect("both reservation tables are shown", (await text("#lab-mine")).startsWith("cycle") && (await text("#lab-ref")).startsWith("cycle"));
  await shot("lab-checker");

  // ---- Hints on a drill: one more step each press, as `course drill … --hint`.
  await go("drills");
  await page.click("#dr-hint");
  await page.waitForFunction(() => document.getElementById("dr-hints").textContent.startsWith("Hint 1:"));
  const h1 = await text("#dr-hints");
  const cliHint = native(["drill", "mii", "--seed", "2", "--hint"]);
  expect("a hint appears, as the CLI's", h1.startsWith("Hint 1:") && cliHint.includes(h1.split("\n")[0]), h1 + "\n--- CLI:\n" + cliHint);
  await page.click("#dr-hint");
  await page.waitForFunction(() => document.getElementById("dr-hints").textContent.includes("Hint 2:"));
  const h2 = await text("#dr-hints");
  expect("the second press adds hint 2", h2.includes("Hint 2:") && h2.startsWith(h1.split("\n")[0]), h2);
  await shot("drill-hints");

  // ---- 6. progress: the reviews made above (two list-schedule checks, right;
  // two quiz answers, one right; a flashcard rated good), as the CLI counts
  // them in the exported log.
  await go("progress");
  await page.waitForFunction(() => /: 5 attempt/.test(document.getElementById("pg-out").textContent), { timeout: 5000 }).catch(() => {});
  const prog = await text("#pg-out");
  expect("the progress view counts 5 reviews, 4 right", prog.startsWith(`Progress of me on ${day}: 5 attempt(s), 4 right (80 %).`), prog);
  const lsRow = prog.split("\n").find((l) => l.startsWith("list scheduling"));
  expect("list scheduling: 2 attempts, 100 % right", !!lsRow && /^list scheduling\s+2\s+100 %/.test(lsRow), lsRow);
  expect("the wrong quiz answer's kind is listed", /mistakes made most: \S+-wrong 1/.test(prog), prog);
  expect("a next problem is offered", (await text("#pg-practice")).startsWith("Practise "), await text("#pg-practice"));
  const logFiles = fs.mkdtempSync(path.join(os.tmpdir(), "course-reviews-"));
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: logFiles });
  await page.click("#pg-export");
  const logFile = path.join(logFiles, "reviews.log");
  for (let i = 0; i < 50 && !fs.existsSync(logFile); i++) await new Promise((r) => setTimeout(r, 100));
  const logLines = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l && !l.startsWith("#")) : [];
  const markers = logLines.filter((l) => / wrong hints-\d+$| wrong solution-viewed$/.test(l));
  expect("the exported review log has the 5 reviews and the 3 hint markers", logLines.length === 8 && markers.length === 3, logLines.join("\n"));
  // The next exercise is the one `course next` writes for that log.
  const work = path.join(logFiles, "work");
  fs.copyFileSync(logFile, path.join(logFiles, "copy.log"));
  native(["next", work, "--review-log", path.join(logFiles, "copy.log"), "--who", "me"]);
  const step = (fs.existsSync(work) ? fs.readdirSync(work) : []).map((f) => f.match(/^(\d+)-(.+)-seed-(\d+)\.txt$/)).find(Boolean);
  const pgNext = await text("#pg-next");
  expect("the page's next exercise is course next's", !!step && pgNext.includes(`(step ${step[1]} of 7,`) && pgNext.includes(`drill ${step[2]}, seed ${step[3]}`), pgNext + " / " + (step || []).join(" "));
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

  // ---- 5b. live: typing re-runs the view 300 ms after the last key; an
  // error is marked at its line; a link carries the text to a fresh browser.
  const runs = () => page.$eval("#mca-out", (o) => Number(o.dataset.runs || 0));
  const afterRun = async (before) => {
    await page.waitForFunction((b) => Number(document.getElementById("mca-out").dataset.runs || 0) > b && document.getElementById("mca-out").dataset.state === "done", { timeout: 20000 }, before);
  };
  await page.select("#mca-input", kernel("div.s"));
  await page.waitForFunction(() => document.getElementById("mca-text").dataset.name === "div.s");
  let before = await runs();
  await afterRun(before);
  const divText = await page.$eval("#mca-text", (t) => t.value);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "course-live-"));
  before = await runs();
  await page.focus("#mca-text");
  await page.keyboard.down("Control");
  await page.keyboard.press("End");
  await page.keyboard.up("Control");
  const added = (divText.endsWith("\n") ? "" : "\n") + "\taddq %rax, %rbx\n";
  await page.keyboard.type(added);
  await afterRun(before);
  const liveText = await page.$eval("#mca-text", (t) => t.value);
  fs.writeFileSync(path.join(tmp, "my-kernel"), liveText);
  const liveOut = await text("#mca-out");
  expect("typing re-runs the view without a press, as course mca runs the new text", liveText === divText + added &&
    liveOut === native(["mca", path.join(tmp, "my-kernel"), "--machine", "skylake", "--iterations", "100", "--timeline", "--resource-pressure", "--instruction-info=false", "--bottleneck"]), liveOut.slice(0, 300));
  const shownCmd = await text("#mca-cli");
  expect("the command shown names the text's file, with a button to save it", shownCmd.startsWith("course mca my-kernel --machine skylake") &&
    (await page.$$eval("#mca-cli ~ button.save", (b) => b.map((x) => x.textContent))).includes("Save my-kernel"), shownCmd);
  // An error: its line gets a marker, and the list says why.
  before = await runs();
  await page.keyboard.type("\tbogus %rax\n");
  await afterRun(before);
  const badLine = (liveText + "\tbogus %rax\n").split("\n").length - 1;
  const marks = await page.$eval("#mca-text", (t) => [...t.parentElement.querySelectorAll(".gutter .mark")].map((x) => x.dataset.line));
  const markList = await page.$eval("#mca-text-marks", (l) => l.textContent);
  expect(`the error is marked at line ${badLine}`, JSON.stringify(marks) === JSON.stringify([String(badLine)]) && markList.startsWith(`line ${badLine}, column 2: 'bogus'`), marks.join(",") + " " + markList);
  await shot("mca-error-marker");
  // The marker's button moves the caret to the place.
  await page.click("#mca-text-marks button");
  const caret = await page.$eval("#mca-text", (t) => t.value.slice(0, t.selectionStart).split("\n").length);
  expect("the marker's button puts the caret on that line", caret === badLine, String(caret));
  // Take the bad line out again, then share the view by its address.
  before = await runs();
  await page.evaluate((t) => {
    const a = document.getElementById("mca-text");
    a.value = t;
    a.dispatchEvent(new Event("input", { bubbles: true }));
  }, liveText);
  await afterRun(before);
  await page.click("#mca-info");
  await page.waitForFunction(() => /z=/.test(location.hash) && /views=[^&]*i/.test(location.hash), { timeout: 5000 });
  await afterRun(before + 1);
  const link = page.url();
  const ownOut = await text("#mca-out");
  const fresh = await browser.createBrowserContext();
  const other = await fresh.newPage();
  other.on("request", (r) => { if (!/^(file|data|blob):/.test(r.url())) offsite.push(r.url()); });
  await other.goto(link, { waitUntil: "load" });
  await other.waitForFunction(() => document.body.dataset.ready === "1" && document.getElementById("mca-out").dataset.state === "done", { timeout: 20000 });
  const there = await other.evaluate(() => ({ text: window.courseText("mca-text"), machine: document.getElementById("mca-machine").value,
    info: document.getElementById("mca-info").checked, out: document.getElementById("mca-out").textContent }));
  expect("the link opens the same kernel text, machine, views and output in a fresh browser", there.text === liveText && there.machine === "skylake" && there.info && there.out === ownOut,
    JSON.stringify({ len: there.text.length, machine: there.machine, info: there.info }));
  await other.screenshot({ path: path.join(shots, "link-mca-fresh.png") });
  await other.goto(url + "?seed=12#drills?drill=modulo&machine=skylake", { waitUntil: "load" });
  await other.waitForFunction(() => document.body.dataset.ready === "1" && document.getElementById("dr-problem").textContent.length > 0);
  expect("a link to drill modulo, seed 12, machine skylake opens that problem", (await other.$eval("#dr-problem", (p) => p.textContent)) === native(["drill", "modulo", "--seed", "12", "--machine", "skylake"]),
    await other.$eval("#dr-problem", (p) => p.textContent.slice(0, 200)));
  await other.screenshot({ path: path.join(shots, "link-drill-fresh.png") });
  await fresh.close();
  fs.rmSync(tmp, { recursive: true, force: true });

  // ---- 5c. a 1 MB paste: the engine works in its worker, the page answers.
  await page.click("#mca-timeline");
  const unit = "\taddq %rax, %rbx\n\timulq %rcx, %rdx\n\tmovq (%rsi), %r8\n\tvaddps %ymm0, %ymm1, %ymm2\n";
  const huge = unit.repeat(Math.ceil((1 << 20) / unit.length));
  await page.evaluate(() => {
    window.courseLongest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.courseLongest = Math.max(window.courseLongest, e.duration); }).observe({ type: "longtask" });
  });
  // A paste event as the browser sends it (the clipboard's text in it).
  await page.evaluate((t) => {
    const a = document.getElementById("mca-text");
    a.focus();
    a.select();
    const data = new DataTransfer();
    data.setData("text/plain", t);
    a.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, huge);
  await page.waitForFunction(() => document.body.dataset.busy === "1", { timeout: 5000 });
  expect("the whole pasted text is what runs, the editor showing its first lines", (await page.evaluate(() => window.courseText("mca-text").length)) === huge.length &&
    (await page.$eval("#mca-text-held", (n) => n.checkVisibility() && n.textContent.startsWith("A large text ("))), await page.$eval("#mca-text-held", (n) => n.textContent));
  // The browser's own measure of a click (Event Timing: from the input to
  // the next frame painted after its handlers).
  await page.evaluate(() => {
    window.courseClicks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "click") window.courseClicks.push(e.duration); })
      .observe({ type: "event", durationThreshold: 16 });
  });
  const t0 = Date.now();
  await page.click('nav a[href="#quiz"]');
  await page.waitForFunction(() => !document.getElementById("quiz").hidden);
  const wall = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 200));
  const clickMs = await page.evaluate(() => Math.max(0, ...window.courseClicks));
  const stillBusy = await page.evaluate(() => document.body.dataset.busy === "1");
  expect(`with ${huge.length} bytes pasted, a click is answered in ${Math.round(clickMs)} ms while the worker runs (${wall} ms through the test driver)`, clickMs < 100 && wall < 1000 && stillBusy, `${clickMs} ms, busy ${stillBusy}`);
  await go("mca");
  await shot("mca-working");
  const cancelAt = Date.now();
  await page.click("#mca-cancel");
  const stopped = await page.waitForFunction(() => document.body.dataset.busy !== "1" && document.getElementById("mca-out").textContent === "Cancelled.", { timeout: 5000 })
    .then(() => true, () => false);
  console.log(`  (cancelled after ${Date.now() - cancelAt} ms; longest main-thread task ${Math.round(await page.evaluate(() => window.courseLongest))} ms)`);
  expect("Cancel stops the run within 5 s (the run alone takes minutes)", stopped, await text("#mca-out"));
  before = await runs();
  await page.select("#mca-input", kernel("div.s"));
  await afterRun(before);
  expect("after a cancel the next run works (a fresh worker, its tables handed over again)", (await text("#mca-out")).includes("Iterations:") && tables.length === 4, tables.join(","));
  await page.click("#mca-timeline");
  await page.setViewport({ width: 360, height: 740 });
  for (const s of ["list-schedule", "drills", "quiz", "flash", "progress", "lab", "mca", "worksheet"]) {
    await go(s);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(`#${s} fits 360 px (page width ${w})`, w <= 360);
  }
  await go("list-schedule");
  await shot("narrow-list-schedule");
  await go("lab");
  await shot("narrow-lab");
  await page.setViewport({ width: 1200, height: 900 });

  // ---- 7. accessibility: axe-core on every tab, light and dark (a page of
  // its own, which lets the test inject axe past the page's CSP).
  const axeSource = fs.readFileSync(path.join(root, "web/test/node_modules/axe-core/axe.min.js"), "utf8");
  for (const scheme of ["light", "dark"]) {
    const ctx = await browser.createBrowserContext();
    const a11y = await ctx.newPage();
    await a11y.setBypassCSP(true);
    await a11y.setViewport({ width: 1200, height: 900 });
    await a11y.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
    await a11y.goto(url, { waitUntil: "load" });
    await a11y.waitForFunction(() => document.body.dataset.ready === "1");
    await a11y.addScriptTag({ content: axeSource });
    if (scheme === "light") {
      // The check can fail: a picture without a text alternative is found.
      const control = await a11y.evaluate(async () => {
        const img = document.createElement("img");
        img.src = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
        document.getElementById("main").append(img);
        const r = await window.axe.run(document, { resultTypes: ["violations"] });
        img.remove();
        return r.violations.map((v) => v.id);
      });
      expect("axe-core finds a planted violation (an image without alt)", control.includes("image-alt"), control.join(", "));
    }
    for (const s of ["list-schedule", "drills", "quiz", "flash", "progress", "lab", "mca", "worksheet"]) {
      await a11y.click(`nav a[href="#${s}"]`);
      await a11y.waitForFunction((x) => !document.getElementById(x).hidden, {}, s);
      // Open what the tab shows after use: results, hints, solutions.
      const openUp = { "list-schedule": ["#ls-hint", "#ls-heights", "#ls-graph", "#ls-solution"], drills: ["#dr-hint", "#dr-check", "#dr-solution"],
        flash: ["#fl-start"], lab: ["#lab-form button[type=submit]"], worksheet: ["#ws-form button[type=submit]"] }[s] || [];
      for (const b of openUp) await a11y.click(b);
      if (s === "quiz") { await a11y.click("#qz-start-form button[type=submit]"); await a11y.waitForSelector("#qz-answer-form:not([hidden])"); }
      if (s === "mca") await a11y.waitForFunction(() => document.getElementById("mca-out").dataset.state === "done", { timeout: 20000 });
      await new Promise((r) => setTimeout(r, 300));
      const found = await a11y.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
      });
      expect(`axe-core: no violation in #${s}, ${scheme}`, found.length === 0, found.join(" | "));
      if (s === "list-schedule" || s === "mca") await a11y.screenshot({ path: path.join(shots, `axe-${scheme}-${s}.png`), fullPage: false });
    }
    await ctx.close();
  }
  // ---- 9. a worksheet for three seeds, printed: the problems, then the
  // solutions on pages of their own; the same bytes as course worksheet.
  await go("worksheet");
  for (const c of await page.$$("#ws-drills input:checked")) await c.click();
  for (const d of ["list-schedule", "mii", "modulo"]) await page.click(`#ws-drills input[value="${d}"]`);
  await page.click("#ws-seeds", { clickCount: 3 });
  await page.keyboard.type("1-3");
  await page.click("#ws-form button[type=submit]");
  await page.waitForFunction(() => document.querySelectorAll("#ws-out .problem").length > 0, { timeout: 20000 });
  const wsDrills = await page.$$eval("#ws-drills input:checked", (xs) => xs.map((x) => x.value));
  const wsArgs = ["worksheet", ...wsDrills.flatMap((d) => ["--drill", d]), "--seeds", "1-3", "--format", "html"];
  const problems = await page.$$eval("#ws-out .problems .problem", (xs) => xs.length);
  const solutions = await page.$$eval("#ws-out .solutions .problem", (xs) => xs.length);
  expect("the worksheet has 3 drills × 3 seeds, problems and solutions", problems === 9 && solutions === 9, `${problems} problems, ${solutions} solutions`);
  expect("its command is the CLI's", (await text("#ws-note code")) === "course " + wsArgs.join(" "), await text("#ws-note code"));
  const wsFiles = fs.mkdtempSync(path.join(os.tmpdir(), "course-ws-"));
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: wsFiles });
  await page.click("#ws-save");
  const wsFile = path.join(wsFiles, "worksheet.html");
  for (let i = 0; i < 50 && !fs.existsSync(wsFile); i++) await new Promise((r) => setTimeout(r, 100));
  expect("the saved worksheet is course worksheet --format html, byte for byte", fs.existsSync(wsFile) && fs.readFileSync(wsFile, "utf8") === native(wsArgs));
  fs.rmSync(wsFiles, { recursive: true, force: true });
  await shot("worksheet");
  await page.emulateMediaType("print");
  const printed = await page.evaluate(() => ({
    nav: getComputedStyle(document.querySelector("header")).display,
    form: getComputedStyle(document.getElementById("ws-form")).display,
    solutions: getComputedStyle(document.querySelector("#ws-out .solutions")).breakBefore,
    problem: getComputedStyle(document.querySelector("#ws-out .problem")).breakInside,
  }));
  expect("printed: no controls, the solutions on a new page, no problem split", printed.nav === "none" && printed.form === "none" && printed.solutions === "page" && printed.problem === "avoid", JSON.stringify(printed));
  await page.screenshot({ path: path.join(shots, "worksheet-print.png"), fullPage: true });
  const pdf = path.join(shots, "worksheet.pdf");
  await page.pdf({ path: pdf, format: "A4", printBackground: true });
  const pages = (fs.readFileSync(pdf, "latin1").match(/\/Type\s*\/Page\b(?!s)/g) || []).length;
  expect(`the printed worksheet (page.pdf) has ${pages} pages`, pages >= 2, String(pages));
  await page.emulateMediaType(null);

  // The toggle overrides the system's choice, and is kept.
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
  await page.click("#theme");
  await page.click("#theme");
  const dark = await page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor, localStorage.getItem("course.theme")]);
  expect("the theme toggle turns the page dark and keeps the choice", dark[0] === "dark" && dark[1] === "rgb(22, 24, 27)" && dark[2] === "dark", dark.join(" "));
  await go("list-schedule");
  await shot("dark-toggle");
  await page.click("#theme");
  expect("and back to the system's choice", await page.evaluate(() => document.documentElement.dataset.themeChoice === "auto" &&
    document.documentElement.dataset.theme === "light" && localStorage.getItem("course.theme") === null));
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
  const followed = await page.waitForFunction(() => document.documentElement.dataset.theme === "dark", { timeout: 3000 }).then(() => true, () => false);
  expect("on auto the page follows the system as it changes", followed);
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);

  // ---- 8. from a web server: the real .wasm, not the base64 copy.
  {
    const http = await import("node:http");
    const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
    const server = http.createServer((req, res) => {
      const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
      const file = path.join(web, rel);
      if (!file.startsWith(web) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
      fs.createReadStream(file).pipe(res);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const served = [];
    const ctx = await browser.createBrowserContext();
    const web2 = await ctx.newPage();
    web2.on("request", (r) => served.push(new URL(r.url()).pathname));
    const t1 = Date.now();
    await web2.goto(`http://127.0.0.1:${server.address().port}/index.html#list-schedule?seed=4`, { waitUntil: "load" });
    await web2.waitForFunction(() => document.body.dataset.ready === "1", { timeout: 15000 });
    const ms = Date.now() - t1;
    const problem = await web2.$eval("#ls-problem", (p) => p.textContent);
    expect(`served over http, the page fetches course.wasm and never course-wasm.js (ready in ${ms} ms)`, served.includes("/course.wasm") && !served.includes("/course-wasm.js") &&
      problem === native(["drill", "list-schedule", "--seed", "4"]), served.join(" "));
    await ctx.close();
    server.close();
  }

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
