"""numpy <-> kiln data: arrays cross as a C-contiguous uint8 view of their
memory (read by kiln through the buffer protocol, without a copy); results
come back as a bytearray numpy wraps without a copy."""

import numpy as np

from . import _kiln


def to_wire(value, what):
    """``(uint8 view, dtype name, shape)`` of an array-like (a non-contiguous
    array is copied into C order first; a kiln.Tensor is returned as is)."""
    if type(value) is np.ndarray and value.flags.c_contiguous and value.dtype.kind in "fiub":
        # The common case, checked in as few steps as possible (a call's
        # overhead): a C-contiguous native-order array.
        if value.dtype.isnative:
            return (value.reshape(-1).view(np.uint8), value.dtype.name, value.shape)
    if isinstance(value, _kiln.Tensor):
        return value
    a = np.asarray(value)
    if a.dtype == object or (a.dtype.kind in "USVOc" and a.dtype.name != "bfloat16"):
        raise _kiln.InvalidArgument(
            f"{what}: numpy dtype {a.dtype} is not supported (kiln has float16, "
            "bfloat16, float32, float64, bool, int8..int64, uint8..uint64)"
        )
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return (a.reshape(-1).view(np.uint8), a.dtype.name, a.shape)


def _np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes  # numpy has no bfloat16; ml_dtypes (onnx's dependency) does

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def from_wire(result):
    """A numpy array over the ``(bytearray, dtype name, shape)`` kiln returned."""
    data, dtype, shape = result
    return np.frombuffer(data, dtype=_np_dtype(dtype)).reshape(shape)


def asarray(a, dtype=None, device=None):
    """A ``kiln.Tensor`` holding ``a`` (anything numpy.asarray takes, or a
    kiln.Tensor, returned as is) as ``dtype`` (numpy's rules when ``None``)
    on ``device`` (default: the default device)."""
    if isinstance(a, _kiln.Tensor) and dtype is None:
        return a
    if dtype is not None:
        a = np.asarray(a, dtype=dtype)
    data, dtype, shape = to_wire(a, "asarray")
    return _kiln._upload(data, dtype, shape, device)


def _tensor_numpy(self):
    """The elements as a new numpy array (a host copy, made once)."""
    out = np.empty(self.shape, _np_dtype(self.dtype))
    self._read_into(out.reshape(-1).view(np.uint8))
    return out


def _tensor_array(self, dtype=None, copy=None):
    a = _tensor_numpy(self)
    return a if dtype is None else a.astype(dtype)


def _tensor_dlpack(self, stream=None, max_version=None, dl_device=None, copy=None):
    # A device tensor is exported as a host copy (kDLCPU): numpy's capsule.
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


def from_dlpack(x, device=None):
    """A ``kiln.Tensor`` from any DLPack producer on the CPU (numpy, torch,
    JAX): read through numpy's ``from_dlpack`` (no copy on the host side)
    and uploaded to the device."""
    return asarray(np.from_dlpack(x), device=device)
