// REQUIRES: onnx
// tcc-import-onnx writes MLIR bytecode for an output ending in .mlirbc (or
// with --emit-bytecode): the weights as their raw bytes, not as hex text.
// Every tool reads it as it reads text. Here the image is bound as a
// constant (35 floats: a resource blob, not inline) and W stays an input.

// RUN: tcc-import-onnx %onnx_data/node/test_conv_with_strides_padding/model.onnx --bind-input=0=%onnx_data/node/test_conv_with_strides_padding/test_data_set_0/input_0.pb -o %t.mlirbc
// RUN: od -A n -c -N 4 %t.mlirbc | FileCheck %s --check-prefix=MAGIC
// MAGIC: M   L 357   R

// RUN: tcc-opt %t.mlirbc | FileCheck %s --check-prefix=TEXT
// TEXT: func.func @main(%arg0: tensor<1x1x3x3xf32> {tcc.name = "W"})
// TEXT: tcc.constant dense_resource<[[BLOB:.+]]> : tensor<1x1x7x5xf32>
// TEXT: tcc.conv2d
// TEXT: dialect_resources
// TEXT: [[BLOB]]: "0x

// The same module as the text form gives, and --emit-bytecode is the same
// bytecode.
// RUN: tcc-import-onnx %onnx_data/node/test_conv_with_strides_padding/model.onnx --bind-input=0=%onnx_data/node/test_conv_with_strides_padding/test_data_set_0/input_0.pb -o %t.mlir
// RUN: tcc-opt %t.mlir > %t.from-text.mlir
// RUN: tcc-opt %t.mlirbc > %t.from-bytecode.mlir
// RUN: diff %t.from-text.mlir %t.from-bytecode.mlir
// RUN: tcc-import-onnx %onnx_data/node/test_conv_with_strides_padding/model.onnx --bind-input=0=%onnx_data/node/test_conv_with_strides_padding/test_data_set_0/input_0.pb --emit-bytecode -o %t.bc
// RUN: cmp %t.bc %t.mlirbc

// Compiled from bytecode, against the ONNX test's expected output.
// RUN: tcc-import-onnx --tensor %onnx_data/node/test_conv_with_strides_padding/test_data_set_0/input_1.pb -o %t.w.npy
// RUN: tcc-import-onnx --tensor %onnx_data/node/test_conv_with_strides_padding/test_data_set_0/output_0.pb -o %t.y.npy
// RUN: tcc-run %t.mlirbc --input=@%t.w.npy --expected_output=@%t.y.npy | FileCheck %s --check-prefix=OK
// RUN: tcc-compile %t.mlirbc -o %t.so
// RUN: tcc-run %t.mlirbc --library=%t.so --input=@%t.w.npy --expected_output=@%t.y.npy | FileCheck %s --check-prefix=OK
// OK-NOT: FAIL
// OK: [SUCCESS] result[0] matches
