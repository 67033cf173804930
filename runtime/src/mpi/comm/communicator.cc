// Communicators and groups: the handle tables, context-id allocation, and
// the MPI_Comm_* and MPI_Group_* calls.
#include "mpi/attributes.h"
#include "mpi/comm/communicator.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>

#include "mpi/coll/calls.h"
#include "mpi/errors.h"
#include "core/runtime.h"
#include "sched/scheduler.h"

namespace tucana::mpi {

int Comm::from_world(int w) const {
  if (world_of.empty()) return w >= 0 && w < size ? w : TMPI_UNDEFINED;
  auto it = std::lower_bound(rank_of.begin(), rank_of.end(), std::make_pair(w, -1));
  return it != rank_of.end() && it->first == w ? it->second : TMPI_UNDEFINED;
}

std::vector<int> Comm::members() const {
  if (!world_of.empty()) return world_of;
  std::vector<int> all(static_cast<std::size_t>(size));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

int Group::rank_of_world(int w) const {
  for (std::size_t i = 0; i < world.size(); ++i)
    if (world[i] == w) return static_cast<int>(i);
  return TMPI_UNDEFINED;
}

namespace {

// A communicator of the world ranks `members` (in rank order) seen by `me`.
CommPtr make_comm(const Subrank* me, std::vector<int> members, int p2p_ctx) {
  auto c = std::make_shared<Comm>();
  c->size = static_cast<int>(members.size());
  c->p2p_ctx = p2p_ctx;
  c->coll_ctx = p2p_ctx + 1;
  for (std::size_t i = 0; i < members.size(); ++i) {
    c->rank_of.emplace_back(members[i], static_cast<int>(i));
    if (members[i] == me->world) c->rank = static_cast<int>(i);
  }
  std::sort(c->rank_of.begin(), c->rank_of.end());
  c->world_of = std::move(members);
  return c;
}

// The remote group of an intercommunicator: `members` as a communicator of
// which `me` is no member.
CommPtr make_remote_view(const Subrank* me, std::vector<int> members, int p2p_ctx) {
  CommPtr c = make_comm(me, std::move(members), p2p_ctx);
  c->rank = TMPI_UNDEFINED;
  return c;
}

// Context ids that travel between processes are looked for on their real
// communicator while a subrank of the process uses them.
void take_pair(Handles& h, int ctx) {
  sync::MutexLock guard(h.context_lock);
  h.used_contexts.set(static_cast<std::size_t>(ctx));
  h.used_contexts.set(static_cast<std::size_t>(ctx + 1));
  Runtime& rt = Runtime::get();
  if (rt.layout.nprocs > 1) rt.transport.note_context(ctx, true);
}

void give_back_pair(Handles& h, int ctx) TUCANA_REQUIRES(h.context_lock) {
  h.used_contexts.reset(static_cast<std::size_t>(ctx));
  h.used_contexts.reset(static_cast<std::size_t>(ctx + 1));
  Runtime& rt = Runtime::get();
  if (rt.layout.nprocs > 1) rt.transport.note_context(ctx, false);
}

}  // namespace

void CommTable::reset(std::size_t n) {
  for (std::size_t c = 0; c < kChunks && chunks_[c]; ++c)
    for (std::size_t i = 0; i < kChunk; ++i) chunks_[c][i].reset();
  size_.store(0, std::memory_order_release);
  for (std::size_t i = 0; i < n; ++i) push_back(nullptr);
}

bool CommTable::push_back(CommPtr c) {
  std::size_t h = size_.load(std::memory_order_relaxed);
  if (h >= kChunk * kChunks) return false;
  if (!chunks_[h / kChunk]) chunks_[h / kChunk].reset(new CommPtr[kChunk]);
  chunks_[h / kChunk][h % kChunk] = std::move(c);
  size_.store(h + 1, std::memory_order_release);  // a reader that sees it sees the slot
  return true;
}

void Handles::init(int world, int world_size) {
  comms.reset(3);
  auto w = std::make_shared<Comm>();
  w->size = world_size;
  w->rank = world;
  w->p2p_ctx = 0;
  w->coll_ctx = 1;
  w->name = "MPI_COMM_WORLD";
  comms[TMPI_COMM_WORLD] = std::move(w);
  auto s = std::make_shared<Comm>();
  s->size = 1;
  s->world_of = {world};
  s->rank_of = {{world, 0}};
  s->p2p_ctx = kPrivateContextBase;
  s->coll_ctx = kPrivateContextBase + 1;
  s->name = "MPI_COMM_SELF";
  comms[TMPI_COMM_SELF] = std::move(s);
  {
    sync::MutexLock guard(context_lock);  // (before any helper fiber; for the analysis)
    used_contexts.reset();
    used_contexts.set(0);
    used_contexts.set(1);
  }
  groups.clear();
  groups.resize(2);
  groups[TMPI_GROUP_EMPTY] = std::make_unique<Group>();
}

void Handles::release(CommPtr c) {
  if (c->p2p_ctx >= kMaxContexts) return;  // private ids: nothing to give back
  sync::MutexLock guard(context_lock);
  if (c.use_count() > 1) {
    freed_in_use.push_back(std::move(c));
    return;
  }
  give_back_pair(*this, c->p2p_ctx);
}

void Handles::sweep_freed() {
  sync::MutexLock guard(context_lock);
  for (std::size_t i = 0; i < freed_in_use.size();) {
    if (freed_in_use[i].use_count() == 1) {
      give_back_pair(*this, freed_in_use[i]->p2p_ctx);
      freed_in_use.erase(freed_in_use.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

TMPI_Comm Handles::add(CommPtr c) {
  for (std::size_t h = 3; h < comms.size(); ++h)
    if (!comms[h]) {
      comms[h] = std::move(c);
      return static_cast<TMPI_Comm>(h);
    }
  if (!comms.push_back(std::move(c))) return TMPI_COMM_NULL;
  return static_cast<TMPI_Comm>(comms.size() - 1);
}

TMPI_Group Handles::add(std::unique_ptr<Group> g) {
  for (std::size_t h = 2; h < groups.size(); ++h)
    if (!groups[h]) {
      groups[h] = std::move(g);
      return static_cast<TMPI_Group>(h);
    }
  groups.push_back(std::move(g));
  return static_cast<TMPI_Group>(groups.size() - 1);
}

bool comm_info(const Subrank* me, TMPI_Comm comm, CommInfo* out) {
  Comm* c = const_cast<Subrank*>(me)->handles->comm(comm);
  if (!c) return false;
  *out = CommInfo{c->size, c->rank, c->p2p_ctx, c->coll_ctx, c};
  return true;
}

int inter_unsupported(Subrank* me, TMPI_Comm comm, const char* call) {
  return mpi_error(me, comm, TMPI_ERR_COMM, call, "%s is not supported on intercommunicators (%s is one)", call,
                   comm_name(comm, me));
}

bool is_inter(const Subrank* me, TMPI_Comm comm) {
  const Comm* c = me->handles->comm(comm);
  return c && c->inter();
}

int to_world(const Subrank* me, TMPI_Comm comm, int rank) {
  if (comm == TMPI_COMM_WORLD) return rank;
  const Comm* c = me->handles->comm(comm);
  return c ? c->peer_to_world(rank) : rank;
}

int from_world(const Subrank* me, TMPI_Comm comm, int world) {
  if (world < 0 || comm == TMPI_COMM_WORLD) return world;  // MPI_ANY_SOURCE, MPI_PROC_NULL
  const Comm* c = me->handles->comm(comm);
  return c ? c->peer_from_world(world) : TMPI_UNDEFINED;
}

ContextAgreement::ContextAgreement(Handles& h, AgreementKey key, bool eager) : h_(h), key_(key), eager_(eager) {
  sync::MutexLock guard(h_.context_lock);
  h_.agreements.push_back(key_);
}

ContextAgreement::~ContextAgreement() {
  release();
  sync::MutexLock guard(h_.context_lock);
  auto it = std::find(h_.agreements.begin(), h_.agreements.end(), key_);
  assert(it != h_.agreements.end() && "a ContextAgreement unregisters once");
  h_.agreements.erase(it);
}

bool ContextAgreement::take_eager() {
  sync::MutexLock guard(h_.context_lock);
  if (h_.eager_in_use) return false;
  h_.eager_in_use = holds_eager_ = true;
  return true;
}

bool ContextAgreement::take_mask() {
  sync::MutexLock guard(h_.context_lock);
  if (h_.mask_holder == this) return true;
  if (h_.mask_holder) return false;
  for (const AgreementKey& k : h_.agreements)
    if (k < key_) return false;  // a lower agreement goes first, at every member alike
  h_.mask_holder = this;
  return true;
}

void ContextAgreement::release() {
  sync::MutexLock guard(h_.context_lock);
  if (holds_eager_) h_.eager_in_use = holds_eager_ = false;
  if (h_.mask_holder == this) h_.mask_holder = nullptr;
}

AgreementKey collective_key(const Comm& parent) {
  return AgreementKey{parent.coll_ctx, AgreementKey::kCollective, parent.collective_seq};
}

const char* comm_name(TMPI_Comm comm) { return comm_name(comm, current_subrank()); }

const char* comm_name(TMPI_Comm comm, const Subrank* me) {
  switch (comm) {
    case TMPI_COMM_WORLD: return "MPI_COMM_WORLD";
    case TMPI_COMM_SELF: return "MPI_COMM_SELF";
    case TMPI_COMM_NULL: return "MPI_COMM_NULL";
    default: break;
  }
  static thread_local char text[TMPI_MAX_OBJECT_NAME + 32];
  const Comm* c = me ? me->handles->comm(comm) : nullptr;
  if (c && !c->name.empty()) std::snprintf(text, sizeof text, "%s", c->name.c_str());
  else if (c) std::snprintf(text, sizeof text, "communicator %d", comm);
  else std::snprintf(text, sizeof text, "an unknown communicator (%d)", comm);
  return text;
}

CommPtr keep_alive(const Subrank* me, TMPI_Comm comm) {
  if (comm == TMPI_COMM_WORLD || comm == TMPI_COMM_SELF || comm <= 0) return nullptr;
  const auto& comms = me->handles->comms;
  return static_cast<std::size_t>(comm) < comms.size() ? comms[static_cast<std::size_t>(comm)] : nullptr;
}

TMPI_Errhandler comm_errhandler(const Subrank* me, TMPI_Comm comm) {
  const Comm* c = me ? me->handles->comm(comm) : nullptr;
  return c ? c->errhandler : TMPI_ERRORS_ARE_FATAL;
}

}  // namespace tucana::mpi

using namespace tucana;
using namespace tucana::mpi;

namespace {

int bad_comm(Subrank* me, const char* call, TMPI_Comm comm) {
  return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
}

int bad_group(Subrank* me, const char* call, TMPI_Group group) {
  return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_GROUP, call, "invalid group %d", group);
}

// The arguments of MPI_Comm_create and MPI_Comm_create_group: an
// intracommunicator `comm` and a group of its members.
int subgroup_args(Subrank* me, const char* call, TMPI_Comm comm, TMPI_Group group, CommInfo* pi, const Group** g) {
  if (!comm_info(me, comm, pi)) return bad_comm(me, call, comm);
  if (pi->comm->inter()) return inter_unsupported(me, comm, call);
  *g = me->handles->group(group);
  if (!*g) return bad_group(me, call, group);
  for (int w : (*g)->world)
    if (pi->comm->from_world(w) == TMPI_UNDEFINED)
      return mpi_error(me, comm, TMPI_ERR_GROUP, call, "the group holds world rank %d, which is not in %s", w,
                       comm_name(comm));
  return TMPI_SUCCESS;
}

// A pair that never leaves the subrank (a communicator of one member).
int private_pair(Handles& h) {
  sync::MutexLock guard(h.context_lock);
  int ctx = h.next_private_context;
  h.next_private_context += 2;
  return ctx;
}

}  // namespace

namespace tucana::mpi {

// Agrees with every member of the new communicator on a context pair that
// none of them uses: `reduce` ANDs the masks of the pairs each has free
// over all of them (an MPI_Allreduce over the parent, as MPICH does; more
// steps for an intercommunicator). Every member gets the same answer (or
// the same error). A blocking creation first tries the eager pairs (the
// first kEagerPairs, at most half of them), which only blocking creations
// use, so that it never waits for a pending MPI_Comm_idup; then, like an
// idup, it agrees on one of the shared pairs in rounds (ContextAgreement).
int agree_pair(Subrank* me, TMPI_Comm err_comm, const char* call, ContextAgreement& agreement,
               const MaskReduce& reduce, int* p2p_ctx) {
  constexpr int kEagerPairs = 128;  // 16 bytes to reduce
  Handles& h = *me->handles;
  Runtime& rt = Runtime::get();
  const bool remote = rt.layout.nprocs > 1;
  const int limit = remote ? std::min(kMaxContexts, rt.transport.remote_contexts()) : kMaxContexts;
  const int pairs = limit / 2;
  const int eager = std::min(kEagerPairs, pairs / 2);
  // Sets the bits of the pairs in [from, from + n) that are free here.
  auto offer = [&h](std::vector<unsigned long long>& mask, int from, int n) {
    sync::MutexLock guard(h.context_lock);
    for (int p = 0; p < n; ++p)
      if (!h.used_contexts.test(static_cast<std::size_t>(2 * (from + p))))
        mask[static_cast<std::size_t>(p / 64)] |= 1ull << (p % 64);
  };
  auto lowest = [](const std::vector<unsigned long long>& mask, int n) {
    for (int p = 0; p < n; ++p)
      if (mask[static_cast<std::size_t>(p / 64)] & (1ull << (p % 64))) return p;
    return -1;
  };
  if (agreement.eager()) {
    h.sweep_freed();
    std::vector<unsigned long long> mask(static_cast<std::size_t>((eager + 63) / 64), 0);
    if (agreement.take_eager()) offer(mask, 0, eager);
    if (int e = reduce(mask, 0)) return e;
    int p = lowest(mask, eager);
    if (p >= 0) {
      *p2p_ctx = 2 * p;
      return TMPI_SUCCESS;  // the eager pairs stay this agreement's until the caller takes the pair
    }
    agreement.release();
  }
  const int shared = pairs - eager;
  const auto words = static_cast<std::size_t>((shared + 63) / 64);
  std::vector<unsigned long long> mask;
  for (;;) {
    h.sweep_freed();
    mask.assign(words + 1, 0);  // the last word: every member offered
    if (agreement.take_mask()) {
      offer(mask, eager, shared);
      mask[words] = ~0ull;
    }
    if (int e = reduce(mask, 1)) return e;
    if (mask[words] == ~0ull) break;
    // Some member's mask was another agreement's: again, after the others
    // of this subrank had a turn.
    agreement.release();
    sched::Scheduler::yield_behind_all();
  }
  int p = lowest(mask, shared);
  if (p >= 0) {
    *p2p_ctx = 2 * (eager + p);
    return TMPI_SUCCESS;
  }
  if (!remote)
    return mpi_error(me, err_comm, TMPI_ERR_INTERN, call,
                     "out of communicator ids: at most %d communicators can exist at once (Tucana's limit); "
                     "free unused communicators with MPI_Comm_free",
                     pairs);
  return mpi_error(me, err_comm, TMPI_ERR_INTERN, call,
                   "out of communicator ids: at most %d communicators can exist at once here (%d context "
                   "ids: %d real communicators with room for %d each in the real MPI's tag at %d subranks "
                   "per process); free unused communicators with MPI_Comm_free, or use fewer subranks per "
                   "process",
                   pairs, limit, rt.transport.data_comms(), 1 << rt.transport.context_bits(),
                   rt.layout.max_local_count());
}

// Takes `c`'s context pair at `me` and gives it a handle.
int install_comm(Subrank* me, TMPI_Comm err_comm, const char* call, CommPtr c, TMPI_Comm* newcomm,
                 Comm** created) {
  if (c->p2p_ctx < kMaxContexts) take_pair(*me->handles, c->p2p_ctx);
  Comm* made = c.get();
  *newcomm = me->handles->add(c);
  if (*newcomm == TMPI_COMM_NULL) {
    me->handles->release(std::move(c));
    if (created) *created = nullptr;
    return mpi_error(me, err_comm, TMPI_ERR_INTERN, call,
                     "out of communicator handles: a subrank can hold at most %zu at once; free unused "
                     "communicators with MPI_Comm_free",
                     CommTable::kChunk * CommTable::kChunks - 3);
  }
  if (created) *created = made;
  return TMPI_SUCCESS;
}

// Creates the communicator of `members` (world ranks, in rank order) with a
// new context pair agreed over `parent`. Collective over `parent`; a subrank
// that is not in `members` gets MPI_COMM_NULL.
int create_comm(Subrank* me, TMPI_Comm parent, const CommInfo& pi, const char* call, std::vector<int> members,
                bool member, TMPI_Comm* newcomm, Comm** created) {
  if (pi.comm->inter()) return inter_unsupported(me, parent, call);
  ContextAgreement agreement(*me->handles, collective_key(*pi.comm), true);
  int ctx = 0;
  if (pi.size == 1) {  // nobody else can ever send on it
    ctx = private_pair(*me->handles);
  } else {
    auto reduce = [&](std::vector<unsigned long long>& mask, int) {
      return TMPI_Allreduce(TMPI_IN_PLACE, mask.data(), static_cast<int>(mask.size()), TMPI_DT_UNSIGNED_LONG_LONG,
                            TMPI_OP_BAND, parent);
    };
    if (int e = agree_pair(me, parent, call, agreement, reduce, &ctx)) return e;
  }
  if (!member) {
    *newcomm = TMPI_COMM_NULL;
    if (created) *created = nullptr;
    return TMPI_SUCCESS;
  }
  CommPtr c = make_comm(me, std::move(members), ctx);
  c->errhandler = pi.comm->errhandler;
  return install_comm(me, parent, call, std::move(c), newcomm, created);
}

// The members of `parent` whose color equals `color`, ordered by (key,
// parent rank), as world ranks. Collective over `parent`.
int split_members(Subrank* me, TMPI_Comm parent, const CommInfo& pi, int color, int key, std::vector<int>* out) {
  (void)me;  // the collective below runs as the calling subrank
  std::vector<int> all(static_cast<std::size_t>(2 * pi.size));
  int mine[2] = {color, key};
  if (int e = TMPI_Allgather(mine, 2, TMPI_DT_INT, all.data(), 2, TMPI_DT_INT, parent)) return e;
  std::vector<int> ranks;
  for (int r = 0; r < pi.size; ++r)
    if (all[static_cast<std::size_t>(2 * r)] == color) ranks.push_back(r);
  std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
    return all[static_cast<std::size_t>(2 * a + 1)] < all[static_cast<std::size_t>(2 * b + 1)];
  });
  out->clear();
  for (int r : ranks) out->push_back(pi.comm->to_world(r));
  return TMPI_SUCCESS;
}

}  // namespace tucana::mpi

namespace {

int split_inter(Subrank* me, const char* call, TMPI_Comm comm, const CommInfo& pi, int color, int key,
                TMPI_Comm* newcomm);

int split(const char* call, TMPI_Comm comm, int color, int key, TMPI_Comm* newcomm) {
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm, &pi)) return bad_comm(me, call, comm);
  if (color < 0 && color != TMPI_UNDEFINED)
    return mpi_error(me, comm, TMPI_ERR_ARG, call, "invalid color %d (must be >= 0 or MPI_UNDEFINED)", color);
  if (pi.comm->inter()) return split_inter(me, call, comm, pi, color, key, newcomm);
  std::vector<int> members;
  if (int e = split_members(me, comm, pi, color, key, &members)) return e;
  return create_comm(me, comm, pi, call, std::move(members), color != TMPI_UNDEFINED, newcomm);
}

int compare_members(const std::vector<int>& a, const std::vector<int>& b) {
  if (a == b) return TMPI_IDENT;
  if (a.size() != b.size()) return TMPI_UNEQUAL;
  std::vector<int> sa(a), sb(b);
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb ? TMPI_SIMILAR : TMPI_UNEQUAL;
}

// Resolves the two group arguments of `call`; false (with *err set) if one
// is invalid.
bool two_groups(Subrank* me, const char* call, TMPI_Group g1, TMPI_Group g2, const Group** a, const Group** b,
                int* err) {
  *a = me->handles->group(g1);
  *b = me->handles->group(g2);
  if (!*a) *err = bad_group(me, call, g1);
  else if (!*b) *err = bad_group(me, call, g2);
  return *a && *b;
}

// A new group handle holding `world`.
TMPI_Group new_group(Subrank* me, std::vector<int> world) {
  if (world.empty()) return TMPI_GROUP_EMPTY;
  auto g = std::make_unique<Group>();
  g->world = std::move(world);
  return me->handles->add(std::move(g));
}

int check_ranks(Subrank* me, const char* call, const Group& g, int n, const int ranks[], bool distinct = true) {
  std::vector<bool> seen(g.world.size(), false);
  for (int i = 0; i < n; ++i) {
    int r = ranks[i];
    if (r < 0 || r >= static_cast<int>(g.world.size()))
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_RANK, call, "rank %d is not in the group (size %zu)", r,
                       g.world.size());
    if (distinct && seen[static_cast<std::size_t>(r)])
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_RANK, call, "rank %d appears twice", r);
    seen[static_cast<std::size_t>(r)] = true;
  }
  return TMPI_SUCCESS;
}

