// A fiber: a user-level thread with its own guard-paged stack, switched with
// Boost.Context's fcontext (two register saves, no kernel involvement).
//
// This layer knows nothing about workers or scheduling: it only creates
// fibers and transfers control between execution contexts. Whoever resumes a
// context learns, through a Handoff, which context was left and what must be
// done with it now that its registers are saved (requeue it, park it, ...).
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fiber/stack.h"

namespace tucana::fiber {

using boost::context::detail::fcontext_t;

class Fiber;

// What the resumed side must do for the context it replaced. Runs on the
// resumed side, after the switch, so the left context's state is saved.
struct Handoff {
  void (*action)(Fiber* left, void* arg) = nullptr;
  Fiber* left = nullptr;  // null when the left context is a worker loop
  void* arg = nullptr;
};

// A saved execution context: a fiber's or a thread's own stack.
struct Context {
  fcontext_t fctx = nullptr;
  void* owner = nullptr;  // the Fiber, for a fiber's context
  // Stack bounds and fake stack, for AddressSanitizer's fiber annotations
  // (a thread's bounds are learnt the first time it switches away).
  const void* stack_bottom = nullptr;
  std::size_t stack_size = 0;
  void* asan_fake_stack = nullptr;
  // ThreadSanitizer's fiber: created with a Fiber (and again when it
  // restarts); a thread's own is learnt when it switches away.
  void* tsan_fiber = nullptr;
};

// Saves the running context into `from` and resumes `to`, passing `handoff`
// to the resumed side. Returns when `from` is resumed again. `from` may be
// null when the running context is never resumed (a finished fiber).
// errno belongs to the context, not to the thread: `from` finds its own
// errno again when it resumes, on whichever thread. `thread_errno` is the
// calling thread's errno (&errno, taken on that thread).
// Inline (see below): Boost.Context's jump leaves with an indirect jump, so
// every function return after a switch is mispredicted; the fewer frames
// between a switch and the code that resumes, the faster a switch.
inline void switch_context(Context* from, Context& to, const Handoff& handoff, int* thread_errno);

class Fiber {
 public:
  using Entry = void (*)(void* arg);

  // Creates a fiber that will run entry(arg) on a new stack of `stack_size`
  // usable bytes. `name` labels it in diagnostics ("subrank 5").
  // Its guard region is registered for the stack overflow report, which
  // ends with `overflow_advice` (a string literal).
  static constexpr const char* kStackSizeAdvice = "give a larger size with --stack-size or TUCANA_STACK_SIZE";
  Fiber(Entry entry, void* arg, std::size_t stack_size, std::string name,
        const char* overflow_advice = kStackSizeAdvice);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  const std::string& name() const { return name_; }
  const Stack& stack() const { return stack_; }
  Context& context() { return context_; }
  bool finished() const { return finished_; }
  // Makes a finished fiber run entry(arg) from the start again, on the same
  // stack. Contract: it has finished and has been switched away from.
  void restart(Entry entry, void* arg);

  // Scheduler-owned fields (see sched/): intrusive queue link, home worker,
  // park state, priority, transient pool.
  Fiber* next = nullptr;
  void* home = nullptr;
  std::atomic<int> park_state{0};
  // Scheduling priority (sched::PriorityPolicy runs higher first; default 0).
  // Contract: written only by the fiber itself while it runs (or before it
  // is first made ready); a ready queue reads it when the fiber is queued.
  int priority = 0;
  bool transient = false;  // pooled and reused when it finishes (Scheduler::spawn_transient)
  int task_pool = 0;       // which pool of transient fibers it belongs to
  // How the scheduler names it in traces (trace/trace.h): the number traces
  // show for it (its subrank's), when Scheduler::unpark made it ready (0: not
  // traced, or running), and for a fiber that runs one task its number and
  // label (0 / null otherwise).
  int trace_id = -1;
  std::int64_t ready_ns = 0;
  int trace_task = 0;
  const char* trace_label = nullptr;

  // Whose work runs on it, for the layers above the scheduler (the core's
  // Actor, core/runtime.h: a subrank, or one of its tasks); null for the
  // runtime's own fibers. Opaque to this layer and the scheduler, which
  // hands it to its run hook at each switch (sched::g_run_hook).
  void* actor = nullptr;

