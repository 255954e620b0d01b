"""This checkout's game against an older commit's, side by side in one run.

Run: python bench/bench_versus.py [--commit e77d4ca] [--rows mjcg-card-greedy,...]
                                  [--scale 1.0] [--logs] [--keep DIR] [--no-accel]

The older commit is checked out into a temporary git worktree (its C
accelerator built in place, as an install builds it), and every row's
matches are played by bench/versus_worker.py in a process of their own for
each side, this checkout and the commit in turn, on the same seeds. For each
row it prints both sides' rounds a second (CPU time of the matches alone,
the matcher warmed first), the ratio, the goal, and whether every match's
digest (its actions in order, its scores, its final state) is the same on
both sides; the peak RSS of each side's process and the CPU seconds of its
matches beside. `--logs` also writes
one seeded match's log of every shipped variant and player count, guarded
and strict, on each side, and says whether they are byte for byte the same. `--no-accel` plays both
sides without the C accelerator, as on a machine without a C compiler (the
commit's is not built, this checkout's is left unused through
JONGG_NO_ACCEL=1), and checks that neither side ran one. Each row ends with
the machine's load average (one minute) when it was done.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).resolve().parent / "versus_worker.py"

# name: (variant, players, agents, matches, goal as a ratio over the commit)
ROWS = {
    "mjcg-card-greedy": ("mjcg-card", 4, "greedy", 8, 10.0),
    "imperial-siamese-random": ("imperial-siamese", 4, "random", 4, 10.0),
    "siamese-greedy": ("siamese", 2, "greedy", 4, 10.0),
    "mjcg-advanced-random": ("mjcg-advanced", 4, "random", 16, 10.0),
    "nymj-greedy": ("nymj", 4, "greedy", 8, 10.0),
    "mjcg-card-expert": ("mjcg-card", 4, "expert", 2, 5.0),
}


def checkout(commit: str, folder: Path, accel: bool = True) -> Path:
    """A worktree of `commit` in `folder`, its accelerator built in place
    (unless not `accel`)."""
    tree = folder / ("reference" if accel else "reference-python")
    if (tree / ".git").exists():  # kept from an earlier run (--keep)
        return tree
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                   check=True, capture_output=True)
    if not accel:
        return tree
    # the same flags as an install's build of the accelerator (setup.py)
    source = tree / "runtime" / "matching" / "_fold.c"
    built = source.with_name("_fold" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    flags = f"{sysconfig.get_config_var('CFLAGS')} {sysconfig.get_config_var('CCSHARED')}"
    subprocess.run([str(sysconfig.get_config_var("CC")).split()[0], *flags.split(), "-shared",
                    f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(built)],
                   check=True, capture_output=True)
    return tree


def remove(tree: Path) -> None:
    """The commit's worktree gone (git forgets it too)."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                   check=False, capture_output=True)


def side(root: Path, *args: str, accel: bool = True) -> dict[str, object]:
    """Run the worker against the jongg of `root`, and check it was that one
    (and that it ran with the accelerator, or without it, as asked)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("JONGG_NO_ACCEL", None)
    if not accel and root == ROOT:
        env["JONGG_NO_ACCEL"] = "1"
    done = subprocess.run([sys.executable, str(WORKER), *args], cwd=root, env=env,
                          check=True, capture_output=True, text=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    found = Path(str(result["jongg"])).resolve()
    if not found.is_relative_to(root.resolve()):
        raise SystemExit(f"the worker for {root} ran the jongg of {found}")
    if "accelerated" in result and result["accelerated"] != accel:
        raise SystemExit(f"the worker for {root} ran {'without' if accel else 'with'} "
                         "the C accelerator")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commit", default="e77d4ca")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--scale", type=float, default=1.0, help="times each row's matches")
    parser.add_argument("--mode", default="guarded", choices=("guarded", "strict"))
    parser.add_argument("--logs", action="store_true",
                        help="compare every shipped variant's seeded logs, guarded and strict")
    parser.add_argument("--keep", type=Path, help="keep the commit's worktree here")
    parser.add_argument("--no-accel", action="store_true",
                        help="both sides without the C accelerator (as with no C compiler)")
    args = parser.parse_args()
    accel = not args.no_accel
    folder = Path(tempfile.mkdtemp(prefix="jongg-versus-")) if args.keep is None else args.keep
    tree = checkout(args.commit, folder, accel)
    try:
        print(f"this checkout ({ROOT}) against {args.commit}; CPU time, one process a side, "
              f"{'with' if accel else 'without'} the C accelerator; load average "
              f"{os.getloadavg()[0]:.1f}")
        print(f"{'row':<26} {'matches':>7} {'rounds':>6} {args.commit + ' r/s':>12} "
              f"{'this r/s':>9} {'ratio':>6} {'goal':>5} {'digests':>8} {'RSS MB':>11} "
              f"{'CPU s':>11} {'load':>5}")
        for name in filter(None, args.rows.split(",")):
            variant, players, agents, matches, goal = ROWS[name]
            count = max(1, round(matches * args.scale))
            play = ("play", variant, str(players), agents, "0", str(count), args.mode)
            old, new = side(tree, *play, accel=accel), side(ROOT, *play, accel=accel)
            rates = [float(str(s["rounds"])) / float(str(s["seconds"])) for s in (old, new)]
            same = old["digests"] == new["digests"] and old["rounds"] == new["rounds"]
            print(f"{name:<26} {count:>7} {old['rounds']!s:>6} {rates[0]:>12.1f} "
                  f"{rates[1]:>9.1f} {rates[1] / rates[0]:>5.1f}x {goal:>4.0f}x "
                  f"{'same' if same else 'DIFFER':>8} "
                  f"{float(str(old['rss_mb'])):>5.0f}/{float(str(new['rss_mb'])):<5.0f} "
                  f"{float(str(old['seconds'])):>5.1f}/{float(str(new['seconds'])):<5.1f} "
                  f"{os.getloadavg()[0]:>5.1f}", flush=True)
        if args.logs:
            logs = [folder / "logs-old", folder / "logs-new"]
            for root, out in zip((tree, ROOT), logs, strict=True):
                shutil.rmtree(out, ignore_errors=True)
                out.mkdir()
                side(root, "logs", str(out), accel=accel)
            names = sorted(p.name for p in logs[0].iterdir())
            differ = [n for n in names if not filecmp.cmp(logs[0] / n, logs[1] / n,
                                                          shallow=False)]
            print(f"seeded logs, every shipped variant and player count, guarded and strict: "
                  f"{len(names) - len(differ)} of {len(names)} byte for byte the same"
                  + (f"; differ: {', '.join(differ)}" if differ else ""))
    finally:
        if args.keep is None:
            remove(tree)


if __name__ == "__main__":
    main()
