"""``kiln.InferenceSession``: onnxruntime's session API over kiln."""

import os

from . import _kiln
from ._tensor import from_wire, to_wire


class NodeArg:
    """A graph input or output as onnxruntime's ``NodeArg``: ``name``,
    ``shape`` (ints, symbolic names as strings, ``None`` when unknown) and
    ``type`` (``tensor(float)``)."""

    __slots__ = ("name", "shape", "type")

    def __init__(self, name, shape, type):
        self.name = name
        self.shape = shape
        self.type = type

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


class SessionOptions:
    """Accepted for onnxruntime compatibility. kiln reads ``log_severity_level``
    only; graph optimisation is kiln's own and always on."""

    def __init__(self):
        self.log_severity_level = 2
        self.graph_optimization_level = None
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0
        self.enable_profiling = False


class RunOptions:
    """Accepted for onnxruntime compatibility (kiln has no run options)."""

    def __init__(self):
        self.log_severity_level = 2
        self.terminate = False


class InferenceSession:
    """An ONNX model compiled for a kiln device.

    ``InferenceSession(path_or_bytes, sess_options=None, providers=None,
    provider_options=None, device=None)``: ``path_or_bytes`` is a path (str or
    os.PathLike), the model's bytes, or an ``onnx.ModelProto``. ``providers``
    is accepted for onnxruntime compatibility (kiln runs every model on its
    Vulkan device). The model is checked (every unsupported node named at
    once), imported and compiled when the session is made if its inputs are
    static, else on the first run of each shape; its weights are uploaded to
    the device once.
    """

    def __init__(self, path_or_bytes, sess_options=None, providers=None,
                 provider_options=None, device=None, **kwargs):
        base_dir = None
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
            what = "model"
        elif isinstance(path_or_bytes, (str, os.PathLike)):
            path = os.fspath(path_or_bytes)
            with open(path, "rb") as f:
                data = f.read()
            what = path
            base_dir = os.path.dirname(os.path.abspath(path))
        elif hasattr(path_or_bytes, "SerializeToString"):
            data = path_or_bytes.SerializeToString()
            what = "model"
        else:
            raise _kiln.InvalidArgument(
                "InferenceSession: expected a path, bytes or an onnx.ModelProto, "
                f"got {type(path_or_bytes).__name__}"
            )
        self._model_path = what
        self._sess_options = sess_options or SessionOptions()
        self._providers = ["KilnVulkanExecutionProvider"]
        self._sess = _kiln.Session(data, what, base_dir, device)
        self._inputs = [NodeArg(*a) for a in self._sess.inputs()]
        self._outputs = [NodeArg(*a) for a in self._sess.outputs()]

    def get_inputs(self):
        """The graph inputs (initializers excluded), as ``NodeArg``s."""
        return list(self._inputs)

    def get_outputs(self):
        """The graph outputs, as ``NodeArg``s."""
        return list(self._outputs)

    def get_overridable_initializers(self):
        """Always empty: kiln treats initializers as weights."""
        return []

    def get_providers(self):
        """``['KilnVulkanExecutionProvider']``."""
        return list(self._providers)

    def get_provider_options(self):
        return {p: {} for p in self._providers}

    def get_session_options(self):
        return self._sess_options

    def get_modelmeta(self):
        raise _kiln.Error("get_modelmeta is not implemented by kiln")

    @property
    def device(self):
        """The ``kiln.Device`` the session runs on."""
        return self._sess.device()

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model: ``output_names`` (``None`` for every output),
        ``input_feed`` ``{name: numpy array or kiln.Tensor}``; returns a list
        of numpy arrays. A non-contiguous array is copied first."""
        if not isinstance(input_feed, dict):
            raise _kiln.InvalidArgument("run: input_feed must be a dict {name: array}")
        feed = {name: to_wire(value, f"input {name}") for name, value in input_feed.items()}
        if output_names is not None and isinstance(output_names, str):
            output_names = [output_names]
        outs = self._sess.run(None if output_names is None else list(output_names), feed)
        return [from_wire(o) for o in outs]

    def close(self):
        """Frees the compiled model and its weights; later runs raise
        ``kiln.SessionClosed``."""
        self._sess.close()

    @property
    def closed(self):
        return self._sess.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
