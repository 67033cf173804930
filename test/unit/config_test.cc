// Config::from_environment: every TUCANA_* variable of run_options.def is read,
// good values reach the Config, and a bad value is refused with the message
// that names the variable (the messages are pinned here, word for word).
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "config.h"

namespace tucana {
namespace {

struct Row {
  const char* env;
  const char* kind;
};

const Row kRows[] = {
#define TUCANA_RUN_OPTION(name, section, option, aliases, arg, env, kind, min, choices, hint, dflt, help, doc, see, \
                          store)                                                                                    \
  {env, #kind},
#include "run_options.def"
#undef TUCANA_RUN_OPTION
};

// Sets the variables for one test and unsets every variable of the table
// before and after it.
class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const Row& r : kRows)
      if (*r.env) unsetenv(r.env);
  }
  static std::string error_for(const char* var, const char* value) {
    setenv(var, value, 1);
    Config c;
    std::string error;
    bool ok = Config::from_environment(&c, &error);
    unsetenv(var);
    return ok ? "(accepted)" : error;
  }
};

TEST_F(ConfigTest, DefaultsWithoutVariables) {
  Config c;
  std::string error;
  ASSERT_TRUE(Config::from_environment(&c, &error)) << error;
  EXPECT_EQ(c.workers, 1);
  EXPECT_EQ(c.vf, 1);
  EXPECT_EQ(c.vranks, 0);
  EXPECT_EQ(c.stack_size, 8u << 20);
  EXPECT_EQ(c.eager_limit, 64u << 10);
  EXPECT_EQ(c.deadlock_timeout, 10);
  EXPECT_TRUE(c.steal);
  EXPECT_EQ(c.policy, "priority");
  EXPECT_EQ(c.boundary_order, Config::BoundaryOrder::kFirst);
  EXPECT_EQ(c.progress, Config::ProgressMode::kAny);
  EXPECT_FALSE(c.sched_randomized);
  EXPECT_EQ(c.oversubscribed, -1);
  EXPECT_FALSE(c.tag_output);
  EXPECT_TRUE(c.output_directory.empty());
  EXPECT_TRUE(c.trace_file.empty());
}

TEST_F(ConfigTest, GoodValuesReachTheConfig) {
  const std::pair<const char*, const char*> vars[] = {
      {"TUCANA_WORKERS", "3"},        {"TUCANA_VF", "4"},
      {"TUCANA_VRANKS", "24"},        {"TUCANA_TASKS", "5"},
      {"TUCANA_STEAL", "0"},          {"TUCANA_BOUNDARY", "center"},
      {"TUCANA_POLICY", "fifo"},      {"TUCANA_PRIORITY_SCOPE", "worker"},
      {"TUCANA_WAKE", "waker"},       {"TUCANA_PACK", "locked"},
      {"TUCANA_PROGRESS", "multiple"}, {"TUCANA_STACK_SIZE", "256k"},
      {"TUCANA_EAGER_LIMIT", "0"},    {"TUCANA_DEADLOCK_TIMEOUT", "2.5"},
      {"TUCANA_SCHED_SEED", "42"},    {"TUCANA_HELPER_STACK_SIZE", "2M"},
      {"TUCANA_TASK_STACK_SIZE", "64KiB"}, {"TUCANA_OVERSUBSCRIBED", "0"},
      {"TUCANA_TAG_OUTPUT", "1"},     {"TUCANA_OUTPUT_FILENAME", "/tmp/out"},
      {"TUCANA_TRACE", "/tmp/t.json"}};
  for (const auto& [var, value] : vars) setenv(var, value, 1);
  Config c;
  std::string error;
  ASSERT_TRUE(Config::from_environment(&c, &error)) << error;
  EXPECT_EQ(c.workers, 3);
  EXPECT_EQ(c.vf, 4);
  EXPECT_EQ(c.vranks, 24);
  EXPECT_EQ(c.tasks, 5);
  EXPECT_FALSE(c.steal);
  EXPECT_EQ(c.boundary_order, Config::BoundaryOrder::kCenter);
  EXPECT_EQ(c.policy, "fifo");
  EXPECT_FALSE(c.process_wide_priority);
  EXPECT_TRUE(c.wake_on_waker);
  EXPECT_TRUE(c.pack_under_lock);
  EXPECT_EQ(c.progress, Config::ProgressMode::kMultiple);
  EXPECT_EQ(c.stack_size, 256u << 10);
  EXPECT_EQ(c.eager_limit, 0u);
  EXPECT_EQ(c.deadlock_timeout, 2.5);
  EXPECT_TRUE(c.sched_randomized);
  EXPECT_EQ(c.sched_seed, 42u);
  EXPECT_EQ(c.helper_stack_size, 2u << 20);
  EXPECT_EQ(c.task_stack_size, 64u << 10);
  EXPECT_EQ(c.oversubscribed, 0);
  EXPECT_TRUE(c.tag_output);
  EXPECT_EQ(c.output_directory, "/tmp/out");
  EXPECT_EQ(c.trace_file, "/tmp/t.json");
}

