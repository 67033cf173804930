// Unit tests of message matching (runtime/src/comm/messenger.h) between the
// subranks of one process, where the Messenger needs no MPI: MPI's
// non-overtaking order, MPI_ANY_SOURCE / MPI_ANY_TAG, communicators
// (contexts) that never match each other, probes that leave queued messages
// where they are, posted receives matched by later sends, synchronous and
// eager sends, truncation, cancelled receives, concurrent senders, and the
// arrival wake-up of a parked fiber. (Messages between processes go through
// the Transport and the same matching; the MPI-level tests p2p_ordering,
// p2p_wildcards and p2p_probe run them at -np 2.)
#include <gtest/gtest.h>
#include <tucana/tmpi.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "comm/layout.h"
#include "comm/messenger.h"
#include "comm/transport.h"
#include "harness.h"

namespace {

using tucana::comm::kAnySource;
using tucana::comm::kAnyTag;
using tucana::comm::Layout;
using tucana::comm::Messenger;
using tucana::comm::Operation;
using tucana::comm::ProbeResult;
using tucana::comm::Transport;

constexpr std::size_t kEagerLimit = 64;

// A send or receive with its own buffer. The payload's first int is the
// value the tests look at.
struct Op : Operation {
  std::atomic<bool> completed{false};
  std::vector<int>* log = nullptr;  // receives its id when it completes
  int id = 0;
  std::vector<int> payload;
};

void on_done(Operation* o) {
  auto* op = static_cast<Op*>(o);
  if (op->log) op->log->push_back(op->id);
  op->completed.store(true, std::memory_order_release);
}

class MessengerTest : public ::testing::Test {
 protected:
  // Four subranks (world ranks 0..3), one process: every message is local.
  MessengerTest() {
    std::string error;
    EXPECT_TRUE(Layout::compute(4, 1, 0, 1, &layout_, &error)) << error;
    messenger_ = std::make_unique<Messenger>(layout_, transport_, kEagerLimit);
  }

  // Posts a send of `ints` ints (value, value + 1, ...) from `from` to `to`.
  // eager: a blocking send, which may be copied aside.
  Op* send(int from, int to, int tag, int value, int ctx = 0, bool eager = false, bool sync = false,
           std::size_t ints = 1) {
    Op* op = make(ints);
    op->kind = Operation::Kind::Send;
    op->owner = from;
    op->peer = to;
    op->tag = tag;
    op->ctx = ctx;
    op->eager_ok = eager;
    op->synchronous = sync;
    for (std::size_t i = 0; i < ints; ++i) op->payload[i] = value + static_cast<int>(i);
    messenger_->post(op);
    return op;
  }
  // Posts a receive of up to `ints` ints by `owner`.
  Op* recv(int owner, int source, int tag, int ctx = 0, std::size_t ints = 1) {
    Op* op = make(ints);
    op->kind = Operation::Kind::Recv;
    op->owner = owner;
    op->peer = source;
    op->tag = tag;
    op->ctx = ctx;
    op->payload.assign(ints, -1);
    messenger_->post(op);
    return op;
  }
  // The value a completed receive got.
  static int value(const Op* r) { return r->payload[0]; }

  Op* make(std::size_t ints) {
    ops_.push_back(std::make_unique<Op>());
    Op* op = ops_.back().get();
    op->payload.assign(ints, 0);
    op->buf = op->payload.data();
    op->bytes = ints * sizeof(int);
    op->on_complete = &on_done;
    op->log = &log_;
    op->id = static_cast<int>(ops_.size());
    return op;
  }

