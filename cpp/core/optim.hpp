// The optimisers both trained models use (one flat loop over a parameter block): the training
// experiment (experiment/train.hpp) and the language model (model/model.hpp, whose AdamW adds
// its weight decay to adam_update's step). Nothing here allocates or throws.
#pragma once

#include <cstddef>

namespace attn {
namespace optim {

// SGD with momentum (heavy ball, as PyTorch): velocity = momentum·velocity + grad,
// param −= lr·velocity. momentum 0 is plain SGD.
void sgd_update(float* params, const float* grads, float* velocity, std::size_t count, float lr, float momentum);

// Adam (Kingma & Ba), step t ≥ 1: m = β1·m + (1−β1)·g, v = β2·v + (1−β2)·g²,
// param −= lr · (m / (1−β1ᵗ)) / (√(v / (1−β2ᵗ)) + eps).
void adam_update(float* params, const float* grads, float* m, float* v, std::size_t count, float lr, float beta1,
                 float beta2, float eps, int t);

// ‖grads‖₂ (accumulated in double); when max_norm > 0 and the norm exceeds it, scales grads
// by max_norm / norm. Returns the norm before clipping.
float clip_grad_norm(float* grads, std::size_t count, float max_norm);

// ‖x‖₂ of count floats, accumulated in double.
float l2_norm(const float* x, std::size_t count);

}  // namespace optim
}  // namespace attn
