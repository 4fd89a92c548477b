"""kiln.Tensor, kiln.asarray, DLPack, kiln.compile."""

import numpy as np
import pytest

import kiln


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.int16, np.int32,
                                   np.int64, np.uint8, np.uint32, np.bool_])
def test_round_trip(dtype):
    a = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    t = kiln.asarray(a)
    assert t.shape == [2, 3, 4] and t.dtype == np.dtype(dtype).name
    assert t.size == 24 and t.ndim == 3 and len(t) == 2
    b = np.asarray(t)
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(t.numpy(), a)


def test_asarray_of_a_view_and_a_list():
    a = np.arange(12, dtype=np.float32).reshape(3, 4).T
    np.testing.assert_array_equal(np.asarray(kiln.asarray(a)), a)
    np.testing.assert_array_equal(np.asarray(kiln.asarray([[1.5, 2.5]], dtype=np.float32)), [[1.5, 2.5]])


@pytest.mark.parametrize(
    "a",
    [
        np.float32(2.5) * np.ones(()),  # 0-d (float64 -> cast below)
        np.zeros((0, 3)),
        np.arange(10, dtype=">i4"),  # big-endian: swapped first
        np.arange(40, dtype=np.int16).reshape(5, 8)[1:4, ::3],  # strided view
        np.arange(7, dtype=np.uint64) * (2**40),
    ],
    ids=["0d", "empty", "big_endian", "strided", "uint64"],
)
def test_byte_views_round_trip(a):
    if a.dtype == np.float64:
        a = a.astype(np.float32)
    t = kiln.asarray(a)
    b = np.asarray(t)
    assert b.shape == a.shape and b.dtype == a.dtype.newbyteorder("=")
    np.testing.assert_array_equal(b, a)
    b[...] = 0  # results are writable host copies, the tensor is unchanged
    np.testing.assert_array_equal(np.asarray(t), a)


def test_asarray_copies_once_and_owns_its_data():
    a = np.arange(1 << 16, dtype=np.float32)
    t = kiln.asarray(a)
    a[:] = -1  # the tensor holds its own copy
    np.testing.assert_array_equal(np.asarray(t), np.arange(1 << 16, dtype=np.float32))


def test_float64_has_no_device_tensor():
    with pytest.raises(kiln.InvalidArgument, match="float64"):
        kiln.asarray(np.zeros(3))


def test_dlpack_both_ways():
    a = np.arange(10, dtype=np.float32)
    t = kiln.from_dlpack(a)
    assert t.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(t)
    np.testing.assert_array_equal(a, b)


def test_torch_round_trip():
    torch = pytest.importorskip("torch", reason="torch is not installed here (3 GB): skipped")
    x = torch.arange(6, dtype=torch.float32)
    t = kiln.from_dlpack(x)
    assert torch.equal(torch.from_dlpack(t), x)


ADD = """
func.func @add(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %z = arith.addf %x, %y : tensor<?xf32>
  return %z : tensor<?xf32>
}
func.func @scale(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %y = arith.mulf %x, %x : tensor<2x3xf32>
  return %y, %x : tensor<2x3xf32>, tensor<2x3xf32>
}
"""


def test_compile_call_and_explain(tmp_path):
    p = kiln.compile(ADD)
    assert p.functions == ["add", "scale"]
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(p(x, x), x + x)
    np.testing.assert_array_equal(p(kiln.asarray(x), x), x + x)
    y = np.arange(6, dtype=np.float32).reshape(2, 3)
    sq, same = p.run("scale", y)
    np.testing.assert_array_equal(sq, y * y)
    np.testing.assert_array_equal(same, y)
    assert "dispatch" in p.explain()
    f = tmp_path / "add.mlir"
    f.write_text(ADD)
    np.testing.assert_array_equal(kiln.compile(str(f))(x, x), x + x)
    with pytest.raises(kiln.InvalidArgument, match="no function @nope"):
        p.run("nope", x)
    with pytest.raises(kiln.Error, match="does not fit"):
        p.run("scale", x)
    p.close()
    with pytest.raises(kiln.SessionClosed):
        p(x, x)
