// Run-time configuration, read from TUCANA_* environment variables (which
// tucana-run sets from its command line).
#pragma once

#include <cstddef>
#include <string>

namespace tucana {

struct Config {
  int workers = 1;               // TUCANA_WORKERS: worker threads per process
  int vf = 1;                    // TUCANA_VF: subranks per worker
  int vranks = 0;                // TUCANA_VRANKS: total subranks (overrides vf when > 0)
  std::size_t stack_size = 8u << 20;  // TUCANA_STACK_SIZE: bytes per subrank stack
  double deadlock_timeout = 10;  // TUCANA_DEADLOCK_TIMEOUT: seconds, 0 = off
  std::size_t eager_limit = 64u << 10;  // TUCANA_EAGER_LIMIT: bytes
  bool steal = true;             // TUCANA_STEAL: idle workers run other workers' ready subranks
  // TUCANA_POLICY: the order of each worker's ready queue: "priority" (the
  // highest superblock region priority first, FIFO among equals) or "fifo"
  // (the order subranks became ready, priorities ignored).
  bool priority_policy = true;
  bool tag_output = false;       // TUCANA_TAG_OUTPUT=1: prefix each output line with "[R] "
  std::string output_directory;  // TUCANA_OUTPUT_FILENAME: each subrank's output in DIR/rank.R/

  // Reads the environment. Returns false with `error` naming the variable
  // and the problem when a value is malformed.
  static bool from_environment(Config* out, std::string* error);

  // Parses "64k", "8M", "1g" or a plain byte count (binary multiples).
  static bool parse_size(const std::string& text, std::size_t* out);
};

}  // namespace tucana