// The ranks of MPI_Group_range_incl/excl's triplets, checked.
int range_ranks(Subrank* me, const char* call, const Group& g, int n, int ranges[][3], std::vector<int>* out) {
  out->clear();
  const int size = static_cast<int>(g.world.size());
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last))
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "invalid range (%d, %d, %d)", first, last, stride);
    if (first < 0 || first >= size || last < 0 || last >= size)
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_RANK, call, "range (%d, %d, %d) leaves the group (size %d)", first,
                       last, stride, size);
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) out->push_back(static_cast<int>(r));
  }
  return check_ranks(me, call, g, static_cast<int>(out->size()), out->data());
}

// A collective Call of `call` on `comm` as `me` (no sequence number drawn).
Call base_call(Subrank* me, TMPI_Comm comm, const CommInfo& ci, const char* call) {
  Call c;
  c.me = me;
  c.comm = comm;
  c.info = ci;
  c.name = call;
  return c;
}

// The window-by-window reduction of free-pair masks over the union of an
// intercommunicator's groups (`base`: a Call on it).
MaskReduce over_union(const Call& base) {
  return [base](std::vector<unsigned long long>& mask, int) {
    Comm* ic = base.info.comm;
    Call u = view_call(base, ic->merged.get(), ic->merged->rank);
    return do_allreduce(u, TMPI_IN_PLACE, mask.data(), static_cast<int>(mask.size()), TMPI_DT_UNSIGNED_LONG_LONG,
                        TMPI_OP_BAND);
  };
}

