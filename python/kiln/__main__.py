"""``python -m kiln devices|run|bench``, mirroring the CLI.

    python -m kiln devices
    python -m kiln run MODEL.onnx [--input NAME=FILE.npy]... [--output-dir DIR]
    python -m kiln bench MODEL.onnx [--runs N]   # inputs of ones (symbolic dims: 1)
"""

import argparse
import os
import sys
import time

import numpy as np

import kiln


def _feed(sess, specs):
    feed = {}
    for s in specs or []:
        name, _, path = s.partition("=")
        feed[name] = np.load(path)
    for i in sess.get_inputs():
        if i.name not in feed:
            shape = [d if isinstance(d, int) else 1 for d in i.shape]
            dt = i.type[len("tensor("):-1]
            dt = {"float": "float32", "double": "float64"}.get(dt, dt)
            feed[i.name] = np.ones(shape, dtype=dt)
    return feed


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m kiln")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("devices", help="list the Vulkan devices")
    r = sub.add_parser("run", help="run an ONNX model; print each output")
    r.add_argument("model")
    r.add_argument("--input", action="append", metavar="NAME=FILE.npy")
    r.add_argument("--output-dir")
    b = sub.add_parser("bench", help="time InferenceSession.run")
    b.add_argument("model")
    b.add_argument("--input", action="append", metavar="NAME=FILE.npy")
    b.add_argument("--runs", type=int, default=100)
    a = p.parse_args(argv)
    try:
        if a.cmd == "devices":
            for d in kiln.devices():
                print(f"{d['index']}: {d['name']} ({d['device_type']}, Vulkan {d['api_version']}, "
                      f"{d['driver_name'] or '?'} {d['driver_info'] or ''})".rstrip())
            return 0
        sess = kiln.InferenceSession(a.model)
        feed = _feed(sess, a.input)
        if a.cmd == "run":
            outs = sess.run(None, feed)
            for o, v in zip(sess.get_outputs(), outs):
                line = f"{o.name}: {'x'.join(map(str, v.shape))}x{v.dtype}"
                if a.output_dir:
                    os.makedirs(a.output_dir, exist_ok=True)
                    f = os.path.join(a.output_dir, f"{o.name}.npy")
                    np.save(f, v)
                    line += f" -> {f}"
                elif v.size <= 64:
                    line += f" = {v.ravel().tolist()}"
                print(line)
            return 0
        sess.run(None, feed)  # warm-up
        t = time.perf_counter()
        for _ in range(a.runs):
            sess.run(None, feed)
        dt = (time.perf_counter() - t) / a.runs
        print(f"{a.runs} runs: {dt * 1e3:.3f} ms per run")
        return 0
    except (kiln.Error, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
