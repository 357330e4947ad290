// RUN: tcc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{unknown target kind 'tpu' (expected cpu or cuda)}}
module attributes {tcc.target = #tcc.target<"tpu", arch = "v5", features = "", vector_bits = 512, on_chip_bytes = 1, bandwidth = 1, peak_flops = 1, launch_ns = 0, relayout_bandwidth = 1, alignment = 64>} {
}

// -----

// expected-error @+1 {{expects a power-of-two alignment, got 48}}
module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "", vector_bits = 512, on_chip_bytes = 1, bandwidth = 1, peak_flops = 1, launch_ns = 0, relayout_bandwidth = 1, alignment = 48>} {
}

// -----

// expected-error @+1 {{expects vector_bits >= 32 and positive on_chip_bytes, bandwidth, peak_flops and relayout_bandwidth (launch_ns >= 0)}}
module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "", vector_bits = 512, on_chip_bytes = 1, bandwidth = 0, peak_flops = 1, launch_ns = 0, relayout_bandwidth = 1, alignment = 64>} {
}

// -----

// expected-error @+1 {{expects libraries to be strings}}
module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "", vector_bits = 512, on_chip_bytes = 1, bandwidth = 1, peak_flops = 1, launch_ns = 0, relayout_bandwidth = 1, alignment = 64, libraries = [1]>} {
}
