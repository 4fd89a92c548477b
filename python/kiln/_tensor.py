"""numpy <-> kiln data: arrays cross as a C-contiguous uint8 view of their
memory (read by kiln through the buffer protocol, without a copy); results
come back as a bytearray numpy wraps without a copy."""

import numpy as np

from . import _kiln

# ml_dtypes' types (onnx's dependency; numpy has none of them) kiln reads
# and writes: one byte per element (4- and 2-bit values in the low bits).
ML_DTYPES = frozenset([
    "bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "float8_e8m0fnu", "float4_e2m1fn", "int4", "uint4", "int2", "uint2",
])


# numpy's name of each dtype whose arrays cross as they are (a native-order
# number or bool type), by dtype: numpy 2 computes ``dtype.name`` anew on
# each access, at ~7 us a call's largest cost on the host.
_WIRE_NAMES = {}


def _wire_name(dt):
    """numpy's name of ``dt`` if its arrays cross as they are, else ``False``."""
    name = _WIRE_NAMES.get(dt)
    if name is None:
        name = dt.name if dt.kind in "fiub" and dt.isnative else False
        if name:
            _WIRE_NAMES[dt] = name
    return name


def to_wire(value, what):
    """``(uint8 view, dtype name, shape)`` of an array-like (a non-contiguous
    array is copied into C order first; a kiln.Tensor is returned as is)."""
    if type(value) is np.ndarray:
        # The common case, checked in as few steps as possible (a call's
        # overhead): a C-contiguous native-order array.
        name = _WIRE_NAMES.get(value.dtype) or _wire_name(value.dtype)
        if name and value.flags.c_contiguous:
            return (value.reshape(-1).view(np.uint8), name, value.shape)
    if isinstance(value, _kiln.Tensor):
        return value
    a = np.asarray(value)
    if a.dtype == object or (a.dtype.kind in "USVOc" and a.dtype.name not in ML_DTYPES):
        raise _kiln.InvalidArgument(
            f"{what}: numpy dtype {a.dtype} is not supported (kiln has float16, "
            "bfloat16, float32, float64, bool, int8..int64, uint8..uint64, and ml_dtypes' "
            "float8, float4, int4, uint4, int2, uint2)"
        )
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return (a.reshape(-1).view(np.uint8), a.dtype.name, a.shape)


# The numpy dtype of each wire name seen (a lookup costs less than np.dtype).
_NP_DTYPES = {}


def _np_dtype(name):
    dt = _NP_DTYPES.get(name)
    if dt is not None:
        return dt
    if name in ML_DTYPES:
        import ml_dtypes  # numpy has none of these; ml_dtypes (onnx's dependency) does

        dt = np.dtype(getattr(ml_dtypes, name))
    else:
        dt = np.dtype(name)
    _NP_DTYPES[name] = dt
    return dt


def from_wire(result):
    """A numpy array over the ``(bytearray, dtype name, shape)`` kiln returned."""
    data, dtype, shape = result
    return np.frombuffer(data, dtype=_np_dtype(dtype)).reshape(shape)


def _no_copy_array(a, dtype):
    """``a`` as a numpy array without a copy, or InvalidArgument."""
    try:
        arr = np.asarray(a, dtype=dtype, copy=False)
    except TypeError:  # numpy 1.x: no copy= in asarray; best effort
        arr = np.array(a, dtype=dtype, copy=False)
    except ValueError as e:
        raise _kiln.InvalidArgument(f"asarray(copy=False): {e}") from None
    if not arr.flags.c_contiguous or not arr.dtype.isnative:
        raise _kiln.InvalidArgument(
            "asarray(copy=False): the array is not C-contiguous in native byte order "
            "(a copy would be needed)"
        )
    return arr


