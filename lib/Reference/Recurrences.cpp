//===- Recurrences.cpp - Reference LSTM, GRU and RNN ------------*- C++ -*-===//
//
// tcc.lstm, tcc.gru and tcc.rnn step by step in double: the gates of each
// step from the input and the previous state, in PyTorch's order (LSTM
// i, f, g, o; GRU r, z, n), the state rounded to the element type only in
// the results.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorInternal.h"

#include <algorithm>
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

/// `acc[g] = bias[g] + sum_j v[j] * w[g, j]` for the rows g of w [G, J].
static void affine(const HostTensor &w, const HostTensor *bias,
                   llvm::function_ref<double(int64_t)> v, int64_t rows,
                   int64_t cols, std::vector<double> &acc) {
  acc.assign(rows, 0.0);
  for (int64_t g = 0; g < rows; ++g) {
    double a = bias ? bias->getDouble(g) : 0.0;
    for (int64_t j = 0; j < cols; ++j)
      a += v(j) * w.getDouble(g * cols + j);
    acc[g] = a;
  }
}

/// The shapes every single-state recurrence checks: x [T, B, I], w_ih
/// [G*H, I], w_hh [G*H, H], biases [G*H] and h0 [B, H].
static LogicalResult checkRecurrence(OpState &s, int64_t gates,
                                     ArrayRef<const HostTensor *> biases) {
  const HostTensor &x = s.operands[0], &wih = s.operands[1],
                   &whh = s.operands[2], &h0 = s.operands.back();
  if (x.rank() != 3 || wih.rank() != 2 || whh.rank() != 2 || h0.rank() != 2)
    return s.fail("expects x [T, B, I], w_ih, w_hh and h0 of ranks 3, 2, 2, 2");
  int64_t batch = x.shape[1], input = x.shape[2], hidden = whh.shape[1];
  bool ok = wih.shape == Shape{gates * hidden, input} &&
            whh.shape == Shape{gates * hidden, hidden} &&
            h0.shape == Shape{batch, hidden};
  for (const HostTensor *b : biases)
    ok = ok && b->shape == Shape{gates * hidden};
  if (!ok)
    return s.fail("operand shapes disagree: x " + x.typeString() + ", w_ih " +
                  wih.typeString() + ", w_hh " + whh.typeString() + ", h0 " +
                  h0.typeString());
  return success();
}

static LogicalResult evalGRU(OpState &s) {
  if (failed(s.checkArity(6, 6, 2)))
    return failure();
  const HostTensor &x = s.operands[0], &wih = s.operands[1],
                   &whh = s.operands[2], &bih = s.operands[3],
                   &bhh = s.operands[4], &h0 = s.operands[5];
  FailureOr<bool> reverse = s.getBool("reverse", false);
  FailureOr<bool> lbr = s.getBool("linear_before_reset", true);
  if (failed(reverse) || failed(lbr) || failed(checkRecurrence(s, 3, {&bih, &bhh})))
    return failure();
  int64_t steps = x.shape[0], batch = x.shape[1], input = x.shape[2];
  int64_t hidden = whh.shape[1];
  HostTensor *y = s.makeResult(0, {steps, batch, hidden});
  HostTensor *hOut = s.makeResult(1, {batch, hidden});
  if (!y || !hOut)
    return failure();
  std::vector<double> h(batch * hidden), gi, gh, gn;
  for (int64_t i = 0; i < batch * hidden; ++i)
    h[i] = h0.getDouble(i);
  for (int64_t k = 0; k < steps; ++k) {
    int64_t t = *reverse ? steps - 1 - k : k;
    std::vector<double> next(batch * hidden);
    for (int64_t b = 0; b < batch; ++b) {
      const double *hb = &h[b * hidden];
      affine(wih, &bih, [&](int64_t j) {
        return x.getDouble((t * batch + b) * input + j);
      }, 3 * hidden, input, gi);
      affine(whh, &bhh, [&](int64_t j) { return hb[j]; }, 3 * hidden, hidden,
             gh);
      std::vector<double> r(hidden), z(hidden);
      for (int64_t j = 0; j < hidden; ++j) {
        r[j] = sigmoid(gi[j] + gh[j]);
        z[j] = sigmoid(gi[hidden + j] + gh[hidden + j]);
      }
      if (!*lbr) {
        // (r * h) @ w_hh_n^T + b_hh_n: rows 2H.. of w_hh and b_hh.
        gn.assign(hidden, 0.0);
        for (int64_t g = 0; g < hidden; ++g) {
          double a = bhh.getDouble(2 * hidden + g);
          for (int64_t j = 0; j < hidden; ++j)
            a += r[j] * hb[j] * whh.getDouble((2 * hidden + g) * hidden + j);
          gn[g] = a;
        }
      }
      for (int64_t j = 0; j < hidden; ++j) {
        double n = std::tanh(gi[2 * hidden + j] +
                             (*lbr ? r[j] * gh[2 * hidden + j] : gn[j]));
        next[b * hidden + j] = (1.0 - z[j]) * n + z[j] * hb[j];
      }
    }
    h = next;
    for (int64_t i = 0; i < batch * hidden; ++i)
      y->setDouble(t * batch * hidden + i, h[i]);
  }
  for (int64_t i = 0; i < batch * hidden; ++i)
    hOut->setDouble(i, h[i]);
  return success();
}

