"""ONNX's backend interface over kiln, so ONNX's own test runner runs
against kiln::

    import onnx.backend.test, kiln
    bt = onnx.backend.test.BackendTest(kiln.onnx_backend, __name__)
    globals().update(bt.test_cases)

A model kiln refuses (an op, type or opset it lacks; a node it cannot
convert) is skipped, as ``kiln onnx-test`` skips it; kiln's devices run the
``CPU`` tests (lavapipe is a CPU device; ``CUDA`` is not supported).
"""

import unittest

import numpy as np
import onnx
from onnx import helper, shape_inference
from onnx.backend.base import Backend, BackendRep

from . import _kiln
from ._session import InferenceSession


class KilnRep(BackendRep):
    """A prepared model: a ``kiln.InferenceSession``."""

    def __init__(self, session):
        self.session = session
        self._names = [i.name for i in session.get_inputs()]

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            if not isinstance(inputs, (list, tuple)):
                inputs = [inputs]
            feed = dict(zip(self._names, inputs))
        try:
            return self.session.run(None, feed)
        except _kiln.Unsupported as e:
            raise unittest.SkipTest(f"kiln: {e}") from e


class KilnBackend(Backend):
    """``prepare``, ``run_model``, ``run_node``, ``supports_device``."""

    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        try:
            _kiln.check_model(model.SerializeToString())
        except _kiln.Error:
            return False
        return True

    @classmethod
    def supports_device(cls, device):
        return device == "CPU"

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        if not cls.supports_device(str(device).split(":")[0]):
            raise unittest.SkipTest(f"kiln: device {device} is not supported")
        data = model if isinstance(model, bytes) else model.SerializeToString()
        try:
            return KilnRep(InferenceSession(data))
        except _kiln.Unsupported as e:
            raise unittest.SkipTest(f"kiln: {e}") from e

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Runs one node: a model of just it, its inputs typed by the arrays,
        its outputs typed by ``outputs_info`` or by ONNX's shape inference."""
        arrays = [np.asarray(x) for x in inputs]
        ins = [
            helper.make_tensor_value_info(
                name, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape)
            )
            for name, a in zip(node.input, arrays)
            if name
        ]
        if outputs_info:
            outs = [
                helper.make_tensor_value_info(
                    name, helper.np_dtype_to_tensor_dtype(np.dtype(dt)), list(shape)
                )
                for name, (dt, shape) in zip(node.output, outputs_info)
            ]
        else:
            outs = [helper.make_empty_tensor_value_info(n) for n in node.output if n]
        graph = helper.make_graph([node], "run_node", ins, outs)
        opset = kwargs.get("opset_version", onnx.defs.onnx_opset_version())
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        if not outputs_info:
            inferred = shape_inference.infer_shapes(model)
            del model.graph.output[:]
            model.graph.output.extend(
                [v for v in inferred.graph.output if v.name in node.output]
            )
        return cls.prepare(model, device).run(arrays)


prepare = KilnBackend.prepare
run_model = KilnBackend.run_model
run_node = KilnBackend.run_node
supports_device = KilnBackend.supports_device
is_compatible = KilnBackend.is_compatible
