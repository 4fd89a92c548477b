"""Per-call overhead of kiln.InferenceSession.run against onnxruntime's, and
host <-> device copies against a numpy copy of the same bytes, timed in the
same process (a benchmark, not a test).

    python python/bench/overhead.py [--calls N] [--mib M]

Prints medians (over N calls, kiln and onnxruntime alternating in rounds
so that both see the same machine load) and the ratios, of wall-clock time
and of the process's CPU time (all its threads: lavapipe's included), the
steadier of the two on a loaded machine. The tiny model is one Add of two
float32[1, 16]; a session replays a recording of its dispatches from the
second run with the same shapes, so the warm-up leaves every timed call a
replay. The device's floor is printed too, measured in the same run: one
tiny dispatch submitted and waited for, through kiln's stream and through
a plain vkQueueSubmit + fence loop with no kiln code (`kiln bench`'s
dispatch overhead). On lavapipe that floor (43 us on a quiet 2-core
machine, 66-131 us on the loaded one, where a call took 115 us against
onnxruntime's ~10-20 us) is above onnxruntime's whole call: most of it is
lavapipe handing the work to its queue thread and compute workers and
back. Use an optimised build of the wheel for figures: the
README's were measured with kiln's crates, PyO3 and ash at opt-level 3 over
the dev build's dependencies (a full `--release` build of SPIRV-Tools and
kiln-core did not fit the 2-core machine's time):

    cd python && maturin build --profile dev -o /tmp/w \
      $(for p in kiln-runtime kiln-vulkan kiln-onnx kiln-python pyo3 ash gpu-allocator; \
        do echo --config profile.dev.package.$p.opt-level=3; done)
"""

import argparse
import statistics
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

import kiln
import onnxruntime as ort


def tiny_model():
    g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"])],
        "tiny",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 16]),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 16]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m.SerializeToString()


def interleaved(fns, calls, rounds=10):
    """Median wall and CPU seconds per call of each of `fns`, alternating
    rounds of calls."""
    wall = [[] for _ in fns]
    cpu = [[] for _ in fns]
    per_round = max(1, calls // rounds)
    for _ in range(rounds):
        for i, f in enumerate(fns):
            for _ in range(per_round):
                w0, c0 = time.perf_counter(), time.process_time()
                f()
                wall[i].append(time.perf_counter() - w0)
                cpu[i].append(time.process_time() - c0)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(wall, cpu)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--mib", type=int, default=16)
    ap.add_argument("--copies", type=int, default=30)
    ap.add_argument("--floor-runs", type=int, default=200)
    args = ap.parse_args()

    data = tiny_model()
    feed = {
        "a": np.random.rand(1, 16).astype(np.float32),
        "b": np.random.rand(1, 16).astype(np.float32),
    }
    ks = kiln.InferenceSession(data)
    os_ = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(ks.run(None, feed)[0], os_.run(None, feed)[0], rtol=1e-6)
    for _ in range(50):  # warm up both
        ks.run(None, feed)
        os_.run(None, feed)
    (kw, kc), (ow, oc) = interleaved(
        [lambda: ks.run(None, feed), lambda: os_.run(None, feed)], args.calls
    )
    print(f"InferenceSession.run, Add of 2 x float32[1,16], median of {args.calls} calls:")
    print(f"  wall: kiln {kw * 1e6:8.1f} us   onnxruntime {ow * 1e6:8.1f} us   kiln/ort {kw / ow:5.2f}x")
    print(f"  cpu:  kiln {kc * 1e6:8.1f} us   onnxruntime {oc * 1e6:8.1f} us   kiln/ort {kc / oc:5.2f}x")
    if hasattr(kiln._kiln, "_dispatch_floor"):
        # The device's own floor under a call, measured now: one tiny
        # dispatch submitted and waited for, through kiln's stream and
        # through a plain vkQueueSubmit + fence loop with no kiln code.
        stream_one, direct_one = kiln._kiln._dispatch_floor(args.floor_runs, ks.device)
        print(f"  floor: one dispatch end to end {stream_one * 1e6:.1f} us (kiln's stream), "
              f"{direct_one * 1e6:.1f} us (direct vkQueueSubmit loop); "
              f"kiln/floor {kw / direct_one:4.2f}x")

    n = args.mib * (1 << 20) // 4
    a = np.random.rand(n).astype(np.float32)
    t = kiln.asarray(a, copy=True)  # a tensor of its own: numpy.asarray copies it
    assert np.array_equal(np.asarray(t), a)
    shared = kiln.asarray(a).host_pointer is not None
    (uw, uc), (sw, sc), (dw, dc), (cw, cc) = interleaved(
        [
            lambda: kiln.asarray(a, copy=True),
            lambda: kiln.asarray(a),
            lambda: np.asarray(t),
            lambda: a.copy(),
        ],
        args.copies,
        rounds=args.copies,
    )
    print(f"{args.mib} MiB float32, median of {args.copies} (wall, cpu):")
    print(f"  numpy copy                {cw * 1e3:7.2f} ms {cc * 1e3:7.2f} ms")
    print(f"  kiln.asarray(copy=True)   {uw * 1e3:7.2f} ms {uc * 1e3:7.2f} ms   speed {cw / uw:4.2f}x, {cc / uc:4.2f}x numpy's")
    how = "shared, no copy" if shared else "copied: the device cannot import host memory"
    print(f"  kiln.asarray ({how}) {sw * 1e3:7.3f} ms {sc * 1e3:7.3f} ms   speed {cw / sw:5.1f}x, {cc / max(sc, 1e-9):5.1f}x numpy's")
    print(f"  numpy.asarray(t)          {dw * 1e3:7.2f} ms {dc * 1e3:7.2f} ms   speed {cw / dw:4.2f}x, {cc / dc:4.2f}x numpy's")

if __name__ == "__main__":
    main()
