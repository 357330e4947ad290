// The examples as libraries: tcc-compile, then each entry run from the
// library at two sizes of its batch symbol and compared with the reference
// evaluator on the source.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %examples/robot_policy.mlir -o %t/librobot.so
// RUN: tcc-run %examples/robot_policy.mlir --library=%t/librobot.so --random-inputs --sizes=B=1 --check-reference | FileCheck %s --check-prefix=ROBOT
// RUN: tcc-run %examples/robot_policy.mlir --library=%t/librobot.so --random-inputs --sizes=B=37 --check-reference | FileCheck %s --check-prefix=ROBOT
// ROBOT: [SUCCESS] result[0] matches the reference
// ROBOT: [SUCCESS] result[1] matches the reference

// RUN: tcc-compile %examples/conv_block.mlir -o %t/libconv.so
// RUN: tcc-run %examples/conv_block.mlir --library=%t/libconv.so --random-inputs --sizes=B=2 --check-reference | FileCheck %s --check-prefix=CONV
// CONV: [SUCCESS] result[0] matches the reference

// RUN: tcc-compile %examples/vit_block.mlir -o %t/libvit.so
// RUN: tcc-run %examples/vit_block.mlir --library=%t/libvit.so --random-inputs --sizes=B=1,S=9 --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=VIT
// VIT: [SUCCESS] result[0] matches the reference
