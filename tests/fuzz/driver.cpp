// A stand-in for libFuzzer where there is none (em++: the WebAssembly builds, 32-bit size_t):
// runs LLVMFuzzerTestOneInput on every file of the corpus folders given, then on a seeded stream
// of generated inputs — mutations of those files (bytes flipped, replaced by a limit or a special
// value, inserted, erased, spliced from another file) and fresh random bytes — and prints how many
// inputs it ran. Not coverage-guided: what it adds is the same invariants on another platform.
//
//   fuzz_core_driver [--runs=N] [--seed=S] CORPUS_DIR...   (defaults: 20000 runs, seed 1)
//   fuzz_core_driver --write-seeds DIR                     writes the seed corpus (seeds.cpp)
#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "input.hpp"
#include "core/random.hpp"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fuzz {
using Seeds = std::vector<std::pair<std::string, std::vector<std::uint8_t>>>;
Seeds seeds();
}  // namespace fuzz

namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::size_t kMaxLength = 1024;  // generated inputs stay small: values past the end are generated

// The generated inputs come from the core's seeded generator: the same stream in every build.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t next() { return rng_.next_u64(); }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }

 private:
  attn::Rng rng_;
};

std::vector<Bytes> read_corpus(const std::vector<std::string>& dirs) {
  std::vector<Bytes> corpus;
  for (const std::string& dir : dirs) {
    DIR* d = opendir(dir.c_str());
    if (!d) {
      std::fprintf(stderr, "fuzz_core_driver: cannot open the corpus folder %s\n", dir.c_str());
      std::exit(2);
    }
    std::vector<std::string> names;
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(dir + "/" + e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());  // the same order everywhere: runs are reproducible
    for (const std::string& name : names) {
      std::ifstream f(name, std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
  }
  return corpus;
}

// One to four mutations of a corpus input, or (one time in eight) fresh random bytes.
Bytes generate(const std::vector<Bytes>& corpus, Rng& rng) {
  Bytes b;
  if (corpus.empty() || rng.below(8) == 0) {
    b.resize(1 + rng.below(64));
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
  }
  b = corpus[rng.below(corpus.size())];
  const std::size_t mutations = 1 + rng.below(4);
  for (std::size_t i = 0; i < mutations; ++i) {
    const std::size_t at = rng.below(b.size() + 1);
    switch (rng.below(7)) {
      case 0:  // flip a bit
        if (at < b.size()) b[at] ^= static_cast<std::uint8_t>(1u << rng.below(8));
        break;
      case 1:  // any byte
        if (at < b.size()) b[at] = static_cast<std::uint8_t>(rng.next());
        break;
      case 2:  // a special value or a dimension's limit (the top 16 bytes)
        if (at < b.size()) b[at] = static_cast<std::uint8_t>(fuzz::kFirstSpecialValue + rng.below(16));
        break;
      case 3:  // insert
        if (b.size() < kMaxLength) b.insert(b.begin() + at, static_cast<std::uint8_t>(rng.next()));
        break;
      case 4:  // erase
        if (at < b.size()) b.erase(b.begin() + at);
        break;
      case 5:  // truncate: the rest of the values come from the input's generator
        b.resize(at);
        break;
      default: {  // splice the tail of another input
        const Bytes& other = corpus[rng.below(corpus.size())];
        const std::size_t from = rng.below(other.size() + 1);
        b.resize(at);
        b.insert(b.end(), other.begin() + from, other.begin() + std::min(other.size(), from + kMaxLength - at));
      }
    }
  }
  if (b.size() > kMaxLength) b.resize(kMaxLength);
  return b;
}

int write_seeds(const std::string& dir) {
  for (const auto& [name, bytes] : fuzz::seeds()) {
    const std::string path = dir + "/" + name;
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) {
      std::fprintf(stderr, "fuzz_core_driver: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  std::printf("wrote %zu seed inputs to %s\n", fuzz::seeds().size(), dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  long long runs = 20000;
  std::uint64_t seed = 1;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--write-seeds" && i + 1 < argc) return write_seeds(argv[i + 1]);
    if (arg.rfind("--runs=", 0) == 0) runs = std::atoll(arg.c_str() + 7);
    else if (arg.rfind("--seed=", 0) == 0) seed = std::strtoull(arg.c_str() + 7, nullptr, 10);
    else dirs.push_back(arg);
  }
  LLVMFuzzerInitialize(&argc, &argv);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Bytes> corpus = read_corpus(dirs);
  for (const Bytes& input : corpus) LLVMFuzzerTestOneInput(input.data(), input.size());
  Rng rng(seed);
  for (long long r = 0; r < runs; ++r) {
    const Bytes input = generate(corpus, rng);
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz_core_driver: %lld inputs (%zu from the corpus, %lld generated with seed %llu) in %.1f s, %.0f/s\n",
              static_cast<long long>(corpus.size()) + runs, corpus.size(), runs, static_cast<unsigned long long>(seed),
              seconds, (static_cast<double>(corpus.size()) + runs) / seconds);
  return 0;
}
