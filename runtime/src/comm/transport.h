// The transport: messages between subranks of different processes, over the
// system's real MPI. This is the only part of the runtime that calls MPI.
//
// Encoding (comm/tag_encoding.h): a message from subrank s to subrank d
// travels as an MPI message on one real communicator, from s's process to
// d's process, with
//   real tag = ((((user tag << C) | context) << 1 | sync) << 2B)
//              | (local index of s << B) | local index of d,
// where B bits hold any local subrank index and C bits the low bits of the
// context id of the virtual communicator (each communicator has two:
// point-to-point and collective). The tag space is split at start-up:
// program tags keep at least the 15 bits MPI guarantees, contexts get what is
// left, up to 8 bits. The context id's higher bits choose one of several real
// communicators (all duplicates of MPI_COMM_WORLD, made at start-up), so
// thousands of virtual communicators can exist at once whatever C is; a
// process only looks for messages on the real communicators that its
// subranks' virtual communicators use, and on those that have been quiet
// for a while only one per poll, in turn.
//
// Synchronous sends (MPI_Ssend, sync = 1) must not complete before the
// receiving subrank matches them, which is later than MPI's own match by
// MPI_Improbe. The receiver answers each match with an empty message with
// the same real tag on a second real communicator; the sender completes its
// synchronous sends to one process in order per real tag, since MPI's non-overtaking rule orders both the messages and the
// acknowledgements. Receiving processes find
// messages with MPI_Improbe(ANY_SOURCE, ANY_TAG) and receive them with
// MPI_Imrecv, so matching (wildcards, order) is done exactly by the subrank
// layer above, never by MPI's tag matching. MPI's non-overtaking rule between
// two processes carries over to every pair of subranks.
//
// Thread safety: one lock (the "transport" lock, LockLevel::kTransport)
// guards the state behind impl_ and every MPI call that touches it.
// Completions and the arrival handler run under it: they may take only
// locks of inner levels, and must not block, park or call back into the
// transport except through the *_in_handler functions (docs/runtime.md,
// "Locks and their order"). Who calls MPI is the progress mode (Progress,
// tucana-run --progress; docs/runtime.md, "Progress engine"):
//   kAny       MPI_THREAD_SERIALIZED: poll() only try-locks, so whichever
//              worker is idle acts as the communicator while the others keep
//              computing; a sending worker takes the lock and posts at once.
//   kWorker    MPI_THREAD_FUNNELED: only the communication thread (the one
//              that called init(): worker 0) calls MPI. The other threads
//              hand their sends, receives and acknowledgements to it through
//              a queue; it posts them, in order, before anything else it does
//              under the lock (its next poll, or its own next send).
//   kMultiple  MPI_THREAD_MULTIPLE: polling as kAny, but a sender posts its
//              MPI_Isend (and a receiver its MPI_Imrecv) without the lock and
//              takes it only to track the request; synchronous sends keep
//              the locked path, whose order their acknowledgements rely on.
// With one worker every mode calls MPI from one thread, MPI_THREAD_FUNNELED.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <pthread.h>

#include "comm/layout.h"
#include "comm/tag_encoding.h"
#include "sync/mutex.h"

