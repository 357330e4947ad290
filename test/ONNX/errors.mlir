// REQUIRES: onnx
// tcc-import-onnx's errors: each a diagnostic and exit code 1, never a
// crash.

// Every unsupported node is listed at once, with its name, domain and
// opset.
// RUN: not tcc-import-onnx %S/Inputs/unsupported.textproto 2>&1 | FileCheck %s --check-prefix=NODES
// NODES: error: 3 ONNX nodes tcc does not support:
// NODES-NEXT:   RandomNormalLike (node 'rand0', domain '', opset 13)
// NODES-NEXT:   Multinomial (node 'sample0', domain '', opset 13)
// NODES-NEXT:   MyOp (node 'custom0', domain 'com.example', opset 13)

// RUN: not tcc-import-onnx %S/Inputs/complex_input.textproto 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: error: ONNX graph value 'x' has element type COMPLEX64, which tcc does not have

// RUN: not tcc-import-onnx %S/Inputs/new_opset.textproto 2>&1 | FileCheck %s --check-prefix=OPSET
// OPSET: error: ONNX opset 29 is outside the supported range 1 to 28

// RUN: not tcc-import-onnx %S/Inputs/undefined_input.textproto 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// UNDEFINED: error: ONNX node 'add0' (Add, opset 13): input 'w' is not defined before it

// An op tcc's verifier rejects (24 elements reshaped to 5 x 5).
// RUN: not tcc-import-onnx %S/Inputs/bad_reshape.textproto 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: error: 'tcc.reshape' op expects the same number of elements, got 24 (4x6) and 25 (5x5)
// RESHAPE: error: ONNX node 'reshape0' (Reshape, opset 13): the tcc.reshape it converts to is invalid

// Malformed files: truncated models, bytes that are no protobuf, a text
// model that does not parse, a missing file, a bad tensor file.
// RUN: head -c 40 %onnx_data/pytorch-converted/test_Conv2d/model.onnx > %t.truncated.onnx
// RUN: not tcc-import-onnx %t.truncated.onnx 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: head -c 300 %onnx_data/pytorch-converted/test_Conv2d/model.onnx > %t.truncated2.onnx
// RUN: not tcc-import-onnx %t.truncated2.onnx 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tcc-import-onnx %s 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: error: not a valid ONNX model (the protobuf does not parse)
// RUN: not tcc-import-onnx --text %s 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: not an ONNX model in protobuf text format
// RUN: not tcc-import-onnx %t.does-not-exist.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tcc-import-onnx: {{.*}}does-not-exist.onnx
// RUN: not tcc-import-onnx --tensor %t.truncated2.onnx -o %t.npy 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: tcc-import-onnx: {{.*}}truncated2.onnx: {{.+}}

// Damaged copies of a model with weights (truncated everywhere, bytes
// overwritten): each is imported or rejected with an error, none crashes.
// RUN: python3 %S/Inputs/corrupt_models.py tcc-import-onnx %onnx_data/pytorch-converted/test_Conv2d/model.onnx | FileCheck %s --check-prefix=DAMAGED
// DAMAGED: damaged models: {{[0-9]+}}, rejected with an error: {{[1-9][0-9]*}}, crashes: 0

// BitShift is defined on unsigned integers only.
// RUN: not tcc-import-onnx %S/Inputs/bitshift_signed.textproto 2>&1 | FileCheck %s --check-prefix=SHIFT
// SHIFT: error: ONNX node 'shift0' (BitShift, opset 13): expects unsigned integer inputs
