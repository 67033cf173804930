#include "config.h"

#include "sched/policy.h"

#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

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
// The readers of run_options.def's kinds: each leaves *out alone and returns
// true when `var` is unset or empty, sets *out and *set for a good value, and
// returns false with `error` naming the variable for a bad one.
const char* value_of(const char* var, bool* set) {
  const char* v = std::getenv(var);
  *set = v && *v;
  return *set ? v : nullptr;
}

bool fail(std::string* error, const char* var, const char* v, const std::string& expected) {
  *error = std::string(var) + "=" + v + ": expected " + expected;
  return false;
}

bool read_count(const char* var, long min, long* out, bool* set, std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  char* end = nullptr;
  errno = 0;
  long x = std::strtol(v, &end, 10);
  if (errno || *end || x < min || x > 1 << 24) return fail(error, var, v, "an integer >= " + std::to_string(min));
  *out = x;
  return true;
}

// A flag's variable: any integer >= 0 (tucana-run sets 1).
bool read_flag(const char* var, long* out, bool* set, std::string* error) {
  return read_count(var, 0, out, set, error);
}

// Bytes, at least `min`; `examples` end the error.
bool read_size(const char* var, std::size_t min, const char* examples, std::size_t* out, bool* set,
               std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  if (!Config::parse_size(v, out) || *out < min) {
    return fail(error, var, v,
                (min ? "a size of at least " + std::to_string(min >> 10) + "k" : std::string("a size")) + " (e.g. " +
                    examples + ")");
  }
  return true;
}

// Seconds >= 0; `remark` ends the error.
bool read_seconds(const char* var, const char* remark, double* out, bool* set, std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  char* end = nullptr;
  *out = std::strtod(v, &end);
  if (*end || *out < 0) return fail(error, var, v, std::string("seconds >= 0 (") + remark + ")");
  return true;
}

bool read_seed(const char* var, unsigned long long* out, bool* set, std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  char* end = nullptr;
  errno = 0;
  *out = std::strtoull(v, &end, 10);
  if (errno || *end || *v == '-') return fail(error, var, v, "a non-negative integer");
  return true;
}

// One of `choices` ("a|b|c"): *out becomes its index. The error lists them
// as tucana-run does.
bool read_choice(const char* var, const char* choices, int* out, bool* set, std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  std::vector<std::string> names;
  for (const char* c = choices;; ++c) {
    const char* bar = std::strchr(c, '|');
    names.emplace_back(c, bar ? bar - c : std::strlen(c));
    if (!bar) break;
    c = bar;
  }
  std::string expected;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == v) {
      *out = static_cast<int>(i);
      return true;
    }
    expected += (i == 0 ? "'" : i + 1 == names.size() ? " or '" : ", '") + names[i] + "'";
  }
  return fail(error, var, v, expected);
}

bool read_switch01(const char* var, int* out, bool* set, std::string* error) {
  const char* v = value_of(var, set);
  if (!v) return true;
  if (std::string(v) != "0" && std::string(v) != "1") return fail(error, var, v, "0 or 1");
  *out = *v - '0';
  return true;
}

// A directory or a file: any text.
bool read_text(const char* var, std::string* out, bool* set) {
  const char* v = value_of(var, set);
  if (v) *out = v;
  return true;
}

// run_options.def's --policy row offers the registry's names
// (sched::kPolicyNames), in that order (its first is the default, and its
// store turns choice 0 into the first name): a policy registered and not
// offered, or offered and not registered, does not build.
struct RowChoices {
  const char* option;
  const char* choices;
};
constexpr RowChoices kRunOptionChoices[] = {
#define TUCANA_RUN_OPTION(name, section, option, aliases, arg, env, kind, min, choices, hint, dflt, help, doc, see, store) \
  {#name, choices},
#include "run_options.def"
#undef TUCANA_RUN_OPTION
};

constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// Whether `choices` is "name1|name2|..." of sched::kPolicyNames.
constexpr bool lists_the_registry(const char* choices) {
  bool first = true;
  for (const char* name : sched::kPolicyNames) {
    if (!first && *choices++ != '|') return false;
    first = false;
    for (const char* n = name; *n; ++n, ++choices)
      if (*choices != *n) return false;
  }
  return *choices == '\0';
}

constexpr bool policy_row_lists_the_registry() {
  for (const RowChoices& row : kRunOptionChoices)
    if (same_text(row.option, "policy")) return lists_the_registry(row.choices);
  return false;
}
static_assert(policy_row_lists_the_registry(),
              "run_options.def's --policy choices are not sched::kPolicyNames in order");

}  // namespace

bool Config::from_environment(Config* out, std::string* error) {
  Config c;
  // One block per row of run_options.def, read by its kind's reader; a
  // launcher option has nothing for the runtime.
#define TUCANA_READ_count(env, min, choices, hint, store) \
  { long v = 0; bool set = false; if (!read_count(env, min, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_flag(env, min, choices, hint, store) \
  { long v = 0; bool set = false; if (!read_flag(env, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_size(env, min, choices, hint, store) \
  { std::size_t v = 0; bool set = false; if (!read_size(env, min, hint, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_seconds(env, min, choices, hint, store) \
  { double v = 0; bool set = false; if (!read_seconds(env, hint, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_seed(env, min, choices, hint, store) \
  { unsigned long long v = 0; bool set = false; if (!read_seed(env, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_choice(env, min, choices, hint, store) \
  { int v = 0; bool set = false; if (!read_choice(env, choices, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_switch01(env, min, choices, hint, store) \
  { int v = 0; bool set = false; if (!read_switch01(env, &v, &set, error)) return false; if (set) store; }
#define TUCANA_READ_directory(env, min, choices, hint, store) \
  { std::string v; bool set = false; read_text(env, &v, &set); if (set) store; }
#define TUCANA_READ_file TUCANA_READ_directory
#define TUCANA_READ_launcher(env, min, choices, hint, store)
#define TUCANA_RUN_OPTION(name, section, option, aliases, arg, env, kind, min, choices, hint, dflt, help, doc, see, store) \
  TUCANA_READ_##kind(env, min, choices, hint, store)
#include "run_options.def"
#undef TUCANA_RUN_OPTION
  // The --policy choices of the table are names of the scheduler's registry.
  assert(sched::find_policy(c.policy) && "run_options.def names a policy that sched/policy.cc does not register");
  *out = c;
  return true;
}

}  // namespace tucana
