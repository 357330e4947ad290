// The ops the ONNX importer added (the GPU check): the trigonometric,
// hyperbolic and rounding ops on inputs inside their domains, tcc.rem on
// floats (libdevice's fmodf) and integers, reduce_prod, gather_elements.
func.func @math(%x: tensor<?x37xf32> {tcc.shape = #tcc.shape<[N, 37]>})
    -> (tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>,
        tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>) {
  %k = tcc.constant dense<0.9> : tensor<f32>
  %one = tcc.constant dense<1.0> : tensor<f32>
  %five = tcc.constant dense<5.0> : tensor<f32>
  %t = tcc.tanh %x : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %u = tcc.mul %t, %k : (tensor<?x37xf32>, tensor<f32>) -> tensor<?x37xf32>
  %e = tcc.exp %x : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %g = tcc.add %e, %one : (tensor<?x37xf32>, tensor<f32>) -> tensor<?x37xf32>
  %w = tcc.mul %x, %five : (tensor<?x37xf32>, tensor<f32>) -> tensor<?x37xf32>
  %s = tcc.sin %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %c = tcc.cos %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %0 = tcc.add %s, %c : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %tn = tcc.tan %x : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %as = tcc.asin %u : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %1 = tcc.add %tn, %as : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %ac = tcc.acos %u : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %at = tcc.atan %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %2 = tcc.add %ac, %at : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %sh = tcc.sinh %x : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %ch = tcc.cosh %x : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %3 = tcc.add %sh, %ch : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %ash = tcc.asinh %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %ach = tcc.acosh %g : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %4 = tcc.add %ash, %ach : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %5 = tcc.atanh %u : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %fl = tcc.floor %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %ce = tcc.ceil %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %rd = tcc.round %w : (tensor<?x37xf32>) -> tensor<?x37xf32>
  %6 = tcc.add %fl, %ce : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %7 = tcc.add %6, %rd : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  %8 = tcc.rem %w, %g : (tensor<?x37xf32>, tensor<?x37xf32>) -> tensor<?x37xf32>
  return %0, %1, %2, %3, %4, %5, %7, %8 : tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>, tensor<?x37xf32>
}

func.func @indexing(%x: tensor<?x9xf32> {tcc.shape = #tcc.shape<[N, 9]>},
                    %i: tensor<?x2xi64> {tcc.shape = #tcc.shape<[N, 2]>},
                    %n: tensor<?x9xi32> {tcc.shape = #tcc.shape<[N, 9]>})
    -> (tensor<?xf32>, tensor<?x2xf32>, tensor<?x9xi32>) {
  %0 = tcc.reduce_prod %x {axes = array<i64: 1>} : (tensor<?x9xf32>) -> tensor<?xf32>
  %1 = tcc.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x9xf32>, tensor<?x2xi64>) -> tensor<?x2xf32>
  %d = tcc.constant dense<[3, -3, 5, -5, 7, 1, -1, 4, 2]> : tensor<9xi32>
  %2 = tcc.rem %n, %d : (tensor<?x9xi32>, tensor<9xi32>) -> tensor<?x9xi32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?x2xf32>, tensor<?x9xi32>
}
