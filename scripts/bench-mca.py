#!/usr/bin/env python3
"""`course mca` against the llvm-mca its model names, whole processes, on
ten loops of the real-code corpus (tests/data/mca-real/): CPU time (user +
system, the least of RUNS runs) of the same command at ITERATIONS
iterations, and whether the two reports are byte-equal.

    scripts/bench-mca.py [--course PATH] [--model skylake] [--iterations 1000000]
                         [--runs 1] [--count 10]

The loops are the first COUNT of the model's corpus file (in file order)
that its llvm-mca accepts, so a rerun measures the same inputs. Prints a
Markdown table for BENCHMARKS.md.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "mca-corpus"))
import compare  # noqa: E402  (regions, accepted models, model table)


def cpu(cmd, runs):
    """The least user+system seconds of `runs` runs of cmd, and its output."""
    best, out = None, None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = t if best is None else min(best, t)
        out = p.stdout
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--course", default=os.path.join(ROOT, "target/release/course"))
    ap.add_argument("--model", default="skylake")
    ap.add_argument("--iterations", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--count", type=int, default=10)
    args = ap.parse_args()
    folder, triple, llvm, cpu_name = compare.MODELS[args.model]
    path = os.path.join(ROOT, "tests/data/mca-real", folder, "loops.s")
    comment = "#" if folder == "x86-64" else "//"
    regions = compare.regions(path, comment)
    ok = compare.accepted(os.path.join(ROOT, "tests/data/mca-real", folder, "index.tsv"))
    chosen = [(rid, text) for rid, text in regions.items() if args.model in ok.get(rid, ())][:args.count]
    flags = [f"-iterations={args.iterations}"]
    print(f"| loop | instructions | llvm-mca | course | ratio | equal |")
    print("|---|---|---|---|---|---|")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for rid, text in chosen:
            f = os.path.join(tmp, "loop.s")
            with open(f, "w") as fh:
                fh.write(text)
            t_llvm, o_llvm = cpu([llvm, f"-mtriple={triple}", f"-mcpu={cpu_name}", *flags, f], args.runs)
            t_course, o_course = cpu([args.course, "mca", f"-mtriple={triple}", f"-mcpu={args.model}",
                                      *flags, f], args.runs)
            n = sum(1 for l in text.splitlines() if l.strip() and not l.strip().startswith((comment, ".")) and
                    not l.rstrip().endswith(":"))
            ratio = t_llvm / max(t_course, 1e-3)
            ratios.append(ratio)
            print(f"| `{rid}` | {n} | {t_llvm:.2f} s | {t_course * 1000:.1f} ms | {ratio:,.0f}× | "
                  f"{'yes' if o_llvm == o_course else 'no'} |", flush=True)
    if ratios:
        ratios.sort()
        print(f"\nmedian ratio {ratios[len(ratios) // 2]:,.0f}×, least {ratios[0]:,.0f}×")


if __name__ == "__main__":
    main()
