"""Device memory stays flat over many runs (the runtime's memory report)."""

import gc

import numpy as np

import kiln
import models


def test_no_device_memory_growth_over_1000_runs():
    s = kiln.InferenceSession(models.two_inputs().SerializeToString())
    dev = s.device
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    y = np.array([1, 2, 3], dtype=np.int64)
    for _ in range(20):
        s.run(None, {"x": x, "y": y})
    dev.sync()
    before = dev.memory_report()
    for _ in range(1000):
        (z,) = s.run(None, {"x": x, "y": y})
    dev.sync()
    after = dev.memory_report()
    np.testing.assert_array_equal(z, x * y + 1)
    assert after["in_use"] <= before["in_use"], (before, after)
    assert after["reserved"] <= before["reserved"], (before, after)


def test_closing_sessions_frees_their_weights():
    dev = kiln.Device()
    img = np.zeros((1, 3, 16, 16), np.float32)
    s = kiln.InferenceSession(models.cnn().SerializeToString())
    s.run(None, {"img": img})
    s.close()
    del s
    gc.collect()
    dev.sync()
    base = dev.memory_report()["in_use"]
    for _ in range(5):
        s = kiln.InferenceSession(models.cnn().SerializeToString())
        s.run(None, {"img": img})
        s.close()
        del s
    gc.collect()
    dev.sync()
    assert dev.memory_report()["in_use"] <= base
