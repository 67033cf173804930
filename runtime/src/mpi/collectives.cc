// The collectives every program needs (Barrier, Bcast, Reduce, Allreduce),
// built on subrank point-to-point messages in the communicator's collective
// context, as in Bamboo's utility layer. The algorithms depend only on the
// communicator size and the root, never on how subranks map to processes,
// so a reduction gives the same bits at every virtualization factor.
#include <tucana/tmpi.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi/datatype.h"
#include "mpi/errors.h"
#include "mpi/request.h"
#include "mpi/typemap.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

enum CollectiveTag : int {
  kTagBarrier = 1, kTagBcast = 2, kTagReduce = 3, kTagGather = 4, kTagScatter = 5, kTagAlltoall = 6, kTagScan = 7
};

// One collective call in progress on one subrank.
struct Collective {
  Subrank* me;
  TMPI_Comm comm;
  CommInfo info;
  const char* call;

  Collective(Subrank* s, TMPI_Comm c, const CommInfo& ci, const char* name)
      : me(s), comm(c), info(ci), call(name) {
    if (!me->blocked.call) {
      me->blocked = BlockedIn{call, call, "source", TMPI_PROC_NULL, 0, comm};
      marked = true;
    }
  }
  ~Collective() {
    if (marked) me->blocked.call = nullptr;
  }
  Collective(const Collective&) = delete;
  Collective& operator=(const Collective&) = delete;

  void prepare(Request* r, comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int tag) {
    r->heap = false;
    init_request(r, me, kind, const_cast<void*>(buf), bytes, to_world(me, comm, rank), tag, info.coll_ctx);
    r->origin = kind == comm::Operation::Kind::Send ? "a send of the collective" : "a receive of the collective";
    r->comm = comm;
    r->peer_rank = rank;
  }
  void send(const void* buf, std::size_t bytes, int rank, int tag) {
    Request r;
    prepare(&r, comm::Operation::Kind::Send, buf, bytes, rank, tag);
    r.eager_ok = true;
    start_request(&r);
    note_peer("dest", rank, tag);
    wait_done(me, &r, call);
  }
  void recv(void* buf, std::size_t bytes, int rank, int tag) {
    Request r;
    prepare(&r, comm::Operation::Kind::Recv, buf, bytes, rank, tag);
    start_request(&r);
    note_peer("source", rank, tag);
    wait_done(me, &r, call);
  }

 private:
  // Records which message of the collective the subrank waits for.
  void note_peer(const char* label, int rank, int tag) {
    if (!marked) return;
    me->blocked.op = label[0] == 'd' ? "a send of the collective" : "a receive of the collective";
    me->blocked.peer_label = label;
    me->blocked.peer = rank;
    me->blocked.tag = tag;
  }

  bool marked = false;
};