// A new intercommunicator at `me`: local group `local` (world ranks, in rank
// order), remote group `remote`, context pair from p2p_ctx. Its union lists
// first the group whose rank 0 has the lower world rank.
CommPtr make_inter(const Subrank* me, std::vector<int> local, std::vector<int> remote, int p2p_ctx) {
  std::vector<int> both;
  bool local_first = local.front() < remote.front();
  const std::vector<int>& first = local_first ? local : remote;
  const std::vector<int>& second = local_first ? remote : local;
  both.insert(both.end(), first.begin(), first.end());
  both.insert(both.end(), second.begin(), second.end());
  CommPtr c = make_comm(me, std::move(local), p2p_ctx);
  c->remote = make_remote_view(me, std::move(remote), p2p_ctx);
  c->merged = make_comm(me, std::move(both), p2p_ctx);
  return c;
}

// Copies `comm`'s attributes to its new dup *newcomm (their copy
// callbacks). A callback that fails fails the call (MPI 3.1 sec. 6.7.2):
// the new communicator is freed (the attributes copied so far are deleted
// with it) and *newcomm is MPI_COMM_NULL, and the callback's code goes
// through `comm`'s error handler.
int dup_attributes(Subrank* me, const char* call, TMPI_Comm comm, TMPI_Comm* newcomm) {
  int e = copy_attributes(AttrKind::Comm, comm, *newcomm);
  if (e == TMPI_SUCCESS) return TMPI_SUCCESS;
  TMPI_Comm made = *newcomm;
  TMPI_Comm_free(&made);
  *newcomm = TMPI_COMM_NULL;
  return mpi_error(me, comm, e, call, "an attribute copy callback of %s returned error %d", comm_name(comm), e);
}