  Layout layout_;
  Transport transport_;  // never initialized: nothing leaves the process
  std::unique_ptr<Messenger> messenger_;
  std::deque<std::unique_ptr<Op>> ops_;
  std::vector<int> log_;  // ids of the operations in completion order
};

TEST_F(MessengerTest, PostedReceiveIsMatchedByALaterSend) {
  Op* r = recv(1, 0, 5);
  EXPECT_FALSE(r->completed.load());
  ProbeResult pr{};
  EXPECT_FALSE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));  // a posted receive is no message
  Op* s = send(0, 1, 5, 42);
  EXPECT_TRUE(s->completed.load());
  ASSERT_TRUE(r->completed.load());
  EXPECT_EQ(value(r), 42);
  EXPECT_EQ(r->matched_source, 0);
  EXPECT_EQ(r->matched_tag, 5);
  EXPECT_EQ(r->matched_bytes, sizeof(int));
  EXPECT_EQ(r->error, 0);
  EXPECT_FALSE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));  // consumed
}

TEST_F(MessengerTest, QueuedMessageIsTakenByALaterReceive) {
  Op* s = send(0, 1, 5, 42);
  EXPECT_FALSE(s->completed.load());  // not eager: waits for the receive, by reference
  Op* r = recv(1, 0, 5);
  EXPECT_TRUE(s->completed.load());
  ASSERT_TRUE(r->completed.load());
  EXPECT_EQ(value(r), 42);
}

// MPI's non-overtaking rule: two messages from one sender to one receiver
// that the same receive could take are received in send order, whether
// they wait in the queue (copied or by reference) or the receives wait.
TEST_F(MessengerTest, MessagesFromOneSenderAreReceivedInSendOrder) {
  for (int i = 0; i < 6; ++i) send(0, 1, 7, 100 + i, 0, /*eager=*/i % 2 == 0);
  for (int i = 0; i < 6; ++i) {
    Op* r = recv(1, i % 3 == 0 ? kAnySource : 0, i % 2 == 0 ? kAnyTag : 7);
    ASSERT_TRUE(r->completed.load());
    EXPECT_EQ(value(r), 100 + i) << "receive " << i;
  }
  // Receives first: the sends fill them in post order.
  std::vector<Op*> rs;
  for (int i = 0; i < 6; ++i) rs.push_back(recv(2, i % 2 == 0 ? 0 : kAnySource, i % 3 == 0 ? kAnyTag : 9));
  for (int i = 0; i < 6; ++i) send(0, 2, 9, 200 + i);
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(rs[static_cast<std::size_t>(i)]->completed.load());
    EXPECT_EQ(value(rs[static_cast<std::size_t>(i)]), 200 + i) << "receive " << i;
  }
}

// A receive for one tag passes over earlier messages with other tags; they
// keep their order for later receives.
TEST_F(MessengerTest, TagSelectiveReceivePassesOverOtherTags) {
  send(0, 1, 1, 10);
  send(0, 1, 2, 20);
  send(0, 1, 1, 11);
  Op* r2 = recv(1, 0, 2);
  ASSERT_TRUE(r2->completed.load());
  EXPECT_EQ(value(r2), 20);
  Op* a = recv(1, 0, kAnyTag);
  Op* b = recv(1, kAnySource, kAnyTag);
  ASSERT_TRUE(a->completed.load() && b->completed.load());
  EXPECT_EQ(value(a), 10);
  EXPECT_EQ(a->matched_tag, 1);
  EXPECT_EQ(value(b), 11);
}

TEST_F(MessengerTest, AnySourceTakesTheEarliestMessageOfAnySender) {
  send(2, 1, 4, 2);
  send(0, 1, 4, 0);
  send(3, 1, 8, 3);
  for (int want : {2, 0, 3}) {
    Op* r = recv(1, kAnySource, kAnyTag);
    ASSERT_TRUE(r->completed.load());
    EXPECT_EQ(value(r), want);
    EXPECT_EQ(r->matched_source, want);  // the status names the real sender
    EXPECT_EQ(r->matched_tag, want == 3 ? 8 : 4);
  }
  // A specific source passes over the others' messages.
  send(2, 1, 4, 2);
  send(3, 1, 4, 3);
  Op* r3 = recv(1, 3, 4);
  ASSERT_TRUE(r3->completed.load());
  EXPECT_EQ(value(r3), 3);
}