bool begin(const char* call, TMPI_Comm comm, Subrank** me, CommInfo* ci, int* err) {
  *me = enter(call);
  if (!comm_info(*me, comm, ci)) {
    *err = mpi_error(*me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
    return false;
  }
  return true;
}

int check_buffer(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type,
                 TypeMapPtr* map, std::size_t* bytes) {
  if (count < 0) return mpi_error(me, comm, TMPI_ERR_COUNT, call, "negative count %d", count);
  *map = type_map(type);
  if (!*map) return mpi_error(me, comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (!(*map)->committed)
    return mpi_error(me, comm, TMPI_ERR_TYPE, call, "datatype %d is not committed (MPI_Type_commit)", type);
  *bytes = static_cast<std::size_t>(count) * (*map)->size;
  return TMPI_SUCCESS;
}

// How to combine two buffers of a reduction: a predefined operation runs
// on the predefined type the datatype is made of; a user operation gets the
// program's datatype and count, as MPI says (inout = in OP inout).
struct Reduction {
  TMPI_Op op = TMPI_OP_NULL;
  TMPI_Datatype basic = TMPI_DATATYPE_NULL;
  std::size_t basic_count = 0;
  TMPI_User_function* fn = nullptr;
  TMPI_Datatype user_type = TMPI_DATATYPE_NULL;
  int user_count = 0;
  bool commute = true;

  void apply(const void* in, void* inout) const {
    if (fn) {
      int len = user_count;
      TMPI_Datatype t = user_type;
      fn(const_cast<void*>(in), inout, &len, &t);
    } else {
      apply_op(op, basic, in, inout, basic_count);
    }
  }
};

int make_reduction(Subrank* me, TMPI_Comm comm, const char* call, TMPI_Op op, TMPI_Datatype type, int count,
                   const TypeMap& map, Reduction* out) {
  if (!op_name(op)) return mpi_error(me, comm, TMPI_ERR_OP, call, "invalid operation %d", op);
  out->op = op;
  if ((out->fn = user_op(op, &out->commute))) {
    if (!map.contiguous())
      return mpi_error(me, comm, TMPI_ERR_TYPE, call, "user operations need a contiguous datatype");
    out->user_type = type;
    out->user_count = count;
    return TMPI_SUCCESS;
  }
  if (map.basic == TMPI_DATATYPE_NULL)
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s needs a datatype made of one predefined type", op_name(op));
  if (!apply_op(op, map.basic, nullptr, nullptr, 0))
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s is not defined on %s", op_name(op), type_info(map.basic)->name);
  out->basic = map.basic;
  out->basic_count = static_cast<std::size_t>(count) * map.basic_count;
  return TMPI_SUCCESS;
}

// A collective's buffer as contiguous bytes: the user's buffer itself when
// its datatype is contiguous, else a packed copy that store() unpacks back.
class Flat {
 public:
  Flat(const void* buf, std::size_t count, const TypeMapPtr& map, bool load)
      : buf_(const_cast<void*>(buf)), count_(count), map_(map) {
    if (map->contiguous()) {
      data_ = buf_;
      return;
    }
    copy_.resize(count * map->size);
    data_ = copy_.data();
    if (load && buf) pack(buf, count, *map, copy_.data());
  }
  void* data() const { return data_; }
  void store() {
    if (data_ != buf_) unpack(copy_.data(), count_, *map_, buf_);
  }

 private:
  void* buf_;
  std::size_t count_;
  TypeMapPtr map_;
  std::vector<char> copy_;
  void* data_;
};

// Dissemination barrier: ceil(log2 N) rounds of empty messages.
void barrier(Collective& c) {
  int n = c.info.size, r = c.info.rank;
  for (int k = 1; k < n; k <<= 1) {
    Request s;
    c.prepare(&s, comm::Operation::Kind::Send, nullptr, 0, (r + k) % n, kTagBarrier);
    s.eager_ok = true;
    start_request(&s);
    c.recv(nullptr, 0, (r - k + n) % n, kTagBarrier);
    // (the send is eager: a zero-byte message never waits for its receiver)
    wait_done(c.me, &s, c.call);
  }
}

// Binomial tree broadcast.
void bcast(Collective& c, void* buf, std::size_t bytes, int root) {
  int n = c.info.size, r = c.info.rank;
  int vr = (r - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      c.recv(buf, bytes, (vr - mask + root) % n, kTagBcast);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) c.send(buf, bytes, (vr + mask + root) % n, kTagBcast);
}

// Binomial tree reduction to `root`. Each node combines in rank order
// (lower relative rank as the left operand), so the result depends only on
// the communicator size and root. A non-commutative operation is reduced to
// rank 0, where relative and absolute order agree, and sent to the root.
void reduce(Collective& c, const void* sendbuf, void* recvbuf, const Reduction& red, int root,
            std::size_t bytes) {
  int n = c.info.size, r = c.info.rank;
  if (!red.commute && root != 0) {
    std::vector<char> result(bytes);
    reduce(c, sendbuf, r == 0 ? result.data() : nullptr, red, 0, bytes);
    if (r == 0) c.send(result.data(), bytes, root, kTagReduce);
    if (r == root) c.recv(recvbuf, bytes, 0, kTagReduce);
    return;
  }
  int vr = (r - root + n) % n;
  std::vector<char> acc(static_cast<const char*>(sendbuf), static_cast<const char*>(sendbuf) + bytes);
  std::vector<char> tmp(bytes);
  for (int mask = 1; mask < n; mask <<= 1) {
    if ((vr & mask) == 0) {
      int src = vr | mask;
      if (src < n) {
        c.recv(tmp.data(), bytes, (src + root) % n, kTagReduce);
        red.apply(acc.data(), tmp.data());
        acc.swap(tmp);
      }
    } else {
      c.send(acc.data(), bytes, ((vr & ~mask) + root) % n, kTagReduce);
      return;
    }
  }
  if (bytes) std::memcpy(recvbuf, acc.data(), bytes);
}


// The non-blocking internal messages of one collective, completed together.
class Exchange {
 public:
  explicit Exchange(Collective& c) : c_(c) {}
  void recv(void* buf, std::size_t bytes, int rank, int tag) { post(comm::Operation::Kind::Recv, buf, bytes, rank, tag); }
  void send(const void* buf, std::size_t bytes, int rank, int tag) { post(comm::Operation::Kind::Send, buf, bytes, rank, tag); }
  void wait() {
    for (auto& r : requests_) wait_done(c_.me, r.get(), c_.call);
    requests_.clear();
  }

 private:
  void post(comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int tag) {
    auto r = std::make_unique<Request>();
    c_.prepare(r.get(), kind, buf, bytes, rank, tag);
    start_request(r.get());
    requests_.push_back(std::move(r));
  }
  Collective& c_;
  std::vector<std::unique_ptr<Request>> requests_;
};

// `count` elements of a datatype at element `displacement` of `base`, as
// contiguous bytes: the user's memory when the datatype is contiguous (and
// no copy is forced), else a packed copy that store() unpacks back.
class Piece {
 public:
  Piece(const void* base, std::ptrdiff_t displacement, std::size_t count, const TypeMapPtr& map, bool load,
        bool force_copy = false)
      : addr_(static_cast<char*>(const_cast<void*>(base)) + displacement * map->extent()), count_(count), map_(map) {
    if (map->contiguous() && !force_copy) return;
    staging_.resize(count * map->size);
    copied_ = true;
    if (load && count) pack(addr_, count, *map, staging_.data());
  }
  void* data() { return copied_ ? static_cast<void*>(staging_.data()) : addr_; }
  std::size_t bytes() const { return count_ * map_->size; }
  void store() {
    if (copied_ && count_) unpack(staging_.data(), count_, *map_, addr_);
  }

 private:
  char* addr_;
  std::size_t count_;
  TypeMapPtr map_;
  std::vector<char> staging_;
  bool copied_ = false;
};

// Checks one buffer description (count and datatype) of a collective.
int check_part(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type, TypeMapPtr* map) {
  std::size_t bytes;
  return check_buffer(me, comm, call, count, type, map, &bytes);
}

int check_root(Subrank* me, TMPI_Comm comm, const char* call, int root, const CommInfo& ci) {
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm),
                     ci.size - 1);
  return TMPI_SUCCESS;
}

