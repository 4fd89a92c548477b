import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory):
    import models
    import onnx

    d = tmp_path_factory.mktemp("models")
    for name in ("mlp", "cnn", "two_inputs"):
        onnx.save(getattr(models, name)(), str(d / f"{name}.onnx"))
    return d