TEST_F(ConfigTest, BadValuesAreRefusedWithTheVariableNamed) {
  const std::pair<std::pair<const char*, const char*>, const char*> cases[] = {
      {{"TUCANA_WORKERS", "0"}, "TUCANA_WORKERS=0: expected an integer >= 1"},
      {{"TUCANA_VF", "two"}, "TUCANA_VF=two: expected an integer >= 1"},
      {{"TUCANA_VRANKS", "-1"}, "TUCANA_VRANKS=-1: expected an integer >= 0"},
      {{"TUCANA_TASKS", "99999999"}, "TUCANA_TASKS=99999999: expected an integer >= 1"},
      {{"TUCANA_STEAL", "yes"}, "TUCANA_STEAL=yes: expected an integer >= 0"},
      {{"TUCANA_BOUNDARY", "middle"}, "TUCANA_BOUNDARY=middle: expected 'first', 'off' or 'center'"},
      {{"TUCANA_POLICY", "lifo"}, "TUCANA_POLICY=lifo: expected 'priority' or 'fifo'"},
      {{"TUCANA_PRIORITY_SCOPE", "node"}, "TUCANA_PRIORITY_SCOPE=node: expected 'process' or 'worker'"},
      {{"TUCANA_WAKE", "any"}, "TUCANA_WAKE=any: expected 'home' or 'waker'"},
      {{"TUCANA_PACK", "sideways"}, "TUCANA_PACK=sideways: expected 'split' or 'locked'"},
      {{"TUCANA_PROGRESS", "serialized"}, "TUCANA_PROGRESS=serialized: expected 'any', 'worker' or 'multiple'"},
      {{"TUCANA_STACK_SIZE", "1k"}, "TUCANA_STACK_SIZE=1k: expected a size of at least 16k (e.g. 256k, 8M)"},
      {{"TUCANA_STACK_SIZE", "8X"}, "TUCANA_STACK_SIZE=8X: expected a size of at least 16k (e.g. 256k, 8M)"},
      {{"TUCANA_EAGER_LIMIT", "lots"}, "TUCANA_EAGER_LIMIT=lots: expected a size (e.g. 0, 4k, 64k)"},
      {{"TUCANA_DEADLOCK_TIMEOUT", "-1"}, "TUCANA_DEADLOCK_TIMEOUT=-1: expected seconds >= 0 (0 turns detection off)"},
      {{"TUCANA_DEADLOCK_TIMEOUT", "5s"}, "TUCANA_DEADLOCK_TIMEOUT=5s: expected seconds >= 0 (0 turns detection off)"},
      {{"TUCANA_SCHED_SEED", "-3"}, "TUCANA_SCHED_SEED=-3: expected a non-negative integer"},
      {{"TUCANA_HELPER_STACK_SIZE", "4"}, "TUCANA_HELPER_STACK_SIZE=4: expected a size of at least 16k (e.g. 256k, 4M)"},
      {{"TUCANA_TASK_STACK_SIZE", "1M!"}, "TUCANA_TASK_STACK_SIZE=1M!: expected a size of at least 16k (e.g. 256k, 4M)"},
      {{"TUCANA_OVERSUBSCRIBED", "2"}, "TUCANA_OVERSUBSCRIBED=2: expected 0 or 1"},
      {{"TUCANA_TAG_OUTPUT", "on"}, "TUCANA_TAG_OUTPUT=on: expected an integer >= 0"},
  };
  for (const auto& [var_value, message] : cases)
    EXPECT_EQ(error_for(var_value.first, var_value.second), message);
}

// Every variable of the table that has a value to check refuses one that is
// no count, size, number or choice: none is left out of config.cc.
TEST_F(ConfigTest, EveryCheckedVariableOfTheTableIsRead) {
  int checked = 0;
  for (const Row& r : kRows) {
    const std::string kind = r.kind;
    if (!*r.env || kind == "launcher" || kind == "directory" || kind == "file") continue;
    EXPECT_EQ(error_for(r.env, "?").rfind(std::string(r.env) + "=?: expected ", 0), 0u) << r.env;
    ++checked;
  }
  EXPECT_GE(checked, 19);
}

}  // namespace
}  // namespace tucana
