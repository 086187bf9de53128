// The optimisers both trained models use (optim.hpp).
#include "core/optim.hpp"

#include <cmath>

namespace attn {
namespace optim {

using std::size_t;

void sgd_update(float* params, const float* grads, float* velocity, std::size_t count, float lr, float momentum) {
  for (size_t i = 0; i < count; ++i) {
    velocity[i] = momentum * velocity[i] + grads[i];
    params[i] -= lr * velocity[i];
  }
}

void adam_update(float* params, const float* grads, float* m, float* v, std::size_t count, float lr, float beta1,
                 float beta2, float eps, int t) {
  // bias corrections in double: 1 − β2ᵗ is ~1e-3 at t = 1 and must not lose digits
  const float m_corr = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(beta1), t)));
  const float v_corr = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(beta2), t)));
  for (size_t i = 0; i < count; ++i) {
    const float g = grads[i];
    m[i] = beta1 * m[i] + (1.0f - beta1) * g;
    v[i] = beta2 * v[i] + (1.0f - beta2) * g * g;
    params[i] -= lr * (m[i] * m_corr) / (std::sqrt(v[i] * v_corr) + eps);
  }
}

float l2_norm(const float* x, std::size_t count) {
  double sum = 0;
  for (size_t i = 0; i < count; ++i) sum += static_cast<double>(x[i]) * x[i];
  return static_cast<float>(std::sqrt(sum));
}

float clip_grad_norm(float* grads, std::size_t count, float max_norm) {
  const float norm = l2_norm(grads, count);
  if (max_norm > 0.0f && norm > max_norm) {
    const float factor = max_norm / norm;
    for (size_t i = 0; i < count; ++i) grads[i] *= factor;
  }
  return norm;
}

}  // namespace optim
}  // namespace attn
