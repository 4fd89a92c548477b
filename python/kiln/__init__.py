"""kiln: run ONNX models and tensor programs on Vulkan devices.

With no GPU, kiln runs on lavapipe (Mesa's CPU Vulkan driver). The API
follows onnxruntime's, so an onnxruntime script runs on kiln by changing
its import::

    import kiln as ort
    sess = ort.InferenceSession("model.onnx")
    x = sess.get_inputs()[0]
    (y,) = sess.run(None, {x.name: data})

Names:

- ``devices()``, ``Device``: the Vulkan devices (``KILN_DEVICE`` rules).
- ``InferenceSession``: an ONNX model compiled for a device.
- ``Tensor``, ``asarray``, ``from_dlpack``: tensors in device memory.
- ``compile``: a tensor program (MLIR 19 text) as a callable.
- ``onnx_backend``: ONNX's backend interface (``onnx.backend.test``).
- ``Error`` and its subclasses ``InvalidArgument``, ``InvalidGraph``,
  ``Unsupported``, ``DeviceError``, ``SessionClosed``.
"""

from . import _kiln
from ._kiln import (
    DeviceError,
    Device,
    Error,
    InvalidArgument,
    InvalidGraph,
    SessionClosed,
    Tensor,
    Unsupported,
    __version__,
    devices,
)
from ._program import Program, compile
from ._session import InferenceSession, NodeArg, RunOptions, SessionOptions
from ._tensor import asarray, from_dlpack

__all__ = [
    "Device",
    "DeviceError",
    "Error",
    "InferenceSession",
    "InvalidArgument",
    "InvalidGraph",
    "NodeArg",
    "Program",
    "RunOptions",
    "SessionClosed",
    "SessionOptions",
    "Tensor",
    "Unsupported",
    "asarray",
    "compile",
    "devices",
    "from_dlpack",
    "get_available_providers",
    "get_device",
]


def get_available_providers():
    """onnxruntime's provider list: kiln has one, ``KilnVulkanExecutionProvider``."""
    return ["KilnVulkanExecutionProvider"]


def get_device():
    """onnxruntime's ``get_device()``: the default device's type (``CPU`` on lavapipe)."""
    t = Device().device_type
    return "CPU" if t == "cpu" else "GPU"


def __getattr__(name):
    # `kiln.onnx_backend` imports onnx: only when asked for.
    if name == "onnx_backend":
        from . import onnx_backend

        return onnx_backend
    raise AttributeError(f"module 'kiln' has no attribute {name!r}")
