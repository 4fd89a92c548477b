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


def test_asarray_copy_true_owns_its_data():
    a = np.arange(1 << 16, dtype=np.float32)
    t = kiln.asarray(a, copy=True)
    assert t.host_pointer is None
    a[:] = -1  # the tensor holds its own copy
    np.testing.assert_array_equal(np.asarray(t), np.arange(1 << 16, dtype=np.float32))


def _can_share():
    try:
        kiln.asarray(np.zeros(16, np.float32), copy=False)
        return True
    except kiln.InvalidArgument as e:
        assert "cannot import host memory" in str(e)
        return False


needs_import = pytest.mark.skipif(
    not _can_share(), reason="the device cannot import host memory (VK_EXT_external_memory_host)"
)

SQUARE = """
func.func @sq(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = arith.mulf %x, %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
"""


@needs_import
def test_asarray_shares_aligned_memory():
    # A page-aligned array (a view at the start of a larger allocation
    # rounded to 4096) is shared: same address, and a write on the numpy
    # side is seen by a kernel reading the tensor.
    raw = np.zeros((1 << 16) + 4096, np.uint8)
    off = (-raw.ctypes.data) % 4096
    a = raw[off:off + (1 << 16)].view(np.float32)
    assert a.ctypes.data % 4096 == 0
    a[:] = np.arange(a.size, dtype=np.float32)
    t = kiln.asarray(a)
    assert t.host_pointer == a.ctypes.data
    p = kiln.compile(SQUARE)
    a[:3] = [2.0, 3.0, -4.0]
    y = p(t)
    expect = np.arange(a.size, dtype=np.float32)
    expect[:3] = [2.0, 3.0, -4.0]
    np.testing.assert_array_equal(y, expect * expect)
    # numpy.asarray of a shared tensor is the shared memory; copy=True is not.
    assert np.asarray(t).ctypes.data == a.ctypes.data
    assert np.array(t, copy=True).ctypes.data != a.ctypes.data
    # Small or 16-byte-aligned arrays share only when asked (copy=False).
    s = np.arange(8, dtype=np.float32)
    assert kiln.asarray(s).host_pointer is None
    assert kiln.asarray(s, copy=False).host_pointer == s.ctypes.data


@needs_import
def test_unaligned_array_is_copied():
    raw = np.zeros((1 << 16) + 64, np.uint8)
    off = 16 - raw.ctypes.data % 16 + 4  # 4 bytes past a 16-byte boundary
    a = raw[off:off + (1 << 16)].view(np.float32)
    a[:] = 1.5
    t = kiln.asarray(a)
    assert t.host_pointer is None
    a[:] = -1  # the tensor holds its own copy
    np.testing.assert_array_equal(np.asarray(t), np.full(1 << 14, 1.5, np.float32))
    with pytest.raises(kiln.InvalidArgument, match="must be multiples of 16"):
        kiln.asarray(a, copy=False)
    with pytest.raises(kiln.InvalidArgument, match="copy=False"):
        kiln.asarray(np.arange(64, dtype=np.float32)[::2], copy=False)


@needs_import
def test_shared_array_lifetimes():
    import gc

    n = 1 << 16

    def made():  # the only reference to the array dies on return
        return kiln.asarray(np.arange(n, dtype=np.float32))

    t = made()
    assert t.host_pointer is not None
    gc.collect()
    junk = [np.full(n, 7, np.float32) for _ in range(8)]  # reuse freed memory, if any
    p = kiln.compile(SQUARE)
    np.testing.assert_array_equal(p(t), np.arange(n, dtype=np.float32) ** 2)
    del t, junk
    gc.collect()
    # The array outlives its tensors (and a kernel that read them).
    a = np.arange(n, dtype=np.float32)
    for _ in range(3):
        u = kiln.asarray(a)
        np.testing.assert_array_equal(p(u), a * a)
        del u
    gc.collect()
    a[:] = 3
    np.testing.assert_array_equal(a, 3)


@needs_import
def test_shared_memory_under_validation():
    d = kiln.Device(validation=True)
    a = np.arange(1 << 16, dtype=np.float32)
    t = kiln.asarray(a, device=d)
    assert t.host_pointer == a.ctypes.data
    p = kiln.compile(SQUARE, device=d)
    np.testing.assert_array_equal(p(t), a * a)
    ro = np.arange(1 << 16, dtype=np.float32)
    ro.flags.writeable = False
    r = kiln.asarray(ro, device=d)
    assert r.host_pointer == ro.ctypes.data
    np.testing.assert_array_equal(p(r), ro * ro)
    del t, r
    d.sync()
    assert d._validation_messages() == []


def test_float64_has_no_device_tensor():
    with pytest.raises(kiln.InvalidArgument, match="float64"):
        kiln.asarray(np.zeros(3))


def test_dlpack_both_ways():
    a = np.arange(10, dtype=np.float32)
    t = kiln.from_dlpack(a)
    assert t.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(t)
    np.testing.assert_array_equal(a, b)


def test_numpy_round_trip_shares_memory():
    a = np.arange(1 << 16, dtype=np.int32)
    t = kiln.from_dlpack(a)
    b = np.from_dlpack(t)
    np.testing.assert_array_equal(a, b)
    if t.host_pointer is not None:  # shared: no copy on the way in or out
        assert t.host_pointer == a.ctypes.data == b.ctypes.data


def test_jax_round_trip():
    jnp = pytest.importorskip("jax.numpy", reason="jax is not installed here: skipped")
    import jax.dlpack

    x = jnp.arange(1 << 16, dtype=jnp.float32)
    t = kiln.from_dlpack(x)
    y = jax.dlpack.from_dlpack(t)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))
    if t.host_pointer is not None:  # shared both ways, by pointer
        assert t.host_pointer == x.unsafe_buffer_pointer() == y.unsafe_buffer_pointer()
    np.testing.assert_array_equal(np.asarray(kiln.compile(SQUARE)(t)), np.asarray(x * x))


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
