"""kiln.InferenceSession against onnxruntime (the oracle), in one process."""

import numpy as np
import onnxruntime as ort
import pytest

import kiln
import models


def _both(model, feed, names=None):
    data = model.SerializeToString()
    k = kiln.InferenceSession(data)
    o = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    return k.run(names, feed), o.run(names, feed), k, o


def test_devices_lists_lavapipe():
    devs = kiln.devices()
    assert devs, "no Vulkan device"
    assert any("llvmpipe" in d["name"] or d["device_type"] == "CPU" for d in devs), devs
    d = kiln.Device()
    assert d.name == devs[0]["name"] or d.name in [x["name"] for x in devs]
    assert "#spirv.target_env" in d.target_env or "#spv.target_env" in d.target_env


def test_inputs_and_outputs_as_onnxruntime_describes_them(model_dir):
    path = str(model_dir / "mlp.onnx")
    k = kiln.InferenceSession(path)
    o = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for a, b in [(k.get_inputs(), o.get_inputs()), (k.get_outputs(), o.get_outputs())]:
        assert [(x.name, x.shape, x.type) for x in a] == [(x.name, x.shape, x.type) for x in b]
    assert k.get_inputs()[0].shape == ["batch", 784]
    assert k.get_providers() == ["KilnVulkanExecutionProvider"]


@pytest.mark.parametrize("batch", [1, 5])
def test_mlp_matches_onnxruntime(batch):
    rng = np.random.default_rng(batch)
    x = rng.random((batch, 784), dtype=np.float32)
    got, want, _, _ = _both(models.mlp(), {"x": x})
    assert len(got) == 2
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_output_names_select_and_order():
    x = np.random.default_rng(0).random((2, 784), dtype=np.float32)
    got, want, _, _ = _both(models.mlp(), {"x": x}, ["logits"])
    assert len(got) == 1
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)


def test_cnn_matches_onnxruntime(model_dir):
    img = np.random.default_rng(3).random((1, 3, 16, 16), dtype=np.float32)
    path = str(model_dir / "cnn.onnx")
    got = kiln.InferenceSession(path).run(None, {"img": img})
    want = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"img": img})
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)


def test_int64_inputs_and_broadcast():
    x = np.arange(6, dtype=np.int64).reshape(2, 3) - 2
    y = np.array([3, -1, 7], dtype=np.int64)
    got, want, _, _ = _both(models.two_inputs(), {"x": x, "y": y})
    assert got[0].dtype == np.int64
    np.testing.assert_array_equal(got[0], want[0])


def test_compiled_once_for_static_inputs_once_per_shape_for_symbolic():
    k = kiln.InferenceSession(models.cnn().SerializeToString())
    assert k._sess.compiled_count() == 1  # at construction
    img = np.zeros((1, 3, 16, 16), np.float32)
    for _ in range(3):
        k.run(None, {"img": img})
    assert k._sess.compiled_count() == 1
    m = kiln.InferenceSession(models.mlp().SerializeToString())
    assert m._sess.compiled_count() == 0  # symbolic batch: on first run
    for b in (2, 2, 3, 2):
        m.run(None, {"x": np.zeros((b, 784), np.float32)})
    assert m._sess.compiled_count() == 2


def test_kiln_tensor_inputs_stay_on_device():
    x = np.random.default_rng(7).random((3, 784), dtype=np.float32)
    k = kiln.InferenceSession(models.mlp().SerializeToString())
    t = kiln.asarray(x)
    a = k.run(["probs"], {"x": t})[0]
    b = k.run(["probs"], {"x": x})[0]
    np.testing.assert_array_equal(a, b)


def test_model_proto_and_path_like(model_dir):
    k1 = kiln.InferenceSession(models.cnn())
    k2 = kiln.InferenceSession(model_dir / "cnn.onnx")
    img = np.ones((1, 3, 16, 16), np.float32)
    np.testing.assert_array_equal(k1.run(None, {"img": img})[0], k2.run(None, {"img": img})[0])


def _model(nodes, ins, outs, inits=()):
    from onnx import helper

    g = helper.make_graph(nodes, "g", ins, outs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def test_results_computed_at_import_and_empty_inputs():
    # Shape's result is a constant of the program (no device buffer of its
    # own dtype); an empty input has no device buffer to bind.
    from onnx import TensorProto, helper

    m = _model(
        [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Add", ["x", "x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
    )
    for n in (2, 0):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        got, want, _, _ = _both(m, {"x": x})
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)


def test_bfloat16_inputs():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from onnx import TensorProto, helper

    m = _model(
        [helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT)],
        [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
    )
    x = np.array([1.5, -2.25, 3.0e10, 0.1], dtype=ml_dtypes.bfloat16)
    (y,) = kiln.InferenceSession(m.SerializeToString()).run(None, {"x": x})
    np.testing.assert_array_equal(y, x.astype(np.float32))


def test_empty_results():
    from onnx import TensorProto, helper

    m = _model(
        [helper.make_node("Slice", ["x", "st", "en"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [0, 3])],
        [helper.make_tensor("st", TensorProto.INT64, [1], [2]),
         helper.make_tensor("en", TensorProto.INT64, [1], [2])],
    )
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    got, want, _, _ = _both(m, {"x": x})
    assert got[0].shape == want[0].shape == (0, 3) and got[0].dtype == want[0].dtype


def test_repeated_runs_read_their_own_inputs_and_keep_earlier_results():
    # After its first run with given shapes, a session replays one
    # recording of the model's dispatches: each run must see its own
    # inputs, and the arrays earlier runs returned must stay as they were.
    s = kiln.InferenceSession(models.two_inputs().SerializeToString())
    rng = np.random.default_rng(11)
    runs = []
    for _ in range(30):
        x = rng.integers(-1000, 1000, (2, 3), dtype=np.int64)
        y = rng.integers(-1000, 1000, 3, dtype=np.int64)
        runs.append((x, y, s.run(None, {"x": x, "y": y})[0]))
    for x, y, z in runs:
        np.testing.assert_array_equal(z, x * y + 1)


def test_an_index_out_of_range_fails_that_run_only():
    # A kernel that finds an index out of range records it in the run's
    # fault word; the next run, with indices in range, must not inherit it.
    from onnx import TensorProto, helper

    data = np.array([10.0, 20.0, 30.0, 40.0, 50.0], np.float32)
    m = _model(
        [helper.make_node("Gather", ["data", "i"], ["y"])],
        [helper.make_tensor_value_info("i", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [helper.make_tensor("data", TensorProto.FLOAT, [5], data)],
    )
    s = kiln.InferenceSession(m.SerializeToString())
    for i in ([0, 4], [1, -1]):
        np.testing.assert_array_equal(s.run(None, {"i": np.array(i)})[0], data[i])
    with pytest.raises(kiln.Error, match="out of"):
        s.run(None, {"i": np.array([7, 0])})
    for i in ([2, 3], [4, 0]):
        np.testing.assert_array_equal(s.run(None, {"i": np.array(i)})[0], data[i])
