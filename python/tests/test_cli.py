"""python -m kiln devices|run|bench, and the torch.compile backend."""

import subprocess
import sys

import numpy as np
import pytest


def _kiln(*args):
    return subprocess.run([sys.executable, "-m", "kiln", *args], capture_output=True, text=True)


def test_devices():
    r = _kiln("devices")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("0: ")


def test_run_and_bench(model_dir, tmp_path):
    img = np.random.default_rng(0).random((1, 3, 16, 16), dtype=np.float32)
    np.save(tmp_path / "img.npy", img)
    r = _kiln("run", str(model_dir / "cnn.onnx"), "--input", f"img={tmp_path / 'img.npy'}",
              "--output-dir", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("out: 1x10xfloat32 -> ")
    import onnxruntime as ort

    want = ort.InferenceSession(str(model_dir / "cnn.onnx"), providers=["CPUExecutionProvider"]).run(None, {"img": img})[0]
    np.testing.assert_allclose(np.load(tmp_path / "out" / "out.npy"), want, rtol=1e-4, atol=1e-5)
    r = _kiln("bench", str(model_dir / "cnn.onnx"), "--runs", "3")
    assert r.returncode == 0 and "ms per run" in r.stdout, r.stderr
    r = _kiln("run", str(tmp_path / "img.npy"))
    assert r.returncode == 1 and r.stderr.startswith("error: "), r.stderr


def test_torch_compile_backend():
    torch = pytest.importorskip("torch", reason="torch is not installed here (3 GB): skipped")
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU())
    x = torch.randn(2, 4)
    compiled = torch.compile(model, backend="kiln")
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
