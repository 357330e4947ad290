// #tcc.target round-trips; `libraries` may be left out.
// RUN: tcc-opt %s --split-input-file | tcc-opt --split-input-file | FileCheck %s

// CHECK: module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "+avx2,+avx512f", vector_bits = 512, on_chip_bytes = 1048576, bandwidth = 32000000000, peak_flops = 256000000000, launch_ns = 1024, relayout_bandwidth = 8000000000, alignment = 64, libraries = ["onednn"]>}
module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "+avx2,+avx512f", vector_bits = 512, on_chip_bytes = 1048576, bandwidth = 32000000000, peak_flops = 256000000000, launch_ns = 1024, relayout_bandwidth = 8000000000, alignment = 64, libraries = ["onednn"]>} {
}

// -----

// CHECK: module attributes {tcc.target = #tcc.target<"cuda", arch = "sm_90", features = "+ptx80", vector_bits = 128, on_chip_bytes = 233472, bandwidth = 4800000000000, peak_flops = 67200000000000, launch_ns = 3058, relayout_bandwidth = 3000000000000, alignment = 256>}
module attributes {tcc.target = #tcc.target<"cuda", arch = "sm_90", features = "+ptx80", vector_bits = 128, on_chip_bytes = 233472, bandwidth = 4800000000000, peak_flops = 67200000000000, launch_ns = 3058, relayout_bandwidth = 3000000000000, alignment = 256>} {
}
