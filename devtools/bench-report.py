#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Turn the benchmark JSON files of a results directory into RESULTS.md and
one PNG chart per benchmark.

    devtools/bench-report.py [DIR]      (default: $MBUFX_BENCH_OUT or bench-results)

Every DIR/*.json in the schema of the common brief becomes a section of
DIR/RESULTS.md: a Markdown table (case, metric, mbufx, baseline, ratio, target,
met, note), the run environment (pool sizes, repetitions, ...) and the chart
DIR/<bench>.png. The chart shows, per case, every implementation's performance
relative to the row's baseline (1.0 = baseline, right = better, whatever the
metric), mbufx first, with the target as a black tick.

Needs Debian's python3-matplotlib (run with /usr/bin/python3); without it the
tables are still written and the charts are skipped with a note.
"""

import datetime
import glob
import json
import os
import platform
import subprocess
import sys

MBUFX = "mbufx"


def fmt_num(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        a = abs(v)
        if a >= 100:
            return f"{v:.0f}"
        if a >= 10:
            return f"{v:.1f}"
        return f"{v:.2f}"
    return str(v)


def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def row_ratio(row):
    """The row's ratio (> 1: mbufx better), computed when absent."""
    if row.get("ratio") is not None:
        return float(row["ratio"])
    vals = row.get("values", {})
    base = row.get("baseline")
    m, b = vals.get(MBUFX), vals.get(base)
    if not m or not b:
        return None
    return b / m if row.get("better") == "lower" else m / b


def row_met(row, ratio):
    if "met" in row and row["met"] is not None:
        return bool(row["met"])
    t = row.get("target")
    if t is None or ratio is None:
        return None
    return ratio >= t


def relative(row, key):
    """Performance of values[key] relative to the baseline, > 1 = better."""
    if key == MBUFX and row.get("ratio") is not None:
        return float(row["ratio"])  # from unrounded medians
    vals = row.get("values", {})
    b, v = vals.get(row.get("baseline")), vals.get(key)
    if not b or not v:
        return None
    return b / v if row.get("better") == "lower" else v / b


def table(doc):
    out = ["| case | metric | mbufx | baseline | ratio | target | met | note |",
           "|---|---|---:|---|---:|---:|:---:|---|"]
    for row in doc.get("rows", []):
        vals = row.get("values", {})
        base = row.get("baseline")
        ratio = row_ratio(row)
        met = row_met(row, ratio)
        better = row.get("better", "")
        metric = row.get("metric", "")
        if better:
            metric += " (lower is better)" if better == "lower" else " (higher is better)"
        others = [f"{k} {fmt_num(v)}" for k, v in vals.items() if k not in (MBUFX, base)]
        note = row.get("note", "")
        if others:
            note = "others: " + ", ".join(others) + ("; " + note if note else "")
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} |".format(
            md_escape(row.get("case", "?")), md_escape(metric),
            fmt_num(vals.get(MBUFX)),
            f"{md_escape(base)} {fmt_num(vals.get(base))}" if base else "-",
            f"{ratio:.2f}x" if ratio is not None else "-",
            f"{row['target']:.2f}x" if row.get("target") is not None else "-",
            "-" if met is None else ("yes" if met else "**no**"),
            md_escape(note)))
    return out


def chart(doc, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in doc.get("rows", []) if r.get("baseline") in r.get("values", {})]
    if not rows:
        return False
    keys = []
    for r in rows:
        for k in r["values"]:
            if k not in keys:
                keys.append(k)
    keys = sorted(keys, key=lambda k: (k != MBUFX, keys.index(k)))
    palette = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
               "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e"]
    color = {k: palette[i % len(palette)] for i, k in enumerate(keys)}

    n = len(rows)
    fig_h = 1.2 + n * (0.35 + 0.22 * len(keys))
    fig, ax = plt.subplots(figsize=(12, fig_h))
    allv = []
    for i, r in enumerate(rows):
        y0 = n - 1 - i
        present = [k for k in keys if relative(r, k) is not None]
        bh = 0.8 / max(1, len(present))
        for j, k in enumerate(present):
            v = relative(r, k)
            allv.append(v)
            y = y0 + 0.4 - bh * (j + 0.5)
            ax.barh(y, v, height=bh * 0.9, color=color[k],
                    edgecolor="black" if k == MBUFX else "none", linewidth=0.8)
            ax.text(v, y, f" {v:.2f}", va="center", fontsize=7,
                    bbox=dict(facecolor="white", alpha=0.7, pad=0.3, edgecolor="none"))
        t = r.get("target")
        if t is not None:
            allv.append(t)
            ax.plot([t, t], [y0 - 0.45, y0 + 0.45], color="black", linewidth=2)
    ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(n))
    ax.set_yticklabels([r.get("case", "?") + "\n(vs " + r["baseline"] + ")"
                        for r in reversed(rows)], fontsize=8)
    lo, hi = min(allv + [1.0]), max(allv + [1.0])
    if hi / max(lo, 1e-9) > 8:
        ax.set_xscale("log")
        ax.set_xlim(lo / 1.5, hi * 2.5)
    else:
        # a ratio axis around 1.0: start near the smallest bar, so that the
        # differences that matter (a few percent) stay visible
        ax.set_xlim(max(0.0, int(lo * 0.8 * 10) / 10), hi * 1.15)
    ax.set_xlabel("performance relative to the row's baseline (1.0 = baseline, "
                  "right = better); black tick: target")
    ax.set_title(doc.get("title", doc.get("bench", "")), fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=color[k]) for k in keys]
    ax.legend(handles, keys, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def host_info():
    info = []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info.append(line.split(":", 1)[1].strip())
                    break
    except OSError:
        pass
    info.append(f"{os.cpu_count()} CPUs")
    info.append(f"Linux {platform.release()}")
    try:
        v = subprocess.run(["pkg-config", "--modversion", "libdpdk"],
                           capture_output=True, text=True, check=False).stdout.strip()
        if v:
            info.append(f"DPDK {v}")
    except OSError:
        pass
    try:
        g = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)),
                            "describe", "--always", "--dirty"],
                           capture_output=True, text=True, check=False).stdout.strip()
        if g:
            info.append(f"mbufx {g}")
    except OSError:
        pass
    return ", ".join(info)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MBUFX_BENCH_OUT", "bench-results")
    files = sorted(glob.glob(os.path.join(d, "*.json")))
    if not files:
        print(f"bench-report: no *.json in {d}")
        return 1
    try:
        import matplotlib  # noqa: F401
        have_mpl = True
    except ImportError:
        have_mpl = False
    md = ["# mbufx benchmark results", "",
          f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}; {host_info()}.", "",
          "Ratios are measured side by side in one run, interleaved, medians of the "
          "repetitions; ratio > 1 means mbufx is better (for lower-is-better metrics "
          "ratio = baseline / mbufx). Numbers from a shared 2-vCPU machine are noisy: "
          "compare ratios, not absolute values.", ""]
    if not have_mpl:
        md += ["(python3-matplotlib missing: no charts)", ""]
    summary = []
    for path in files:
        try:
            with open(path) as f:
                doc = json.load(f)
            rows = doc["rows"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            md += [f"## {os.path.basename(path)}", "", f"unreadable: {e}", ""]
            continue
        name = doc.get("bench", os.path.splitext(os.path.basename(path))[0])
        md += [f"## {doc.get('title', name)}", "", f"`{os.path.basename(path)}`", ""]
        md += table(doc)
        md.append("")
        env = doc.get("env", {})
        if env:
            md += [f"- {k}: {md_escape(v)}" for k, v in env.items()]
            md.append("")
        if have_mpl:
            png = os.path.join(d, f"{name}.png")
            try:
                if chart(doc, png):
                    md += [f"![{name}]({name}.png)", ""]
            except Exception as e:  # a chart must never lose the tables
                md += [f"(chart failed: {e})", ""]
        for r in rows:
            ratio = row_ratio(r)
            met = row_met(r, ratio)
            if met is not None:
                summary.append(met)
    if summary:
        md.insert(6, f"Targets met: {sum(summary)} of {len(summary)}.")
        md.insert(7, "")
    out = os.path.join(d, "RESULTS.md")
    with open(out, "w") as f:
        f.write("\n".join(md))
    print(f"bench-report: wrote {out} ({len(files)} benchmark files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