  // Called once, on the fiber's own stack, when it first runs; runs the entry
  // function and then the exit hook, which must switch away for good.
  using ExitHook = void (*)(Fiber* self);
  static void set_exit_hook(ExitHook hook);

  // Ends this fiber now, as if its entry function had returned, without
  // unwinding its stack (what exit() does to a thread's frames): marks it
  // finished and runs the exit hook. Contract: called on this fiber's own
  // stack, which is never resumed afterwards.
  [[noreturn]] void finish_now();

 private:
  static void trampoline(boost::context::detail::transfer_t t);
  // Sets context_.tsan_fiber under ThreadSanitizer (nothing otherwise).
  void create_tsan_fiber();

  Entry entry_;
  void* arg_;
  std::string name_;
  Stack stack_;
  Context context_;
  int guard_slot_ = -1;
  bool finished_ = false;
};

// ---- the switch itself ----

#if defined(__SANITIZE_ADDRESS__)
#define TUCANA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TUCANA_ASAN 1
#endif
#endif
#ifdef TUCANA_ASAN
// AddressSanitizer must be told about every stack switch, or it mistakes
// fiber stacks for stack overflows and reports false positives.
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old,
                                                std::size_t* size_old);
#endif

#if defined(__SANITIZE_THREAD__)
#define TUCANA_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TUCANA_TSAN 1
#endif
#endif
#ifdef TUCANA_TSAN
// ThreadSanitizer keeps a clock and a call stack per fiber. Each switch
// synchronizes (flags 0): what the left context did happens before what the
// resumed one does, the handoff action included, on whichever thread.
extern "C" void* __tsan_get_current_fiber();
extern "C" void* __tsan_create_fiber(unsigned flags);
extern "C" void __tsan_destroy_fiber(void* fiber);
extern "C" void __tsan_switch_to_fiber(void* fiber, unsigned flags);
extern "C" void __tsan_set_fiber_name(void* fiber, const char* name);
#endif

namespace detail {
// What travels with a switch.
struct SwitchMessage {
  Context* from;
  Context* to;
  const Handoff* handoff;
  // The errno of the thread that switches, where the resumed context puts
  // its own back. (Handed over rather than read after the switch: that
  // means a call of __errno_location, which C libraries declare const, so
  // compilers may keep its result across a switch, when the thread may
  // change.)
  int* thread_errno;
};

// Runs on the resumed side (`self`) right after a switch: saves the context
// that was left and performs the handoff's action. Returns the errno of the
// thread that now runs `self`.
inline int* complete_handoff(boost::context::detail::transfer_t t, Context* self) {
  auto* m = static_cast<SwitchMessage*>(t.data);
  // Read before the action: it may let the left context run again (on
  // another worker), which reuses the frame that holds `m`.
  int* thread_errno = m->thread_errno;
#ifdef TUCANA_ASAN
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(self->asan_fake_stack, &bottom, &size);
  if (m->from) {
    m->from->stack_bottom = bottom;
    m->from->stack_size = size;
  }
#else
  (void)self;
#endif
  if (m->from) m->from->fctx = t.fctx;
  const Handoff* h = m->handoff;
  if (h->action) h->action(h->left, h->arg);
  return thread_errno;
}
}  // namespace detail

inline void switch_context(Context* from, Context& to, const Handoff& handoff, int* thread_errno) {
  // Kept in this frame, on the stack of the context that leaves.
  const int saved_errno = *thread_errno;
  detail::SwitchMessage m{from, &to, &handoff, thread_errno};
  fcontext_t target = to.fctx;
  to.fctx = nullptr;  // consumed: a context can be resumed once per suspension
#ifdef TUCANA_ASAN
  __sanitizer_start_switch_fiber(from ? &from->asan_fake_stack : nullptr, to.stack_bottom, to.stack_size);
#endif
#ifdef TUCANA_TSAN
  // (A thread's own context learns its fiber here, every time: cheap, and
  // right even if the context's object is later used on another thread.)
  if (from) from->tsan_fiber = __tsan_get_current_fiber();
  // Last before the jump: from here on ThreadSanitizer counts accesses
  // as the resumed context's.
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
  boost::context::detail::transfer_t t = boost::context::detail::jump_fcontext(target, &m);
  *detail::complete_handoff(t, from) = saved_errno;
}

}  // namespace tucana::fiber
