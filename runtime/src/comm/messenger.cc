#include "comm/messenger.h"

#include <tucana/tmpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "sched/scheduler.h"

namespace tucana::comm {

// A message that arrived before a matching receive was posted.
struct Messenger::Message {
  enum class Holds : std::uint8_t { SendRef, Buffer, Remote };
  Message(int c, int s, int t, std::size_t b, Holds h) : ctx(c), source(s), tag(t), bytes(b), holds(h) {}
  int ctx;
  int source;
  int tag;
  std::size_t bytes;
  Holds holds;
  Operation* send = nullptr;       // SendRef: the sender's own operation and buffer
  void* data = nullptr;            // Buffer: a copy (malloc)
  RemoteMessage* remote = nullptr; // Remote: still inside the MPI library
  SyncAck ack;                     // from another process's MPI_Ssend
  Message* next = nullptr;
};

// A subrank's queues. The mailbox lock is taken under the transport lock (in
// the arrival handler), never the other way round; under it only fibers are
// unparked (inner locks of the scheduler).
struct Messenger::Mailbox {
  sync::Mutex mutex{sync::LockLevel::kMailbox, "mailbox of a subrank"};
  Operation* posted_head TUCANA_GUARDED_BY(mutex) = nullptr;
  Operation* posted_tail TUCANA_GUARDED_BY(mutex) = nullptr;
  Message* arrived_head TUCANA_GUARDED_BY(mutex) = nullptr;
  Message* arrived_tail TUCANA_GUARDED_BY(mutex) = nullptr;
  std::vector<fiber::Fiber*> arrival_waiters TUCANA_GUARDED_BY(mutex);

