#include "fiber/fiber.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace tucana::fiber {

namespace bctx = boost::context::detail;

namespace {
constexpr std::size_t kGuardBytes = 64 * 1024;

struct Message {
  Context* from;
  Context* to;
  const Handoff* handoff;
};

Fiber::ExitHook g_exit_hook = nullptr;

// AddressSanitizer must be told about every stack switch, or it mistakes
// fiber stacks for stack overflows and reports false positives.
#if defined(__SANITIZE_ADDRESS__)
#define TUCANA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TUCANA_ASAN 1
#endif
#endif
#ifdef TUCANA_ASAN
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old,
                                                std::size_t* size_old);
#endif

inline void before_switch(Context* from, const Context& to) {
#ifdef TUCANA_ASAN
  __sanitizer_start_switch_fiber(from ? &from->asan_fake_stack : nullptr, to.stack_bottom, to.stack_size);
#else
  (void)from;
  (void)to;
#endif
}

// Runs on the resumed side (`self`) right after a switch: saves the context
// that was left and performs the handoff's action.
void complete_handoff(bctx::transfer_t t, Context* self) {
  auto* m = static_cast<Message*>(t.data);
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
  if (h && h->action) h->action(h->left, h->arg);
}
}  // namespace

void switch_context(Context* from, Context& to, const Handoff& handoff) {
  Message m{from, &to, &handoff};
  assert(to.fctx != nullptr);
  fcontext_t target = to.fctx;
  to.fctx = nullptr;  // consumed: a context can be resumed once per suspension
  before_switch(from, to);
  bctx::transfer_t t = bctx::jump_fcontext(target, &m);
  complete_handoff(t, from);
}

Fiber::Fiber(Entry entry, void* arg, std::size_t stack_size, std::string name)
    : entry_(entry), arg_(arg), name_(std::move(name)) {
  stack_ = allocate_stack(stack_size, kGuardBytes);
  context_.owner = this;
  context_.stack_bottom = stack_.guard_end();
  context_.stack_size = stack_.usable;
  context_.fctx = bctx::make_fcontext(stack_.top(), stack_.usable, &Fiber::trampoline);
}

Fiber::~Fiber() { release_stack(stack_); }

void Fiber::set_exit_hook(ExitHook hook) { g_exit_hook = hook; }

void Fiber::trampoline(bctx::transfer_t t) {
  // The first switch to a fiber names it as the target.
  Context* self_context = static_cast<Message*>(t.data)->to;
  Fiber* self = static_cast<Fiber*>(self_context->owner);
  complete_handoff(t, self_context);
  self->entry_(self->arg_);
  self->finished_ = true;
  if (!g_exit_hook) {
    std::fprintf(stderr, "tucana: internal error: fiber '%s' finished with no exit hook\n",
                 self->name_.c_str());
    std::abort();
  }
  g_exit_hook(self);  // switches away for good
  std::abort();
}

}  // namespace tucana::fiber
