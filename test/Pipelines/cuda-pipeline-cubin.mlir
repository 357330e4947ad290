// REQUIRES: ptxas
// The default format: PTX assembled by CUDA's ptxas into a cubin for sm_90
// (an ELF image: its bytes start with \7FELF) embedded in the host module.
// RUN: tcc-opt %s --tcc-cuda-pipeline | FileCheck %s
// CHECK: gpu.binary @scale_kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80", link = [{{.*}}]>{{.*}}bin = "\7FELF
func.func @scale(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c = tcc.constant dense<2.0> : tensor<f32>
  %y = tcc.mul %x, %c : (tensor<?x64xf32>, tensor<f32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
