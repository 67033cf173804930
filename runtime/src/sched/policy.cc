#include "sched/policy.h"

#include "sched/scheduler.h"

namespace tucana::sched {

using fiber::Fiber;

PriorityBoard::PriorityBoard(int workers) : workers_(workers), slots_(new Slot[static_cast<std::size_t>(workers)]) {}

Fiber* ReadyPolicy::steal(Worker& thief) {
  Scheduler& scheduler = thief.scheduler();
  const int n = scheduler.workers();
  Worker* best = nullptr;
  int best_priority = 0;
  unsigned best_index = steal_from_;
  // Round robin from the worker after the last one stolen from, so that
  // among equal priorities every worker is stolen from in turn.
  for (int k = 1; k <= n; ++k) {
    unsigned i = (steal_from_ + static_cast<unsigned>(k)) % static_cast<unsigned>(n);
    if (static_cast<int>(i) == thief.index()) continue;
    Worker& w = scheduler.worker(static_cast<int>(i));
    int p = 0;
    if (w.peek_ready(&p) && (!best || p > best_priority)) {
      best = &w;
      best_priority = p;
      best_index = i;
    }
  }
  if (!best) return nullptr;
  steal_from_ = best_index;
  return best->steal();
}

Fiber* ReadyPolicy::take_higher_elsewhere(Worker&, int) { return nullptr; }
void ReadyPolicy::handed_over(const Fiber*) {}
bool ReadyPolicy::poll_now(bool busy, unsigned) { return busy; }
bool ReadyPolicy::poll_when_idle() { return true; }

Fiber* PriorityPolicy::take_higher_elsewhere(Worker& self, int floor) {
  if (!board_) return nullptr;
  int mine = board_->best(worker_);
  int best = board_->best_elsewhere(worker_, mine == PriorityBoard::kNoneReady ? floor : mine);
  if (best < 0) return nullptr;
  // (It may have run it meanwhile; what it ranks first now is what it
  // gives, and that may rank lower than ours: run it anyway, once.)
  return self.scheduler().worker(best).steal();
}

Fiber* RandomPolicy::steal(Worker& thief) {
  if (decisions_.one_in(4)) return nullptr;
  Scheduler& scheduler = thief.scheduler();
  const int n = scheduler.workers();
  unsigned start = static_cast<unsigned>(decisions_.below(static_cast<std::uint64_t>(n)));
  for (int k = 0; k < n; ++k) {
    int i = static_cast<int>((start + static_cast<unsigned>(k)) % static_cast<unsigned>(n));
    int p = 0;
    if (i != thief.index() && scheduler.worker(i).peek_ready(&p))
      if (Fiber* f = scheduler.worker(i).steal()) return f;
  }
  return nullptr;
}

namespace {
template <class Policy>
std::unique_ptr<ReadyPolicy> make(const PolicyContext& context) {
  return std::make_unique<Policy>(context);
}

// The registry: one line per policy that --policy names, in the order of
// kPolicyNames (sched/policy.h), whose names it takes. The first is the
// default (SchedulerConfig::policy, Config::policy).
struct Registered {
  const char* name;
  PolicyFactory factory;
};
constexpr Registered kPolicies[] = {
    {kPolicyNames[0], &make<PriorityPolicy>},
    {kPolicyNames[1], &make<RoundRobinPolicy>},
};
static_assert(sizeof kPolicies / sizeof kPolicies[0] == sizeof kPolicyNames / sizeof kPolicyNames[0],
              "a policy of kPolicyNames (sched/policy.h) has no line in kPolicies");
}  // namespace

PolicyFactory find_policy(const std::string& name) {
  for (const Registered& r : kPolicies)
    if (name == r.name) return r.factory;
  return nullptr;
}

std::string policy_names() {
  std::string names;
  const std::size_t n = sizeof kPolicies / sizeof kPolicies[0];
  for (std::size_t i = 0; i < n; ++i)
    names += (i == 0 ? "'" : i + 1 == n ? " or '" : ", '") + std::string(kPolicies[i].name) + "'";
  return names;
}

std::unique_ptr<ReadyPolicy> make_seeded_policy(const PolicyContext& context) { return make<RandomPolicy>(context); }

}  // namespace tucana::sched
