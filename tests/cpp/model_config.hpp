// A language model's settings in one call, for the Catch2 files that make small models.
#pragma once

#include "model/model.hpp"

namespace model_test {

inline attn::lm::ModelConfig config(int vocab, int context, int layers, int heads, int d_model, bool scaled) {
  attn::lm::ModelConfig c;
  c.vocab = vocab;
  c.context = context;
  c.layers = layers;
  c.heads = heads;
  c.d_model = d_model;
  c.scaled = scaled;
  return c;
}

}  // namespace model_test
