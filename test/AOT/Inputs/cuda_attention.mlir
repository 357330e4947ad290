func.func @attention(%q: tensor<?x12x197x64xbf16>, %k: tensor<?x12x197x64xbf16>, %v: tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16> {
  %o = tcc.attention %q, %k, %v : (tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16>
  return %o : tensor<?x12x197x64xbf16>
}