namespace tucana::comm {

struct RemoteMessage;  // a message found by MPI_Improbe, not yet received
struct RealComms;      // the real communicators (transport.cc)

// Which threads call MPI (see above; tucana-run --progress).
enum class Progress { kAny, kWorker, kMultiple };

// Notified once when an operation handed to the transport has finished.
struct Completion {
  void (*done)(Completion* self, int error) = nullptr;  // error: 0 or an MPI error class
};

// Who to acknowledge when a synchronous message from another process is
// matched by a receive.
struct SyncAck {
  int proc = -1;  // the sender's process (-1: not synchronous)
  int real_tag = 0;
  int comm = 0;   // which real communicator carried the message
};

// A message from another process, as seen by the arrival handler.
struct Arrival {
  int ctx;
  int src_world;
  int dst_local;
  int tag;
  std::size_t bytes;
  RemoteMessage* message;
  SyncAck ack;  // ack.proc >= 0 for MPI_Ssend: call acknowledge() when matched
};

class Transport {
 public:
  Transport();
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Initializes the real MPI, on the thread that will run worker 0 (the
  // communication thread of Progress::kWorker). `threads_needed` (several
  // workers) asks for the thread level `mode` needs: SERIALIZED (kAny),
  // FUNNELED (kWorker), MULTIPLE (kMultiple); without it FUNNELED. Returns
  // false with `error` set when MPI cannot give that.
  bool init(int* argc, char*** argv, bool threads_needed, Progress mode, std::string* error);
  Progress progress() const { return mode_; }
  // False on the threads that must not call MPI (Progress::kWorker: every
  // thread but the communication thread); poll() does nothing there.
  bool may_call_mpi() const { return mode_ != Progress::kWorker || on_comm_thread(); }
  // Progress::kWorker: called (with no transport lock held) after another
  // thread queued work for the communication thread, to wake it if it
  // sleeps. The queued work also counts in in_flight(), before the call.
  void set_wake_communicator(void (*wake)(void* arg), void* arg) {
    wake_ = wake;
    wake_arg_ = arg;
  }
  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& processor_name() const { return processor_name_; }

  // Checks the tag encoding for `layout` and creates the real communicators.
  // Collective over all processes. Returns false with an error that names the
  // exceeded limit.
  bool configure(const Layout& layout, std::string* error);
  // The largest tag a program may use (MPI_TAG_UB of the virtual MPI).
  int user_tag_ub() const { return user_tag_ub_; }
  int subrank_bits() const { return subrank_bits_; }
  int real_tag_bits() const { return real_tag_bits_; }
  // How many context ids can travel between processes (ids 0 .. n-1):
  // 2^C in the tag times the real communicators that carry them.
  int remote_contexts() const { return data_comms_ << context_bits_; }
  int context_bits() const { return context_bits_; }
  int data_comms() const { return data_comms_; }
  // A subrank of this process takes (in_use) or gives back a context id
  // below remote_contexts(): messages for it are looked for on its real
  // communicator while any subrank here uses one of that communicator's
  // ids. Any thread.
  void note_context(int ctx, bool in_use);

  // Called for each message from another process, in arrival order, with the
  // transport lock held. It must eventually receive every message it is
  // given: now, with receive_in_handler or take_in_handler, or later with
  // receive().
  void set_arrival_handler(std::function<void(const Arrival&)> handler) TUCANA_EXCLUDES(mutex_) {
    sync::MutexLock lock(mutex_);
    handler_ = std::move(handler);
  }
  // The transport lock, for the annotations of the arrival handler
  // (TUCANA_REQUIRES(transport.mutex())) and of completions.
  sync::Mutex& mutex() TUCANA_RETURN_CAPABILITY(mutex_) { return mutex_; }
  // In the arrival handler: tells the analysis (and, with the lock-order
  // checks, checks) that the calling thread holds the transport lock.
  void assert_in_handler() const TUCANA_ASSERT_CAPABILITY(mutex_) { mutex_.assert_held(); }
  // Only inside the arrival handler: receive `m` into `buf` (a short message
  // at once, a long one in the background).
  void receive_in_handler(RemoteMessage* m, void* buf, std::size_t capacity, Completion* done)
      TUCANA_REQUIRES(mutex_);
  // Only inside the arrival handler: receive `m` now into a new buffer
  // allocated with malloc (the caller frees it). For short messages.
  void* take_in_handler(RemoteMessage* m) TUCANA_REQUIRES(mutex_);

  // Sends `bytes` at `buf` from subrank src_world to dst_world (another
  // process). done->done runs from a later poll() when `buf` may be reused
  // (for a synchronous send: when the receiver has matched it). Any thread
  // (done->done may also run before send returns, under the lock, or with
  // Progress::kMultiple without it).
  void send(const void* buf, std::size_t bytes, int src_world, int dst_world, int tag, int ctx,
            bool synchronous, Completion* done) TUCANA_EXCLUDES(mutex_);
  // Receives a message kept from the arrival handler into `buf`. Any thread.
  void receive(RemoteMessage* m, void* buf, std::size_t capacity, Completion* done) TUCANA_EXCLUDES(mutex_);

  // Tells the sender of a synchronous message that a receive matched it.
  // Any thread; in the arrival handler use acknowledge_in_handler.
  void acknowledge(const SyncAck& ack) TUCANA_EXCLUDES(mutex_);
  void acknowledge_in_handler(const SyncAck& ack) TUCANA_REQUIRES(mutex_);

  // The number of operations in flight (a hint, read without the lock):
  // requests MPI has not completed, and work queued for the communication
  // thread (Progress::kWorker), counted before the queuing thread wakes it.
  const std::atomic<int>& in_flight() const { return in_flight_; }

  // --- for the deadlock detector (mpi/deadlock.cc) ---
  // Real messages this process has sent (data and acknowledgements, counted
  // when posted, or when queued for the communication thread) and received (counted when MPI hands them over: matched by
  // MPI_Improbe, or an acknowledgement received). Their sums over all
  // processes are equal when no message is in flight anywhere.
  long long messages_sent() const { return sent_.load(std::memory_order_relaxed); }
  long long messages_received() const { return received_.load(std::memory_order_relaxed); }
  // Receives posted and not complete: they finish by themselves, so while
  // one is pending this process is not stuck. (A pending send may wait for a
  // receiver that never comes, and does not count.)
  int receives_in_flight() const {
    return receiving_.load(std::memory_order_relaxed) + queued_receives_.load(std::memory_order_relaxed);
  }
  static constexpr int kAgreementValues = 4;
  // Starts MPI_Iallreduce(SUM) of `in` over every process, on a communicator
  // of its own. Returns false (nothing started) when another thread holds
  // the lock, or on a thread that must not call MPI (may_call_mpi()). Contract: at most one agreement outstanding per process, and
  // every process starts its agreements in the same order.
  bool agreement_start(const long long in[kAgreementValues]) TUCANA_EXCLUDES(mutex_);
  // Tests the outstanding agreement: 1 and `out` filled when it completed, 0
  // when not yet, -1 when another thread holds the lock (or on a thread that
  // must not call MPI).
  int agreement_test(long long out[kAgreementValues]) TUCANA_EXCLUDES(mutex_);
  // Collective over all processes, blocking: process 0 gets every process's
  // `text` in process order in `all`. Contract: may_call_mpi().
  void gather_text(const std::string& text, std::string* all) TUCANA_EXCLUDES(mutex_);

  // Makes progress if no other thread is doing so (and this one may call
  // MPI): posts the work queued for the communication thread, completes
  // finished operations and hands new arrivals to the handler. True if
  // anything moved.
  bool poll() TUCANA_EXCLUDES(mutex_);

  // Waits for every pending operation, then finalizes MPI. Call once, after
  // all subranks have finished (normally on the thread that called init()).
  void finalize() TUCANA_EXCLUDES(mutex_);
  [[noreturn]] void abort(int code);

 private:
  struct Impl;
  struct Queued;  // an operation handed to the communication thread
  bool on_comm_thread() const { return pthread_equal(pthread_self(), comm_thread_) != 0; }
  // Progress::kWorker: every MPI call is made on the communication thread
  // (asserted in every build with assertions: the tests').
  void assert_mpi_thread() const;
  bool poll_locked() TUCANA_REQUIRES(mutex_);
  bool poll_acks_locked() TUCANA_REQUIRES(mutex_);
  // Hands the messages waiting on real communicator `k` to the handler, at
  // most *budget of them (counted down); true if there was one.
  bool arrivals_locked(int k, int* budget) TUCANA_REQUIRES(mutex_);
  void post_send_locked(const void* buf, std::size_t bytes, int dst_proc, int real_tag, int comm,
                        bool synchronous, Completion* done) TUCANA_REQUIRES(mutex_);
  void post_receive_locked(RemoteMessage* m, void* buf, std::size_t capacity, Completion* done)
      TUCANA_REQUIRES(mutex_);
  void post_ack_locked(const SyncAck& ack) TUCANA_REQUIRES(mutex_);
  // Tracks `r` until it completes, or completes it now if it already has.
  void track_locked(void* request, Completion* done) TUCANA_REQUIRES(mutex_);
  // Progress::kWorker, off the communication thread: queues `q` for it and
  // wakes it.
  void enqueue(Queued* q) TUCANA_EXCLUDES(mutex_, queue_mutex_);
  // Posts what other threads queued, in their order. True if there was any.
  bool post_queued_locked() TUCANA_REQUIRES(mutex_) TUCANA_EXCLUDES(queue_mutex_);
  // Progress::kMultiple: completes `request` now or tracks it under the lock.
  void track_unlocked(void* request, Completion* done) TUCANA_EXCLUDES(mutex_);
  // The two halves of tracking. completed_at_once: tests `request` (an
  // MPI_Request*) once and, if it is complete, completes `done`; true then.
  // keep_pending_locked: adds it to the requests that poll tests.
  static bool completed_at_once(void* request, Completion* done);
  void keep_pending_locked(void* request, Completion* done) TUCANA_REQUIRES(mutex_);

  sync::Mutex mutex_{sync::LockLevel::kTransport, "transport"};
  // The MPI state (requests, real communicators, ...): only with mutex_.
  std::unique_ptr<Impl> impl_ TUCANA_PT_GUARDED_BY(mutex_);
  // The real communicators: made by configure() before any worker runs,
  // freed by finalize() after they all ended; read without the lock (the
  // unlocked sends of Progress::kMultiple).
  std::unique_ptr<RealComms> comms_;
  Progress mode_ = Progress::kAny;
  pthread_t comm_thread_{};  // the thread that called init()
  // Progress::kWorker: work queued by other threads for the communication
  // thread. A leaf lock: nothing is taken under it (the wake comes after).
  sync::Mutex queue_mutex_{sync::LockLevel::kLeaf, "transport queue"};
  Queued* queue_head_ TUCANA_GUARDED_BY(queue_mutex_) = nullptr;
  Queued* queue_tail_ TUCANA_GUARDED_BY(queue_mutex_) = nullptr;
  std::atomic<bool> queue_nonempty_{false};
  std::atomic<int> queued_receives_{0};  // receives among them
  void (*wake_)(void*) = nullptr;
  void* wake_arg_ = nullptr;
  // Per real communicator: how many context ids on it the subranks of this
  // process use (0 is always looked at: MPI_COMM_WORLD). Atomic: any thread
  // notes its contexts without the lock (note_context).
  std::unique_ptr<std::atomic<int>[]> users_;
  int rank_ = 0;
  int size_ = 1;
  int real_tag_bits_ = 0;
  int subrank_bits_ = 0;
  int context_bits_ = 0;
  int data_comms_ = 1;
  int user_tag_ub_ = 0;
  std::string processor_name_;
  std::function<void(const Arrival&)> handler_ TUCANA_GUARDED_BY(mutex_);
  const Layout* layout_ = nullptr;
  std::atomic<int> in_flight_{0};
  std::atomic<long long> sent_{0};      // any thread (unlocked sends, queued ones)
  std::atomic<long long> received_{0};  // written under the lock
  std::atomic<int> receiving_{0};       // written under the lock
};

// (kMinUserTagBits and kMaxContextBits: comm/tag_encoding.h)
// Context ids that may travel between processes, at most: enough real
// communicators are made at start-up for this many (the virtual MPI's own
// limit, mpi/comm/communicator.h's kMaxContexts, is the same), but no more than
// kMaxDataComms of them.
constexpr int kMaxRemoteContexts = 8192;
constexpr int kMaxDataComms = 64;

}  // namespace tucana::comm