// A message takes the earliest posted receive that accepts it, not the
// most specific one.
TEST_F(MessengerTest, MessageTakesTheEarliestAcceptingPostedReceive) {
  Op* from2 = recv(1, 2, 1);
  Op* any = recv(1, kAnySource, kAnyTag);
  Op* from0 = recv(1, 0, kAnyTag);
  send(0, 1, 1, 10);
  EXPECT_FALSE(from2->completed.load());
  ASSERT_TRUE(any->completed.load());
  EXPECT_FALSE(from0->completed.load());
  EXPECT_EQ(value(any), 10);
  send(0, 1, 3, 11);
  ASSERT_TRUE(from0->completed.load());
  EXPECT_EQ(value(from0), 11);
  EXPECT_EQ(from0->matched_tag, 3);
  send(2, 1, 1, 12);
  ASSERT_TRUE(from2->completed.load());
  EXPECT_EQ(value(from2), 12);
}

// Communicators have their own contexts: wildcards never cross them.
TEST_F(MessengerTest, DifferentContextsNeverMatch) {
  send(0, 1, 1, 10, /*ctx=*/0);
  Op* r = recv(1, kAnySource, kAnyTag, /*ctx=*/2);
  EXPECT_FALSE(r->completed.load());
  ProbeResult pr{};
  EXPECT_FALSE(messenger_->probe(1, 2, kAnySource, kAnyTag, &pr));
  EXPECT_FALSE(messenger_->probe(1, 1, kAnySource, kAnyTag, &pr));  // the collective context of the same communicator
  EXPECT_TRUE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));
  send(0, 1, 1, 20, /*ctx=*/2);
  ASSERT_TRUE(r->completed.load());
  EXPECT_EQ(value(r), 20);  // not the earlier message of context 0
  Op* r0 = recv(1, 0, 1, /*ctx=*/0);
  ASSERT_TRUE(r0->completed.load());
  EXPECT_EQ(value(r0), 10);
}

// A probe reports the earliest matching message and leaves it queued.
TEST_F(MessengerTest, ProbeSeesQueuedMessagesWithoutTakingThem) {
  send(0, 1, 1, 10, 0, true, false, /*ints=*/1);
  send(2, 1, 2, 20, 0, false, false, /*ints=*/3);
  ProbeResult pr{};
  for (int k = 0; k < 2; ++k) {  // twice: the first probe took nothing
    ASSERT_TRUE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));
    EXPECT_EQ(pr.source, 0);
    EXPECT_EQ(pr.tag, 1);
    EXPECT_EQ(pr.bytes, sizeof(int));
  }
  ASSERT_TRUE(messenger_->probe(1, 0, kAnySource, 2, &pr));
  EXPECT_EQ(pr.source, 2);
  EXPECT_EQ(pr.bytes, 3 * sizeof(int));
  ASSERT_TRUE(messenger_->probe(1, 0, 2, kAnyTag, &pr));
  EXPECT_EQ(pr.tag, 2);
  EXPECT_FALSE(messenger_->probe(1, 0, 3, kAnyTag, &pr));
  EXPECT_FALSE(messenger_->probe(1, 0, kAnySource, 3, &pr));
  EXPECT_FALSE(messenger_->probe(2, 0, kAnySource, kAnyTag, &pr));  // another subrank's mailbox
  // The probed message is what the receive gets.
  ASSERT_TRUE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));
  Op* r = recv(1, pr.source, pr.tag);
  ASSERT_TRUE(r->completed.load());
  EXPECT_EQ(value(r), 10);
  ASSERT_TRUE(messenger_->probe(1, 0, kAnySource, kAnyTag, &pr));
  EXPECT_EQ(pr.source, 2);
}

