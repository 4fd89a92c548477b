#!/usr/bin/env python3
"""Real pretrained ONNX models run by kiln, checked against onnxruntime.

The models come from two small wheels on PyPI (pinned, downloaded with
`pip download --no-deps`, nothing committed): PP-OCR's text detector,
recogniser and direction classifier (rapidocr-onnxruntime 1.4.4,
Apache-2.0) and Magika's file-type model (magika 1.0.3, Apache-2.0).
Their inputs are made the way the models' own packages make them: an OCR
image of dark text-like strokes on a light page (generated with numpy,
normalised as rapidocr's config says), and for Magika the first and last
1,024 bytes of a real file, stripped of whitespace and padded with token
256 as magika's preprocessing does.

    real_models.py fetch CACHE            # wheels -> CACHE/*.onnx
    real_models.py inputs CACHE           # inputs and onnxruntime's outputs
    real_models.py check KILN CACHE [--engine device|cpu|reference]...
                                          # one line of max error per model
    real_models.py bench KILN CACHE OUT.md [--only=M,...] [kiln bench flags...]
                                          # `kiln bench` per model -> a table

`check` runs `KILN run MODEL.onnx --input x=@in.npy --output-dir D` per
model and engine and compares each output with onnxruntime's, with a
tolerance relative to the output's scale: max |kiln - ort| <= 1e-3 *
max(1, max |ort|) (f32 accumulation orders differ between the two). It
exits 1 if any model fails on any engine.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np

WHEELS = {
    "rapidocr_onnxruntime==1.4.4": {
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx": "ocr_det.onnx",
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx": "ocr_rec.onnx",
        "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx": "ocr_cls.onnx",
    },
    "magika==1.0.3": {
        "magika/models/standard_v3_3/model.onnx": "magika.onnx",
    },
}

# Model -> its input shape in NCHW (OCR) or its token count (Magika).
OCR_SHAPES = {
    # rapidocr resizes the page so sides are multiples of 32.
    "ocr_det": (1, 3, 96, 160),
    # One text line, rec_img_shape [3, 48, 320].
    "ocr_rec": (1, 3, 48, 320),
    # cls_image_shape [3, 48, 192].
    "ocr_cls": (1, 3, 48, 192),
}
MODELS = ["ocr_cls", "ocr_rec", "ocr_det", "magika"]

# Relative tolerance: of the output's scale (max |ort|, at least 1).
RTOL = 1e-3


def fetch(cache):
    """Downloads the pinned wheels (no dependencies) and extracts the models."""
    os.makedirs(cache, exist_ok=True)
    for spec, members in WHEELS.items():
        if all(os.path.exists(os.path.join(cache, f)) for f in members.values()):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                 "--disable-pip-version-check", "--only-binary=:all:",
                 "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64",
                 "--platform", "any", spec, "-d", tmp],
                check=True,
            )
            (wheel,) = [f for f in os.listdir(tmp) if f.endswith(".whl")]
            with zipfile.ZipFile(os.path.join(tmp, wheel)) as z:
                for member, name in members.items():
                    dst = os.path.join(cache, name)
                    with open(dst + ".part", "wb") as f:
                        f.write(z.read(member))
                    os.replace(dst + ".part", dst)


def text_page(h, w, rng):
    """An RGB uint8 page: dark glyph-like strokes in lines on light paper."""
    img = np.full((h, w, 3), 235, np.float32) + rng.normal(0, 4, (h, w, 3))
    line_h = max(12, h // 3) if h <= 64 else 24
    y = 4
    while y + line_h <= h - 2:
        x = 6
        while x < w - 12:
            gw = int(rng.integers(5, 10))  # one glyph's box
            for _ in range(int(rng.integers(2, 4))):  # its strokes
                if rng.random() < 0.5:  # vertical stroke
                    cx = x + int(rng.integers(0, gw))
                    y0 = y + int(rng.integers(0, line_h // 3))
                    y1 = y + line_h - int(rng.integers(0, line_h // 3))
                    img[y0:y1, cx:cx + 2] = 25
                else:  # horizontal stroke
                    cy = y + int(rng.integers(2, line_h - 2))
                    x1 = x + int(rng.integers(gw // 2, gw + 1))
                    img[cy:cy + 2, x:x1] = 25
            x += gw + int(rng.integers(2, 4))
            if rng.random() < 0.12:  # a space between words
                x += 8
        y += line_h + 6
    return np.clip(img, 0, 255).astype(np.uint8)


def ocr_input(name, rng):
    n, c, h, w = OCR_SHAPES[name]
    page = text_page(h, w, rng).astype(np.float32)
    # rapidocr's NormalizeImage: (x / 255 - mean) / std, mean = std = 0.5.
    x = (page / 255.0 - 0.5) / 0.5
    return x.transpose(2, 0, 1)[None].astype(np.float32).repeat(n, 0)


def magika_input(path, beg=1024, end=1024, block=4096, pad=256):
    """magika 1.0.3's features for one file: first and last blocks, stripped."""
    with open(path, "rb") as f:
        data = f.read()
    head = data[:block].lstrip()[:beg]
    tail = data[-block:].rstrip()[-end:] if data else b""
    b = list(head) + [pad] * (beg - len(head))
    e = [pad] * (end - len(tail)) + list(tail)
    return np.array([b + e], np.int32)


