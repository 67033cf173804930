// The collective framework (see framework.h).
#include "mpi/coll/framework.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>
#include <strings.h>

#include "mpi/datatype/datatype.h"
#include "sched/scheduler.h"
#include "sync/mutex.h"
#include "tasks/task.h"

namespace tucana::mpi {

bool begin_call(const char* name, TMPI_Comm comm, Call* out, int* err) {
  out->me = enter(name);
  out->comm = comm;
  out->name = name;
  if (!comm_info(out->me, comm, &out->info)) {
    *err = mpi_error(out->me, TMPI_COMM_WORLD, TMPI_ERR_COMM, name, "invalid communicator %d", comm);
    return false;
  }
  if (out->info.comm->inter()) {
    // The collectives MPI 3.1 defines on intercommunicators (section 5.2.2),
    // blocking and not; the scans and the neighbourhood collectives are not.
    static const char* const kOnInter[] = {
        "Barrier", "Bcast",     "Reduce",    "Allreduce", "Gather",         "Gatherv",
        "Scatter", "Scatterv",  "Allgather", "Allgatherv", "Alltoall",      "Alltoallv",
        "Alltoallw", "Reduce_scatter", "Reduce_scatter_block"};
    // MPI_X, its non-blocking MPI_Ix or its persistent MPI_X_init
    std::string base = name + 4;
    if (base[0] == 'I' && base[1] >= 'a' && base[1] <= 'z') base.erase(0, 1);
    const std::string init = "_init";
    if (base.size() > init.size() && base.compare(base.size() - init.size(), init.size(), init) == 0)
      base.resize(base.size() - init.size());
    bool ok = false;
    for (const char* n : kOnInter) ok = ok || strcasecmp(n, base.c_str()) == 0;
    if (!ok) {
      *err = inter_unsupported(out->me, comm, name);
      return false;
    }
  }
  out->seq = draw_seq(*out->info.comm);
  // A collective on an intercommunicator also runs on other views of it
  // (view_call_at): their numbers are drawn here, in program order, so that
  // a non-blocking one, whose body runs later on a helper fiber, still
  // gets the same numbers at every member.
  if (out->info.comm->inter())
    for (int k = 1; k < kInterViews; ++k) draw_seq(*out->info.comm);
  return true;
}

namespace {

// The sequence number wraps within the tag bits left above the kind: a
// clash needs that many collectives in flight on one communicator at once.
unsigned seq_mask() { return static_cast<unsigned>(Runtime::get().transport.user_tag_ub() >> kKindBits); }

// `base` on another view, with sequence number `seq`.
Call on_view(const Call& base, Comm* view, int rank, int seq) {
  Call v = base;
  v.info.comm = view;
  v.info.size = view->size;
  v.info.rank = rank;
  v.seq = seq;
  return v;
}

}  // namespace

int draw_seq(Comm& c) { return static_cast<int>(c.collective_seq++ & seq_mask()); }

Call view_call_at(const Call& base, Comm* view, int rank, int k) {
  assert(k > 0 && k < kInterViews);
  unsigned seq = (static_cast<unsigned>(base.seq) + static_cast<unsigned>(k)) & seq_mask();
  return on_view(base, view, rank, static_cast<int>(seq));
}

Call view_call(const Call& base, Comm* view, int rank) { return on_view(base, view, rank, draw_seq(*base.info.comm)); }

Collective::Collective(const Call& call) : call_(call) {
  // Only the subrank's own fiber or one of its tasks describes what it
  // waits in; a helper fiber running a non-blocking collective does not
  // (the subrank waits on the collective's request).
  marked_ = tasks::unmarked_blocked_record(call_.me);
  if (marked_) *marked_ = BlockedIn{call_.name, call_.name, "source", TMPI_PROC_NULL, 0, call_.comm};
}

Collective::~Collective() {
  if (marked_) marked_->call = nullptr;
}

void Collective::prepare(Request* r, comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank,
                         int kind_tag) {
  r->heap = false;
  init_request(r, call_.me, kind, const_cast<void*>(buf), bytes, call_.info.comm->to_world(rank), tag(kind_tag),
               call_.info.coll_ctx);
  r->origin = kind == comm::Operation::Kind::Send ? "a send of the collective" : "a receive of the collective";
  r->comm = call_.comm;
  r->peer_rank = rank;
}

void Collective::wait(Request* r) {
  wait_done(call_.me, r, call_.name);
  if (r->error && !error_) error_ = r->error;
}

int finish(const Collective& c) {
  if (!c.error()) return TMPI_SUCCESS;
  const Call& call = c.call();
  return mpi_error(call.me, call.comm, c.error(), call.name,
                   "%s: a message of the collective did not fit its receive buffer (the ranks' counts or "
                   "datatypes do not match)",
                   error_text(c.error()));
}

void Collective::send(const void* buf, std::size_t bytes, int rank, int kind) {
  Request r;
  prepare(&r, comm::Operation::Kind::Send, buf, bytes, rank, kind);
  r.eager_ok = true;
  start_request(&r);
  note_peer("dest", rank, tag(kind));
  wait(&r);
}

void Collective::recv(void* buf, std::size_t bytes, int rank, int kind) {
  Request r;
  prepare(&r, comm::Operation::Kind::Recv, buf, bytes, rank, kind);
  start_request(&r);
  note_peer("source", rank, tag(kind));
  wait(&r);
}

void Collective::sendrecv(const void* sbuf, std::size_t sbytes, int dest, void* rbuf, std::size_t rbytes, int source,
                          int kind) {
  Request s, r;
  prepare(&r, comm::Operation::Kind::Recv, rbuf, rbytes, source, kind);
  start_request(&r);
  prepare(&s, comm::Operation::Kind::Send, sbuf, sbytes, dest, kind);
  start_request(&s);
  note_peer("source", source, tag(kind));
  wait(&r);
  wait(&s);
}

void Collective::note_peer(const char* label, int rank, int tag) {
  if (!marked_) return;
  marked_->op = label[0] == 'd' ? "a send of the collective" : "a receive of the collective";
  marked_->peer_label = label;
  marked_->peer = rank;
  marked_->tag = tag;
}

void Exchange::post(comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int kind_tag) {
  auto r = std::make_unique<Request>();
  c_.prepare(r.get(), kind, buf, bytes, rank, kind_tag);
  start_request(r.get());
  requests_.push_back(std::move(r));
}

void Exchange::wait() {
  for (auto& r : requests_) c_.wait(r.get());
  requests_.clear();
}

void Reduction::call_user(const void* in, void* inout, std::size_t count) const {
  TMPI_Datatype t = user_type;
  auto call = [&](void* a, void* b) {
    if (fn_big_count) {
      TMPI_Count len = static_cast<TMPI_Count>(count);
      reinterpret_cast<TMPI_User_function_c*>(fn)(a, b, &len, &t);
    } else {
      int len = static_cast<int>(count);
      fn(a, b, &len, &t);
    }
  };
  if (!user_map) {
    call(const_cast<void*>(in), inout);
    return;
  }
  if (count == 0) return;
  // The function sees `count` elements as they lie in the program's
  // buffers: element i at i * extent, its data at the type map's offsets.
  const TypeMap& m = *user_map;
  std::ptrdiff_t last = static_cast<std::ptrdiff_t>(count - 1) * m.extent();
  std::ptrdiff_t lo = std::min<std::ptrdiff_t>(0, last) + m.true_lb;
  std::ptrdiff_t hi = std::max<std::ptrdiff_t>(0, last) + m.true_ub;
  std::vector<char> a(static_cast<std::size_t>(hi - lo)), b(a.size());
  char* a_base = a.data() - lo;
  char* b_base = b.data() - lo;
  unpack(in, count, m, a_base);
  unpack(inout, count, m, b_base);
  call(a_base, b_base);
  pack(b_base, count, m, inout);
}

void Reduction::apply(const void* in, void* inout) const {
  if (fn)
    call_user(in, inout, static_cast<std::size_t>(user_count));
  else
    apply_op(op, basic, in, inout, basic_count);
}

void Reduction::apply_part(const void* in, void* inout, std::size_t first, std::size_t count) const {
  if (count == 0) return;
  std::size_t offset = first * element_size();
  const char* a = static_cast<const char*>(in) + offset;
  char* b = static_cast<char*>(inout) + offset;
  if (fn)
    call_user(a, b, count);
  else
    apply_op(op, basic, a, b, count);
}

int make_reduction(Subrank* me, TMPI_Comm comm, const char* call, TMPI_Op op, TMPI_Datatype type, int count,
                   const TypeMapPtr& map_ptr, Reduction* out) {
  const TypeMap& map = *map_ptr;
  if (!op_name(op)) return mpi_error(me, comm, TMPI_ERR_OP, call, "invalid operation %d", op);
  out->op = op;
  if ((out->fn = user_op(op, &out->commute, &out->fn_big_count))) {
    out->user_type = type;
    out->user_count = count;
    out->user_size = map.size;
    if (!map.contiguous()) out->user_map = map_ptr;
    return TMPI_SUCCESS;
  }
  if (map.basic == TMPI_DATATYPE_NULL)
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s needs a datatype made of one predefined type", op_name(op));
  if (!apply_op(op, map.basic, nullptr, nullptr, 0))
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s is not defined on %s", op_name(op), type_info(map.basic)->name);
  out->basic = map.basic;
  out->basic_count = static_cast<std::size_t>(count) * map.basic_count;
  out->basic_size = type_info(map.basic)->size;
  return TMPI_SUCCESS;
}

int check_buffer(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type, TypeMapPtr* map,
                 std::size_t* bytes) {
  if (count < 0) return mpi_error(me, comm, TMPI_ERR_COUNT, call, "negative count %d", count);
  *map = type_map(type);
  if (!*map) return mpi_error(me, comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (!(*map)->committed)
    return mpi_error(me, comm, TMPI_ERR_TYPE, call, "datatype %d is not committed (MPI_Type_commit)", type);
  *bytes = static_cast<std::size_t>(count) * (*map)->size;
  return TMPI_SUCCESS;
}

int check_part(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type, TypeMapPtr* map) {
  std::size_t bytes;
  return check_buffer(me, comm, call, count, type, map, &bytes);
}

int check_root(const Call& c, int root) {
  if (root < 0 || root >= c.info.size)
    return mpi_error(c.me, c.comm, TMPI_ERR_ROOT, c.name, "invalid root %d (%s has ranks 0 to %d)", root,
                     comm_name(c.comm), c.info.size - 1);
  return TMPI_SUCCESS;
}

int check_reduction(const Call& c, int count, TMPI_Datatype type, TMPI_Op op, TypeMapPtr* map, std::size_t* bytes,
                    Reduction* red) {
  if (int e = check_buffer(c.me, c.comm, c.name, count, type, map, bytes)) return e;
  return make_reduction(c.me, c.comm, c.name, op, type, count, *map, red);
}

Flat::Flat(const void* buf, std::size_t count, const TypeMapPtr& map, bool load)
    : buf_(const_cast<void*>(buf)), count_(count) {
  if (map->contiguous()) {
    data_ = buf_;
    return;
  }
  map_ = map;
  copy_.resize(count * map->size);
  data_ = copy_.data();
  if (load && buf) pack(buf, count, *map, copy_.data());
}

void Flat::store() {
  if (data_ != buf_) unpack(copy_.data(), count_, *map_, buf_);
}

Piece::Piece(const void* base, std::ptrdiff_t displacement, std::size_t count, const TypeMapPtr& map, bool load,
             bool force_copy)
    : addr_(static_cast<char*>(const_cast<void*>(base)) + displacement * map->extent()), count_(count), map_(map) {
  if (map->contiguous() && !force_copy) return;
  staging_.resize(count * map->size);
  copied_ = true;
  if (load && count) pack(addr_, count, *map, staging_.data());
}

std::unique_ptr<Piece> Piece::at_bytes(const void* base, std::ptrdiff_t byte_offset, std::size_t count,
                                       const TypeMapPtr& map, bool load) {
  std::unique_ptr<Piece> p(new Piece);
  p->addr_ = static_cast<char*>(const_cast<void*>(base)) + byte_offset;
  p->count_ = count;
  p->map_ = map;
  if (!map->contiguous()) {
    p->staging_.resize(count * map->size);
    p->copied_ = true;
    if (load && count) pack(p->addr_, count, *map, p->staging_.data());
  }
  return p;
}

namespace {
// Buffers below this size are allocated per call (cheap, from the thread's
// cache); larger ones are pooled, up to kPoolBytes in all.
constexpr std::size_t kPooledFrom = 16 * 1024;
constexpr std::size_t kPoolBytes = 256u << 20;

struct ScratchPool {
  sync::Mutex mutex{sync::LockLevel::kLeaf, "scratch buffers"};
  std::vector<std::pair<std::size_t, char*>> free TUCANA_GUARDED_BY(mutex);  // (capacity, buffer)
  std::size_t held TUCANA_GUARDED_BY(mutex) = 0;
};
ScratchPool& pool() {
  static ScratchPool* p = new ScratchPool;  // never destroyed: helpers may run at exit
  return *p;
}
}  // namespace

Scratch::Scratch(std::size_t bytes) {
  if (bytes < kPooledFrom) {
    data_ = new char[bytes ? bytes : 1];
    return;
  }
  ScratchPool& p = pool();
  {
    sync::MutexLock lock(p.mutex);
    std::size_t best = p.free.size();
    for (std::size_t i = 0; i < p.free.size(); ++i)
      if (p.free[i].first >= bytes && (best == p.free.size() || p.free[i].first < p.free[best].first)) best = i;
    if (best < p.free.size()) {
      capacity_ = p.free[best].first;
      data_ = p.free[best].second;
      p.free.erase(p.free.begin() + static_cast<std::ptrdiff_t>(best));
      p.held -= capacity_;
      return;
    }
  }
  capacity_ = bytes;
  data_ = new char[bytes];
}

Scratch::~Scratch() {
  if (capacity_ == 0) {
    delete[] data_;
    return;
  }
  ScratchPool& p = pool();
  sync::MutexLock lock(p.mutex);
  if (p.held + capacity_ > kPoolBytes) {
    delete[] data_;
    return;
  }
  p.free.emplace_back(capacity_, data_);
  p.held += capacity_;
}

void Piece::store() {
  if (copied_ && count_) unpack(staging_.data(), count_, *map_, addr_);
}

}  // namespace tucana::mpi