def asarray(a, dtype=None, device=None, copy=None, _source=None):
    """A ``kiln.Tensor`` holding ``a`` (anything numpy.asarray takes, or a
    kiln.Tensor, returned as is) as ``dtype`` (numpy's rules when ``None``)
    on ``device`` (default: the default device).

    ``copy`` follows numpy's ``asarray``: with ``None`` the tensor shares
    the array's memory where the device can import it (lavapipe and other
    devices with unified memory and ``VK_EXT_external_memory_host``), the
    array is C-contiguous, its address and size are multiples of 16 bytes,
    and it is at least 64 KiB, and holds a copy otherwise; ``True`` always
    copies; ``False`` shares or raises ``kiln.InvalidArgument`` saying why
    it cannot. A tensor that shares an array keeps it alive and sees the
    writes made to it (``Tensor.host_pointer`` is then its address)."""
    if isinstance(a, _kiln.Tensor) and dtype is None and copy is not True:
        return a
    if copy is False:
        a = _no_copy_array(a, dtype)
    elif dtype is not None:
        a = np.asarray(a, dtype=dtype)
    wire = to_wire(a, "asarray")
    if isinstance(wire, _kiln.Tensor):  # a kiln.Tensor with copy=True
        a = _tensor_numpy(wire)
        wire = to_wire(a, "asarray")
    data, dtype, shape = wire
    source = _source
    if source is None:
        # The array `data` views, kept with a tensor that shares it.
        same = isinstance(a, np.ndarray) and a.dtype.name == dtype and a.flags.c_contiguous
        source = a if same and a.dtype.isnative else data.view(_np_dtype(dtype)).reshape(shape)
    return _kiln._upload(data, dtype, shape, device, copy, source)


def _tensor_numpy(self):
    """The elements as a new numpy array (a host copy, made once)."""
    shared = _shared(self)
    if shared is not None:  # numpy copies the memory the tensor shares
        return np.array(shared, copy=True)
    out = np.empty(self.shape, _np_dtype(self.dtype))
    self._read_into(out.reshape(-1).view(np.uint8))
    return out


def _shared(self):
    """The numpy array over the host memory the tensor shares, or None."""
    src = self._source
    if src is None:
        return None
    a = src if isinstance(src, np.ndarray) else np.from_dlpack(src)
    return a.reshape(self.shape)


def _tensor_array(self, dtype=None, copy=None):
    # A tensor sharing an array's memory gives that memory back unless a
    # copy is asked for (numpy's __array__ protocol); others a host copy.
    a = _shared(self) if copy is not True else None
    if a is None:
        a = _tensor_numpy(self)
    elif copy is False and dtype is not None and np.dtype(dtype) != a.dtype:
        raise ValueError("kiln.Tensor.__array__: a dtype change needs a copy")
    return a if dtype is None else a.astype(dtype, copy=False)


def _tensor_dlpack(self, stream=None, max_version=None, dl_device=None, copy=None):
    # A tensor sharing a producer's memory re-exports the producer's own
    # capsule (no copy; a read-only numpy array needs a versioned
    # consumer, else it is copied); others are exported as a host copy
    # (kDLCPU): numpy's capsule.
    src = self._source if copy is not True else None
    if src is not None:
        try:
            if max_version is None:
                return src.__dlpack__(stream=stream) if stream is not None else src.__dlpack__()
            return src.__dlpack__(stream=stream, max_version=max_version)
        except (BufferError, TypeError):
            pass
    a = _tensor_numpy(self)
    if max_version is None:
        return a.__dlpack__()
    return a.__dlpack__(max_version=max_version)


def _tensor_dlpack_device(self):
    return (1, 0)  # kDLCPU: what __dlpack__ hands out


_kiln.Tensor.__array__ = _tensor_array
_kiln.Tensor.numpy = _tensor_numpy
_kiln.Tensor.__dlpack__ = _tensor_dlpack
_kiln.Tensor.__dlpack_device__ = _tensor_dlpack_device


def from_dlpack(x, device=None, copy=None):
    """A ``kiln.Tensor`` from any DLPack producer on the CPU (numpy, torch,
    JAX): read through numpy's ``from_dlpack`` (no copy on the host side),
    then shared with the device or copied as ``kiln.asarray`` does
    (``copy`` likewise). A shared tensor keeps ``x`` alive and hands its
    memory back through ``__dlpack__`` (``jax.dlpack.from_dlpack(t)``
    sees the same buffer)."""
    return asarray(np.from_dlpack(x), device=device, copy=copy, _source=x)
