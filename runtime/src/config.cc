#include "config.h"

#include "sched/policy.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <initializer_list>

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

// A variable whose value is one of `choices` (the first is the default):
// *out becomes its index. The error lists them as tucana-run does.
bool read_choice(const char* var, std::initializer_list<const char*> choices, int* out, std::string* error) {
  const char* v = std::getenv(var);
  if (!v || !*v) return true;
  int i = 0;
  std::string expected;
  for (const char* c : choices) {
    if (std::string(v) == c) {
      *out = i;
      return true;
    }
    expected += (i == 0 ? "'" : i + 1 == static_cast<int>(choices.size()) ? " or '" : ", '") + std::string(c) + "'";
    ++i;
  }
  *error = std::string(var) + "=" + v + ": expected " + expected;
  return false;
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
  int boundary = 0, scope = 0, wake = 0, pack = 0;
  if (!read_choice("TUCANA_BOUNDARY", {"first", "off", "center"}, &boundary, error)) return false;
  c.boundary_order = boundary == 0 ? BoundaryOrder::kFirst : boundary == 1 ? BoundaryOrder::kOff : BoundaryOrder::kCenter;
  if (const char* v = std::getenv("TUCANA_POLICY"); v && *v) {
    if (!sched::find_policy(v)) {
      *error = std::string("TUCANA_POLICY=") + v + ": expected " + sched::policy_names();
      return false;
    }
    c.policy = v;
  }
  if (!read_choice("TUCANA_PRIORITY_SCOPE", {"process", "worker"}, &scope, error)) return false;
  c.process_wide_priority = scope == 0;
  if (!read_choice("TUCANA_WAKE", {"home", "waker"}, &wake, error)) return false;
  c.wake_on_waker = wake == 1;
  if (!read_choice("TUCANA_PACK", {"split", "locked"}, &pack, error)) return false;
  c.pack_under_lock = pack == 1;
  int progress = 0;
  if (!read_choice("TUCANA_PROGRESS", {"any", "worker", "multiple"}, &progress, error)) return false;
  c.progress = progress == 0 ? ProgressMode::kAny : progress == 1 ? ProgressMode::kWorker : ProgressMode::kMultiple;
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