// MPI_Comm_dup of an intercommunicator: the pair is agreed over both groups.
int dup_inter(Subrank* me, TMPI_Comm comm, const CommInfo& pi, TMPI_Comm* newcomm) {
  const char* call = "MPI_Comm_dup";
  ContextAgreement agreement(*me->handles, collective_key(*pi.comm), true);
  int ctx = 0;
  if (int e = agree_pair(me, comm, call, agreement, over_union(base_call(me, comm, pi, call)), &ctx)) return e;
  CommPtr c = make_inter(me, pi.comm->members(), pi.comm->remote->members(), ctx);
  c->errhandler = pi.comm->errhandler;
  if (int e = install_comm(me, comm, call, std::move(c), newcomm, nullptr)) return e;
  return dup_attributes(me, call, comm, newcomm);
}

// MPI_Comm_split of an intercommunicator (and MPI_Comm_create, as a split
// by membership): every member of both groups gathers every (color, key)
// over the union; the intercommunicator of a color joins the local members
// of that color with the remote members of that color, each group ordered
// by (key, rank). A color that one group lacks, or MPI_UNDEFINED, gives
// MPI_COMM_NULL. One pair is agreed over the union, as for an
// intracommunicator split: the results are disjoint.
int split_inter(Subrank* me, const char* call, TMPI_Comm comm, const CommInfo& pi, int color, int key,
                TMPI_Comm* newcomm) {
  Comm& ic = *pi.comm;
  Call base = base_call(me, comm, pi, call);
  const Comm& both = *ic.merged;
  std::vector<int> all(static_cast<std::size_t>(2 * both.size));
  int mine[2] = {color, key};
  {
    Call u = view_call(base, ic.merged.get(), both.rank);
    Collective c(u);
    allgather(c, mine, all.data(), sizeof mine);
    if (int e = finish(c)) return e;
  }
  // The members of `side` with this color, as world ranks in (key, rank) order.
  auto same_color = [&](const Comm& side) {
    std::vector<std::pair<int, int>> keyed;  // (key, rank in side)
    for (int r = 0; r < side.size; ++r) {
      auto u = static_cast<std::size_t>(both.from_world(side.to_world(r)));
      if (all[2 * u] == color) keyed.emplace_back(all[2 * u + 1], r);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; });
    std::vector<int> world;
    for (const auto& kr : keyed) world.push_back(side.to_world(kr.second));
    return world;
  };
  ContextAgreement agreement(*me->handles, collective_key(ic), true);
  int ctx = 0;
  if (int e = agree_pair(me, comm, call, agreement, over_union(base), &ctx)) return e;
  std::vector<int> local, remote;
  if (color != TMPI_UNDEFINED) {
    local = same_color(ic);
    remote = same_color(*ic.remote);
  }
  if (local.empty() || remote.empty()) {
    *newcomm = TMPI_COMM_NULL;
    return TMPI_SUCCESS;
  }
  CommPtr c = make_inter(me, std::move(local), std::move(remote), ctx);
  c->errhandler = ic.errhandler;
  return install_comm(me, comm, call, std::move(c), newcomm, nullptr);
}

}  // namespace