// Root receives every rank's block (rank order), the others send theirs.
int gatherv(const char* call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
            const int rcounts[], const int displs[], TMPI_Datatype rtype, int root, TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  if (int e = check_root(me, comm, call, root, ci)) return e;
  bool in_place = sendbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, comm, call, scount, stype, &smap)) return e;
  if (ci.rank == root)
    for (int i = 0; i < ci.size; ++i)
      if (int e = check_part(me, comm, call, rcounts[i], rtype, &rmap)) return e;
  Collective c(me, comm, ci, call);
  if (ci.rank != root) {
    Piece mine(sendbuf, 0, static_cast<std::size_t>(scount), smap, true);
    c.send(mine.data(), mine.bytes(), root, kTagGather);
    return TMPI_SUCCESS;
  }
  std::vector<std::unique_ptr<Piece>> blocks;
  Exchange x(c);
  for (int i = 0; i < ci.size; ++i) {
    blocks.push_back(std::make_unique<Piece>(recvbuf, displs[i], static_cast<std::size_t>(rcounts[i]), rmap, false));
    Piece& b = *blocks.back();
    if (i != root) {
      x.recv(b.data(), b.bytes(), i, kTagGather);
    } else if (!in_place) {
      Piece mine(sendbuf, 0, static_cast<std::size_t>(scount), smap, true);
      if (b.bytes()) std::memcpy(b.data(), mine.data(), std::min(b.bytes(), mine.bytes()));
    } else {
      blocks.pop_back();  // already in place
    }
  }
  x.wait();
  for (auto& b : blocks) b->store();
  return TMPI_SUCCESS;
}

