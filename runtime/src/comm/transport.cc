#include "comm/transport.h"

#include <mpi.h>
#include <tucana/tmpi.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <unistd.h>

#include "fiber/keep_errno.h"

namespace tucana::comm {

// The real MPI may set errno (Open MPI's TCP transport leaves EAGAIN), and
// these calls run on a subrank's fiber (sends, receives) or while one
// switches away (polls): every public function that calls MPI keeps the
// caller's errno, which belongs to the subrank (docs/privatization.md).
using fiber::KeepErrno;

struct RemoteMessage {
  MPI_Message handle;
  std::size_t bytes;
};

namespace {
// Messages up to this size that meet a posted receive are received at once
// in the arrival handler (they are in MPI's buffers already).
constexpr std::size_t kShortMessage = 16 * 1024;
// A real communicator whose last this many probes found nothing is quiet.
constexpr int kQuietAfter = 64;

// A synchronous send to another process: done when MPI has sent it and the
// receiving subrank has matched it.
struct SyncSend {
  int proc;
  int real_tag;
  int comm;  // index of the real communicator
  Completion* done;
  bool sent = false;
  bool acked = false;
};

// Completion of the MPI_Isend of a synchronous send.
struct SyncSent : Completion {
  SyncSend* sync;
};

// A receive whose message may be longer than the buffer goes through `temp`
// and is truncated on completion, as MPI_ERR_TRUNCATE requires.
struct Pending {
  Completion* done;
  void* temp = nullptr;
  void* user = nullptr;
  std::size_t capacity = 0;
  bool receive = false;
};
}  // namespace

// Real communicators: the messages (context id >> C chooses one), and
// the acknowledgements of synchronous ones. Written by configure() and
// finalize() only (Transport::comms_).
struct RealComms {
  std::vector<MPI_Comm> data;
  MPI_Comm acks = MPI_COMM_NULL;
  // 0, 1, 2, ...: the payload of an acknowledgement names the real
  // communicator of the message it acknowledges (never written after
  // configure(), so pending sends may point into it).
  std::vector<int> comm_index;
};

// An operation another thread handed to the communication thread
// (Progress::kWorker), with the arguments of its post_*_locked call.
struct Transport::Queued {
  enum class Kind : unsigned char { kSend, kReceive, kAck };
  explicit Queued(Kind k) : kind(k) {}
  Kind kind;
  bool synchronous = false;
  const void* buf = nullptr;  // send: the data; receive: the buffer
  std::size_t bytes = 0;      // send: length; receive: capacity
  int dst_proc = 0;
  int real_tag = 0;
  int comm = 0;
  Completion* done = nullptr;
  RemoteMessage* message = nullptr;
  SyncAck ack;
  Queued* next = nullptr;
};

// Everything here is guarded by the transport lock (Transport::mutex_,
// through impl_'s annotation).
struct Transport::Impl {
  // Per real communicator: probes in a row that found nothing. One that
  // has been quiet for kQuietAfter probes is looked at in turn with the
  // other quiet ones, one per poll, so that many communicators alive (and
  // idle) cost a poll little.
  std::vector<int> quiet;
  int next_quiet = 1;
  // The deadlock detector's agreements.
  MPI_Comm detector = MPI_COMM_NULL;
  MPI_Request agreement = MPI_REQUEST_NULL;
  long long agreement_in[Transport::kAgreementValues] = {};
  long long agreement_out[Transport::kAgreementValues] = {};
  std::vector<SyncSend*> sync_sends;  // in send order
  std::vector<MPI_Request> requests;
  std::vector<Pending> pending;    // parallel to `requests`
  std::vector<int> indices;
  bool finalized = false;
};

Transport::Transport() : impl_(std::make_unique<Impl>()), comms_(std::make_unique<RealComms>()) {}
Transport::~Transport() = default;

void Transport::assert_mpi_thread() const {
  assert(may_call_mpi() && "--progress worker: MPI called off the communication thread");
}

namespace {
const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
  }
  return "an unknown thread level";
}
}  // namespace