namespace tucana::mpi {

struct PendingDup {
  Subrank* me = nullptr;
  TMPI_Comm comm = TMPI_COMM_NULL;
  CommPtr parent;  // keeps the parent's views alive
  CommPtr made;    // the new communicator, in the table already
  Call calls[2];   // the agreement's windows, sequence numbers drawn by the call
  bool private_ids = false;
  // Registered at the call, so that every member orders it among its
  // other agreements from then on.
  std::unique_ptr<ContextAgreement> agreement;
};

int start_idup(Subrank* me, TMPI_Comm comm, TMPI_Comm* newcomm, std::shared_ptr<PendingDup>* out, Call* call,
               bool copy_attrs) {
  const char* name = "MPI_Comm_idup";
  CommInfo pi;
  if (!comm_info(me, comm, &pi)) return bad_comm(me, name, comm);
  if (!newcomm) return mpi_error(me, comm, TMPI_ERR_ARG, name, "null newcomm pointer");
  Comm& p = *pi.comm;
  auto d = std::make_shared<PendingDup>();
  d->me = me;
  d->comm = comm;
  d->parent = keep_alive(me, comm);
  d->agreement = std::make_unique<ContextAgreement>(*me->handles, collective_key(p), false);
  Call base = base_call(me, comm, pi, name);
  base.keep = d->parent;
  for (Call& c : d->calls)
    c = p.inter() ? view_call(base, p.merged.get(), p.merged->rank) : view_call(base, &p, pi.rank);
  d->private_ids = !p.inter() && p.size == 1;
  // The new communicator is usable when the request completes; until then
  // it holds private ids that never travel.
  auto c = std::make_shared<Comm>();
  c->size = p.size;
  c->rank = p.rank;
  c->world_of = p.world_of;
  c->rank_of = p.rank_of;
  c->remote = p.remote;
  c->merged = p.merged;
  c->copy_topology(p);
  c->errhandler = p.errhandler;
  c->p2p_ctx = private_pair(*me->handles);
  c->coll_ctx = c->p2p_ctx + 1;
  d->made = c;
  *newcomm = me->handles->add(c);
  if (*newcomm == TMPI_COMM_NULL)
    return mpi_error(me, comm, TMPI_ERR_INTERN, name,
                     "out of communicator handles: a subrank can hold at most %zu at once; free unused "
                     "communicators with MPI_Comm_free",
                     CommTable::kChunk * CommTable::kChunks - 3);
  if (copy_attrs)
    if (int e = copy_attributes(AttrKind::Comm, comm, *newcomm)) return e;
  *call = d->calls[0];
  *out = std::move(d);
  return TMPI_SUCCESS;
}

int finish_idup(PendingDup& d) {
  int ctx = 0;
  if (d.private_ids) {
    ctx = private_pair(*d.me->handles);
  } else {
    auto reduce = [&d](std::vector<unsigned long long>& mask, int window) {
      return do_allreduce(d.calls[window > 0 ? 1 : 0], TMPI_IN_PLACE, mask.data(), static_cast<int>(mask.size()),
                          TMPI_DT_UNSIGNED_LONG_LONG, TMPI_OP_BAND);
    };
    if (int e = agree_pair(d.me, d.comm, "MPI_Comm_idup", *d.agreement, reduce, &ctx)) {
      d.agreement.reset();
      return e;
    }
    take_pair(*d.me->handles, ctx);
  }
  // The program reads these only after the request completes.
  d.made->p2p_ctx = ctx;
  d.made->coll_ctx = ctx + 1;
  d.agreement.reset();
  return TMPI_SUCCESS;
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Comm_remote_size(TMPI_Comm comm, int* size) {
  const char* call = "MPI_Comm_remote_size";
  Entered me = enter(call);
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, call, comm);
  if (!c->inter()) return mpi_error(me, comm, TMPI_ERR_COMM, call, "%s is not an intercommunicator", comm_name(comm));
  *size = c->remote->size;
  return TMPI_SUCCESS;
}

int TMPI_Comm_remote_group(TMPI_Comm comm, TMPI_Group* group) {
  const char* call = "MPI_Comm_remote_group";
  Entered me = enter(call);
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, call, comm);
  if (!c->inter()) return mpi_error(me, comm, TMPI_ERR_COMM, call, "%s is not an intercommunicator", comm_name(comm));
  *group = new_group(me, c->remote->members());
  return TMPI_SUCCESS;
}

// The leaders swap their groups' members and free-pair masks over
// `peer_comm` (its point-to-point context, with `tag`, as MPI says), and each
// broadcasts what it got to its group over `local_comm`.
int TMPI_Intercomm_create(TMPI_Comm local_comm, int local_leader, TMPI_Comm peer_comm, int remote_leader, int tag,
                          TMPI_Comm* newintercomm) {
  const char* call = "MPI_Intercomm_create";
  Entered me = enter(call);
  CommInfo li;
  if (!comm_info(me, local_comm, &li)) return bad_comm(me, call, local_comm);
  if (li.comm->inter())
    return mpi_error(me, local_comm, TMPI_ERR_COMM, call, "the local communicator (%s) must be an intracommunicator",
                     comm_name(local_comm));
  if (local_leader < 0 || local_leader >= li.size)
    return mpi_error(me, local_comm, TMPI_ERR_RANK, call, "invalid local leader %d (%s has ranks 0 to %d)",
                     local_leader, comm_name(local_comm), li.size - 1);
  const bool leader = li.rank == local_leader;
  // Only the leader's peer arguments count: it checks them and tells its
  // group, so that a bad one is an error at every member, not a hang.
  int verdict = TMPI_SUCCESS;
  if (leader) {
    CommInfo bi;
    if (!comm_info(me, peer_comm, &bi))
      verdict = mpi_error(me, local_comm, TMPI_ERR_COMM, call, "invalid peer communicator %d", peer_comm);
    else if (remote_leader < 0 || remote_leader >= bi.comm->peer_size())
      verdict = mpi_error(me, local_comm, TMPI_ERR_RANK, call, "invalid remote leader %d (%s has ranks 0 to %d)",
                          remote_leader, comm_name(peer_comm), bi.comm->peer_size() - 1);
    else if (tag < 0 || tag > Runtime::get().transport.user_tag_ub())
      verdict = mpi_error(me, local_comm, TMPI_ERR_TAG, call, "invalid tag %d (tags go from 0 to MPI_TAG_UB = %d)",
                          tag, Runtime::get().transport.user_tag_ub());
  }
  if (int e = TMPI_Bcast(&verdict, 1, TMPI_DT_INT, local_leader, local_comm)) return e;
  if (verdict != TMPI_SUCCESS)
    return leader ? verdict
                  : mpi_error(me, local_comm, verdict, call, "the local leader (rank %d) was given an invalid argument",
                              local_leader);
  // Each side's size and the key of its side of the agreement (local
  // context, collective calls so far); both sides order the agreement by
  // the side with the lower context.
  std::vector<int> mine = li.comm->members(), theirs;
  int here[3] = {static_cast<int>(mine.size()), li.comm->coll_ctx, static_cast<int>(li.comm->collective_seq)};
  int there[3] = {0, 0, 0};
  if (leader) {
    if (int e = TMPI_Sendrecv(here, 3, TMPI_DT_INT, remote_leader, tag, there, 3, TMPI_DT_INT, remote_leader, tag,
                              peer_comm, TMPI_STATUS_IGNORE))
      return e;
  }
  if (int e = TMPI_Bcast(there, 3, TMPI_DT_INT, local_leader, local_comm)) return e;
  const int* lower = there[1] < here[1] || (there[1] == here[1] && there[2] < here[2]) ? there : here;
  ContextAgreement agreement(*me->handles,
                             AgreementKey{lower[1], AgreementKey::kIntercomm, static_cast<unsigned>(lower[2])}, true);
  int counts[2] = {here[0], there[0]};
  theirs.resize(static_cast<std::size_t>(counts[1]));
  if (leader) {
    if (int e = TMPI_Sendrecv(mine.data(), counts[0], TMPI_DT_INT, remote_leader, tag, theirs.data(), counts[1],
                              TMPI_DT_INT, remote_leader, tag, peer_comm, TMPI_STATUS_IGNORE))
      return e;
  }
  if (int e = TMPI_Bcast(theirs.data(), counts[1], TMPI_DT_INT, local_leader, local_comm)) return e;
  for (int w : theirs)  // both groups see both lists: the same verdict on each side
    if (li.comm->from_world(w) != TMPI_UNDEFINED)
      return mpi_error(me, local_comm, TMPI_ERR_COMM, call,
                       "the local and remote groups overlap (world rank %d is in both); they must be disjoint", w);
  if (theirs.empty())
    return mpi_error(me, local_comm, TMPI_ERR_COMM, call, "the remote group is empty");
  auto reduce = [&](std::vector<unsigned long long>& mask, int) {
    const int n = static_cast<int>(mask.size());
    if (int e = TMPI_Allreduce(TMPI_IN_PLACE, mask.data(), n, TMPI_DT_UNSIGNED_LONG_LONG, TMPI_OP_BAND, local_comm))
      return e;
    if (leader) {
      std::vector<unsigned long long> other(mask.size());
      if (int e = TMPI_Sendrecv(mask.data(), n, TMPI_DT_UNSIGNED_LONG_LONG, remote_leader, tag, other.data(), n,
                                TMPI_DT_UNSIGNED_LONG_LONG, remote_leader, tag, peer_comm, TMPI_STATUS_IGNORE))
        return e;
      for (std::size_t i = 0; i < mask.size(); ++i) mask[i] &= other[i];
    }
    return TMPI_Bcast(mask.data(), n, TMPI_DT_UNSIGNED_LONG_LONG, local_leader, local_comm);
  };
  int ctx = 0;
  if (int e = agree_pair(me, local_comm, call, agreement, reduce, &ctx)) return e;
  CommPtr c = make_inter(me, std::move(mine), std::move(theirs), ctx);
  c->errhandler = li.comm->errhandler;
  return install_comm(me, local_comm, call, std::move(c), newintercomm, nullptr);
}

