// The WebAssembly build against the native binary: for seeds 1–20 of every
// drill (the problem, the problem with its solution, a right and a wrong
// answer checked), every lab sample and reference solution graded, and the
// llvm-mca kernels, the engine of the built page (run here under node)
// must print exactly what `course … --format json` prints, and the same
// text as `course …` without it. The kernels in the lab format must run
// without a processor model's table; the assembly ones load the tables
// they need (mca/NAME.js) as the page does, and only those.
//
//   node web/test/compare.mjs            (after web/build.sh and cargo build)
//
// COURSE_WEB_DIR names the built page (default target/web), COURSE_BIN the
// native binary (default target/debug/course). Outside CI a missing build
// is a visible SKIP; under CI=true it fails.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { root, web, bin, need, runNative } from "./setup.mjs";

need([["the built page (web/build.sh)", path.join(web, "course-wasm.js")], ["the native binary (cargo build)", bin]]);

vm.runInThisContext(fs.readFileSync(path.join(web, "course-wasm.js"), "utf8"));
vm.runInThisContext(fs.readFileSync(path.join(web, "engine.js"), "utf8"));
// The tables' scripts, run here as the page's <script> tags run them.
const loaded = [];
const engine = await globalThis.CourseEngine.load(undefined, {
  loadScript(src) {
    loaded.push(src);
    vm.runInThisContext(fs.readFileSync(path.join(web, src), "utf8"), { filename: src });
  },
});

function native(args, stdin) {
  const r = runNative(args, stdin);
  return { out: r.stdout, code: r.status, err: r.stderr };
}

function wasm(req) {
  const res = engine.call(req);
  if (!res.ok) throw new Error(JSON.stringify(req) + ": " + res.error);
  return res;
}

let passed = 0;
const failures = [];

function same(what, got, want) {
  if (got === want) {
    passed++;
    return;
  }
  const a = got.split("\n"), b = want.split("\n");
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  failures.push(what + ": first difference at line " + (i + 1) + ":\n  wasm:   " + JSON.stringify(a[i]) + "\n  native: " + JSON.stringify(b[i]));
}

const t0 = Date.now();
const drills = wasm({ cmd: "info" }).drills.map((d) => d.name);
for (const drill of drills) {
  for (let seed = 1; seed <= 20; seed++) {
    const args = ["drill", drill, "--seed", String(seed)];
    const problem = wasm({ cmd: "drill", drill, seed });
    same(`${drill} ${seed} json`, problem.json + "\n", native([...args, "--format", "json"]).out);
    same(`${drill} ${seed} text`, problem.text, native(args).out);
    const solved = wasm({ cmd: "drill", drill, seed, solution: true });
    same(`${drill} ${seed} --solution json`, solved.json + "\n", native([...args, "--solution", "--format", "json"]).out);
    same(`${drill} ${seed} --solution text`, solved.text, native([...args, "--solution"]).out);
    // The solution's own answer, and that answer with its first line dropped.
    const right = solved.answer;
    const wrong = right.split("\n").slice(1).join("\n");
    for (const [name, text] of [["right", right], ["wrong", wrong]]) {
      const check = { file: "<stdin>", text };
      const got = wasm({ cmd: "drill", drill, seed, check });
      const n = native([...args, "--check", "-", "--format", "json"], text);
      same(`${drill} ${seed} --check (${name}) json`, got.json + "\n", n.out);
      same(`${drill} ${seed} --check (${name}) text`, got.text, native([...args, "--check", "-"], text).out);
      same(`${drill} ${seed} --check (${name}) verdict`, String(got.correct), String(n.code === 0));
    }
  }
}

// Lab samples and reference solutions, graded on their input.
const samples = path.join(root, "solutions/ch23-sched/samples");
const subs = fs.readdirSync(samples).filter((f) => f.endsWith(".sched")).map((f) => path.join(samples, f))
  .concat(fs.readdirSync(path.join(root, "solutions/ch23-sched")).filter((f) => f.endsWith(".sched")).map((f) => path.join(root, "solutions/ch23-sched", f)));