bool Transport::init(int* argc, char*** argv, bool threads_needed, Progress mode, std::string* error) {
  mode_ = mode;
  comm_thread_ = pthread_self();
  int provided = 0;
  int required = MPI_THREAD_FUNNELED;
  if (threads_needed && mode == Progress::kAny) required = MPI_THREAD_SERIALIZED;
  if (threads_needed && mode == Progress::kMultiple) required = MPI_THREAD_MULTIPLE;
  MPI_Init_thread(argc, argv, required, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  processor_name_.assign(name, static_cast<std::size_t>(len));
  if (provided < required) {
    const char* who = mode == Progress::kMultiple ? "--progress multiple needs"
                                                  : "several workers need";
    *error = std::string("the MPI library provides thread level ") + level_name(provided) + " (" +
             std::to_string(provided) + ") but " + who + " " + level_name(required) + " (" +
             std::to_string(required) + ")";
    if (mode == Progress::kMultiple) *error += "; use --progress any or worker with this library";
    return false;
  }
  return true;
}

bool Transport::configure(const Layout& layout, std::string* error) {
  layout_ = &layout;
  void* attr = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &attr, &flag);
  long tag_ub = flag ? *static_cast<int*>(attr) : 32767;
  TagPlan plan;
  if (!plan_tags(tag_ub, layout.max_local_count(), layout.nprocs > 1, &plan, error)) return false;
  real_tag_bits_ = plan.real_tag_bits;
  subrank_bits_ = plan.format.subrank_bits;
  context_bits_ = plan.format.context_bits;
  user_tag_ub_ = plan.user_tag_ub;
  if (layout.nprocs > 1) {
    sync::MutexLock lock(mutex_);  // (no other thread runs yet; for the analysis)
    // Enough real communicators for kMaxRemoteContexts ids, within reason.
    data_comms_ = std::max(1, std::min(kMaxDataComms, kMaxRemoteContexts >> context_bits_));
    comms_->data.assign(static_cast<std::size_t>(data_comms_), MPI_COMM_NULL);
    for (MPI_Comm& c : comms_->data) MPI_Comm_dup(MPI_COMM_WORLD, &c);
    users_.reset(new std::atomic<int>[static_cast<std::size_t>(data_comms_)]);
    for (int k = 0; k < data_comms_; ++k) {
      users_[static_cast<std::size_t>(k)].store(0, std::memory_order_relaxed);
      comms_->comm_index.push_back(k);
    }
    impl_->quiet.assign(static_cast<std::size_t>(data_comms_), 0);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms_->acks);
    MPI_Comm_dup(MPI_COMM_WORLD, &impl_->detector);
  }
  return true;
}

void Transport::note_context(int ctx, bool in_use) {
  int k = ctx >> context_bits_;
  if (size_ == 1 || !users_ || k < 0 || k >= data_comms_) return;
  users_[static_cast<std::size_t>(k)].fetch_add(in_use ? 1 : -1, std::memory_order_relaxed);
}

void Transport::send(const void* buf, std::size_t bytes, int src_world, int dst_world, int tag,
                     int ctx, bool synchronous, Completion* done) {
  KeepErrno keep_errno;
  const Layout& l = *layout_;
  int dst_proc = l.proc_of(dst_world);
  const int comm = ctx >> context_bits_;
  assert(comm >= 0 && comm < data_comms_);
  ctx &= (1 << context_bits_) - 1;
  int real_tag = encode_tag(TagFormat{subrank_bits_, context_bits_},
                            TagFields{tag, ctx, synchronous, l.local_of(src_world), l.local_of(dst_world)});
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    std::fprintf(stderr, "tucana: error: a message of %zu bytes exceeds the 2 GiB limit of one message\n", bytes);
    abort(1);
  }
  if (mode_ == Progress::kWorker && !on_comm_thread()) {
    auto* q = new Queued(Queued::Kind::kSend);
    q->synchronous = synchronous;
    q->buf = buf;
    q->bytes = bytes;
    q->dst_proc = dst_proc;
    q->real_tag = real_tag;
    q->comm = comm;
    q->done = done;
    sent_.fetch_add(1, std::memory_order_relaxed);  // in flight from now on, for the deadlock detector
    enqueue(q);
    return;
  }
  if (mode_ == Progress::kMultiple && !synchronous) {
    // MPI_THREAD_MULTIPLE: post without the lock, which only the tracking
    // needs. (Synchronous sends take the path below: their bookkeeping's
    // order must be MPI's order of the sends.)
    MPI_Request r;
    MPI_Isend(buf, static_cast<int>(bytes), MPI_BYTE, dst_proc, real_tag, comms_->data[static_cast<std::size_t>(comm)],
              &r);
    sent_.fetch_add(1, std::memory_order_relaxed);
    track_unlocked(&r, done);
    return;
  }
  sync::MutexLock lock(mutex_);
  if (mode_ == Progress::kWorker) post_queued_locked();  // what this subrank queued on another worker goes first
  sent_.fetch_add(1, std::memory_order_relaxed);
  post_send_locked(buf, bytes, dst_proc, real_tag, comm, synchronous, done);
}