// The union of both groups: the group whose members passed high = 0 first;
// if both passed the same, the group whose rank 0 has the lower world rank.
int TMPI_Intercomm_merge(TMPI_Comm intercomm, int high, TMPI_Comm* newintracomm) {
  const char* call = "MPI_Intercomm_merge";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, intercomm, &pi)) return bad_comm(me, call, intercomm);
  Comm& ic = *pi.comm;
  if (!ic.inter())
    return mpi_error(me, intercomm, TMPI_ERR_COMM, call, "%s is not an intercommunicator", comm_name(intercomm));
  Call base = base_call(me, intercomm, pi, call);
  std::vector<int> highs(static_cast<std::size_t>(ic.merged->size));
  int mine = high ? 1 : 0;
  {
    Call u = view_call(base, ic.merged.get(), ic.merged->rank);
    Collective c(u);
    allgather(c, &mine, highs.data(), sizeof(int));
    if (int e = finish(c)) return e;
  }
  int theirs = highs[static_cast<std::size_t>(ic.merged->from_world(ic.remote->to_world(0)))];
  bool local_first = mine != theirs ? mine == 0 : ic.to_world(0) < ic.remote->to_world(0);
  std::vector<int> members = local_first ? ic.members() : ic.remote->members();
  std::vector<int> rest = local_first ? ic.remote->members() : ic.members();
  members.insert(members.end(), rest.begin(), rest.end());
  ContextAgreement agreement(*me->handles, collective_key(ic), true);
  int ctx = 0;
  if (int e = agree_pair(me, intercomm, call, agreement, over_union(base), &ctx)) return e;
  CommPtr c = make_comm(me, std::move(members), ctx);
  c->errhandler = ic.errhandler;
  return install_comm(me, intercomm, call, std::move(c), newintracomm, nullptr);
}

// Collective over the group's members only: they agree on a pair among
// themselves (every member sends its mask to the group's rank 0, which
// sends back the AND), in the parent's collective context with kinds no
// other collective uses and the call's tag as the sequence number.
int TMPI_Comm_create_group(TMPI_Comm comm, TMPI_Group group, int tag, TMPI_Comm* newcomm) {
  const char* call = "MPI_Comm_create_group";
  Entered me = enter(call);
  CommInfo pi;
  const Group* g = nullptr;
  if (int e = subgroup_args(me, call, comm, group, &pi, &g)) return e;
  const int my_rank = g->rank_of_world(me->world);
  if (my_rank == TMPI_UNDEFINED)
    return mpi_error(me, comm, TMPI_ERR_GROUP, call,
                     "this rank is not in the group (only the group's members call MPI_Comm_create_group)");
  const int ub = Runtime::get().transport.user_tag_ub();
  if (tag < 0 || tag > ub)
    return mpi_error(me, comm, TMPI_ERR_TAG, call, "invalid tag %d (tags go from 0 to MPI_TAG_UB = %d)", tag, ub);
  ContextAgreement agreement(*me->handles, AgreementKey{pi.coll_ctx, AgreementKey::kGroup, static_cast<unsigned>(tag)},
                             true);
  int ctx = 0;
  if (g->world.size() == 1) {
    ctx = private_pair(*me->handles);
  } else {
    CommPtr view = make_comm(me, g->world, pi.p2p_ctx);
    Call gc = base_call(me, comm, pi, call);
    gc.info.comm = view.get();
    gc.info.size = view->size;
    gc.info.rank = my_rank;
    gc.seq = tag & (ub >> kKindBits);
    auto reduce = [&](std::vector<unsigned long long>& mask, int) {
      Collective c(gc);
      const std::size_t bytes = mask.size() * sizeof(unsigned long long);
      if (my_rank == 0) {
        std::vector<unsigned long long> other(mask.size());
        for (int r = 1; r < gc.info.size; ++r) {
          c.recv(other.data(), bytes, r, kTagGroupUp);
          for (std::size_t i = 0; i < mask.size(); ++i) mask[i] &= other[i];
        }
        for (int r = 1; r < gc.info.size; ++r) c.send(mask.data(), bytes, r, kTagGroupDown);
      } else {
        c.send(mask.data(), bytes, 0, kTagGroupUp);
        c.recv(mask.data(), bytes, 0, kTagGroupDown);
      }
      return finish(c);
    };
    if (int e = agree_pair(me, comm, call, agreement, reduce, &ctx)) return e;
  }
  CommPtr c = make_comm(me, g->world, ctx);
  c->errhandler = pi.comm->errhandler;
  return install_comm(me, comm, call, std::move(c), newcomm, nullptr);
}

int TMPI_Comm_rank(TMPI_Comm comm, int* rank) {
  Entered me = enter("MPI_Comm_rank");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_rank", comm);
  *rank = c->rank;
  return TMPI_SUCCESS;
}

int TMPI_Comm_size(TMPI_Comm comm, int* size) {
  Entered me = enter("MPI_Comm_size");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_size", comm);
  *size = c->size;
  return TMPI_SUCCESS;
}

