#include "fiber/fiber.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace tucana::fiber {

namespace bctx = boost::context::detail;

namespace {
// A fiber's first instructions may not overflow into the guard without
// warning: keep 64 KiB of guard, more than a page, so that a large frame
// that skips over a single page still lands in it.
constexpr std::size_t kGuardBytes = 64 * 1024;

struct Message {
  Context* from;
  const Handoff* handoff;
};

Fiber::ExitHook g_exit_hook = nullptr;
}  // namespace

void complete_handoff(bctx::transfer_t t) {
  auto* m = static_cast<Message*>(t.data);
  if (m->from) m->from->fctx = t.fctx;
  const Handoff* h = m->handoff;
  if (h && h->action) h->action(h->left, h->arg);
}

void switch_context(Context* from, Context& to, const Handoff& handoff) {
  Message m{from, &handoff};
  assert(to.fctx != nullptr);
  fcontext_t target = to.fctx;
  to.fctx = nullptr;  // consumed: a context can be resumed once per suspension
  bctx::transfer_t t = bctx::jump_fcontext(target, &m);
  complete_handoff(t);
}

Fiber::Fiber(Entry entry, void* arg, std::size_t stack_size, std::string name)
    : entry_(entry), arg_(arg), name_(std::move(name)) {
  stack_ = allocate_stack(stack_size, kGuardBytes);
  fcontext_t fresh =
      bctx::make_fcontext(stack_.top(), stack_.mapped - stack_.guard, &Fiber::trampoline);
  // Enter the fiber once so it learns its own address, and come straight back:
  // from then on it is an ordinary suspended context.
  bctx::transfer_t back = bctx::jump_fcontext(fresh, this);
  context_.fctx = back.fctx;
}

Fiber::~Fiber() { release_stack(stack_); }

void Fiber::set_exit_hook(ExitHook hook) { g_exit_hook = hook; }

void Fiber::trampoline(bctx::transfer_t t) {
  Fiber* self = static_cast<Fiber*>(t.data);
  bctx::transfer_t first = bctx::jump_fcontext(t.fctx, nullptr);  // back to the constructor
  complete_handoff(first);  // first real resumption, by switch_context
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
