// A small, fast pseudo-random generator for seeded schedules
// (SchedulerConfig::seed): the same seed gives the same sequence of
// decisions on each worker, so a failing schedule is named by its seed.
#pragma once

#include <cstdint>

namespace tucana::sched {

// SplitMix64: mixes a seed into a well-spread 64-bit value.
inline std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// xorshift64*: not for cryptography; quick and good enough to pick among
// ready fibers. Contract: used by one thread at a time.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) : state_(mix_seed(seed) | 1) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545f4914f6cdd1dull;
  }
  // Uniform in [0, n). Contract: n > 0.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  // True once in `n` calls on average.
  bool one_in(std::uint64_t n) { return below(n) == 0; }

 private:
  std::uint64_t state_;
};

}  // namespace tucana::sched