int TMPI_Comm_test_inter(TMPI_Comm comm, int* flag) {
  Entered me = enter("MPI_Comm_test_inter");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_test_inter", comm);
  *flag = c->inter() ? 1 : 0;
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_attr(TMPI_Comm comm, int keyval, void* value, int* flag) {
  Entered me = enter("MPI_Comm_get_attr");
  if (!me->handles->comm(comm)) return bad_comm(me, "MPI_Comm_get_attr", comm);
  // Predefined attributes are returned as pointers to int, as MPI says.
  // Written once (the first call, under the guard of a local static):
  // subranks on other workers may be reading them.
  static int host = TMPI_PROC_NULL, io = TMPI_ANY_SOURCE, wtime_global = 0, appnum = 0;
  static int tag_ub = Runtime::get().transport.user_tag_ub();
  static int universe = Runtime::get().layout.total;
  int* result = nullptr;
  switch (keyval) {
    case TMPI_TAG_UB: result = &tag_ub; break;
    case TMPI_HOST: result = &host; break;
    case TMPI_IO: result = &io; break;
    case TMPI_WTIME_IS_GLOBAL: result = &wtime_global; break;
    case TMPI_UNIVERSE_SIZE: result = &universe; break;
    case TMPI_APPNUM: result = &appnum; break;
    case TMPI_LASTUSEDCODE:
      me->last_used_code_attr = last_used_error_code();
      result = &me->last_used_code_attr;
      break;
    default: {
      void* user = nullptr;
      *flag = get_attribute(AttrKind::Comm, comm, keyval, &user);
      if (*flag) *static_cast<void**>(value) = user;
      return TMPI_SUCCESS;
    }
  }
  *flag = result != nullptr;
  if (result) *static_cast<int**>(value) = result;
  return TMPI_SUCCESS;
}

int TMPI_Comm_set_errhandler(TMPI_Comm comm, TMPI_Errhandler errhandler) {
  Entered me = enter("MPI_Comm_set_errhandler");
  Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_set_errhandler", comm);
  if (!valid_errhandler(errhandler, ErrhandlerKind::Comm))
    return mpi_error(me, comm, TMPI_ERR_ARG, "MPI_Comm_set_errhandler",
                     "not an error handler for communicators (MPI_Comm_create_errhandler makes them)");
  c->errhandler = errhandler;
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_errhandler(TMPI_Comm comm, TMPI_Errhandler* errhandler) {
  Entered me = enter("MPI_Comm_get_errhandler");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_get_errhandler", comm);
  *errhandler = c->errhandler;
  return TMPI_SUCCESS;
}

int TMPI_Comm_set_name(TMPI_Comm comm, const char* name) {
  Entered me = enter("MPI_Comm_set_name");
  Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_set_name", comm);
  c->name.assign(name, strnlen(name, TMPI_MAX_OBJECT_NAME - 1));
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_name(TMPI_Comm comm, char* name, int* resultlen) {
  Entered me = enter("MPI_Comm_get_name");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_get_name", comm);
  std::memcpy(name, c->name.c_str(), c->name.size() + 1);
  *resultlen = static_cast<int>(c->name.size());
  return TMPI_SUCCESS;
}

int TMPI_Comm_dup(TMPI_Comm comm, TMPI_Comm* newcomm) {
  const char* call = "MPI_Comm_dup";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm, &pi)) return bad_comm(me, call, comm);
  if (pi.comm->inter()) return dup_inter(me, comm, pi, newcomm);
  Comm* created = nullptr;
  if (int e = create_comm(me, comm, pi, call, pi.comm->members(), true, newcomm, &created)) return e;
  created->copy_topology(*pi.comm);
  created->errhandler = pi.comm->errhandler;  // MPI_Comm_dup keeps the error handler
  return dup_attributes(me, call, comm, newcomm);
}

int TMPI_Comm_dup_with_info(TMPI_Comm comm, TMPI_Info info, TMPI_Comm* newcomm) {
  (void)info;  // no hints are used
  return TMPI_Comm_dup(comm, newcomm);
}

// MPI requires every communication on `comm` to be complete and matched
// first; the barrier makes the members wait for each other, as MPI's
// disconnect does, before the communicator goes.
int TMPI_Comm_disconnect(TMPI_Comm* comm) {
  const char* call = "MPI_Comm_disconnect";
  Entered me = enter(call);
  if (!comm || !me->handles->comm(*comm)) return bad_comm(me, call, comm ? *comm : TMPI_COMM_NULL);
  if (*comm == TMPI_COMM_WORLD || *comm == TMPI_COMM_SELF)
    return mpi_error(me, *comm, TMPI_ERR_COMM, call, "%s cannot be disconnected", comm_name(*comm));
  if (int e = TMPI_Barrier(*comm)) return e;
  return TMPI_Comm_free(comm);
}

int TMPI_Comm_split(TMPI_Comm comm, int color, int key, TMPI_Comm* newcomm) {
  return split("MPI_Comm_split", comm, color, key, newcomm);
}

int TMPI_Comm_split_type(TMPI_Comm comm, int split_type, int key, TMPI_Info info, TMPI_Comm* newcomm) {
  (void)info;
  const char* call = "MPI_Comm_split_type";
  Entered me = enter(call);
  if (split_type != TMPI_COMM_TYPE_SHARED && split_type != TMPI_UNDEFINED)
    return mpi_error(me, comm, TMPI_ERR_ARG, call,
                     "unknown split type %d (MPI_COMM_TYPE_SHARED and MPI_UNDEFINED are supported)", split_type);
  // Shared memory = the subranks of one process.
  int color = split_type == TMPI_UNDEFINED ? TMPI_UNDEFINED : Runtime::get().layout.proc_of(me->world);
  return split(call, comm, color, key, newcomm);
}

int TMPI_Comm_create(TMPI_Comm comm, TMPI_Group group, TMPI_Comm* newcomm) {
  const char* call = "MPI_Comm_create";
  Entered me = enter(call);
  CommInfo pi;
  const Group* g = nullptr;
  if (is_inter(me, comm)) {
    // The group is a subgroup of the local group; the new
    // intercommunicator joins it to the group the other side passed.
    comm_info(me, comm, &pi);
    g = me->handles->group(group);
    if (!g) return bad_group(me, call, group);
    for (int w : g->world)
      if (pi.comm->from_world(w) == TMPI_UNDEFINED)
        return mpi_error(me, comm, TMPI_ERR_GROUP, call,
                         "the group holds world rank %d, which is not in the local group of %s", w,
                         comm_name(comm));
    const int position = g->rank_of_world(me->world);
    return split_inter(me, call, comm, pi, position == TMPI_UNDEFINED ? TMPI_UNDEFINED : 0, position, newcomm);
  }
  if (int e = subgroup_args(me, call, comm, group, &pi, &g)) return e;
  bool member = g->rank_of_world(me->world) != TMPI_UNDEFINED;
  return create_comm(me, comm, pi, call, g->world, member, newcomm);
}

int TMPI_Comm_free(TMPI_Comm* comm) {
  const char* call = "MPI_Comm_free";
  Entered me = enter(call);
  Comm* c = me->handles->comm(*comm);
  if (!c) return bad_comm(me, call, *comm);
  if (*comm == TMPI_COMM_WORLD || *comm == TMPI_COMM_SELF)
    return mpi_error(me, *comm, TMPI_ERR_COMM, call, "%s cannot be freed", comm_name(*comm));
  if (int err = delete_attributes(AttrKind::Comm, *comm)) return err;
  // Requests and non-blocking collectives still pending on it hold their
  // own reference (and keep its context ids taken).
  me->handles->release(std::move(me->handles->comms[static_cast<std::size_t>(*comm)]));  // leaves the slot empty
  *comm = TMPI_COMM_NULL;
  return TMPI_SUCCESS;
}

int TMPI_Comm_compare(TMPI_Comm comm1, TMPI_Comm comm2, int* result) {
  Entered me = enter("MPI_Comm_compare");
  const Comm* a = me->handles->comm(comm1);
  const Comm* b = me->handles->comm(comm2);
  if (!a) return bad_comm(me, "MPI_Comm_compare", comm1);
  if (!b) return bad_comm(me, "MPI_Comm_compare", comm2);
  if (comm1 == comm2) {
    *result = TMPI_IDENT;
    return TMPI_SUCCESS;
  }
  if (a->inter() != b->inter()) {
    *result = TMPI_UNEQUAL;
    return TMPI_SUCCESS;
  }
  int r = compare_members(a->members(), b->members());
  if (a->inter()) {  // both groups count: congruent if both are the same, similar if both hold the same ranks
    int rr = compare_members(a->remote->members(), b->remote->members());
    if (r == TMPI_UNEQUAL || rr == TMPI_UNEQUAL) r = TMPI_UNEQUAL;
    else r = r == TMPI_IDENT && rr == TMPI_IDENT ? TMPI_IDENT : TMPI_SIMILAR;
  }
  *result = r == TMPI_IDENT ? TMPI_CONGRUENT : r;
  return TMPI_SUCCESS;
}

int TMPI_Comm_group(TMPI_Comm comm, TMPI_Group* group) {
  Entered me = enter("MPI_Comm_group");
  const Comm* c = me->handles->comm(comm);
  if (!c) return bad_comm(me, "MPI_Comm_group", comm);
  *group = new_group(me, c->members());
  return TMPI_SUCCESS;
}

int TMPI_Group_size(TMPI_Group group, int* size) {
  Entered me = enter("MPI_Group_size");
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, "MPI_Group_size", group);
  *size = static_cast<int>(g->world.size());
  return TMPI_SUCCESS;
}