if (subs.length < 14) failures.push("expected at least 14 lab samples, found " + subs.length);
for (const sub of subs.sort()) {
  const name = path.basename(sub);
  const stem = name.replace(/\.sched$/, "").split("--")[0];
  const input = `labs/ch23-sched/inputs/${stem}.txt`;
  const rel = path.relative(root, sub);
  const got = wasm({ cmd: "grade", input, input_text: fs.readFileSync(path.join(root, input), "utf8"), name, submission: fs.readFileSync(sub, "utf8") });
  const n = native(["grade", input, rel, "--format", "json"]);
  same(`grade ${rel} json`, got.json + "\n", n.out);
  same(`grade ${rel} text`, got.text, native(["grade", input, rel]).out);
  same(`grade ${rel} verdict`, String(got.valid), String(n.code === 0));
}

// The llvm-mca kernels on their machines, every view: the lab format
// first (no table may be loaded for it), then the assembly.
const kernels = wasm({ cmd: "info" }).kernels;
const isLab = (k) => k.path.endsWith(".txt");
const tablesOf = {};
for (const k of kernels.filter(isLab).concat(kernels.filter((k) => !isLab(k)))) {
  if (!isLab(k) && loaded.length === 0) {
    same("no table is loaded for the lab-format kernels", JSON.stringify(loaded), "[]");
  }
  const text = fs.readFileSync(path.join(root, k.path), "utf8");
  const req = { cmd: "mca", input: k.path, input_text: text, machine: k.machine, iterations: 100, timeline: true, resource_pressure: true, instruction_info: true };
  const before = engine.call(req);
  if (before.missing_tables) tablesOf[k.machine] = before.missing_tables;
  const got = await engine.run(req);
  if (!got.ok) throw new Error(JSON.stringify(req) + ": " + got.error);
  const args = ["mca", k.path, "--machine", k.machine, "--iterations", "100", "--timeline", "--resource-pressure", "--instruction-info"];
  same(`mca ${k.path} json`, got.json + "\n", native([...args, "--format", "json"]).out);
  same(`mca ${k.path} text`, got.text, native(args).out);
}
// Exactly the tables of the models the assembly kernels run on, each once.
const wanted = [...new Set(Object.values(tablesOf).flat())].map((t) => "mca/" + t + ".js").sort();
same("the tables loaded are those the assembly kernels need", JSON.stringify([...loaded].sort()), JSON.stringify(wanted));
same("skylake and neoverse-v2 needed their tables", JSON.stringify(tablesOf), JSON.stringify({
  "skylake": ["x86.forms", "skylake.model"],
  "neoverse-v2": ["aarch64.forms", "neoverse-v2.model"],
}));

// Every built-in processor model on a kernel of its architecture, as the
// native binary runs it; then a table the engine does not know, and a
// missing script, are errors, not a crash.
const x86 = "labs/ch23-sched/inputs/mca/dot-x86.s", a64 = "labs/ch23-sched/inputs/mca/dot-a64.s";
for (const [machine, input] of [["znver4", x86], ["skylake-llvm14", x86], ["apple-m1", a64], ["cortex-a57", a64]]) {
  const text = fs.readFileSync(path.join(root, input), "utf8");
  const got = await engine.run({ cmd: "mca", input, input_text: text, machine, iterations: 100, timeline: true, resource_pressure: true, instruction_info: true });
  if (!got.ok) {
    failures.push(`mca ${input} on ${machine}: ${got.error}`);
    continue;
  }
  same(`mca ${input} --machine ${machine} text`, got.text, native(["mca", input, "--machine", machine, "--iterations", "100", "--timeline", "--resource-pressure", "--instruction-info"]).out);
}
const unknown = await engine.loadTables(["vax.model"]);
same("a missing table's script is an error response", String(unknown && unknown.ok === false && unknown.error), "could not load mca/vax.model.js: ENOENT: no such file or directory, open '" + path.join(web, "mca/vax.model.js") + "'");

for (const f of failures.slice(0, 20)) console.error("✗ " + f);
console.log(`compared the WebAssembly build with ${path.relative(root, bin)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
