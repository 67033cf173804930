#include "fiber/fiber.h"

#include "fiber/guard.h"

#ifdef TUCANA_ASAN
#include <sanitizer/asan_interface.h>
#endif

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace tucana::fiber {

namespace bctx = boost::context::detail;

namespace {
constexpr std::size_t kGuardBytes = 64 * 1024;
Fiber::ExitHook g_exit_hook = nullptr;
}  // namespace

Fiber::Fiber(Entry entry, void* arg, std::size_t stack_size, std::string name, const char* overflow_advice)
    : entry_(entry), arg_(arg), name_(std::move(name)) {
  stack_ = allocate_stack(stack_size, kGuardBytes);
  context_.owner = this;
  context_.stack_bottom = stack_.guard_end();
  context_.stack_size = stack_.usable;
  context_.fctx = bctx::make_fcontext(stack_.top(), stack_.usable, &Fiber::trampoline);
  guard_slot_ = register_guard(stack_.guard_begin(), stack_.guard_end(), name_.c_str(), stack_.usable,
                               overflow_advice);
  create_tsan_fiber();
}

Fiber::~Fiber() {
#ifdef TUCANA_TSAN
  __tsan_destroy_fiber(context_.tsan_fiber);
#endif
  unregister_guard(guard_slot_);
  release_stack(stack_);
}

void Fiber::restart(Entry entry, void* arg) {
  assert(finished_);
  entry_ = entry;
  arg_ = arg;
  finished_ = false;
  context_.asan_fake_stack = nullptr;
#ifdef TUCANA_ASAN
  // The last run left the frames it never returned from poisoned.
  __asan_unpoison_memory_region(stack_.guard_end(), stack_.usable);
#endif
#ifdef TUCANA_TSAN
  // A fresh one: the last run's call stack never unwound.
  __tsan_destroy_fiber(context_.tsan_fiber);
#endif
  create_tsan_fiber();
  context_.fctx = bctx::make_fcontext(stack_.top(), stack_.usable, &Fiber::trampoline);
}

void Fiber::create_tsan_fiber() {
#ifdef TUCANA_TSAN
  context_.tsan_fiber = __tsan_create_fiber(0);
  __tsan_set_fiber_name(context_.tsan_fiber, name_.c_str());
#endif
}

void Fiber::set_exit_hook(ExitHook hook) { g_exit_hook = hook; }

void Fiber::trampoline(bctx::transfer_t t) {
  // The first switch to a fiber names it as the target.
  Context* self_context = static_cast<detail::SwitchMessage*>(t.data)->to;
  Fiber* self = static_cast<Fiber*>(self_context->owner);
  // A fiber starts with errno 0, as a program does (the thread's errno is
  // the switching context's).
  *detail::complete_handoff(t, self_context) = 0;
  self->entry_(self->arg_);
  self->finish_now();
}

void Fiber::finish_now() {
  finished_ = true;
  if (!g_exit_hook) {
    std::fprintf(stderr, "tucana: internal error: fiber '%s' finished with no exit hook\n", name_.c_str());
    std::abort();
  }
  g_exit_hook(this);  // switches away for good
  std::abort();
}

}  // namespace tucana::fiber
