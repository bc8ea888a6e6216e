// What both web tests share: the repository's paths, the native binary,
// and what to do when something they need is missing (a visible SKIP
// outside CI; under CI=true a failure).
//
// COURSE_WEB_DIR names the built page (default target/web), COURSE_BIN the
// native binary (default target/debug/course).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const web = process.env.COURSE_WEB_DIR || path.join(root, "target/web");
export const bin = process.env.COURSE_BIN || path.join(root, "target/debug/course");

export function skip(why) {
  if (process.env.CI) {
    console.error("FAIL: " + why);
    process.exit(1);
  }
  console.log("SKIP: " + why);
  process.exit(0);
}

// Skips unless every [what, path] pair's path exists.
export function need(pairs) {
  for (const [what, p] of pairs) {
    if (!fs.existsSync(p)) skip(what + " is missing: " + p);
  }
}

// The native binary run from the repository root without colour.
export function runNative(args, stdin) {
  const r = spawnSync(bin, args, { cwd: root, input: stdin || "", encoding: "utf8", env: { ...process.env, NO_COLOR: "1", XDG_DATA_HOME: path.join(root, "target/web-test-data") } });
  if (r.error) throw r.error;
  return r;
}
