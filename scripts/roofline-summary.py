#!/usr/bin/env python3
"""Summarises a bench-suite.sh output folder against issue 9's targets: per filter family and pixel
layout, the best variant's kernel time and share of the device's copy bandwidth, OpenCV's CPU and
T-API times from the same run (filter-bench's opencv_cpu / opencv_tapi rows, else the Python cv2
figures of scripts/opencv-baseline.py), and the default launch at an odd image size against the
even one.

  scripts/roofline-summary.py OUTDIR
"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def median(v):
    return v["median"] if isinstance(v, dict) else v


def key_params(r):
    p = r.get("params") or {}
    return ",".join(f"{k}={p[k]:g}" for k in sorted(p))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    python_ocv = load(os.path.join(out, "opencv-python.json"))
    lines = []
    for fmt in ("gray8", "rgba8888"):
        run = load(os.path.join(out, f"all-{fmt}.json"))
        if not run:
            continue
        extra = load(os.path.join(out, f"median-{fmt}.json"))  # medians with the border OpenCV has
        if extra:
            run["results"] = run["results"] + extra["results"]
        copy = run.get("copy_gbps") or 0
        device = run.get("device", {}).get("name", "?")
        lines.append(f"\n## {fmt}, {run['image']['width']}x{run['image']['height']} on {device} "
                     f"(copy bandwidth {copy:.0f} GB/s)\n")
        lines.append("| filter | params | best variant | ms | % copy bw | opencv_cpu ms | opencv_tapi ms | "
                     "x vs T-API | x vs fastest CPU |")
        lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
        groups = {}
        for r in run["results"]:
            groups.setdefault((r["filter"], key_params(r) + ("" if r.get("border") in (None, "reflect101")
                                                            else f" {r['border']}")), []).append(r)
        for (flt, params), rows in groups.items():
            ours = [r for r in rows if not r.get("baseline") and not r.get("error") and r.get("matches")]
            if not ours:
                continue
            best = min(ours, key=lambda r: median(r["kernel_ms"]))
            ms = median(best["kernel_ms"])
            pct = 100.0 * best.get("gbps", 0) / copy if copy else 0
            base = {r["variant"]: r for r in rows if r.get("baseline") and not r.get("error")}
            cpu = base.get("opencv_cpu", {}).get("kernel_ms")
            tapi = base.get("opencv_tapi", {}).get("kernel_ms")
            if python_ocv and (cpu is None or tapi is None):
                for p in python_ocv.get("results", []):
                    pkey = " replicate" if p["params"].startswith("border") else p["params"]
                    if p["filter"] == flt and p["format"] == fmt and pkey == params:
                        cpu = cpu if cpu is not None else p.get("opencv_cpu_ms")
                        tapi = tapi if tapi is not None else p.get("opencv_tapi_ms")
            cpu_ms = median(cpu) if cpu is not None else None
            tapi_ms = median(tapi) if tapi is not None else None
            vs_tapi = f"{tapi_ms / ms:.1f}" if tapi_ms else "-"
            fastest = best.get("speedup_vs_cpu")
            lines.append(f"| {flt} | {params} | {best['variant']} | {ms:.4f} | {pct:.0f}% | "
                         f"{cpu_ms if cpu_ms is None else f'{cpu_ms:.3f}'} | "
                         f"{tapi_ms if tapi_ms is None else f'{tapi_ms:.3f}'} | {vs_tapi} | "
                         f"{fastest if fastest is None else f'{fastest:.0f}'} |")
    # The default launch at the odd size against the even one: gray8 (default-even/odd.json) and
    # rgba8888 (default-even/odd-rgba8888.json).
    for suffix, layout in (("", "gray8"), ("-rgba8888", "rgba8888")):
        even = load(os.path.join(out, f"default-even{suffix}.json"))
        odd = load(os.path.join(out, f"default-odd{suffix}.json"))
        if not (even and odd):
            continue
        lines.append(f"\n## Default launch (auto), {layout}: odd image size against the even one\n")
        lines.append("| filter | variant | shape | even ms | odd ms | odd/even |")
        lines.append("|---|---|---|---:|---:|---:|")
        e = {(r["filter"], r["variant"], r.get("format")): r for r in even["results"] if not r.get("error")}
        worst = 0
        for r in odd["results"]:
            k = (r["filter"], r["variant"], r.get("format"))
            if r.get("error") or k not in e or r.get("baseline"):
                continue
            a, b = median(e[k]["kernel_ms"]), median(r["kernel_ms"])
            ratio = b / a if a else 0
            worst = max(worst, ratio)
            lines.append(f"| {k[0]} | {k[1]} | {r.get('local_label', r.get('local'))} | {a:.4f} | {b:.4f} | "
                         f"{ratio:.2f} |")
        lines.append(f"\nworst odd/even ratio, {layout}: {worst:.2f} (target <= 1.25)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