// Root sends every rank its block, the others receive theirs.
int scatterv(const char* call, const void* sendbuf, const int scounts[], const int displs[], TMPI_Datatype stype,
             void* recvbuf, int rcount, TMPI_Datatype rtype, int root, TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  if (int e = check_root(me, comm, call, root, ci)) return e;
  bool in_place = recvbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, comm, call, rcount, rtype, &rmap)) return e;
  if (ci.rank == root)
    for (int i = 0; i < ci.size; ++i)
      if (int e = check_part(me, comm, call, scounts[i], stype, &smap)) return e;
  Collective c(me, comm, ci, call);
  if (ci.rank != root) {
    Piece mine(recvbuf, 0, static_cast<std::size_t>(rcount), rmap, false);
    c.recv(mine.data(), mine.bytes(), root, kTagScatter);
    mine.store();
    return TMPI_SUCCESS;
  }
  std::vector<std::unique_ptr<Piece>> blocks;
  Exchange x(c);
  for (int i = 0; i < ci.size; ++i) {
    blocks.push_back(std::make_unique<Piece>(sendbuf, displs[i], static_cast<std::size_t>(scounts[i]), smap, true));
    Piece& b = *blocks.back();
    if (i != root) {
      x.send(b.data(), b.bytes(), i, kTagScatter);
    } else if (!in_place) {
      Piece mine(recvbuf, 0, static_cast<std::size_t>(rcount), rmap, false);
      if (mine.bytes()) std::memcpy(mine.data(), b.data(), std::min(b.bytes(), mine.bytes()));
      mine.store();
    }
  }
  x.wait();
  return TMPI_SUCCESS;
}