int TMPI_Group_rank(TMPI_Group group, int* rank) {
  Entered me = enter("MPI_Group_rank");
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, "MPI_Group_rank", group);
  *rank = g->rank_of_world(me->world);
  return TMPI_SUCCESS;
}

int TMPI_Group_incl(TMPI_Group group, int n, const int ranks[], TMPI_Group* newgroup) {
  const char* call = "MPI_Group_incl";
  Entered me = enter(call);
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, call, group);
  if (int e = check_ranks(me, call, *g, n, ranks)) return e;
  std::vector<int> world;
  for (int i = 0; i < n; ++i) world.push_back(g->world[static_cast<std::size_t>(ranks[i])]);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_excl(TMPI_Group group, int n, const int ranks[], TMPI_Group* newgroup) {
  const char* call = "MPI_Group_excl";
  Entered me = enter(call);
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, call, group);
  if (int e = check_ranks(me, call, *g, n, ranks)) return e;
  std::vector<bool> drop(g->world.size(), false);
  for (int i = 0; i < n; ++i) drop[static_cast<std::size_t>(ranks[i])] = true;
  std::vector<int> world;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    if (!drop[r]) world.push_back(g->world[r]);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_range_incl(TMPI_Group group, int n, int ranges[][3], TMPI_Group* newgroup) {
  const char* call = "MPI_Group_range_incl";
  Entered me = enter(call);
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, call, group);
  std::vector<int> ranks;
  if (int e = range_ranks(me, call, *g, n, ranges, &ranks)) return e;
  std::vector<int> world;
  for (int r : ranks) world.push_back(g->world[static_cast<std::size_t>(r)]);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_range_excl(TMPI_Group group, int n, int ranges[][3], TMPI_Group* newgroup) {
  const char* call = "MPI_Group_range_excl";
  Entered me = enter(call);
  const Group* g = me->handles->group(group);
  if (!g) return bad_group(me, call, group);
  std::vector<int> ranks;
  if (int e = range_ranks(me, call, *g, n, ranges, &ranks)) return e;
  return TMPI_Group_excl(group, static_cast<int>(ranks.size()), ranks.data(), newgroup);
}

int TMPI_Group_translate_ranks(TMPI_Group group1, int n, const int ranks1[], TMPI_Group group2, int ranks2[]) {
  const char* call = "MPI_Group_translate_ranks";
  Entered me = enter(call);
  const Group *a, *b;
  int err = 0;
  if (!two_groups(me, call, group1, group2, &a, &b, &err)) return err;
  for (int i = 0; i < n; ++i) {
    int r = ranks1[i];
    if (r == TMPI_PROC_NULL) {
      ranks2[i] = TMPI_PROC_NULL;
      continue;
    }
    if (r < 0 || r >= static_cast<int>(a->world.size()))
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_RANK, call, "rank %d is not in the first group (size %zu)", r,
                       a->world.size());
    ranks2[i] = b->rank_of_world(a->world[static_cast<std::size_t>(r)]);
  }
  return TMPI_SUCCESS;
}

int TMPI_Group_compare(TMPI_Group group1, TMPI_Group group2, int* result) {
  Entered me = enter("MPI_Group_compare");
  const Group *a, *b;
  int err = 0;
  if (!two_groups(me, "MPI_Group_compare", group1, group2, &a, &b, &err)) return err;
  *result = compare_members(a->world, b->world);
  return TMPI_SUCCESS;
}

int TMPI_Group_union(TMPI_Group group1, TMPI_Group group2, TMPI_Group* newgroup) {
  Entered me = enter("MPI_Group_union");
  const Group *a, *b;
  int err = 0;
  if (!two_groups(me, "MPI_Group_union", group1, group2, &a, &b, &err)) return err;
  std::vector<int> world(a->world);
  for (int w : b->world)
    if (a->rank_of_world(w) == TMPI_UNDEFINED) world.push_back(w);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_intersection(TMPI_Group group1, TMPI_Group group2, TMPI_Group* newgroup) {
  Entered me = enter("MPI_Group_intersection");
  const Group *a, *b;
  int err = 0;
  if (!two_groups(me, "MPI_Group_intersection", group1, group2, &a, &b, &err)) return err;
  std::vector<int> world;
  for (int w : a->world)
    if (b->rank_of_world(w) != TMPI_UNDEFINED) world.push_back(w);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_difference(TMPI_Group group1, TMPI_Group group2, TMPI_Group* newgroup) {
  Entered me = enter("MPI_Group_difference");
  const Group *a, *b;
  int err = 0;
  if (!two_groups(me, "MPI_Group_difference", group1, group2, &a, &b, &err)) return err;
  std::vector<int> world;
  for (int w : a->world)
    if (b->rank_of_world(w) == TMPI_UNDEFINED) world.push_back(w);
  *newgroup = new_group(me, std::move(world));
  return TMPI_SUCCESS;
}

int TMPI_Group_free(TMPI_Group* group) {
  Entered me = enter("MPI_Group_free");
  if (!me->handles->group(*group)) return bad_group(me, "MPI_Group_free", *group);
  if (*group != TMPI_GROUP_EMPTY) me->handles->groups[static_cast<std::size_t>(*group)].reset();
  *group = TMPI_GROUP_NULL;
  return TMPI_SUCCESS;
}

}  // extern "C"
