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

// Everything here is guarded by the transport lock (Transport::mutex_,
// through impl_'s annotation).
struct Transport::Impl {
  // Real communicators: the messages (context id >> C chooses one), and
  // the acknowledgements of synchronous ones.
  std::vector<MPI_Comm> data;
  MPI_Comm acks = MPI_COMM_NULL;
  // 0, 1, 2, ...: the payload of an acknowledgement names the real
  // communicator of the message it acknowledges (never written after
  // configure(), so pending sends may point into it).
  std::vector<int> comm_index;
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

Transport::Transport() : impl_(std::make_unique<Impl>()) {}
Transport::~Transport() = default;

bool Transport::init(int* argc, char*** argv, bool threads_needed, std::string* error) {
  int provided = 0;
  int required = threads_needed ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
  MPI_Init_thread(argc, argv, required, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  processor_name_.assign(name, static_cast<std::size_t>(len));
  if (provided < required) {
    *error = "the MPI library provides thread level " + std::to_string(provided) +
             " but several workers need MPI_THREAD_SERIALIZED (" + std::to_string(required) + ")";
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
    impl_->data.assign(static_cast<std::size_t>(data_comms_), MPI_COMM_NULL);
    for (MPI_Comm& c : impl_->data) MPI_Comm_dup(MPI_COMM_WORLD, &c);
    users_.reset(new std::atomic<int>[static_cast<std::size_t>(data_comms_)]);
    for (int k = 0; k < data_comms_; ++k) {
      users_[static_cast<std::size_t>(k)].store(0, std::memory_order_relaxed);
      impl_->comm_index.push_back(k);
    }
    impl_->quiet.assign(static_cast<std::size_t>(data_comms_), 0);
    MPI_Comm_dup(MPI_COMM_WORLD, &impl_->acks);
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
  sync::MutexLock lock(mutex_);
  MPI_Request r;
  if (!synchronous) {
    MPI_Isend(buf, static_cast<int>(bytes), MPI_BYTE, dst_proc, real_tag, impl_->data[static_cast<std::size_t>(comm)],
              &r);
    sent_.fetch_add(1, std::memory_order_relaxed);
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
  MPI_Isend(buf, static_cast<int>(bytes), MPI_BYTE, dst_proc, real_tag, impl_->data[static_cast<std::size_t>(comm)],
            &r);
  sent_.fetch_add(1, std::memory_order_relaxed);
  track_locked(&r, sent);
}

// A short send usually completes at once (MPI copies it out): then the
// sender need not wait for a later poll.
void Transport::track_locked(void* request, Completion* done) {
  MPI_Request& r = *static_cast<MPI_Request*>(request);
  int flag = 0;
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  if (flag) {
    if (done) done->done(done, 0);
    return;
  }
  impl_->requests.push_back(r);
  impl_->pending.push_back(Pending{done});
  in_flight_.store(static_cast<int>(impl_->requests.size()), std::memory_order_relaxed);
}

void Transport::acknowledge_in_handler(const SyncAck& ack) {
  MPI_Request r;
  MPI_Isend(&impl_->comm_index[static_cast<std::size_t>(ack.comm)], 1, MPI_INT, ack.proc, ack.real_tag, impl_->acks,
            &r);
  sent_.fetch_add(1, std::memory_order_relaxed);
  track_locked(&r, nullptr);
}

void Transport::acknowledge(const SyncAck& ack) {
  KeepErrno keep_errno;
  sync::MutexLock lock(mutex_);
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
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, im.acks, &flag, &st);
    if (!flag) break;
    int comm = -1;
    MPI_Recv(&comm, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, im.acks, MPI_STATUS_IGNORE);
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

void Transport::post_receive_locked(RemoteMessage* m, void* buf, std::size_t capacity,
                                    Completion* done) {
  Pending p{done};
  p.receive = true;
  void* target = buf;
  if (m->bytes > capacity) {  // truncation: receive whole, keep what fits
    p.temp = std::malloc(m->bytes ? m->bytes : 1);
    p.user = buf;
    p.capacity = capacity;
    target = p.temp;
  }
  MPI_Request r;
  MPI_Imrecv(target, static_cast<int>(m->bytes), MPI_BYTE, &m->handle, &r);
  delete m;
  impl_->requests.push_back(r);
  impl_->pending.push_back(p);
  in_flight_.store(static_cast<int>(impl_->requests.size()), std::memory_order_relaxed);
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
  sync::MutexLock lock(mutex_);
  post_receive_locked(m, buf, capacity, done);
}

bool Transport::poll() {
  KeepErrno keep_errno;
  if (size_ == 1) return false;
  if (!mutex_.try_lock()) return false;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  if (impl_->finalized) return false;
  return poll_locked();
}

bool Transport::poll_locked() {
  bool moved = false;
  Impl& im = *impl_;
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
      im.requests.resize(w);
      im.pending.resize(w);
      in_flight_.store(static_cast<int>(w), std::memory_order_relaxed);
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
  Impl& im = *impl_;
  const TagFormat format{subrank_bits_, context_bits_};
  bool found = false;
  for (; *budget > 0; --*budget) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, im.data[static_cast<std::size_t>(k)], &flag, &msg, &st);
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
  if (!mutex_.try_lock()) return false;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  assert(impl_->agreement == MPI_REQUEST_NULL);
  std::memcpy(impl_->agreement_in, in, sizeof impl_->agreement_in);
  MPI_Iallreduce(impl_->agreement_in, impl_->agreement_out, kAgreementValues, MPI_LONG_LONG, MPI_SUM,
                 impl_->detector, &impl_->agreement);
  return true;
}

int Transport::agreement_test(long long out[kAgreementValues]) {
  KeepErrno keep_errno;
  if (!mutex_.try_lock()) return -1;
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
    while (size_ > 1 && !impl_->requests.empty()) poll_locked();
    for (MPI_Comm& c : impl_->data)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (impl_->acks != MPI_COMM_NULL) MPI_Comm_free(&impl_->acks);
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