void Transport::post_send_locked(const void* buf, std::size_t bytes, int dst_proc, int real_tag, int comm,
                                 bool synchronous, Completion* done) {
  assert_mpi_thread();
  MPI_Comm c = comms_->data[static_cast<std::size_t>(comm)];
  MPI_Request r;
  if (!synchronous) {
    MPI_Isend(buf, static_cast<int>(bytes), MPI_BYTE, dst_proc, real_tag, c, &r);
    track_locked(&r, done);
    return;
  }
  auto* sync = new SyncSend{dst_proc, real_tag, comm, done};
  auto* sent = new SyncSent;
  sent->sync = sync;
  // Runs from track_locked or poll_locked, under the lock.
  sent->done = [](Completion* c, int) {
    auto* s = static_cast<SyncSent*>(c);
    SyncSend* sync = s->sync;
    delete s;
    sync->sent = true;
    if (sync->acked) {
      sync->done->done(sync->done, 0);
      delete sync;
    }
  };
  impl_->sync_sends.push_back(sync);
  MPI_Isend(buf, static_cast<int>(bytes), MPI_BYTE, dst_proc, real_tag, c, &r);
  track_locked(&r, sent);
}

void Transport::enqueue(Queued* q) {
  // Counted before it is visible: the communication thread's drain subtracts
  // it, and a sleeping worker that re-checks in_flight() before it sleeps
  // sees it (or the wake below finds it asleep).
  in_flight_.fetch_add(1);
  if (q->kind == Queued::Kind::kReceive) queued_receives_.fetch_add(1, std::memory_order_relaxed);
  {
    sync::MutexLock lock(queue_mutex_);
    (queue_tail_ ? queue_tail_->next : queue_head_) = q;
    queue_tail_ = q;
    queue_nonempty_.store(true, std::memory_order_release);
  }
  if (wake_) wake_(wake_arg_);
}

bool Transport::post_queued_locked() {
  if (!queue_nonempty_.load(std::memory_order_acquire)) return false;
  Queued* q;
  {
    sync::MutexLock lock(queue_mutex_);
    q = queue_head_;
    queue_head_ = queue_tail_ = nullptr;
    queue_nonempty_.store(false, std::memory_order_relaxed);
  }
  bool any = q != nullptr;
  while (q) {
    Queued* next = q->next;
    switch (q->kind) {
      case Queued::Kind::kSend:
        post_send_locked(q->buf, q->bytes, q->dst_proc, q->real_tag, q->comm, q->synchronous, q->done);
        break;
      case Queued::Kind::kReceive:
        post_receive_locked(q->message, const_cast<void*>(q->buf), q->bytes, q->done);
        queued_receives_.fetch_sub(1, std::memory_order_relaxed);  // (counted in receiving_ now)
        break;
      case Queued::Kind::kAck:
        post_ack_locked(q->ack);
        break;
    }
    in_flight_.fetch_sub(1, std::memory_order_relaxed);  // (what is still pending was counted again when tracked)
    delete q;
    q = next;
  }
  return any;
}

// MPI_THREAD_MULTIPLE: a request posted without the lock, completed now
// (without the lock: as a delivery between subranks of one process is) or
// tracked with it.
void Transport::track_unlocked(void* request, Completion* done) {
  if (completed_at_once(request, done)) return;
  sync::MutexLock lock(mutex_);
  keep_pending_locked(request, done);
}

// A short send usually completes at once (MPI copies it out): then the
// sender need not wait for a later poll.
void Transport::track_locked(void* request, Completion* done) {
  if (completed_at_once(request, done)) return;
  keep_pending_locked(request, done);
}

bool Transport::completed_at_once(void* request, Completion* done) {
  MPI_Request& r = *static_cast<MPI_Request*>(request);
  int flag = 0;
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  if (flag && done) done->done(done, 0);
  return flag != 0;
}

