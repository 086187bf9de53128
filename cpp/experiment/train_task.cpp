// Associative recall: the data of the training experiment (see train.hpp, THE TASK).
#include "experiment/train.hpp"

namespace attn {
namespace train {

void resize_batch(const TaskShape& shape, int count, Batch* batch) {
  const std::size_t pairs = static_cast<std::size_t>(count) * shape.pairs;
  const std::size_t queries = static_cast<std::size_t>(count) * shape.queries;
  batch->count = count;
  batch->keys.assign(pairs, 0);
  batch->values.assign(pairs, 0);
  batch->queries.assign(queries, 0);
  batch->target.assign(queries, 0);
  batch->answers.assign(queries, 0);
}

namespace {

// The first `take` slots of a Fisher–Yates shuffle of 0…n−1 (slots holds n entries).
// next_u64() % (n − i) is biased by at most n / 2⁶⁴: nothing a test could see.
void partial_shuffle(Rng& rng, int n, int take, std::int32_t* slots) {
  for (int i = 0; i < n; ++i) slots[i] = i;
  for (int i = 0; i < take; ++i) {
    const int j = i + static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(n - i));
    const std::int32_t swap = slots[i];
    slots[i] = slots[j];
    slots[j] = swap;
  }
}

}  // namespace

void generate_batch(const TaskShape& shape, Rng& rng, Batch* batch) {
  const int P = shape.pairs, Qn = shape.queries;
  std::int32_t slots[kMaxLetters];  // L ≤ kMaxLetters and P ≤ L
  for (int b = 0; b < batch->count; ++b) {
    std::int32_t* keys = batch->keys.data() + static_cast<std::size_t>(b) * P;
    std::int32_t* values = batch->values.data() + static_cast<std::size_t>(b) * P;
    partial_shuffle(rng, shape.letters, P, slots);
    for (int i = 0; i < P; ++i) keys[i] = slots[i];
    for (int i = 0; i < P; ++i) values[i] = static_cast<std::int32_t>(rng.next_u64() % kDigits);
    partial_shuffle(rng, P, Qn, slots);
    const std::size_t row0 = static_cast<std::size_t>(b) * Qn;
    for (int i = 0; i < Qn; ++i) {
      batch->target[row0 + i] = slots[i];
      batch->queries[row0 + i] = keys[slots[i]];
      batch->answers[row0 + i] = values[slots[i]];
    }
  }
}

}  // namespace train
}  // namespace attn
