"""Bad input: a kiln.Error subclass with kiln's message, never a crash."""

import numpy as np
import pytest

import kiln
import models


@pytest.fixture(scope="module")
def sess():
    return kiln.InferenceSession(models.cnn().SerializeToString())


def test_hierarchy():
    for e in (kiln.InvalidArgument, kiln.InvalidGraph, kiln.Unsupported,
              kiln.DeviceError, kiln.SessionClosed):
        assert issubclass(e, kiln.Error)
    assert issubclass(kiln.Error, Exception)


def test_wrong_dtype(sess):
    with pytest.raises(kiln.InvalidArgument, match=r"input img: got float64 .*takes tensor\(float\)"):
        sess.run(None, {"img": np.zeros((1, 3, 16, 16), np.float64)})


def test_wrong_shape(sess):
    with pytest.raises(kiln.InvalidArgument, match=r"input img: got shape \[1, 3, 8, 8\], the model takes \[1, 3, 16, 16\]"):
        sess.run(None, {"img": np.zeros((1, 3, 8, 8), np.float32)})
    with pytest.raises(kiln.InvalidArgument, match="got shape"):
        sess.run(None, {"img": np.zeros((3, 16, 16), np.float32)})


def test_wrong_device_tensor(sess):
    t = kiln.asarray(np.zeros((1, 3, 16, 16), np.int32))
    with pytest.raises(kiln.InvalidArgument, match=r"input img: got int32"):
        sess.run(None, {"img": t})
    t = kiln.asarray(np.zeros((1, 3, 8, 8), np.float32))
    with pytest.raises(kiln.InvalidArgument, match="got shape"):
        sess.run(None, {"img": t})


def test_unknown_and_missing_names(sess):
    img = np.zeros((1, 3, 16, 16), np.float32)
    with pytest.raises(kiln.InvalidArgument, match=r"\"nope\" is not an output of the model \(its outputs: out\)"):
        sess.run(["nope"], {"img": img})
    with pytest.raises(kiln.InvalidArgument, match=r"\"image\" is not an input of the model \(its inputs: img\)"):
        sess.run(None, {"image": img})
    with pytest.raises(kiln.InvalidArgument, match="missing input"):
        sess.run(None, {})


def test_non_contiguous_array_is_copied():
    s = kiln.InferenceSession(models.cnn().SerializeToString())
    big = np.random.default_rng(0).random((1, 3, 16, 32), dtype=np.float32)
    view = big[:, :, :, ::2]
    assert not view.flags.c_contiguous
    a = s.run(None, {"img": view})[0]
    b = s.run(None, {"img": np.ascontiguousarray(view)})[0]
    np.testing.assert_array_equal(a, b)


def test_not_onnx(tmp_path):
    with pytest.raises(kiln.InvalidGraph, match="not a valid ONNX protobuf"):
        kiln.InferenceSession(b"\xff\xff\xff this is not a model")
    p = tmp_path / "text.onnx"
    p.write_text("hello, world")
    with pytest.raises(kiln.InvalidGraph, match=str(p)):
        kiln.InferenceSession(str(p))
    with pytest.raises(FileNotFoundError):
        kiln.InferenceSession(str(tmp_path / "missing.onnx"))
    with pytest.raises(kiln.InvalidArgument):
        kiln.InferenceSession(42)


def test_unsupported_nodes_named_at_once():
    import onnx
    from onnx import TensorProto, helper

    g = helper.make_graph(
        [helper.make_node("NoSuchOp", ["x"], ["y"], name="first"),
         helper.make_node("AlsoMissing", ["y"], ["z"], name="second")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(kiln.Unsupported, match=r"(?s)2 unsupported node.*NoSuchOp.*first.*AlsoMissing.*second"):
        kiln.InferenceSession(m.SerializeToString())


def test_closed_session():
    s = kiln.InferenceSession(models.cnn().SerializeToString())
    s.close()
    assert s.closed
    with pytest.raises(kiln.SessionClosed, match="closed"):
        s.run(None, {"img": np.zeros((1, 3, 16, 16), np.float32)})
    with kiln.InferenceSession(models.cnn().SerializeToString()) as s2:
        s2.run(None, {"img": np.zeros((1, 3, 16, 16), np.float32)})
    with pytest.raises(kiln.SessionClosed):
        s2.run(None, {"img": np.zeros((1, 3, 16, 16), np.float32)})


def test_unsupported_numpy_dtype(sess):
    with pytest.raises(kiln.InvalidArgument, match="not supported"):
        sess.run(None, {"img": np.zeros((1, 3, 16, 16), np.complex64)})
    with pytest.raises(kiln.InvalidArgument, match="not supported"):
        kiln.asarray(np.array(["a", "b"]))


def test_bad_mlir():
    with pytest.raises(kiln.InvalidArgument):
        kiln.compile("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %y : tensor<4xf32> }")