void Transport::keep_pending_locked(void* request, Completion* done) {
  impl_->requests.push_back(*static_cast<MPI_Request*>(request));
  impl_->pending.push_back(Pending{done});
  in_flight_.fetch_add(1, std::memory_order_relaxed);
}

void Transport::post_ack_locked(const SyncAck& ack) {
  assert_mpi_thread();
  MPI_Request r;
  MPI_Isend(&comms_->comm_index[static_cast<std::size_t>(ack.comm)], 1, MPI_INT, ack.proc, ack.real_tag,
            comms_->acks, &r);
  track_locked(&r, nullptr);
}

void Transport::acknowledge_in_handler(const SyncAck& ack) {
  sent_.fetch_add(1, std::memory_order_relaxed);
  post_ack_locked(ack);
}

void Transport::acknowledge(const SyncAck& ack) {
  KeepErrno keep_errno;
  if (mode_ == Progress::kWorker && !on_comm_thread()) {
    auto* q = new Queued(Queued::Kind::kAck);
    q->ack = ack;
    sent_.fetch_add(1, std::memory_order_relaxed);
    enqueue(q);
    return;
  }
  if (mode_ == Progress::kMultiple) {
    // Acknowledgements with one real tag are alike: their order does not matter.
    MPI_Request r;
    MPI_Isend(&comms_->comm_index[static_cast<std::size_t>(ack.comm)], 1, MPI_INT, ack.proc, ack.real_tag,
              comms_->acks, &r);
    sent_.fetch_add(1, std::memory_order_relaxed);
    track_unlocked(&r, nullptr);
    return;
  }
  sync::MutexLock lock(mutex_);
  if (mode_ == Progress::kWorker) post_queued_locked();
  acknowledge_in_handler(ack);
}

// Acknowledgements of our synchronous sends: each completes the oldest
// synchronous send with the same process, real tag (which holds the low bits
// of the context) and real communicator (the acknowledgement's payload).
bool Transport::poll_acks_locked() {
  Impl& im = *impl_;
  bool moved = false;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comms_->acks, &flag, &st);
    if (!flag) break;
    int comm = -1;
    MPI_Recv(&comm, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, comms_->acks, MPI_STATUS_IGNORE);
    received_.fetch_add(1, std::memory_order_relaxed);
    moved = true;
    for (auto it = im.sync_sends.begin(); it != im.sync_sends.end(); ++it) {
      SyncSend* sync = *it;
      if (sync->proc != st.MPI_SOURCE || sync->real_tag != st.MPI_TAG || sync->comm != comm) continue;
      im.sync_sends.erase(it);
      sync->acked = true;
      if (sync->sent) {
        sync->done->done(sync->done, 0);
        delete sync;
      }
      break;
    }
  }
  return moved;
}

namespace {
// Receives `m` into `buf` (through a temporary when it is longer than
// `capacity`, described in *p); the request to track. No transport state.
MPI_Request start_receive(RemoteMessage* m, void* buf, std::size_t capacity, Pending* p) {
  p->receive = true;
  void* target = buf;
  if (m->bytes > capacity) {  // truncation: receive whole, keep what fits
    p->temp = std::malloc(m->bytes ? m->bytes : 1);
    p->user = buf;
    p->capacity = capacity;
    target = p->temp;
  }
  MPI_Request r;
  MPI_Imrecv(target, static_cast<int>(m->bytes), MPI_BYTE, &m->handle, &r);
  delete m;
  return r;
}
}  // namespace

void Transport::post_receive_locked(RemoteMessage* m, void* buf, std::size_t capacity,
                                    Completion* done) {
  assert_mpi_thread();
  Pending p{done};
  MPI_Request r = start_receive(m, buf, capacity, &p);
  impl_->requests.push_back(r);
  impl_->pending.push_back(p);
  in_flight_.fetch_add(1, std::memory_order_relaxed);
  receiving_.fetch_add(1, std::memory_order_relaxed);
}

void Transport::receive_in_handler(RemoteMessage* m, void* buf, std::size_t capacity,
                                   Completion* done) {
  if (m->bytes <= capacity && m->bytes <= kShortMessage) {
    // Short and already here: receive it now, no later poll round needed.
    MPI_Mrecv(buf, static_cast<int>(m->bytes), MPI_BYTE, &m->handle, MPI_STATUS_IGNORE);
    delete m;
    done->done(done, 0);
    return;
  }
  post_receive_locked(m, buf, capacity, done);
}

