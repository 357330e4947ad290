// ResNet-18 (examples/resnet18.mlir, from scripts/gen_resnet18.py): the
// example is what the generator writes; a 64x64 version (same layers)
// matches the reference evaluator; the 224x224 example runs and compiles
// for the cuda pipeline (convolutions through cuDNN).
// RUN: python3 %tcc_src/scripts/gen_resnet18.py -o %t.resnet18.mlir
// RUN: diff %t.resnet18.mlir %examples/resnet18.mlir
//
// RUN: python3 %tcc_src/scripts/gen_resnet18.py --size 64 -o %t.r64.mlir
// RUN: python3 %tcc_src/scripts/gen_resnet18.py --size 64 --batch 2 --print-inputs > %t.r64.args
// RUN: tcc-run %t.r64.mlir @%t.r64.args --check-reference --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=SMALL
// SMALL: [SUCCESS] result[0] matches the reference (2x1000xf32)
//
// RUN: python3 %tcc_src/scripts/gen_resnet18.py --print-inputs > %t.r224.args
// RUN: tcc-run %examples/resnet18.mlir @%t.r224.args | FileCheck %s --check-prefix=FULL
// FULL: result[0]: 1x1000xf32=[{{-?[0-9]}}
//
// RUN: tcc-opt %examples/resnet18.mlir --tcc-cuda-pipeline="format=isa" | FileCheck %s --check-prefix=CUDA
// CUDA-COUNT-20: llvm.call @tccConv
