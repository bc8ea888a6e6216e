// Times the exact reference of `course gen KIND --ops N --seed S` (a loop's
// minimum II, a block's shortest length) under the WebAssembly build in
// node, one call an input: `course-bench --only exact` runs it and reads
// one line an input, `OPS SEED SECONDS PROVEN GAP`.
//
//   node web/test/bench-exact.mjs 16,24,32 20 loop     (after web/build.sh)
//
// COURSE_WEB_DIR names the built page (default target/web).
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { performance } from "node:perf_hooks";
import { web } from "./setup.mjs";

const sizes = (process.argv[2] || "16,24,32,40,48,56,64,72,80").split(",").map(Number);
const seeds = Number(process.argv[3] || 20);
const kind = process.argv[4] || "loop";
const page = path.join(web, "course-wasm.js");
if (!fs.existsSync(page)) {
  console.error("the built page is missing: " + page + " (web/build.sh)");
  process.exit(2);
}
vm.runInThisContext(fs.readFileSync(page, "utf8"));
vm.runInThisContext(fs.readFileSync(path.join(web, "engine.js"), "utf8"));
const engine = await globalThis.CourseEngine.load();
// One untimed call: instantiation and first-use costs are not the search's.
engine.call({ cmd: "bench_exact", ops: 4, seed: 1, kind });
for (const ops of sizes) {
  for (let seed = 1; seed <= seeds; seed++) {
    const start = performance.now();
    const r = engine.call({ cmd: "bench_exact", ops, seed, kind });
    const seconds = (performance.now() - start) / 1000;
    if (!r.ok) {
      console.error(`ops ${ops} seed ${seed}: ${r.error}`);
      process.exit(1);
    }
    console.log(`${ops} ${seed} ${seconds.toFixed(6)} ${r.proven} ${r.above_mii}`);
  }
}