// Every rank's block to every rank: gathered at rank 0 in rank order as one
// contiguous buffer, broadcast, and unpacked into each rank's layout.
int allgatherv(const char* call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
               const int rcounts[], const int displs[], TMPI_Datatype rtype, TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  bool in_place = sendbuf == TMPI_IN_PLACE;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, comm, call, scount, stype, &smap)) return e;
  for (int i = 0; i < ci.size; ++i)
    if (int e = check_part(me, comm, call, rcounts[i], rtype, &rmap)) return e;
  std::vector<std::size_t> offset(static_cast<std::size_t>(ci.size) + 1, 0);
  for (int i = 0; i < ci.size; ++i)
    offset[static_cast<std::size_t>(i) + 1] = offset[static_cast<std::size_t>(i)] + static_cast<std::size_t>(rcounts[i]) * rmap->size;
  std::vector<char> all(offset.back());
  Collective c(me, comm, ci, call);
  std::unique_ptr<Piece> mine = in_place
      ? std::make_unique<Piece>(recvbuf, displs[ci.rank], static_cast<std::size_t>(rcounts[ci.rank]), rmap, true, true)
      : std::make_unique<Piece>(sendbuf, 0, static_cast<std::size_t>(scount), smap, true);
  if (ci.rank == 0) {
    Exchange x(c);
    for (int i = 1; i < ci.size; ++i)
      x.recv(all.data() + offset[static_cast<std::size_t>(i)], offset[static_cast<std::size_t>(i) + 1] - offset[static_cast<std::size_t>(i)], i, kTagGather);
    if (offset[1]) std::memcpy(all.data(), mine->data(), std::min(offset[1], mine->bytes()));
    x.wait();
  } else {
    c.send(mine->data(), mine->bytes(), 0, kTagGather);
  }
  bcast(c, all.data(), all.size(), 0);
  for (int i = 0; i < ci.size; ++i)
    if (rcounts[i]) unpack(all.data() + offset[static_cast<std::size_t>(i)], static_cast<std::size_t>(rcounts[i]), *rmap,
                           static_cast<char*>(recvbuf) + displs[i] * rmap->extent());
  return TMPI_SUCCESS;
}

// Every rank sends each rank its block and receives one from each.
int alltoallv(const char* call, const void* sendbuf, const int scounts[], const int sdispls[], TMPI_Datatype stype,
              void* recvbuf, const int rcounts[], const int rdispls[], TMPI_Datatype rtype, TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  bool in_place = sendbuf == TMPI_IN_PLACE;
  TypeMapPtr smap, rmap;
  for (int i = 0; i < ci.size; ++i) {
    if (int e = check_part(me, comm, call, rcounts[i], rtype, &rmap)) return e;
    if (!in_place)
      if (int e = check_part(me, comm, call, scounts[i], stype, &smap)) return e;
  }
  Collective c(me, comm, ci, call);
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < ci.size; ++i) {
    // In place, what goes out is copied before anything comes in.
    out.push_back(in_place ? std::make_unique<Piece>(recvbuf, rdispls[i], static_cast<std::size_t>(rcounts[i]), rmap, true, true)
                           : std::make_unique<Piece>(sendbuf, sdispls[i], static_cast<std::size_t>(scounts[i]), smap, true));
    in.push_back(std::make_unique<Piece>(recvbuf, rdispls[i], static_cast<std::size_t>(rcounts[i]), rmap, false));
  }
  Exchange x(c);
  for (int k = 1; k < ci.size; ++k) {  // a rotating order spreads the traffic
    int from = (ci.rank - k + ci.size) % ci.size, to = (ci.rank + k) % ci.size;
    x.recv(in[static_cast<std::size_t>(from)]->data(), in[static_cast<std::size_t>(from)]->bytes(), from, kTagAlltoall);
    x.send(out[static_cast<std::size_t>(to)]->data(), out[static_cast<std::size_t>(to)]->bytes(), to, kTagAlltoall);
  }
  Piece& self_in = *in[static_cast<std::size_t>(ci.rank)];
  Piece& self_out = *out[static_cast<std::size_t>(ci.rank)];
  if (self_in.bytes()) std::memmove(self_in.data(), self_out.data(), std::min(self_in.bytes(), self_out.bytes()));
  x.wait();
  for (auto& p : in) p->store();
  return TMPI_SUCCESS;
}

