//===- Recurrences.cpp - Reference LSTM -------------------------*- C++ -*-===//
//
// tcc.lstm step by step in double: the gates of each step from the input
// and the previous state, PyTorch's order (i, f, g, o), the state rounded
// to the element type only in the results.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <cmath>

using namespace mlir;

namespace tcc::reference::detail {

static double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

static LogicalResult evalLSTM(OpState &s) {
  if (failed(s.checkArity(6, 6, 3)))
    return failure();
  const HostTensor &x = s.operands[0], &wih = s.operands[1],
                   &whh = s.operands[2], &bias = s.operands[3],
                   &h0 = s.operands[4], &c0 = s.operands[5];
  FailureOr<bool> reverse = s.getBool("reverse", false);
  if (failed(reverse))
    return failure();
  if (x.rank() != 3 || wih.rank() != 2 || whh.rank() != 2 || bias.rank() != 1 ||
      h0.rank() != 2 || c0.rank() != 2)
    return s.fail("expects x [T, B, I], w_ih [4H, I], w_hh [4H, H], bias "
                  "[4H], h0 and c0 [B, H]");
  int64_t steps = x.shape[0], batch = x.shape[1], input = x.shape[2];
  int64_t hidden = whh.shape[1];
  if (wih.shape != Shape{4 * hidden, input} ||
      whh.shape != Shape{4 * hidden, hidden} || bias.shape[0] != 4 * hidden ||
      h0.shape != Shape{batch, hidden} || c0.shape != Shape{batch, hidden})
    return s.fail("operand shapes disagree: x " + x.typeString() + ", w_ih " +
                  wih.typeString() + ", w_hh " + whh.typeString() + ", bias " +
                  bias.typeString() + ", h0 " + h0.typeString() + ", c0 " +
                  c0.typeString());
  HostTensor *y = s.makeResult(0, {steps, batch, hidden});
  HostTensor *hOut = s.makeResult(1, {batch, hidden});
  HostTensor *cOut = s.makeResult(2, {batch, hidden});
  if (!y || !hOut || !cOut)
    return failure();
  std::vector<double> h(batch * hidden), c(batch * hidden),
      gates(4 * hidden);
  for (int64_t i = 0; i < batch * hidden; ++i) {
    h[i] = h0.getDouble(i);
    c[i] = c0.getDouble(i);
  }
  for (int64_t k = 0; k < steps; ++k) {
    int64_t t = *reverse ? steps - 1 - k : k;
    std::vector<double> next(batch * hidden);
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t g = 0; g < 4 * hidden; ++g) {
        double acc = bias.getDouble(g);
        for (int64_t j = 0; j < input; ++j)
          acc += x.getDouble((t * batch + b) * input + j) *
                 wih.getDouble(g * input + j);
        for (int64_t j = 0; j < hidden; ++j)
          acc += h[b * hidden + j] * whh.getDouble(g * hidden + j);
        gates[g] = acc;
      }
      for (int64_t j = 0; j < hidden; ++j) {
        double in = sigmoid(gates[j]), forget = sigmoid(gates[hidden + j]),
               cell = std::tanh(gates[2 * hidden + j]),
               out = sigmoid(gates[3 * hidden + j]);
        double &cj = c[b * hidden + j];
        cj = forget * cj + in * cell;
        next[b * hidden + j] = out * std::tanh(cj);
      }
    }
    h = next;
    for (int64_t i = 0; i < batch * hidden; ++i)
      y->setDouble(t * batch * hidden + i, h[i]);
  }
  for (int64_t i = 0; i < batch * hidden; ++i) {
    hOut->setDouble(i, h[i]);
    cOut->setDouble(i, c[i]);
  }
  return success();
}

void registerRecurrenceKernels(KernelTable &t) { t["tcc.lstm"] = evalLSTM; }

} // namespace tcc::reference::detail
