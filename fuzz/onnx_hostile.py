#!/usr/bin/env python3
"""The hand-made hostile models of the onnx_import fuzz target: declared sizes
past what can be addressed or held (raw data whose byte size wraps 64 bits,
ConstantOfShape / Expand / Tile / Range / Pad / Resize / OneHot / TopK to
huge sizes, a Loop of 2^62 trips, bad axes, perms, pads, opsets).

    /work/venvs/onnx/bin/python fuzz/onnx_hostile.py OUT_DIR

Those that crashed the importer before its fix are in
fuzz/regressions/onnx_import (same names); the others are seeds in
fuzz/corpus/onnx_import (hostile-NAME.onnx).
"""
import numpy as np
from onnx import helper as h, TensorProto as T, numpy_helper as nh
import sys
out = sys.argv[1]
def save(name, nodes, ins, outs, inits=(), opset=17):
    g = h.make_graph(nodes, "g", ins, outs, initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    open(f"{out}/{name}.onnx", "wb").write(m.SerializeToString())
x = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
y = h.make_tensor_value_info("y", T.FLOAT, None)
# 1. raw_data empty, dims whose byte size wraps 64 bits.
t = T(); t.name = "w"; t.data_type = T.FLOAT; t.dims.extend([2**62]); t.raw_data = b""
save("raw-size-wraps", [h.make_node("Add", ["x", "w"], ["y"])], [x], [y], [t])
t = T(); t.name = "w"; t.data_type = T.INT4; t.dims.extend([2**62, 3]); t.raw_data = b""
save("int4-huge", [h.make_node("Add", ["x", "w"], ["y"])], [x], [y], [t])
# 2. ConstantOfShape of a huge shape.
s = nh.from_array(np.array([1 << 20, 1 << 20], dtype=np.int64), "s")
save("constantofshape-huge", [h.make_node("ConstantOfShape", ["s"], ["y"])], [], [y], [s])
s = nh.from_array(np.array([1 << 40, 1 << 40], dtype=np.int64), "s")
save("constantofshape-overflow", [h.make_node("ConstantOfShape", ["s"], ["y"])], [], [y], [s])
# 3. Expand x to a huge shape.
save("expand-huge", [h.make_node("Expand", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([1 << 31, 1 << 31, 3], dtype=np.int64), "s")])
# 4. Reshape with huge/negative.
save("reshape-neg", [h.make_node("Reshape", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([-1, -1], dtype=np.int64), "s")])
save("reshape-zero", [h.make_node("Reshape", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([0, 0, 0, 7], dtype=np.int64), "s")])
# 5. Range huge.
save("range-huge", [h.make_node("Range", ["a", "b", "c"], ["y"])], [], [y], [nh.from_array(np.array(0, dtype=np.int64), "a"), nh.from_array(np.array(2**62, dtype=np.int64), "b"), nh.from_array(np.array(1, dtype=np.int64), "c")])
save("range-minstep", [h.make_node("Range", ["a", "b", "c"], ["y"])], [], [y], [nh.from_array(np.array(-2**63, dtype=np.int64), "a"), nh.from_array(np.array(2**63-1, dtype=np.int64), "b"), nh.from_array(np.array(-1, dtype=np.int64), "c")])
save("range-step0", [h.make_node("Range", ["a", "b", "c"], ["y"])], [], [y], [nh.from_array(np.array(0, dtype=np.int64), "a"), nh.from_array(np.array(5, dtype=np.int64), "b"), nh.from_array(np.array(0, dtype=np.int64), "c")])
# 6. Tile huge repeats.
save("tile-huge", [h.make_node("Tile", ["x", "r"], ["y"])], [x], [y], [nh.from_array(np.array([2**40, 2**40], dtype=np.int64), "r")])
# 7. Slice extreme.
save("slice-extreme", [h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], [x], [y], [nh.from_array(np.array([-2**63], dtype=np.int64), "st"), nh.from_array(np.array([2**63-1], dtype=np.int64), "en"), nh.from_array(np.array([-7], dtype=np.int64), "ax"), nh.from_array(np.array([-2**63], dtype=np.int64), "sp")])
# 8. Gather with axis out of range, transpose perm bad, concat axis bad.
save("gather-axis", [h.make_node("Gather", ["x", "i"], ["y"], axis=-9)], [x], [y], [nh.from_array(np.array([5], dtype=np.int64), "i")])
save("transpose-perm", [h.make_node("Transpose", ["x"], ["y"], perm=[5, 0])], [x], [y])
save("transpose-perm-dup", [h.make_node("Transpose", ["x"], ["y"], perm=[0, 0])], [x], [y])
save("concat-axis", [h.make_node("Concat", ["x", "x"], ["y"], axis=2**62)], [x], [y])
save("softmax-axis", [h.make_node("Softmax", ["x"], ["y"], axis=-2**63)], [x], [y])
save("split-zero", [h.make_node("Split", ["x", "s"], ["y", "z"], axis=1)], [x], [y, h.make_tensor_value_info("z", T.FLOAT, None)], [nh.from_array(np.array([2**62, -2**62+3], dtype=np.int64), "s")])
save("conv-bad", [h.make_node("Conv", ["x", "w"], ["y"], strides=[0, 0], pads=[-5, -5, -5, -5], dilations=[2**40, 2**40])], [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])], [y], [nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
save("maxpool-bad", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2**40, 0], strides=[0, 0])], [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])], [y])
save("onehot-huge", [h.make_node("OneHot", ["i", "d", "v"], ["y"])], [], [y], [nh.from_array(np.array([1], np.int64), "i"), nh.from_array(np.array(2**62, np.int64), "d"), nh.from_array(np.array([0, 1], np.float32), "v")])
save("topk-huge", [h.make_node("TopK", ["x", "k"], ["y", "z"])], [x], [y, h.make_tensor_value_info("z", T.INT64, None)], [nh.from_array(np.array([2**62], np.int64), "k")])
save("resize-huge", [h.make_node("Resize", ["x", "", "sc"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])], [y], [nh.from_array(np.array([1, 1, 1e30, 1e30], np.float32), "sc")])
save("resize-nan", [h.make_node("Resize", ["x", "", "sc"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])], [y], [nh.from_array(np.array([1, 1, np.nan, -1], np.float32), "sc")])
save("pad-huge", [h.make_node("Pad", ["x", "p"], ["y"])], [x], [y], [nh.from_array(np.array([2**62, 0, 2**62, 0], np.int64), "p")])
save("pad-neg", [h.make_node("Pad", ["x", "p"], ["y"])], [x], [y], [nh.from_array(np.array([-5, 0, -5, 0], np.int64), "p")])
save("unsqueeze-many", [h.make_node("Unsqueeze", ["x", "a"], ["y"])], [x], [y], [nh.from_array(np.array(list(range(60)), np.int64), "a")])
save("squeeze-bad", [h.make_node("Squeeze", ["x", "a"], ["y"])], [x], [y], [nh.from_array(np.array([0, 0, 5], np.int64), "a")])
save("einsum-bad", [h.make_node("Einsum", ["x"], ["y"], equation="ij...kk->...zz")], [x], [y])
save("depthtospace-bad", [h.make_node("DepthToSpace", ["x"], ["y"], blocksize=0)], [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 2, 2])], [y])
save("cumsum-axis", [h.make_node("CumSum", ["x", "a"], ["y"])], [x], [y], [nh.from_array(np.array(-2**63, np.int64), "a")])
save("loop-huge", [h.make_node("Loop", ["m", ""], [], body=h.make_graph([h.make_node("Identity", ["c"], ["co"])], "b", [h.make_tensor_value_info("i", T.INT64, []), h.make_tensor_value_info("c", T.BOOL, [])], [h.make_tensor_value_info("co", T.BOOL, [])]))], [], [], [nh.from_array(np.array(2**62, np.int64), "m")])
save("opset-huge", [h.make_node("Relu", ["x"], ["y"])], [x], [y], opset=2**62)
save("opset-neg", [h.make_node("Relu", ["x"], ["y"])], [x], [y], opset=-5)
save("rank-huge-input", [h.make_node("Relu", ["x"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [1]*200)], [y])
save("input-huge-dims", [h.make_node("Relu", ["x"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [2**62, 2**62])], [y])
save("reshape-product-overflow", [h.make_node("Reshape", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([2**40, 2**40], dtype=np.int64), "s")])
save("dft-length-huge", [h.make_node("DFT", ["x", "l"], ["y"], axis=1)], [h.make_tensor_value_info("x", T.FLOAT, [1, 10, 1])], [y], [nh.from_array(np.array(2**40, np.int64), "l")])
x4 = h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])
save("maxpool-kernel-huge", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2**40, 2**40])], [x4], [y])
save("maxpool-kernel-huge-pads", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2**40, 2**40], pads=[2**40, 2**40, 2**40, 2**40])], [x4], [y])
save("avgpool-kernel-huge-pads", [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2**31, 2**31], pads=[2**31, 2**31, 2**31, 2**31])], [x4], [y])
save("lppool-huge", [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2**62, 2**62], strides=[2**62, 2**62])], [x4], [y])
save("col2im-huge", [h.make_node("Col2Im", ["x", "is", "bs"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 4])], [y], [nh.from_array(np.array([2**40, 2**40], np.int64), "is"), nh.from_array(np.array([2**40, 2**40], np.int64), "bs")])
save("convtranspose-out-huge", [h.make_node("ConvTranspose", ["x", "w"], ["y"], output_shape=[2**40, 2**40])], [x4], [y], [nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
save("convtranspose-stride-huge", [h.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2**40, 2**40])], [x4], [y], [nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
save("conv-pads-huge", [h.make_node("Conv", ["x", "w"], ["y"], pads=[2**62, 2**62, 2**62, 2**62])], [x4], [y], [nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
save("conv-dil-huge", [h.make_node("Conv", ["x", "w"], ["y"], dilations=[2**62, 2**62], pads=[2**62,0,2**62,0])], [x4], [y], [nh.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
save("rnn-hidden-huge", [h.make_node("RNN", ["x", "w", "r"], ["y"], hidden_size=2**40)], [h.make_tensor_value_info("x", T.FLOAT, [2, 1, 3])], [y], [nh.from_array(np.ones((1, 2, 3), np.float32), "w"), nh.from_array(np.ones((1, 2, 2), np.float32), "r")])
save("gridsample-huge", [h.make_node("GridSample", ["x", "g"], ["y"])], [x4, h.make_tensor_value_info("g", T.FLOAT, [1, 2**31, 2**31, 2])], [y])
save("onehot-depth-neg", [h.make_node("OneHot", ["i", "d", "v"], ["y"])], [], [y], [nh.from_array(np.array([1], np.int64), "i"), nh.from_array(np.array(-2**63, np.int64), "d"), nh.from_array(np.array([0, 1], np.float32), "v")])
save("eyelike-k", [h.make_node("EyeLike", ["x"], ["y"], k=-2**63)], [x], [y])
save("trilu-k", [h.make_node("Trilu", ["x", "k"], ["y"])], [x], [y], [nh.from_array(np.array(-2**63, np.int64), "k")])
save("stft-huge", [h.make_node("STFT", ["x", "st", "", "fl"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT, [1, 16, 1])], [y], [nh.from_array(np.array(2**62, np.int64), "st"), nh.from_array(np.array(2**62, np.int64), "fl")], opset=17)
save("window-huge", [h.make_node("HannWindow", ["s"], ["y"])], [], [y], [nh.from_array(np.array(2**40, np.int64), "s")], opset=17)
save("mel-huge", [h.make_node("MelWeightMatrix", ["a","b","c","d","e"], ["y"])], [], [y], [nh.from_array(np.array(2**31, np.int64), "a"), nh.from_array(np.array(2**31, np.int64), "b"), nh.from_array(np.array(8000, np.int64), "c"), nh.from_array(np.array(0, np.float32), "d"), nh.from_array(np.array(4000, np.float32), "e")], opset=17)
save("spacetodepth-0", [h.make_node("SpaceToDepth", ["x"], ["y"], blocksize=-2**62)], [x4], [y])
save("upsample-huge", [h.make_node("Upsample", ["x", "s"], ["y"])], [x4], [y], [nh.from_array(np.array([1, 1, 1e30, 1e30], np.float32), "s")], opset=9)
save("slice-step-min", [h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], [x], [y], [nh.from_array(np.array([2**63-1], dtype=np.int64), "st"), nh.from_array(np.array([-2**63], dtype=np.int64), "en"), nh.from_array(np.array([1], dtype=np.int64), "ax"), nh.from_array(np.array([-2**63], dtype=np.int64), "sp")])
save("expand-neg", [h.make_node("Expand", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([-1, 3], dtype=np.int64), "s")])
save("constantofshape-neg", [h.make_node("ConstantOfShape", ["s"], ["y"])], [], [y], [nh.from_array(np.array([-2, 3], dtype=np.int64), "s")])
save("topk-neg", [h.make_node("TopK", ["x", "k"], ["y", "z"])], [x], [y, h.make_tensor_value_info("z", T.INT64, None)], [nh.from_array(np.array([-2**63], np.int64), "k")])
save("centercrop-huge", [h.make_node("CenterCropPad", ["x", "s"], ["y"])], [x], [y], [nh.from_array(np.array([2**40, 2**40], np.int64), "s")], opset=18)
save("split-num-outputs-0", [h.make_node("Split", ["x"], ["y"], axis=1, num_outputs=0)], [x], [y], opset=18)
save("reduce-axes-dup", [h.make_node("ReduceSum", ["x", "a"], ["y"])], [x], [y], [nh.from_array(np.array([0, 0, -2], np.int64), "a")])