// Prefix reductions along the ranks, in rank order (a chain).
int scan(const char* call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
         TMPI_Comm comm, bool exclusive) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(me, comm, call, op, type, count, *map, &red)) return e;
  if (sendbuf == TMPI_IN_PLACE) sendbuf = recvbuf;
  Collective c(me, comm, ci, call);
  Flat in(sendbuf, static_cast<std::size_t>(count), map, true);
  Flat out(recvbuf, static_cast<std::size_t>(count), map, false);
  std::vector<char> mine(static_cast<const char*>(in.data()), static_cast<const char*>(in.data()) + bytes);
  std::vector<char> prefix(bytes);
  if (ci.rank > 0) {
    c.recv(prefix.data(), bytes, ci.rank - 1, kTagScan);  // ranks 0 .. rank-1 combined
    std::vector<char> upto(prefix);
    red.apply(prefix.data(), mine.data());  // mine = prefix OP mine
    if (exclusive && bytes) std::memcpy(out.data(), upto.data(), bytes);
  }
  if (ci.rank + 1 < ci.size) c.send(mine.data(), bytes, ci.rank + 1, kTagScan);
  if (!exclusive && bytes) std::memcpy(out.data(), mine.data(), bytes);
  if (!exclusive || ci.rank > 0) out.store();
  return TMPI_SUCCESS;
}

int reduce_scatterv(const char* call, const void* sendbuf, void* recvbuf, const int rcounts[], TMPI_Datatype type,
                    TMPI_Op op, TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  int total = 0;
  std::vector<int> displs(static_cast<std::size_t>(ci.size));
  for (int i = 0; i < ci.size; ++i) {
    displs[static_cast<std::size_t>(i)] = total;
    total += rcounts[i];
  }
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, total, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(me, comm, call, op, type, total, *map, &red)) return e;
  const void* input = sendbuf == TMPI_IN_PLACE ? recvbuf : sendbuf;
  std::vector<char> result(bytes);
  {
    Collective c(me, comm, ci, call);
    Flat in(input, static_cast<std::size_t>(total), map, true);
    reduce(c, in.data(), result.data(), red, 0, bytes);
  }
  // The reduced vector (packed) is scattered from rank 0 as bytes.
  std::vector<int> byte_counts(static_cast<std::size_t>(ci.size)), byte_displs(static_cast<std::size_t>(ci.size));
  for (int i = 0; i < ci.size; ++i) {
    byte_counts[static_cast<std::size_t>(i)] = rcounts[i] * static_cast<int>(map->size);
    byte_displs[static_cast<std::size_t>(i)] = displs[static_cast<std::size_t>(i)] * static_cast<int>(map->size);
  }
  std::vector<char> mine(static_cast<std::size_t>(rcounts[ci.rank]) * map->size);
  if (int e = scatterv(call, result.data(), byte_counts.data(), byte_displs.data(), TMPI_DT_BYTE, mine.data(),
                       static_cast<int>(mine.size()), TMPI_DT_BYTE, 0, comm))
    return e;
  if (!mine.empty()) unpack(mine.data(), static_cast<std::size_t>(rcounts[ci.rank]), *map, recvbuf);
  return TMPI_SUCCESS;
}

std::vector<int> uniform(int n, int value) { return std::vector<int>(static_cast<std::size_t>(n), value); }
std::vector<int> strided(int n, int step) {
  std::vector<int> d(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) d[static_cast<std::size_t>(i)] = i * step;
  return d;
}
int size_of(TMPI_Comm comm) {
  int n = 1;
  TMPI_Comm_size(comm, &n);
  return n;
}
}  // namespace

extern "C" {

int TMPI_Barrier(TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin("MPI_Barrier", comm, &me, &ci, &err)) return err;
  Collective c(me, comm, ci, "MPI_Barrier");
  barrier(c);
  return TMPI_SUCCESS;
}

int TMPI_Bcast(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm) {
  const char* call = "MPI_Bcast";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  Collective c(me, comm, ci, call);
  Flat flat(buffer, static_cast<std::size_t>(count), map, ci.rank == root);
  bcast(c, flat.data(), bytes, root);
  if (ci.rank != root) flat.store();
  return TMPI_SUCCESS;
}

