// Micro-benchmarks of the fiber layer and the scheduler (Google Benchmark).
// Every figure is per round trip: one iteration = two context switches
// (A -> B and B -> A), so time/iteration is the round-trip time.
//   BM_FiberYieldRoundTrip     two fibers on one worker yielding to each other
//   BM_RawFcontextSwitchPair   bare Boost.Context jump_fcontext there and back
//   BM_RawFcontextSwitchNested/R  the same, each side switching from R nested
//                              non-inlined calls, so R returns follow each
//                              switch (a fiber calling Scheduler::yield has 3)
//   BM_ParkUnparkPingPong      two fibers on one worker waking each other
//   BM_ParkUnparkCrossWorker   the same with the fibers on two workers
#include <benchmark/benchmark.h>

#include <boost/context/detail/fcontext.hpp>

#include <atomic>
#include <cstddef>

#include "fiber/fiber.h"
#include "fiber/stack.h"
#include "sched/scheduler.h"

namespace {

using tucana::fiber::Fiber;
using tucana::sched::Scheduler;
using tucana::sched::SchedulerConfig;
namespace bctx = boost::context::detail;

constexpr std::size_t kStack = 64 * 1024;

// ------------------------------------------------------------ yield --

struct YieldPair {
  benchmark::State* state = nullptr;
  bool stop = false;  // only touched by the two fibers of one worker
};

void yield_driver(void* arg) {
  auto* p = static_cast<YieldPair*>(arg);
  for (auto _ : *p->state) Scheduler::yield();  // to the partner and back
  p->stop = true;
}

void yield_partner(void* arg) {
  auto* p = static_cast<YieldPair*>(arg);
  while (!p->stop) Scheduler::yield();
}

void BM_FiberYieldRoundTrip(benchmark::State& state) {
  SchedulerConfig cfg;
  cfg.workers = 1;
  cfg.stack_size = kStack;
  Scheduler sched(cfg);
  YieldPair pair;
  pair.state = &state;
  sched.spawn(0, &yield_driver, &pair, "yield driver");
  sched.spawn(0, &yield_partner, &pair, "yield partner");
  sched.run();  // worker 0 runs on this thread: the benchmark loop runs in a fiber
  state.SetItemsProcessed(2 * state.iterations());  // items = context switches
}
BENCHMARK(BM_FiberYieldRoundTrip);

// --------------------------------------------------- raw fcontext --

void raw_partner(bctx::transfer_t t) {
  for (;;) t = bctx::jump_fcontext(t.fctx, nullptr);
}

void BM_RawFcontextSwitchPair(benchmark::State& state) {
  auto stack = tucana::fiber::allocate_stack(kStack, 4096);
  bctx::fcontext_t ctx = bctx::make_fcontext(stack.top(), stack.usable, &raw_partner);
  for (auto _ : state) {
    bctx::transfer_t t = bctx::jump_fcontext(ctx, nullptr);  // there and back
    ctx = t.fctx;
  }
  // The partner stays suspended forever; its stack can simply be unmapped.
  tucana::fiber::release_stack(stack);
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_RawFcontextSwitchPair);

// Switches from `depth` nested calls further down. jump_fcontext leaves by an
// indirect jump, not a return, so every return after a switch goes to an
// address the CPU's return-stack predictor did not expect.
__attribute__((noinline)) void switch_at_depth(int depth, bctx::fcontext_t* ctx) {
  if (depth == 0) {
    *ctx = bctx::jump_fcontext(*ctx, nullptr).fctx;
  } else {
    switch_at_depth(depth - 1, ctx);
  }
  asm volatile("" ::: "memory");  // no tail call: a real return per level
}

void nested_partner(bctx::transfer_t t) {
  const int returns = *static_cast<const int*>(t.data);
  bctx::fcontext_t ctx = t.fctx;
  for (;;) switch_at_depth(returns - 1, &ctx);
}

void BM_RawFcontextSwitchNested(benchmark::State& state) {
  const int returns = static_cast<int>(state.range(0));
  auto stack = tucana::fiber::allocate_stack(kStack, 4096);
  bctx::fcontext_t ctx = bctx::make_fcontext(stack.top(), stack.usable, &nested_partner);
  ctx = bctx::jump_fcontext(ctx, const_cast<int*>(&returns)).fctx;  // partner reads `returns`
  for (auto _ : state) switch_at_depth(returns - 1, &ctx);
  tucana::fiber::release_stack(stack);
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_RawFcontextSwitchNested)->Arg(1)->Arg(3);

// ---------------------------------------------------- park/unpark --

struct PingPong {
  benchmark::State* state = nullptr;
  Fiber* fibers[2] = {nullptr, nullptr};
  std::atomic<int> turn{0};  // 0: driver's turn, 1: partner's turn
  std::atomic<bool> stop{false};
};

void pingpong_driver(void* arg) {
  auto* p = static_cast<PingPong*>(arg);
  for (auto _ : *p->state) {
    p->turn.store(1, std::memory_order_release);
    Scheduler::unpark(p->fibers[1]);
    while (p->turn.load(std::memory_order_acquire) != 0) Scheduler::park();
  }
  p->stop.store(true);
  Scheduler::unpark(p->fibers[1]);
}

void pingpong_partner(void* arg) {
  auto* p = static_cast<PingPong*>(arg);
  for (;;) {
    while (p->turn.load(std::memory_order_acquire) != 1 && !p->stop.load()) Scheduler::park();
    if (p->stop.load()) return;
    p->turn.store(0, std::memory_order_release);
    Scheduler::unpark(p->fibers[0]);
  }
}

void run_pingpong(benchmark::State& state, int workers) {
  SchedulerConfig cfg;
  cfg.workers = workers;
  cfg.stack_size = kStack;
  Scheduler sched(cfg);
  PingPong p;
  p.state = &state;
  p.fibers[0] = sched.spawn(0, &pingpong_driver, &p, "pingpong driver");
  p.fibers[1] = sched.spawn(workers - 1, &pingpong_partner, &p, "pingpong partner");
  sched.run();
  state.SetItemsProcessed(2 * state.iterations());
}

void BM_ParkUnparkPingPong(benchmark::State& state) { run_pingpong(state, 1); }
BENCHMARK(BM_ParkUnparkPingPong);

void BM_ParkUnparkCrossWorker(benchmark::State& state) { run_pingpong(state, 2); }
BENCHMARK(BM_ParkUnparkCrossWorker)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