def inputs(cache):
    """Writes CACHE/NAME.in.npy and onnxruntime's CACHE/NAME.ort.npy."""
    import onnxruntime as ort

    rng = np.random.default_rng(33)
    for name in MODELS:
        if name == "magika":
            # A real file: this script's own source (magika says "python").
            x = magika_input(os.path.abspath(__file__))
        else:
            x = ocr_input(name, rng)
        np.save(os.path.join(cache, f"{name}.in.npy"), x)
        sess = ort.InferenceSession(os.path.join(cache, f"{name}.onnx"),
                                    providers=["CPUExecutionProvider"])
        (inp,) = sess.get_inputs()
        (y,) = sess.run(None, {inp.name: x})
        np.save(os.path.join(cache, f"{name}.ort.npy"), y)
        meta = {"input": inp.name}
        with open(os.path.join(cache, f"{name}.json"), "w") as f:
            json.dump(meta, f)


def input_name(cache, name):
    with open(os.path.join(cache, f"{name}.json")) as f:
        return json.load(f)["input"]


def check(kiln, cache, engines):
    failed = 0
    for name in MODELS:
        ref = np.load(os.path.join(cache, f"{name}.ort.npy"))
        scale = max(1.0, float(np.abs(ref).max()))
        for engine in engines:
            with tempfile.TemporaryDirectory() as out:
                cmd = [kiln, "run", os.path.join(cache, f"{name}.onnx"),
                       "--input", f"{input_name(cache, name)}=@{cache}/{name}.in.npy",
                       "--output-dir", out]
                if engine != "device":
                    cmd.append(f"--{engine}")
                t0 = time.monotonic()
                u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                r = subprocess.run(cmd, capture_output=True, text=True)
                secs = time.monotonic() - t0
                u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime)
                outs = [f for f in os.listdir(out) if f.endswith(".npy")]
                if r.returncode != 0 or len(outs) != 1:
                    failed += 1
                    msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
                    print(f"FAIL {name} {engine}: exit {r.returncode}: "
                          f"{msg[-1] if msg else ''}")
                    continue
                got = np.load(os.path.join(out, outs[0]))
            if got.shape != ref.shape:
                failed += 1
                print(f"FAIL {name} {engine}: shape {got.shape}, ort {ref.shape}")
                continue
            err = float(np.abs(got.astype(np.float64) - ref).max())
            ok = err <= RTOL * scale and np.isfinite(got).all()
            failed += not ok
            argmax = ""
            if name in ("ocr_cls", "magika"):
                same = (got.reshape(got.shape[0], -1).argmax(-1)
                        == ref.reshape(ref.shape[0], -1).argmax(-1)).all()
                argmax = f", same class {bool(same)}"
            print(f"{'PASS' if ok else 'FAIL'} {name} {engine}: "
                  f"max |kiln - ort| {err:.3g} (scale {scale:.3g}, "
                  f"tolerance {RTOL * scale:.3g}){argmax}, {secs:.1f} s "
                  f"({cpu:.1f} s CPU)")
            sys.stdout.flush()
    return failed


