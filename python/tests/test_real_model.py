"""A real pretrained model: PP-OCR's text direction classifier (from the
rapidocr-onnxruntime 1.4.4 wheel, as the README's example fetches it),
kiln against onnxruntime in one process. Skipped unless KILN_OCR_CLS names
the .onnx file (CI does not download it):

    pip download --no-deps rapidocr-onnxruntime==1.4.4 -d /tmp/ocr
    unzip -jo /tmp/ocr/rapidocr_onnxruntime-1.4.4-py3-none-any.whl \\
        '*/ch_ppocr_mobile_v2.0_cls_infer.onnx' -d /tmp/ocr
    KILN_OCR_CLS=/tmp/ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx pytest python/tests
"""

import os

import numpy as np
import onnxruntime as ort
import pytest

import kiln

PATH = os.environ.get("KILN_OCR_CLS")


@pytest.mark.skipif(not PATH, reason="KILN_OCR_CLS (the PP-OCR classifier .onnx) not set")
def test_ocr_direction_classifier_matches_onnxruntime():
    k = kiln.InferenceSession(PATH)
    o = ort.InferenceSession(PATH, providers=["CPUExecutionProvider"])
    assert [(i.name, i.shape, i.type) for i in k.get_inputs()] == [
        (i.name, i.shape, i.type) for i in o.get_inputs()
    ]
    rng = np.random.default_rng(0)
    for batch in (1, 3):
        # rapidocr's cls input: 48 x 192 lines normalised to [-1, 1].
        line = rng.uniform(-1, 1, (batch, 3, 48, 192)).astype(np.float32)
        (got,) = k.run(None, {"x": line})
        (want,) = o.run(None, {"x": line})
        assert got.shape == want.shape == (batch, 2)
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
