// Test harness for the fiber scheduler unit tests: a Scheduler whose fibers
// run closures, with a watchdog built on the stall handler so that a lost
// wake-up fails the test instead of hanging it.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "fiber/fiber.h"
#include "sched/scheduler.h"

namespace tucana::test {

// The name of a test instance parameterized by its number of workers.
inline std::string workers_name(const ::testing::TestParamInfo<int>& info) {
  return "Workers" + std::to_string(info.param);
}

class Harness {
 public:
  struct Options {
    int workers = 1;
    std::size_t stack_size = 256 * 1024;
    // Watchdog: when every fiber has been parked this long, mark the test
    // failed and unpark them all (0 = no watchdog).
    double watchdog_s = 3.0;
    // Idle workers may run other workers' ready fibers.
    bool steal = true;
    std::string policy = "priority";  // a registered policy (sched/policy.h)
    bool process_wide_priority = true;
    bool wake_on_waker = false;
  };

  explicit Harness(const Options& options) : sched_(make_config(options)) {
    if (options.watchdog_s > 0) {
      sched_.set_stall_handler([this] {
        fired_.store(true);
        for (fiber::Fiber* f : fibers_) sched::Scheduler::unpark(f);
      });
    }
  }
  explicit Harness(int workers) : Harness(options_for(workers)) {}

  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  static Options options_for(int workers, bool steal = true) {
    Options o;
    o.workers = workers;
    o.steal = steal;
    return o;
  }

  // Spawns a fiber homed on `worker` that runs `body`.
  fiber::Fiber* spawn(int worker, std::function<void()> body, std::string name = "fiber") {
    bodies_.push_back(std::make_unique<std::function<void()>>(std::move(body)));
    fiber::Fiber* f = sched_.spawn(worker, &Harness::entry, bodies_.back().get(), std::move(name));
    fibers_.push_back(f);
    return f;
  }

  void run() { sched_.run(); }

  // True once the watchdog fired: some fiber waited for a wake-up that never came.
  bool watchdog_fired() const { return fired_.load(); }

  // Parks the calling fiber until pred() holds, re-checking after every
  // return from park() as the park/unpark contract asks. Gives up when the
  // watchdog fired. Returns how many times park() returned.
  template <class Pred>
  int park_until(Pred pred) {
    int parks = 0;
    while (!pred() && !watchdog_fired()) {
      sched::Scheduler::park();
      ++parks;
    }
    return parks;
  }

  sched::Scheduler& scheduler() { return sched_; }
  int workers() const { return sched_.workers(); }

 private:
  static sched::SchedulerConfig make_config(const Options& o) {
    sched::SchedulerConfig c;
    c.workers = o.workers;
    c.stack_size = o.stack_size;
    c.stall_timeout_s = o.watchdog_s;
    c.steal = o.steal;
    c.policy = o.policy;
    c.process_wide_priority = o.process_wide_priority;
    c.wake_on_waker = o.wake_on_waker;
    return c;
  }
  static void entry(void* arg) { (*static_cast<std::function<void()>*>(arg))(); }

  std::deque<std::unique_ptr<std::function<void()>>> bodies_;
  std::vector<fiber::Fiber*> fibers_;
  std::atomic<bool> fired_{false};
  sched::Scheduler sched_;
};

}  // namespace tucana::test