def bench(kiln, cache, out, flags):
    """`kiln bench MODEL.onnx --json` per model, written as a markdown table."""
    rows = []
    meta = None
    only = [f.split("=", 1)[1].split(",") for f in flags if f.startswith("--only=")]
    flags = [f for f in flags if not f.startswith("--only=")]
    for name in only[0] if only else MODELS:
        cmd = [kiln, "bench", os.path.join(cache, f"{name}.onnx"),
               "--input", f"@{cache}/{name}.in.npy", "--json"] + flags
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            rows.append(f"| {name} | failed: {r.stderr.strip().splitlines()[-1:]} | | | | |")
            continue
        j = json.loads(r.stdout)
        meta = j
        cols = {c["label"].split(" ")[0]: c for c in j["columns"]}

        def cell(key):
            c = next((v for k, v in cols.items() if k.startswith(key)), None)
            if c is None:
                return "?"
            if "error" in c:
                return c["error"].splitlines()[0][:60]
            return f"{c['median_ms']:.2f}"

        k = cols["kiln"].get("median_ms")
        o = cols["onnxruntime"].get("median_ms")
        ratio = f"{o / k:.3f}" if k and o else ""
        diff = j["max_abs_diff_vs_onnxruntime"]
        diff = f"{diff:.2g}" if isinstance(diff, float) else diff
        shape = "x".join(map(str, np.load(f"{cache}/{name}.in.npy").shape))
        rows.append(f"| {name} ({shape}) | {cell('kiln')} | {cell('onnxruntime')} | "
                    f"{cell('IREE')} | {ratio} | {diff} | {j['compile_ms'] / 1e3:.1f} |")
        print(rows[-1], flush=True)
    head = [
        "# Real ONNX models: kiln beside onnxruntime and IREE",
        "",
        "`python3 onnx/tests/real_models.py bench KILN CACHE bench/onnx_models.md` "
        "(after `ci/real_models.sh --fetch`): `kiln bench MODEL.onnx` per model, "
        "in one run on one machine. Median wall-clock ms per call after a warm-up, "
        "inputs from the host and outputs read back; kiln through "
        "`kiln_onnx::Session` on the device, onnxruntime's CPU provider (default "
        "threads) in a Python subprocess, IREE's Vulkan backend through "
        "`iree-import-onnx` (input shapes fixed, opset upgraded to 17), "
        "`iree-compile` and `iree-benchmark-module`. `ort/kiln` is kiln's speed "
        "as a fraction of onnxruntime's; the max difference is kiln's first "
        "output against onnxruntime's.",
        "",
    ]
    if meta:
        head += [f"Device: {meta['device']}; {meta['runs']} runs; {meta['load']}.", ""]
    head += [
        "| model (input) | kiln device ms | onnxruntime CPU ms | IREE Vulkan ms | ort/kiln | max abs diff | kiln compile s |",
        "|---|---|---|---|---|---|---|",
    ]
    with open(out, "w") as f:
        f.write("\n".join(head + rows) + "\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "fetch":
        fetch(sys.argv[2])
    elif cmd == "inputs":
        inputs(sys.argv[2])
    elif cmd == "bench":
        bench(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif cmd == "check":
        kiln, cache = sys.argv[2], sys.argv[3]
        engines = [a.split("=", 1)[1] for a in sys.argv[4:] if a.startswith("--engine=")]
        sys.exit(1 if check(kiln, cache, engines or ["device", "cpu", "reference"]) else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
