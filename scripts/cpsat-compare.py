#!/usr/bin/env python3
"""The exact references of `course` beside an independent exact solver.

For each size and seed, `course gen loop|block --ops N --seed S` makes an
input; `course schedule` gives its reference (whole process, timed), and
CP-SAT (Google OR-Tools, one worker) solves the same instance from the
JSON `course schedule --format json` prints:

* a loop: the smallest II with a modulo schedule, tried from MII up, each
  II a feasibility model — an issue cycle t_i per operation, its row
  s_i = t_i mod II,
  every dependence t_j + d·II ≥ t_i + ℓ, and for every resource and row of
  the modulo reservation table the units its operations put there (each
  (resource, offset) of a class's reservation table at row (s_i + offset)
  mod II) at most its capacity;
* a block: the smallest length max(t_i + max(ℓ_i, 1)) over schedules with
  t_j ≥ t_i + ℓ and every (resource, cycle) within its capacity, at most
  the list schedule's; `course` settles a block when its optimum is proven.

Each II (or the block's optimisation) gets --limit seconds; a loop's or
block's verdict is "settled" when CP-SAT proves its answer. The table is
written as Markdown (BENCHMARKS.md takes it as it is), the per-instance
rows as TSV with --rows.

    pip install ortools
    scripts/cpsat-compare.py --course target/release/course --kind loop \\
        --sizes 40,48,56,64,72,80 --seeds 1-20 --limit 10

Outside the test suite: it needs OR-Tools and takes minutes.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    from ortools.sat.python import cp_model
except ImportError:
    sys.exit("cpsat-compare: needs OR-Tools (pip install ortools)")


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def course(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True, text=True, check=False)
    return r.stdout, r.returncode


def instance(inst):
    """Resources -> capacity, class -> [(resource, offset)], class ->
    latency, the operations and their index by label."""
    machine = inst["machine"]
    caps = {r["name"]: r["capacity"] for r in machine["resources"]}
    table = {c["name"]: [(res, off) for res, off in c["reservation"]] for c in machine["classes"]}
    lat = {c["name"]: c["latency"] for c in machine["classes"]}
    ops = inst["ops"]
    index = {o["label"]: i for i, o in enumerate(ops)}
    return caps, table, lat, ops, index


def solve(m, limit):
    """CP-SAT on `m` with one worker: (status, solver, seconds)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    t0 = time.perf_counter()
    st = solver.Solve(m)
    return st, solver, time.perf_counter() - t0


def loop_feasible(inst, ii, limit):
    """CP-SAT on the loop at II: 'yes', 'no' or 'unknown', and seconds."""
    caps, table, _, ops, index = instance(inst)
    n = len(ops)
    m = cp_model.CpModel()
    # t_i directly (the dependences are then difference constraints, which
    # CP-SAT propagates well), its row s_i = t_i mod II one-hot in x.
    horizon = (n + 1) * ii + sum(e["latency"] for e in inst["edges"])
    rows = [[m.NewBoolVar(f"x{i}_{s}") for s in range(ii)] for i in range(n)]
    t = [m.NewIntVar(0, horizon, f"t{i}") for i in range(n)]
    s = [m.NewIntVar(0, ii - 1, f"s{i}") for i in range(n)]
    for i in range(n):
        m.AddExactlyOne(rows[i])
        m.Add(s[i] == sum(r * rows[i][r] for r in range(ii)))
        m.AddModuloEquality(s[i], t[i], ii)
    # Shifting a schedule keeps it valid: the first operation at row 0.
    m.Add(t[0] < ii)
    for e in inst["edges"]:
        a, b = index[e["from"]], index[e["to"]]
        m.Add(t[b] + e["distance"] * ii >= t[a] + e["latency"])
    for res, cap in caps.items():
        for rho in range(ii):
            terms = []
            for i, o in enumerate(ops):
                for r, off in table[o["class"]]:
                    if r == res:
                        terms.append(rows[i][(rho - off) % ii])
            if len(terms) > cap:
                m.Add(sum(terms) <= cap)
    st, _, dt = solve(m, limit)
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "yes", dt
    if st == cp_model.INFEASIBLE:
        return "no", dt
    return "unknown", dt


def loop_minimum(inst, mii, top, limit):
    """(II found or None, proven, seconds): II from MII up to top."""
    spent = 0.0
    for ii in range(mii, top + 1):
        verdict, dt = loop_feasible(inst, ii, limit)
        spent += dt
        if verdict == "yes":
            return ii, True, spent
        if verdict == "unknown":
            # Look above for a schedule; the minimum stays unsettled.
            for jj in range(ii + 1, top + 1):
                v2, d2 = loop_feasible(inst, jj, limit)
                spent += d2
                if v2 == "yes":
                    return jj, False, spent
            return None, False, spent
    return None, True, spent


