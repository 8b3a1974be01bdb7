#!/usr/bin/env python3
"""OpenCV's CPU code and its OpenCL path (T-API, cv2.UMat) on the filters the workbench also has,
for GPU servers where OpenCV's C++ package is missing but Python's cv2 is there (filter-bench's own
opencv_cpu / opencv_tapi rows need the C++ package). Same image size, parameters and border rule as
scripts/bench-suite.sh; median wall time of REPEAT calls after a warm-up, each ended by
cv2.ocl.finish() for the T-API. Prints a table and writes JSON (--json FILE).

  scripts/opencv-baseline.py --size 6720x4480 --repeat 20 --json out.json [--device-name H100]
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import cv2


def filters():
    """(name, params, callable(src, dst_or_None) -> dst) for each filter, OpenCV's equivalent call."""
    r101 = cv2.BORDER_REFLECT_101

    def sobel_abs_x(src):
        return cv2.convertScaleAbs(cv2.Sobel(src, cv2.CV_16S, 1, 0, ksize=3, borderType=r101), alpha=0.25)

    rect3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    rect5 = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    return [
        ("gaussian5x5", "sigma=1", lambda s: cv2.GaussianBlur(s, (5, 5), 1.0, 1.0, borderType=r101)),
        ("gaussian", "sigma=2", lambda s: cv2.GaussianBlur(s, (13, 13), 2.0, 2.0, borderType=r101)),
        ("box", "radius=1", lambda s: cv2.blur(s, (3, 3), borderType=r101)),
        ("box", "radius=10", lambda s: cv2.blur(s, (21, 21), borderType=r101)),
        ("sobel", "output=0", sobel_abs_x),
        ("median3x3", "border=replicate", lambda s: cv2.medianBlur(s, 3)),
        ("median5x5", "border=replicate", lambda s: cv2.medianBlur(s, 5)),
        ("erode", "radius=1", lambda s: cv2.erode(s, rect3, borderType=r101)),
        ("erode", "radius=2", lambda s: cv2.erode(s, rect5, borderType=r101)),
        ("dilate", "radius=1", lambda s: cv2.dilate(s, rect3, borderType=r101)),
        ("transpose", "", lambda s: cv2.transpose(s)),
    ]


def timed(call, src, repeat, warmup, finish):
    samples = []
    for i in range(warmup + repeat):
        t0 = time.perf_counter()
        call(src)
        if finish:
            cv2.ocl.finish()
        if i >= warmup:
            samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples), min(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="6720x4480")
    ap.add_argument("--formats", default="gray8,rgba8888")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    rng = np.random.default_rng(1)
    cv2.ocl.setUseOpenCL(True)
    have_ocl = cv2.ocl.haveOpenCL() and cv2.ocl.useOpenCL()
    device = cv2.ocl.Device.getDefault().name() if have_ocl else ""
    threads = cv2.getNumThreads()
    out = {"opencv": cv2.__version__, "cpu_threads": threads, "cpu_count": os.cpu_count(),
           "tapi_device": device, "image": {"width": w, "height": h}, "results": []}
    print(f"OpenCV {cv2.__version__}: CPU {threads} threads; T-API device: {device or 'none'}; {w}x{h}")
    print(f"{'filter':<12} {'params':<18} {'format':<9} {'cpu ms':>9} {'tapi ms':>9}")
    for fmt in args.formats.split(","):
        channels = {"gray8": 1, "rgba8888": 4, "rgb888": 3}[fmt]
        shape = (h, w) if channels == 1 else (h, w, channels)
        src = rng.integers(0, 256, size=shape, dtype=np.uint8)
        usrc = cv2.UMat(src) if have_ocl else None
        for name, params, call in filters():
            cpu_med, cpu_min = timed(call, src, args.repeat, args.warmup, False)
            row = {"filter": name, "params": params, "format": fmt, "opencv_cpu_ms": cpu_med,
                   "opencv_cpu_min_ms": cpu_min}
            if have_ocl:
                try:
                    tapi_med, tapi_min = timed(call, usrc, args.repeat, args.warmup, True)
                    row.update(opencv_tapi_ms=tapi_med, opencv_tapi_min_ms=tapi_min)
                except cv2.error as e:
                    row["opencv_tapi_error"] = str(e).strip().splitlines()[-1]
            out["results"].append(row)
            tapi = f"{row['opencv_tapi_ms']:9.3f}" if "opencv_tapi_ms" in row else "      n/a"
            print(f"{name:<12} {params:<18} {fmt:<9} {cpu_med:9.3f} {tapi}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
