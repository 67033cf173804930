#include "config.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace tucana {

bool Config::parse_size(const std::string& text, std::size_t* out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno) return false;
  std::string suffix(end);
  unsigned long long mult = 1;
  if (suffix.empty() || suffix == "b" || suffix == "B") mult = 1;
  else if (suffix == "k" || suffix == "K" || suffix == "KiB") mult = 1ull << 10;
  else if (suffix == "m" || suffix == "M" || suffix == "MiB") mult = 1ull << 20;
  else if (suffix == "g" || suffix == "G" || suffix == "GiB") mult = 1ull << 30;
  else return false;
  *out = static_cast<std::size_t>(v * mult);
  return true;
}

namespace {
bool read_int(const char* var, int min, int* out, std::string* error) {
  const char* v = std::getenv(var);
  if (!v || !*v) return true;
  char* end = nullptr;
  errno = 0;
  long x = std::strtol(v, &end, 10);
  if (errno || *end || x < min || x > 1 << 24) {
    *error = std::string(var) + "=" + v + ": expected an integer >= " + std::to_string(min);
    return false;
  }
  *out = static_cast<int>(x);
  return true;
}
}  // namespace

bool Config::from_environment(Config* out, std::string* error) {
  Config c;
  if (!read_int("TUCANA_WORKERS", 1, &c.workers, error)) return false;
  if (!read_int("TUCANA_VF", 1, &c.vf, error)) return false;
  if (!read_int("TUCANA_VRANKS", 0, &c.vranks, error)) return false;
  if (!read_int("TUCANA_TASKS", 1, &c.tasks, error)) return false;
  int steal = 1;
  if (!read_int("TUCANA_STEAL", 0, &steal, error)) return false;
  c.steal = steal != 0;
  if (const char* v = std::getenv("TUCANA_BOUNDARY"); v && *v) {
    std::string b(v);
    if (b == "first") c.boundary_order = BoundaryOrder::kFirst;
    else if (b == "off") c.boundary_order = BoundaryOrder::kOff;
    else if (b == "center") c.boundary_order = BoundaryOrder::kCenter;
    else {
      *error = "TUCANA_BOUNDARY=" + b + ": expected 'first', 'off' or 'center'";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_PROGRESS"); v && *v) {
    std::string m(v);
    if (m == "any") c.progress = ProgressMode::kAny;
    else if (m == "worker") c.progress = ProgressMode::kWorker;
    else if (m == "multiple") c.progress = ProgressMode::kMultiple;
    else {
      *error = "TUCANA_PROGRESS=" + m + ": expected 'any', 'worker' or 'multiple'";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_POLICY"); v && *v) {
    std::string p(v);
    if (p == "priority") c.priority_policy = true;
    else if (p == "fifo") c.priority_policy = false;
    else {
      *error = "TUCANA_POLICY=" + p + ": expected 'priority' or 'fifo'";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_STACK_SIZE"); v && *v) {
    if (!parse_size(v, &c.stack_size) || c.stack_size < 16384) {
      *error = std::string("TUCANA_STACK_SIZE=") + v + ": expected a size of at least 16k (e.g. 256k, 8M)";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_EAGER_LIMIT"); v && *v) {
    if (!parse_size(v, &c.eager_limit)) {
      *error = std::string("TUCANA_EAGER_LIMIT=") + v + ": expected a size (e.g. 0, 4k, 64k)";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_DEADLOCK_TIMEOUT"); v && *v) {
    char* end = nullptr;
    c.deadlock_timeout = std::strtod(v, &end);
    if (*end || c.deadlock_timeout < 0) {
      *error = std::string("TUCANA_DEADLOCK_TIMEOUT=") + v + ": expected seconds >= 0 (0 turns detection off)";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_SCHED_SEED"); v && *v) {
    char* end = nullptr;
    errno = 0;
    c.sched_seed = std::strtoull(v, &end, 10);
    if (errno || *end || *v == '-') {
      *error = std::string("TUCANA_SCHED_SEED=") + v + ": expected a non-negative integer";
      return false;
    }
    c.sched_randomized = true;
  }
  if (const char* v = std::getenv("TUCANA_HELPER_STACK_SIZE"); v && *v) {
    if (!parse_size(v, &c.helper_stack_size) || c.helper_stack_size < 16384) {
      *error = std::string("TUCANA_HELPER_STACK_SIZE=") + v + ": expected a size of at least 16k (e.g. 256k, 4M)";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_TASK_STACK_SIZE"); v && *v) {
    if (!parse_size(v, &c.task_stack_size) || c.task_stack_size < 16384) {
      *error = std::string("TUCANA_TASK_STACK_SIZE=") + v + ": expected a size of at least 16k (e.g. 256k, 4M)";
      return false;
    }
  }
  if (const char* v = std::getenv("TUCANA_OVERSUBSCRIBED"); v && *v) {
    std::string o(v);
    if (o != "0" && o != "1") {
      *error = "TUCANA_OVERSUBSCRIBED=" + o + ": expected 0 or 1";
      return false;
    }
    c.oversubscribed = o == "1";
  }
  int tag = 0;
  if (!read_int("TUCANA_TAG_OUTPUT", 0, &tag, error)) return false;
  c.tag_output = tag != 0;
  if (const char* v = std::getenv("TUCANA_OUTPUT_FILENAME"); v && *v) c.output_directory = v;
  *out = c;
  return true;
}

}  // namespace tucana