def block_minimum(inst, upper, limit):
    """(length, proven, seconds): the smallest length, at most `upper`."""
    caps, table, lat, ops, index = instance(inst)
    n = len(ops)
    horizon = upper
    m = cp_model.CpModel()
    at = [[m.NewBoolVar(f"y{i}_{c}") for c in range(horizon)] for i in range(n)]
    t = []
    for i in range(n):
        m.AddExactlyOne(at[i])
        t.append(sum(c * at[i][c] for c in range(horizon)))
    for e in inst["edges"]:
        a, b = index[e["from"]], index[e["to"]]
        m.Add(t[b] >= t[a] + e["latency"])
    for res, cap in caps.items():
        for cyc in range(horizon + 8):
            terms = []
            for i, o in enumerate(ops):
                for r, off in table[o["class"]]:
                    if r == res and 0 <= cyc - off < horizon:
                        terms.append(at[i][cyc - off])
            if len(terms) > cap:
                m.Add(sum(terms) <= cap)
    length = m.NewIntVar(0, horizon + 64, "length")
    for i, o in enumerate(ops):
        m.Add(length >= t[i] + max(lat[o["class"]], 1))
    m.Minimize(length)
    st, solver, dt = solve(m, limit)
    if st == cp_model.OPTIMAL:
        return int(solver.Value(length)), True, dt
    if st == cp_model.FEASIBLE:
        return int(solver.Value(length)), False, dt
    return None, False, dt


def fmt(seconds):
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--course", default="target/release/course")
    ap.add_argument("--kind", choices=["loop", "block"], default="loop")
    ap.add_argument("--sizes", default="40,48,56,64,72,80")
    ap.add_argument("--seeds", default="1-20")
    ap.add_argument("--limit", type=float, default=10.0, help="CP-SAT seconds per II (per block)")
    ap.add_argument("--rows", help="write the per-instance rows here (TSV)")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    seeds = seeds_of(a.seeds)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "input.txt"
        for n in sizes:
            for seed in seeds:
                text, _ = course(a.course, "gen", a.kind, "--ops", str(n), "--seed", str(seed))
                f.write_text(text)
                t0 = time.perf_counter()
                shown, _ = course(a.course, "schedule", str(f))
                c_time = time.perf_counter() - t0
                inst = json.loads(course(a.course, "schedule", str(f), "--format", "json")[0])
                c_proven = "not proven" not in shown and "heuristic" not in shown
                if a.kind == "loop":
                    mii = json.loads(course(a.course, "analyze", str(f), "--format", "json")[0])["mii"]
                    c_val = inst["ii"]
                    cp_val, cp_proven, cp_time = loop_minimum(inst, mii, c_val, a.limit)
                    c_proven = c_proven or c_val == mii
                else:
                    # The optimum beside the list schedule (`optimum`), the
                    # list schedule's length as CP-SAT's horizon.
                    best = inst.get("optimum") or {}
                    c_val = best.get("length", inst["length"])
                    c_proven = bool(best.get("proven"))
                    cp_val, cp_proven, cp_time = block_minimum(inst, inst["length"], a.limit)
                rows.append((n, seed, c_val, c_proven, c_time, cp_val, cp_proven, cp_time))
                print(f"{a.kind} {n} seed {seed}: course {c_val} ({'proven' if c_proven else 'open'}, {fmt(c_time)});"
                      f" CP-SAT {cp_val} ({'proven' if cp_proven else 'open'}, {fmt(cp_time)})", file=sys.stderr)
    if a.rows:
        with open(a.rows, "w") as out:
            out.write("ops\tseed\tcourse\tcourse_proven\tcourse_s\tcpsat\tcpsat_proven\tcpsat_s\n")
            for r in rows:
                out.write("\t".join(str(x) for x in r) + "\n")
    what = "II" if a.kind == "loop" else "length"
    print(f"| ops | course settles | course median | course worst | CP-SAT settles | CP-SAT median | CP-SAT worst | course {what} above CP-SAT's |")
    print("|----:|----:|----:|----:|----:|----:|----:|----:|")
    for n in sizes:
        rs = [r for r in rows if r[0] == n]
        above = sum(1 for r in rs if r[5] is not None and r[2] > r[5])
        print(f"| {n} | {sum(r[3] for r in rs)}/{len(rs)} | {fmt(statistics.median(r[4] for r in rs))} | {fmt(max(r[4] for r in rs))}"
              f" | {sum(r[6] for r in rs)}/{len(rs)} | {fmt(statistics.median(r[7] for r in rs))} | {fmt(max(r[7] for r in rs))} | {above} |")


if __name__ == "__main__":
    main()
