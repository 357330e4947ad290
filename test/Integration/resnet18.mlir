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
//
// Layouts: on the cpu (oneDNN) every convolution goes channels-last, and
// so do the batch norms, the residual adds and the max pool: the only
// transposes left are the input's and the weights' (arguments here), and
// the pooled features' before the global average (a row reduction); those
// of the three 1x1 downsample weights move only unit dims and are
// reshapes. In
// f32 on cuda nothing changes (cuDNN is as fast on NCHW); in bf16 every
// convolution goes channels-last (Tensor Core kernels).
// RUN: tcc-opt %examples/resnet18.mlir --select-layout --canonicalize --cse | grep -c 'tcc.conv2d.*layout = "NHWC"' | FileCheck %s --check-prefix=CPU_CONVS
// CPU_CONVS: 20
// RUN: tcc-opt %examples/resnet18.mlir --select-layout --canonicalize --cse | FileCheck %s --check-prefix=CPU_POOL
// CPU_POOL: tcc.max_pool2d {{.+}}layout = "NHWC"
// RUN: tcc-opt %examples/resnet18.mlir --select-layout --canonicalize --cse | grep -c "tcc.transpose" | FileCheck %s --check-prefix=CPU_TRANSPOSES
// CPU_TRANSPOSES: 19
// RUN: tcc-opt %examples/resnet18.mlir --select-layout --canonicalize --cse | grep -c "tcc.reshape.*x1x1x" | FileCheck %s --check-prefix=CPU_RESHAPES
// CPU_RESHAPES: 3
// RUN: tcc-opt %examples/resnet18.mlir --select-layout --canonicalize --cse | grep -c "axis = 3" | FileCheck %s --check-prefix=CPU_BN
// CPU_BN: 20
// RUN: tcc-opt %examples/resnet18.mlir --select-layout=target=cuda | FileCheck %s --check-prefix=CUDA_F32
// CUDA_F32-NOT: NHWC
// RUN: sed 's/xf32>/xbf16>/g' %examples/resnet18.mlir | tcc-opt --select-layout=target=cuda | grep -c 'layout = "NHWC"' | FileCheck %s --check-prefix=CUDA_BF16
// CUDA_BF16: 21