void* Transport::take_in_handler(RemoteMessage* m) {
  void* data = std::malloc(m->bytes ? m->bytes : 1);
  MPI_Mrecv(data, static_cast<int>(m->bytes), MPI_BYTE, &m->handle, MPI_STATUS_IGNORE);
  delete m;
  return data;
}

void Transport::receive(RemoteMessage* m, void* buf, std::size_t capacity, Completion* done) {
  KeepErrno keep_errno;
  if (mode_ == Progress::kWorker && !on_comm_thread()) {
    auto* q = new Queued(Queued::Kind::kReceive);
    q->message = m;
    q->buf = buf;
    q->bytes = capacity;
    q->done = done;
    enqueue(q);
    return;
  }
  if (mode_ == Progress::kMultiple) {
    // The message is MPI's already (matched by MPI_Improbe): no order to keep.
    Pending p{done};
    MPI_Request r = start_receive(m, buf, capacity, &p);
    sync::MutexLock lock(mutex_);
    impl_->requests.push_back(r);
    impl_->pending.push_back(p);
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    receiving_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  sync::MutexLock lock(mutex_);
  if (mode_ == Progress::kWorker) post_queued_locked();
  post_receive_locked(m, buf, capacity, done);
}

bool Transport::poll() {
  KeepErrno keep_errno;
  if (size_ == 1 || !may_call_mpi()) return false;
  if (!mutex_.try_lock()) return false;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  if (impl_->finalized) return false;
  return poll_locked();
}

bool Transport::poll_locked() {
  assert_mpi_thread();
  Impl& im = *impl_;
  // 0. what other threads handed to the communication thread (kWorker)
  bool moved = post_queued_locked();
  // 1. finished sends and receives
  if (!im.requests.empty()) {
    int n = static_cast<int>(im.requests.size());
    im.indices.resize(static_cast<std::size_t>(n));
        int outcount = 0;
    MPI_Testsome(n, im.requests.data(), &outcount, im.indices.data(), MPI_STATUSES_IGNORE);
    if (outcount > 0 && outcount != MPI_UNDEFINED) {
      moved = true;
      for (int k = 0; k < outcount; ++k) {
        Pending& p = im.pending[static_cast<std::size_t>(im.indices[static_cast<std::size_t>(k)])];
        int err = 0;
        if (p.temp) {
          std::memcpy(p.user, p.temp, p.capacity);
          std::free(p.temp);
          err = TMPI_ERR_TRUNCATE;
        }
        if (p.done) p.done->done(p.done, err);
      }
      // compact: drop the completed entries (now MPI_REQUEST_NULL)
      std::size_t w = 0;
      int receiving = 0;
      for (std::size_t i = 0; i < im.requests.size(); ++i) {
        if (im.requests[i] != MPI_REQUEST_NULL) {
          im.requests[w] = im.requests[i];
          im.pending[w] = im.pending[i];
          receiving += im.pending[w].receive;
          ++w;
        }
      }
      in_flight_.fetch_sub(static_cast<int>(im.requests.size() - w), std::memory_order_relaxed);
      im.requests.resize(w);
      im.pending.resize(w);
      receiving_.store(receiving, std::memory_order_relaxed);
    }
  }
  // 2. acknowledgements of synchronous sends
  if (!im.sync_sends.empty()) moved = poll_acks_locked() || moved;
  // 3. new arrivals, in order per real communicator (MPI's order between
  // two processes holds per communicator, which is all the virtual MPI
  // needs: one virtual communicator's messages all travel on one). The
  // first real communicator (MPI_COMM_WORLD's) and the busy ones are
  // looked at every time, the quiet ones in turn.
  int budget = 64;
  for (int k = 0; k < data_comms_ && budget > 0; ++k) {
    std::size_t i = static_cast<std::size_t>(k);
    if (k > 0 && (users_[i].load(std::memory_order_relaxed) <= 0 || im.quiet[i] >= kQuietAfter)) continue;
    if (arrivals_locked(k, &budget)) {
      moved = true;
      im.quiet[i] = 0;
    } else if (im.quiet[i] < kQuietAfter) {
      ++im.quiet[i];
    }
  }
  for (int n = 1; n < data_comms_ && budget > 0; ++n) {
    std::size_t i = static_cast<std::size_t>(im.next_quiet);
    im.next_quiet = im.next_quiet % (data_comms_ - 1) + 1;  // 1 .. data_comms_ - 1
    if (users_[i].load(std::memory_order_relaxed) <= 0 || im.quiet[i] < kQuietAfter) continue;
    if (arrivals_locked(static_cast<int>(i), &budget)) {
      moved = true;
      im.quiet[i] = 0;
    }
    break;
  }
  return moved;
}

bool Transport::arrivals_locked(int k, int* budget) {
  const TagFormat format{subrank_bits_, context_bits_};
  bool found = false;
  for (; *budget > 0; --*budget) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comms_->data[static_cast<std::size_t>(k)], &flag, &msg, &st);
    if (!flag) break;
    received_.fetch_add(1, std::memory_order_relaxed);
    found = true;
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    auto* m = new RemoteMessage{msg, static_cast<std::size_t>(count)};
    Arrival a;
    const TagFields t = decode_tag(format, st.MPI_TAG);
    a.ctx = (k << context_bits_) | t.context;
    if (t.sync) a.ack = SyncAck{st.MPI_SOURCE, st.MPI_TAG, k};
    a.dst_local = t.dst_local;
    a.src_world = layout_->proc_first[static_cast<std::size_t>(st.MPI_SOURCE)] + t.src_local;
    a.tag = t.user_tag;
    a.bytes = m->bytes;
    a.message = m;
    handler_(a);
  }
  return found;
}