int TMPI_Reduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                int root, TMPI_Comm comm) {
  const char* call = "MPI_Reduce";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(me, comm, call, op, type, count, *map, &red)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  if (sendbuf == TMPI_IN_PLACE) {
    if (ci.rank != root) return mpi_error(me, comm, TMPI_ERR_BUFFER, call, "MPI_IN_PLACE is only valid at the root");
    sendbuf = recvbuf;
  }
  Collective c(me, comm, ci, call);
  Flat in(sendbuf, static_cast<std::size_t>(count), map, true);
  Flat out(recvbuf, static_cast<std::size_t>(count), map, false);
  reduce(c, in.data(), out.data(), red, root, bytes);
  if (ci.rank == root) out.store();
  return TMPI_SUCCESS;
}

int TMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                   TMPI_Comm comm) {
  const char* call = "MPI_Allreduce";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(me, comm, call, op, type, count, *map, &red)) return e;
  if (sendbuf == TMPI_IN_PLACE) sendbuf = recvbuf;
  Collective c(me, comm, ci, call);
  Flat in(sendbuf, static_cast<std::size_t>(count), map, true);
  Flat out(recvbuf, static_cast<std::size_t>(count), map, false);
  // Reduce to rank 0, then broadcast: every rank gets the same bits.
  reduce(c, in.data(), out.data(), red, 0, bytes);
  bcast(c, out.data(), bytes, 0);
  out.store();
  return TMPI_SUCCESS;
}

int TMPI_Gatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  return gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

int TMPI_Gather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  int n = size_of(comm);
  std::vector<int> counts = uniform(n, recvcount), displs = strided(n, recvcount);
  return gatherv("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, root, comm);
}

int TMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], TMPI_Datatype sendtype,
                  void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  return scatterv("MPI_Scatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int TMPI_Scatter(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                 TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  int n = size_of(comm);
  std::vector<int> counts = uniform(n, sendcount), displs = strided(n, sendcount);
  return scatterv("MPI_Scatter", sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount, recvtype, root,
                  comm);
}

int TMPI_Allgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm) {
  return allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int TMPI_Allgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                   TMPI_Datatype recvtype, TMPI_Comm comm) {
  int n = size_of(comm);
  std::vector<int> counts = uniform(n, recvcount), displs = strided(n, recvcount);
  return allgatherv("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype,
                    comm);
}

int TMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                   TMPI_Comm comm) {
  return alltoallv("MPI_Alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                   comm);
}

int TMPI_Alltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                  TMPI_Datatype recvtype, TMPI_Comm comm) {
  int n = size_of(comm);
  std::vector<int> sc = uniform(n, sendcount), sd = strided(n, sendcount);
  std::vector<int> rc = uniform(n, recvcount), rd = strided(n, recvcount);
  return alltoallv("MPI_Alltoall", sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype,
                   comm);
}

int TMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], TMPI_Datatype type, TMPI_Op op,
                        TMPI_Comm comm) {
  return reduce_scatterv("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, type, op, comm);
}

int TMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, TMPI_Datatype type, TMPI_Op op,
                              TMPI_Comm comm) {
  std::vector<int> counts = uniform(size_of(comm), recvcount);
  return reduce_scatterv("MPI_Reduce_scatter_block", sendbuf, recvbuf, counts.data(), type, op, comm);
}

int TMPI_Scan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm) {
  return scan("MPI_Scan", sendbuf, recvbuf, count, type, op, comm, false);
}

int TMPI_Exscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm) {
  return scan("MPI_Exscan", sendbuf, recvbuf, count, type, op, comm, true);
}

int TMPI_Op_create(TMPI_User_function* function, int commute, TMPI_Op* op) {
  enter("MPI_Op_create");
  *op = create_user_op(function, commute != 0);
  return TMPI_SUCCESS;
}

int TMPI_Op_free(TMPI_Op* op) {
  Subrank* me = enter("MPI_Op_free");
  if (!free_user_op(*op)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OP, "MPI_Op_free", "not a user operation");
  *op = TMPI_OP_NULL;
  return TMPI_SUCCESS;
}

}  // extern "C"
