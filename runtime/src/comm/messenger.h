// Subrank-to-subrank messaging: matching and delivery.
//
// Every subrank of this process has a mailbox with two ordered queues: the
// receives it posted and not yet matched, and the messages that arrived
// before a matching receive. Matching follows MPI: a receive takes the
// earliest message with its (context, source, tag), wildcards allowed, and a
// message takes the earliest posted receive that accepts it; messages from
// one source to one destination enter the queues in send order, so MPI's
// non-overtaking rule holds per (source, tag, communicator).
//
// Between subranks of this process a message is copied once, from the send
// buffer to the receive buffer, when both are posted: an unmatched send
// waits in the queue by reference. (A blocking send of at most the eager
// limit is copied aside instead, so it returns at once, as MPI libraries do.)
// Messages to other processes go through the Transport.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "comm/layout.h"
#include "comm/transport.h"

namespace tucana::fiber { class Fiber; }

namespace tucana::comm {

constexpr int kAnySource = -1;
constexpr int kAnyTag = -1;

// One send or receive. Owned by the layer above (the virtual MPI request),
// which is told through on_complete when it has finished.
struct Operation : Completion {
  enum class Kind : std::uint8_t { Send, Recv };
  Kind kind = Kind::Send;
  bool synchronous = false;  // MPI_Ssend: completes only when matched
  bool eager_ok = false;     // a blocking send may be copied aside
  int ctx = 0;
  int owner = 0;             // world rank of the subrank that posted it
  int peer = 0;              // send: destination; receive: source or kAnySource
  int tag = 0;               // receive: tag or kAnyTag
  void* buf = nullptr;
  std::size_t bytes = 0;     // send: length; receive: capacity

  // Set when a receive is matched: who sent it, with which tag, how long.
  int matched_source = -1;
  int matched_tag = -1;
  std::size_t matched_bytes = 0;
  int error = 0;

  void (*on_complete)(Operation* self) = nullptr;
  Operation* next = nullptr;  // mailbox queue link
};

// What a probe sees of a waiting message.
struct ProbeResult {
  int source;
  int tag;
  std::size_t bytes;
};

class Messenger {
 public:
  Messenger(const Layout& layout, Transport& transport, std::size_t eager_limit);
  ~Messenger();

  // Posts a send or receive. The operation completes (on_complete) now or
  // later, from any thread. Any thread.
  void post(Operation* op);

  // Looks for a waiting message to subrank `owner` that a receive with these
  // arguments would match, without receiving it. Any thread.
  bool probe(int owner, int ctx, int source, int tag, ProbeResult* out);

  // Takes back a posted receive that no message has matched yet: true if it
  // was still waiting (it will never complete), false if it has matched.
  // Sends are not taken back (MPI lets a cancel of a send fail).
  bool cancel_receive(Operation* op);

  // Registers `f` to be unparked at the next arrival in `owner`'s mailbox.
  void wait_for_arrival(int owner, fiber::Fiber* f);

  // Drives the transport once (if this thread may). True if anything moved.
  bool poll() { return transport_.poll(); }

  const Layout& layout() const { return layout_; }

 private:
  struct Message;
  struct Mailbox;
  Mailbox& mailbox(int world);
  void post_send(Operation* op);
  void post_receive(Operation* op);
  // The transport's arrival handler: runs under the transport lock.
  void on_arrival(const Arrival& a) TUCANA_REQUIRES(transport_.mutex());
  void deliver(Message* m, Operation* recv);

  const Layout& layout_;
  Transport& transport_;
  std::size_t eager_limit_;
  std::vector<Mailbox*> mailboxes_;
};

}  // namespace tucana::comm