// MPI_Ssend completes only when a receive matched it, even if short and
// blocking; a blocking send up to the eager limit completes at once and
// its buffer may be reused; a longer one waits.
TEST_F(MessengerTest, SynchronousAndEagerSends) {
  Op* sync = send(0, 1, 1, 10, 0, /*eager=*/true, /*sync=*/true);
  EXPECT_FALSE(sync->completed.load());
  Op* eager = send(0, 2, 1, 20, 0, /*eager=*/true);
  EXPECT_TRUE(eager->completed.load());
  eager->payload[0] = -20;  // reused: the message was copied
  Op* big = send(0, 3, 1, 30, 0, /*eager=*/true, false, kEagerLimit / sizeof(int) + 1);
  EXPECT_FALSE(big->completed.load());
  Op* nonblocking = send(0, 3, 2, 40, 0, /*eager=*/false);
  EXPECT_FALSE(nonblocking->completed.load());

  Op* r1 = recv(1, 0, 1);
  EXPECT_TRUE(sync->completed.load());
  EXPECT_EQ(value(r1), 10);
  Op* r2 = recv(2, 0, 1);
  EXPECT_EQ(value(r2), 20);
  Op* r3 = recv(3, 0, 1, 0, kEagerLimit / sizeof(int) + 1);
  EXPECT_TRUE(big->completed.load());
  EXPECT_EQ(value(r3), 30);
  EXPECT_EQ(r3->matched_bytes, kEagerLimit + sizeof(int));
  recv(3, 0, 2);
  EXPECT_TRUE(nonblocking->completed.load());
}

// A message longer than the receive buffer fills it and reports
// MPI_ERR_TRUNCATE, whether the receive or the message came first.
TEST_F(MessengerTest, LongerMessageIsTruncated) {
  send(0, 1, 1, 10, 0, false, false, /*ints=*/4);
  Op* r = recv(1, 0, 1, 0, /*ints=*/2);
  ASSERT_TRUE(r->completed.load());
  EXPECT_EQ(r->error, TMPI_ERR_TRUNCATE);
  EXPECT_EQ(r->matched_bytes, 2 * sizeof(int));
  EXPECT_EQ(r->payload, (std::vector<int>{10, 11}));

  Op* r2 = recv(1, 0, 1, 0, /*ints=*/1);
  Op* s2 = send(0, 1, 1, 7, 0, false, false, /*ints=*/2);
  EXPECT_TRUE(s2->completed.load());
  EXPECT_EQ(r2->error, TMPI_ERR_TRUNCATE);
  EXPECT_EQ(r2->matched_bytes, sizeof(int));
  EXPECT_EQ(value(r2), 7);
}

TEST_F(MessengerTest, ZeroByteMessagesMatch) {
  Op* s = make(1);
  s->kind = Operation::Kind::Send;
  s->owner = 0;
  s->peer = 1;
  s->tag = 3;
  s->bytes = 0;
  s->payload[0] = 99;
  messenger_->post(s);
  EXPECT_FALSE(s->completed.load());
  Op* r = make(1);
  r->kind = Operation::Kind::Recv;
  r->owner = 1;
  r->peer = kAnySource;
  r->tag = kAnyTag;
  r->payload[0] = -1;
  messenger_->post(r);
  ASSERT_TRUE(r->completed.load());
  EXPECT_TRUE(s->completed.load());
  EXPECT_EQ(r->matched_tag, 3);
  EXPECT_EQ(r->matched_bytes, 0u);
  EXPECT_EQ(r->error, 0);
  EXPECT_EQ(value(r), -1);  // nothing written
}