  // Wakes the fibers waiting for an arrival here.
  void notify_arrival() TUCANA_REQUIRES(mutex) {
    for (fiber::Fiber* f : arrival_waiters) sched::Scheduler::unpark(f);
    arrival_waiters.clear();
  }
};

namespace {

// MPI's matching rule: a receive (or probe) for (want_ctx, want_source,
// want_tag), wildcards allowed, takes a message sent with (ctx, source, tag).
bool matches(int want_ctx, int want_source, int want_tag, int ctx, int source, int tag) {
  return want_ctx == ctx && (want_source == kAnySource || want_source == source) &&
         (want_tag == kAnyTag || want_tag == tag);
}

bool accepts(const Operation* recv, int ctx, int source, int tag) {
  return matches(recv->ctx, recv->peer, recv->tag, ctx, source, tag);
}

// Removes and returns the first node of a singly linked queue that satisfies
// `pred`, or null.
template <typename Node, typename Pred>
Node* unlink_first(Node*& head, Node*& tail, Pred pred) {
  Node* prev = nullptr;
  for (Node* n = head; n; prev = n, n = n->next) {
    if (!pred(n)) continue;
    (prev ? prev->next : head) = n->next;
    if (tail == n) tail = prev;
    n->next = nullptr;
    return n;
  }
  return nullptr;
}

template <typename Node>
void append(Node*& head, Node*& tail, Node* n) {
  n->next = nullptr;
  (tail ? tail->next : head) = n;
  tail = n;
}

void complete(Operation* op) { op->on_complete(op); }

// Completion of an operation that went through the transport.
void transport_done(Completion* c, int error) {
  auto* op = static_cast<Operation*>(c);
  if (error) {
    op->error = error;
    if (error == TMPI_ERR_TRUNCATE) op->matched_bytes = op->bytes;
  }
  complete(op);
}

void set_match(Operation* recv, int source, int tag, std::size_t bytes) {
  recv->matched_source = source;
  recv->matched_tag = tag;
  recv->matched_bytes = std::min(bytes, recv->bytes);
  recv->error = bytes > recv->bytes ? TMPI_ERR_TRUNCATE : 0;
}

}  // namespace

Messenger::Messenger(const Layout& layout, Transport& transport, std::size_t eager_limit)
    : layout_(layout), transport_(transport), eager_limit_(eager_limit) {
  for (int i = 0; i < layout.local_count(); ++i) mailboxes_.push_back(new Mailbox);
  transport_.set_arrival_handler([this](const Arrival& a) {
    transport_.assert_in_handler();  // Transport::arrivals_locked calls it with its lock held
    on_arrival(a);
  });
}

Messenger::~Messenger() {
  for (Mailbox* box : mailboxes_) {
    {
      sync::MutexLock lock(box->mutex);  // (no other thread uses it any more; for the analysis)
      while (Message* m = box->arrived_head) {
        box->arrived_head = m->next;
        std::free(m->data);
        delete m;
      }
    }
    delete box;
  }
}

Messenger::Mailbox& Messenger::mailbox(int world) {
  return *mailboxes_[static_cast<std::size_t>(world - layout_.first_local())];
}

bool Messenger::cancel_receive(Operation* op) {
  Mailbox& box = mailbox(op->owner);
  sync::MutexLock lock(box.mutex);
  return unlink_first(box.posted_head, box.posted_tail, [op](Operation* o) { return o == op; }) != nullptr;
}

void Messenger::post(Operation* op) {
  if (op->kind == Operation::Kind::Send)
    post_send(op);
  else
    post_receive(op);
}

void Messenger::post_send(Operation* op) {
  if (!layout_.is_local(op->peer)) {
    op->done = &transport_done;
    transport_.send(op->buf, op->bytes, op->owner, op->peer, op->tag, op->ctx, op->synchronous, op);
    return;
  }
  Mailbox& box = mailbox(op->peer);
  sync::MutexLock lock(box.mutex);
  Operation* recv = unlink_first(box.posted_head, box.posted_tail, [&](Operation* r) {
    return accepts(r, op->ctx, op->owner, op->tag);
  });
  if (recv) {
    lock.unlock();
    set_match(recv, op->owner, op->tag, op->bytes);
    if (recv->matched_bytes) std::memcpy(recv->buf, op->buf, recv->matched_bytes);
    complete(op);
    complete(recv);
    return;
  }
  auto* m = new Message(op->ctx, op->owner, op->tag, op->bytes, Message::Holds::SendRef);
  bool eager = op->eager_ok && !op->synchronous && op->bytes <= eager_limit_;
  if (eager) {
    m->holds = Message::Holds::Buffer;
    m->data = std::malloc(op->bytes ? op->bytes : 1);
    if (op->bytes) std::memcpy(m->data, op->buf, op->bytes);
  } else {
    m->send = op;
  }
  append(box.arrived_head, box.arrived_tail, m);
  box.notify_arrival();
  lock.unlock();
  if (eager) complete(op);
}

void Messenger::post_receive(Operation* op) {
  Mailbox& box = mailbox(op->owner);
  sync::MutexLock lock(box.mutex);
  Message* m = unlink_first(box.arrived_head, box.arrived_tail, [&](Message* a) {
    return accepts(op, a->ctx, a->source, a->tag);
  });
  if (!m) {
    append(box.posted_head, box.posted_tail, op);
    return;
  }
  lock.unlock();
  deliver(m, op);
}

void Messenger::deliver(Message* m, Operation* recv) {
  set_match(recv, m->source, m->tag, m->bytes);
  if (m->ack.proc >= 0) transport_.acknowledge(m->ack);
  switch (m->holds) {
    case Message::Holds::SendRef:
      if (recv->matched_bytes) std::memcpy(recv->buf, m->send->buf, recv->matched_bytes);
      complete(m->send);
      complete(recv);
      break;
    case Message::Holds::Buffer:
      if (recv->matched_bytes) std::memcpy(recv->buf, m->data, recv->matched_bytes);
      std::free(m->data);
      complete(recv);
      break;
    case Message::Holds::Remote:
      recv->done = &transport_done;
      transport_.receive(m->remote, recv->buf, recv->bytes, recv);
      break;
  }
  delete m;
}

// Runs inside Transport::poll with the transport lock held.
void Messenger::on_arrival(const Arrival& a) {
  Mailbox& box = mailbox(layout_.first_local() + a.dst_local);
  sync::MutexLock lock(box.mutex);
  Operation* recv = unlink_first(box.posted_head, box.posted_tail, [&](Operation* r) {
    return accepts(r, a.ctx, a.src_world, a.tag);
  });
  if (recv) {
    lock.unlock();
    set_match(recv, a.src_world, a.tag, a.bytes);
    if (a.ack.proc >= 0) transport_.acknowledge_in_handler(a.ack);
    recv->done = &transport_done;
    transport_.receive_in_handler(a.message, recv->buf, recv->bytes, recv);
    return;
  }
  auto* m = new Message(a.ctx, a.src_world, a.tag, a.bytes, Message::Holds::Remote);
  m->ack = a.ack;
  if (a.bytes <= eager_limit_) {
    // Short: take it out of the MPI library now, so that MPI holds no
    // unmatched messages for long.
    m->holds = Message::Holds::Buffer;
    m->data = transport_.take_in_handler(a.message);
  } else {
    m->remote = a.message;  // long: received straight into the user's buffer later
  }
  append(box.arrived_head, box.arrived_tail, m);
  box.notify_arrival();
}

bool Messenger::probe(int owner, int ctx, int source, int tag, ProbeResult* out) {
  Mailbox& box = mailbox(owner);
  sync::MutexLock lock(box.mutex);
  for (Message* m = box.arrived_head; m; m = m->next) {
    if (matches(ctx, source, tag, m->ctx, m->source, m->tag)) {
      *out = ProbeResult{m->source, m->tag, m->bytes};
      return true;
    }
  }
  return false;
}

void Messenger::wait_for_arrival(int owner, fiber::Fiber* f) {
  Mailbox& box = mailbox(owner);
  sync::MutexLock lock(box.mutex);
  box.arrival_waiters.push_back(f);
}

}  // namespace tucana::comm
