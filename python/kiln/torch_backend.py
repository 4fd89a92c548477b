"""``torch.compile(model, backend="kiln")`` (registered through the
``torch_dynamo_backends`` entry point).

The FX graph goes through ONNX (``torch.onnx.export`` of the traced
module) into a ``kiln.InferenceSession``; a graph kiln refuses runs in
eager PyTorch instead, with a warning naming what kiln refused. torch is
not a dependency of kiln: this module imports it only when used.
"""

import io
import warnings


def kiln_backend(gm, example_inputs):
    """A torch.compile backend: returns a callable running ``gm`` on kiln,
    or ``gm.forward`` (eager) when kiln refuses the graph."""
    import numpy as np
    import torch

    import kiln

    try:
        buf = io.BytesIO()
        names = [f"input_{i}" for i in range(len(example_inputs))]
        torch.onnx.export(gm, tuple(example_inputs), buf, input_names=names, dynamo=False)
        sess = kiln.InferenceSession(buf.getvalue())
    except Exception as e:  # any refusal: eager fallback
        warnings.warn(f"kiln: running the graph eagerly: {e}", stacklevel=2)
        return gm.forward

    def run(*args):
        feed = {n: a.detach().cpu().numpy() for n, a in zip(names, args)}
        outs = sess.run(None, feed)
        return tuple(torch.from_numpy(np.array(o)) for o in outs)

    return run
