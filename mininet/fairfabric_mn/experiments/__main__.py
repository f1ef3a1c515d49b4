"""python -m fairfabric_mn.experiments {list | NAME... | all} [--quick] [--out DIR]

Runs each experiment, prints its summary (the paper's figure beside ours) and writes
DIR/NAME.json and DIR/NAME.png. Exit 1 when a run fails or a result's direction is wrong."""

import argparse
import os
import sys
import traceback

from fairfabric_mn import experiments
from fairfabric_mn.experiments.runner import ROOT, progress


def shown(path):
    """path relative to the repository when inside it (results/NAME.json), else absolute."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def main(argv):
    ap = argparse.ArgumentParser(prog="./fairfabric experiment")
    ap.add_argument("names", nargs="+", help="experiment names, 'all' or 'list'")
    ap.add_argument("--quick", action="store_true", help="a short run (<= 2 min each) that checks each result's direction")
    ap.add_argument("--out", help="output directory (default results/, or .run/experiments-quick/ with --quick)")
    args = ap.parse_args(argv)
    if args.names == ["list"]:
        for name in experiments.MODULES:
            m = experiments.load(name)
            print("  %-26s %s%s" % (name, m.SUMMARY, " (Mininet, root)" if m.NEEDS_ROOT else ""))
        return 0
    if args.names[0] == "needs-root":  # for the shell command: exit 0 if any of the names needs root
        names = list(experiments.MODULES) if args.names[1:] == ["all"] else args.names[1:]
        return 0 if any(experiments.load(n).NEEDS_ROOT for n in names if n in experiments.MODULES) else 1
    names = list(experiments.MODULES) if args.names == ["all"] else args.names
    unknown = [n for n in names if n not in experiments.MODULES]
    if unknown:
        sys.stderr.write("fairfabric experiment: unknown experiment %s (known: %s)\n"
                         % (", ".join(unknown), ", ".join(experiments.MODULES)))
        return 2
    out = args.out or (os.path.join(ROOT, ".run", "experiments-quick") if args.quick else os.path.join(ROOT, "results"))
    failed = []
    for name in names:
        m = experiments.load(name)
        if m.NEEDS_ROOT and os.geteuid() != 0:
            sys.stderr.write("fairfabric experiment %s: needs root (Mininet)\n" % name)
            failed.append(name)
            continue
        progress(name, "start%s" % (" (--quick)" if args.quick else ""))
        try:
            res, fig = m.run(quick=args.quick)
        except Exception:
            traceback.print_exc()
            progress(name, "FAILED")
            failed.append(name)
            continue
        js, png = res.write(out, fig)
        res.print_summary()
        print("  wrote %s and %s" % (shown(js), shown(png)))
        if not res.ok:
            failed.append(name)
    if failed:
        print("fairfabric experiment: FAILED: %s" % ", ".join(failed))
        return 1
    print("fairfabric experiment: %d done" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