static LogicalResult evalRNN(OpState &s) {
  if (failed(s.checkArity(5, 5, 2)))
    return failure();
  const HostTensor &x = s.operands[0], &wih = s.operands[1],
                   &whh = s.operands[2], &bias = s.operands[3],
                   &h0 = s.operands[4];
  FailureOr<bool> reverse = s.getBool("reverse", false);
  FailureOr<std::string> act = s.getString("nonlinearity", "tanh");
  if (failed(reverse) || failed(act) || failed(checkRecurrence(s, 1, {&bias})))
    return failure();
  if (*act != "tanh" && *act != "relu")
    return s.fail("unknown nonlinearity '" + *act + "'");
  int64_t steps = x.shape[0], batch = x.shape[1], input = x.shape[2];
  int64_t hidden = whh.shape[1];
  HostTensor *y = s.makeResult(0, {steps, batch, hidden});
  HostTensor *hOut = s.makeResult(1, {batch, hidden});
  if (!y || !hOut)
    return failure();
  std::vector<double> h(batch * hidden), gi, gh;
  for (int64_t i = 0; i < batch * hidden; ++i)
    h[i] = h0.getDouble(i);
  for (int64_t k = 0; k < steps; ++k) {
    int64_t t = *reverse ? steps - 1 - k : k;
    std::vector<double> next(batch * hidden);
    for (int64_t b = 0; b < batch; ++b) {
      affine(wih, &bias, [&](int64_t j) {
        return x.getDouble((t * batch + b) * input + j);
      }, hidden, input, gi);
      affine(whh, nullptr, [&](int64_t j) { return h[b * hidden + j]; },
             hidden, hidden, gh);
      for (int64_t j = 0; j < hidden; ++j) {
        double v = gi[j] + gh[j];
        next[b * hidden + j] = *act == "tanh" ? std::tanh(v) : std::max(v, 0.0);
      }
    }
    h = next;
    for (int64_t i = 0; i < batch * hidden; ++i)
      y->setDouble(t * batch * hidden + i, h[i]);
  }
  for (int64_t i = 0; i < batch * hidden; ++i)
    hOut->setDouble(i, h[i]);
  return success();
}

void registerRecurrenceKernels(KernelTable &t) {
  t["tcc.lstm"] = evalLSTM;
  t["tcc.gru"] = evalGRU;
  t["tcc.rnn"] = evalRNN;
}

} // namespace tcc::reference::detail