bool Transport::agreement_start(const long long in[kAgreementValues]) {
  KeepErrno keep_errno;
  if (!may_call_mpi() || !mutex_.try_lock()) return false;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  assert(impl_->agreement == MPI_REQUEST_NULL);
  std::memcpy(impl_->agreement_in, in, sizeof impl_->agreement_in);
  MPI_Iallreduce(impl_->agreement_in, impl_->agreement_out, kAgreementValues, MPI_LONG_LONG, MPI_SUM,
                 impl_->detector, &impl_->agreement);
  return true;
}

int Transport::agreement_test(long long out[kAgreementValues]) {
  KeepErrno keep_errno;
  if (!may_call_mpi() || !mutex_.try_lock()) return -1;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  assert(impl_->agreement != MPI_REQUEST_NULL);
  int flag = 0;
  MPI_Test(&impl_->agreement, &flag, MPI_STATUS_IGNORE);
  if (!flag) return 0;
  std::memcpy(out, impl_->agreement_out, sizeof impl_->agreement_out);
  return 1;
}

void Transport::gather_text(const std::string& text, std::string* all) {
  KeepErrno keep_errno;
  assert_mpi_thread();
  sync::MutexLock lock(mutex_);
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, impl_->detector);
  int total = 0;
  for (int p = 0; p < size_; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += lengths[static_cast<std::size_t>(p)];
  }
  std::string gathered(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, gathered.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              impl_->detector);
  if (rank_ == 0) *all = std::move(gathered);
}

void Transport::finalize() {
  {
    sync::MutexLock lock(mutex_);
    // (Not asserted on the communication thread: an exit() that bypassed
    // the runtime's may end the process from another thread, and then
    // finalizes here, as MPI_Abort is called from any thread.)
    while (size_ > 1 && (!impl_->requests.empty() || queue_nonempty_.load())) poll_locked();
    for (MPI_Comm& c : comms_->data)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (comms_->acks != MPI_COMM_NULL) MPI_Comm_free(&comms_->acks);
    if (impl_->agreement != MPI_REQUEST_NULL) MPI_Cancel(&impl_->agreement);
    if (impl_->detector != MPI_COMM_NULL) MPI_Comm_free(&impl_->detector);
    impl_->finalized = true;
  }
  MPI_Finalize();
}

void Transport::abort(int code) {
  // Several workers may abort at once (say every subrank of a process finds
  // the same error): only the first goes into MPI_Abort, which is not made
  // for concurrent callers (Open MPI crashed in its help-message code); the
  // others wait for the process to end.
  static std::atomic<bool> aborting{false};
  if (aborting.exchange(true))
    for (;;) pause();
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace tucana::comm
