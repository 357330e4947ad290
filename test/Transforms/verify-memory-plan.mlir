// RUN: tcc-opt %s --verify-memory-plan --split-input-file --verify-diagnostics
// Broken plans, written by hand, that the checker rejects; the plans
// --plan-memory writes pass it in every test that plans memory (the
// pipelines run it after planning).

func.func @overlap(%x: tensor<16xf32>) -> tensor<16xf32> attributes {tcc.arena = [{naive = 128 : i64, scale = "1", size = 64 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 128 : i64} {
  // expected-note @below {{the other buffer}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @below {{memory plan: this buffer [0, 64) overlaps a buffer live at the same time [0, 64) of region 0 (ops 0..2 and 1..2)}}
  %1 = tcc.neg %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = tcc.add %0, %1 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

func.func @misaligned(%x: tensor<16xf32>) -> tensor<16xf32> attributes {tcc.arena = [{naive = 128 : i64, scale = "1", size = 128 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 128 : i64} {
  // expected-error @below {{memory plan: offset 32 of result 0 is not a multiple of the alignment 64}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 32 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tcc.neg %0 : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

func.func @past_region(%x: tensor<16xf32>) -> tensor<16xf32> attributes {tcc.arena = [{naive = 128 : i64, scale = "1", size = 64 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 128 : i64} {
  // expected-error @below {{memory plan: result 0 at [64, 128) runs past its region's 64 units}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tcc.neg %0 : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

func.func @too_small(%x: tensor<16xf32>) -> tensor<16xf32> attributes {tcc.arena = [{naive = 64 : i64, scale = "1", size = 64 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 64 : i64} {
  // expected-error @below {{memory plan: result 0 needs 64 bytes but the plan reserves 32}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tcc.neg %0 : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

func.func @returned(%x: tensor<16xf32>) -> tensor<16xf32> attributes {tcc.arena = [{naive = 64 : i64, scale = "1", size = 64 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 64 : i64} {
  // expected-error @below {{memory plan: result 0 is returned but placed in the arena}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// Symbolic: the region's scale must be the factor of the value's size.
func.func @wrong_scale(%x: tensor<?x16xf32> {tcc.shape = #tcc.shape<[B, 16]>}) -> tensor<?x16xf32> attributes {tcc.arena = [{naive = 64 : i64, scale = "1", size = 64 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 64 : i64} {
  // expected-error @below {{memory plan: result 0 needs B * 64 bytes but the plan reserves 64}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 64 : i64}} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %1 = tcc.neg %0 : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %1 : tensor<?x16xf32>
}

// -----

// In place is only accepted where the rule holds: a reduction group reads
// its whole input row before writing.
func.func @bad_in_place(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {tcc.arena = [{naive = 512 : i64, scale = "1", size = 256 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 512 : i64} {
  // expected-note @below {{the other buffer}}
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 256 : i64}} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-error @below {{memory plan: this buffer [0, 256) overlaps a buffer live at the same time [0, 256) of region 0 (ops 0..1 and 1..2)}}
  %1 = fusion.group "reduction"(%0 : tensor<4x16xf32>) -> tensor<4x16xf32> attributes {tcc.buffer = {in_place = 0 : i64, offset = 0 : i64, region = 0 : i64, size = 256 : i64}} {
  ^bb0(%a: tensor<4x16xf32>):
    %s = tcc.softmax %a {axis = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    fusion.yield %s : tensor<4x16xf32>
  }
  %2 = tcc.neg %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// The same chain with a pointwise group is accepted.
func.func @good_in_place(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {tcc.arena = [{naive = 512 : i64, scale = "1", size = 256 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 512 : i64} {
  %0 = tcc.exp %x {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 256 : i64}} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = fusion.group "pointwise"(%0 : tensor<4x16xf32>) -> tensor<4x16xf32> attributes {tcc.buffer = {in_place = 0 : i64, offset = 0 : i64, region = 0 : i64, size = 256 : i64}} {
  ^bb0(%a: tensor<4x16xf32>):
    %s = tcc.tanh %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
    fusion.yield %s : tensor<4x16xf32>
  }
  %2 = tcc.neg %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}
