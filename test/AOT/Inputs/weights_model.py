"""Writes a module with a 64x32 f32 weight (8 KB: a constant that
tcc-compile --weights=file moves beside the library) and a 32-element bias
(128 bytes: it stays inside), as dense resources; argv[1] seeds the
weights, so two seeds give two builds of one model."""
import random
import struct
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)


def blob(count):
    values = [rng.uniform(-1, 1) for _ in range(count)]
    # A resource blob: its alignment (4) as a little-endian u32, then data.
    return "0x" + (struct.pack("<I", 4) +
                   struct.pack(f"<{count}f", *values)).hex().upper()


print("""func.func @main(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
  %w = tcc.constant dense_resource<w> : tensor<64x32xf32>
  %b = tcc.constant dense_resource<b> : tensor<32xf32>
  %y = tcc.matmul %x, %w : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %z = tcc.add %y, %b : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %z : tensor<?x32xf32>
}
{-#
  dialect_resources: {
    builtin: {""")
print(f'      w: "{blob(64 * 32)}",')
print(f'      b: "{blob(32)}"')
print("""    }
  }
#-}""")