// A cancelled receive is out of the queue: a later message is queued, not
// given to it. A matched receive cannot be cancelled.
TEST_F(MessengerTest, CancelledReceiveTakesNoMessage) {
  Op* r = recv(1, 0, 1);
  EXPECT_TRUE(messenger_->cancel_receive(r));
  EXPECT_FALSE(messenger_->cancel_receive(r));  // not there any more
  send(0, 1, 1, 10, 0, true);
  EXPECT_FALSE(r->completed.load());
  ProbeResult pr{};
  EXPECT_TRUE(messenger_->probe(1, 0, 0, 1, &pr));
  Op* r2 = recv(1, 0, 1);
  ASSERT_TRUE(r2->completed.load());
  EXPECT_FALSE(messenger_->cancel_receive(r2));
}

// Senders on three threads, one receiver with MPI_ANY_SOURCE on a fourth:
// each sender's messages arrive in its send order, none lost.
TEST_F(MessengerTest, ConcurrentSendersKeepEachSendersOrder) {
  constexpr int kPerSender = 2000;
  const int senders[] = {0, 2, 3};
  std::vector<std::unique_ptr<Op>> sends;
  for (int s : senders) {
    for (int i = 0; i < kPerSender; ++i) {
      auto op = std::make_unique<Op>();
      op->kind = Operation::Kind::Send;
      op->owner = s;
      op->peer = 1;
      op->tag = i % 3;
      op->eager_ok = i % 2 == 0;
      op->payload = {i};
      op->buf = op->payload.data();
      op->bytes = sizeof(int);
      op->on_complete = &on_done;
      sends.push_back(std::move(op));
    }
  }
  std::vector<int> last(4, -1);
  int out_of_order = 0, received = 0;
  std::thread receiver([&] {
    for (int n = 0; n < 3 * kPerSender; ++n) {
      Op r;
      r.kind = Operation::Kind::Recv;
      r.owner = 1;
      r.peer = kAnySource;
      r.tag = kAnyTag;
      r.payload = {-1};
      r.buf = r.payload.data();
      r.bytes = sizeof(int);
      r.on_complete = &on_done;
      messenger_->post(&r);
      while (!r.completed.load(std::memory_order_acquire)) std::this_thread::yield();
      int& prev = last[static_cast<std::size_t>(r.matched_source)];
      if (r.payload[0] != prev + 1 || r.matched_tag != r.payload[0] % 3) ++out_of_order;
      prev = r.payload[0];
      ++received;
    }
  });
  std::vector<std::thread> threads;
  for (int k = 0; k < 3; ++k) {
    threads.emplace_back([&, k] {
      for (int i = 0; i < kPerSender; ++i) messenger_->post(sends[static_cast<std::size_t>(k * kPerSender + i)].get());
    });
  }
  for (auto& t : threads) t.join();
  receiver.join();
  EXPECT_EQ(received, 3 * kPerSender);
  EXPECT_EQ(out_of_order, 0);
  for (int s : senders) EXPECT_EQ(last[static_cast<std::size_t>(s)], kPerSender - 1);
  for (const auto& op : sends) EXPECT_TRUE(op->completed.load());
}

// wait_for_arrival: a fiber parked for its mailbox is woken by the next
// message (this is how a blocked MPI_Probe waits).
TEST_F(MessengerTest, ArrivalWakesTheParkedFiber) {
  tucana::test::Harness h(1);
  std::atomic<bool> seen{false};
  int parks = -1;
  h.spawn(0, [&] {
    ProbeResult pr{};
    messenger_->wait_for_arrival(1, tucana::sched::Scheduler::current_fiber());
    parks = h.park_until([&] { return messenger_->probe(1, 0, kAnySource, kAnyTag, &pr); });
    seen.store(pr.tag == 6);
  });
  h.spawn(0, [&] {
    while (h.scheduler().parked() < 1 && !h.watchdog_fired()) tucana::sched::Scheduler::yield();
    send(0, 1, 6, 60, 0, true);
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired()) << "the arrival did not wake the waiting fiber";
  EXPECT_TRUE(seen.load());
  EXPECT_EQ(parks, 1);
}

}  // namespace
