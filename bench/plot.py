"""Plots of a combined kiln / CuPy results file (bench/cupy_compare.py writes it):

    python3 bench/plot.py bench/results/<device>-<date>-combined.json

<stem>-speedup.png: speedup over the Kokkos CPU reference per workload, kiln beside CuPy (log
scale). <stem>-bandwidth.png: effective bandwidth as a fraction of each run's device-to-device
copy bandwidth, per workload that moves memory, kiln beside CuPy.
"""
import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file-only backend)

KILN_COLOR = "#d95f02"
CUPY_COLOR = "#1b9e77"


def paired_bars(rows, key, title, ylabel, path, log=False, reference_line=None):
    rows = [r for r in rows if r["kiln"].get(key) is not None or r["cupy"].get(key) is not None]
    if not rows:
        print(f"nothing to plot for {path.name}")
        return
    names = [r["name"] for r in rows]
    kiln = [r["kiln"].get(key) or 0 for r in rows]
    cupy = [r["cupy"].get(key) or 0 for r in rows]
    width = 0.4
    positions = range(len(rows))
    fig, axes = plt.subplots(figsize=(max(8, 0.45 * len(rows) + 2), 5.5))
    axes.bar([p - width / 2 for p in positions], kiln, width, label="kiln", color=KILN_COLOR)
    axes.bar([p + width / 2 for p in positions], cupy, width, label="CuPy", color=CUPY_COLOR)
    if reference_line is not None:
        axes.axhline(reference_line, color="gray", linewidth=0.8, linestyle="--")
    if log:
        axes.set_yscale("log")
    axes.set_xticks(list(positions))
    axes.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("combined", help="the -combined.json file of bench/cupy_compare.py")
    args = parser.parse_args()
    path = Path(args.combined)
    combined = json.loads(path.read_text())
    system = combined["system"]
    rows = [r for r in combined["workloads"] if r["name"] != "copy_d2d_f32_1GiB"]
    stem = str(path.with_suffix("")).removesuffix("-combined")
    device = f"{system['device']}, {system['date']}"
    paired_bars(rows, "speedup_over_kokkos",
                f"Speedup over the Kokkos CPU reference ({system['kokkos_execution_space']}, "
                f"{system['kokkos_concurrency']} thread(s)); {device}",
                "CPU time / GPU time", Path(f"{stem}-speedup.png"), log=True, reference_line=1)
    memory_rows = [r for r in rows if r["bound"] == "memory"]
    paired_bars(memory_rows, "copy_fraction",
                f"Effective bandwidth / device-to-device copy bandwidth; {device}",
                "fraction of copy bandwidth", Path(f"{stem}-bandwidth.png"), reference_line=1)


if __name__ == "__main__":
    main()
