// Communicators and groups of the virtual MPI, as one subrank sees them.
//
// Handles are per subrank (as handles are per process in MPI): each subrank
// has its own table, so no lock is needed. MPI_COMM_WORLD (1) and
// MPI_COMM_SELF (2) are in every table; MPI_GROUP_EMPTY is group 1.
//
// Context ids: every communicator has two, one for point-to-point and one for
// collectives, so their messages never match each other. MPI_COMM_WORLD has
// 0 and 1. A new communicator takes the lowest pair that is free at every
// member of its parent (an MPI_Allreduce of free masks over the parent, as
// MPICH does), so disjoint results of one split share a pair. Ids travel
// between processes in the real tag and the choice of real communicator,
// which bounds how many communicators can exist at once
// (Transport::remote_contexts(): 4096 communicators unless a process has
// very many subranks). MPI_COMM_SELF and its duplicates never leave the
// subrank and use ids above that range.
//
// An intercommunicator (MPI_Intercomm_create) has one pair too, free at
// every member of BOTH groups: each group ANDs its free masks over its
// local communicator, the leaders swap the results over the peer
// communicator and AND them, and each leader broadcasts the pair to its
// group. Its `remote` view holds the other group; point-to-point ranks are
// ranks of that group. MPI_Comm_create_group agrees a pair among the
// group's members only (messages in the parent's collective context,
// tagged by the call's tag). MPI_Comm_idup agrees on a helper fiber with
// sequence numbers drawn by the call.
//
// Agreements of one subrank may overlap (pending MPI_Comm_idups, and a
// blocking creation meanwhile), in any order MPI allows, without picking
// one pair twice. As in MPICH, the pairs are split in two: a blocking
// creation (a subrank makes one at a time) first tries the low "eager"
// pairs in one round that no other agreement touches; an MPI_Comm_idup, or
// a blocking creation that found no common eager pair, uses the others in
// rounds, and offers its subrank's free pairs in a round only when it holds
// the subrank's mask (ContextAgreement): the mask is free and no other
// agreement the subrank takes part in has a lower key (the same at every
// member). A round where some member did not offer (it held its mask for
// another agreement) is repeated; the lowest pending agreement always gets
// every member's mask, so each completes.
#pragma once

#include <tucana/tmpi.h>

#include <array>
#include <atomic>
#include <bitset>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sync/mutex.h"

namespace tucana::mpi {

struct Subrank;

// The most context ids any configuration uses (4096 communicators alive at
// once; comm::kMaxRemoteContexts is the same).
constexpr int kMaxContexts = 8192;
// Ids at and above this are private to one subrank (size-1 communicators).
constexpr int kPrivateContextBase = 1 << 20;

struct CartTopology {
  std::vector<int> dims;
  std::vector<int> periods;  // 0 or 1 per dimension
};

// A graph topology (MPI_Graph_create): the whole graph as given, with MPI's
// cumulative degrees; every member holds all of it (MPI_Graph_get).
struct GraphTopology {
  std::vector<int> index;
  std::vector<int> edges;
};

// A distributed graph topology: this rank's neighbours only, in the order
// MPI_Dist_graph_create_adjacent was given them (MPI_Dist_graph_create:
// in the order of the ranks that named the edges, then as each named them).
struct DistGraphTopology {
  std::vector<int> sources, source_weights;
  std::vector<int> destinations, destination_weights;
  bool weighted = false;
};

// Whom a rank's neighbourhood collectives receive from and send to, in
// MPI's order (a rank may be listed several times; MPI_PROC_NULL stands for
// a missing Cartesian neighbour).
struct Neighbors {
  std::vector<int> sources;
  std::vector<int> destinations;
  // Cartesian: the lists are the same, a (-1, +1) pair per dimension, and
  // a message's direction tells which of a pair it is for (a periodic
  // dimension of size 1 or 2 lists one rank twice).
  bool cartesian = false;
};

struct Comm {
  int size = 0;
  int rank = 0;
  int p2p_ctx = 0;
  int coll_ctx = 0;
  // rank -> world rank; empty for MPI_COMM_WORLD, where they are equal.
  std::vector<int> world_of;
  // (world rank, rank) sorted by world rank, for the reverse lookup.
  std::vector<std::pair<int, int>> rank_of;
  // At most one of these: the process topology, if any.
  std::unique_ptr<CartTopology> cart;
  std::unique_ptr<GraphTopology> graph;
  std::unique_ptr<DistGraphTopology> dist_graph;
  TMPI_Errhandler errhandler = TMPI_ERRORS_ARE_FATAL;
  std::string name;
  // Collective calls made on this communicator so far: every member makes
  // them in the same order, so the count tells one call's messages from
  // those of another still running (non-blocking collectives).
  unsigned collective_seq = 0;
  // Intercommunicators only: the remote group, as a communicator of those
  // ranks (its `rank` is MPI_UNDEFINED; its contexts are this one's), and
  // the union of both groups (the group whose rank 0 has the lower world
  // rank first), whose `rank` is this subrank's. Collectives on the
  // intercommunicator run on these views in the collective context.
  std::shared_ptr<Comm> remote;
  std::shared_ptr<Comm> merged;

  bool inter() const { return remote != nullptr; }
  int to_world(int r) const { return world_of.empty() ? r : world_of[static_cast<std::size_t>(r)]; }
  // Point-to-point peers: ranks of the remote group on an intercommunicator,
  // of this group otherwise. `r` must be a valid peer rank.
  int peer_size() const { return remote ? remote->size : size; }
  int peer_to_world(int r) const { return remote ? remote->to_world(r) : to_world(r); }
  // The peer rank of world rank `w` (MPI_UNDEFINED if it is no peer).
  int peer_from_world(int w) const { return remote ? remote->from_world(w) : from_world(w); }
  // The rank of world rank `w`, or MPI_UNDEFINED if it is not a member.
  int from_world(int w) const;
  // The members as world ranks, in rank order.
  std::vector<int> members() const;
  // A copy of `from`'s process topology (MPI_Comm_dup).
  void copy_topology(const Comm& from);
};
using CommPtr = std::shared_ptr<Comm>;

struct Group {
  std::vector<int> world;  // rank in the group -> world rank
  int rank_of_world(int w) const;
};

// What orders a subrank's overlapping agreements on a context pair: the
// same at every member of one agreement, different for two agreements that
// share a member. `ctx` is the parent's collective context; `seq` the
// parent's count of collective calls when the agreement began (blocking
// creations and MPI_Comm_idup: every member has made the same calls), the
// call's tag (MPI_Comm_create_group), or the sequence number of the side
// with the lower context (MPI_Intercomm_create).
struct AgreementKey {
  enum Kind : int { kCollective, kGroup, kIntercomm };
  int ctx = 0;
  Kind kind = kCollective;
  unsigned seq = 0;
  bool operator<(const AgreementKey& o) const {
    return ctx != o.ctx ? ctx < o.ctx : kind != o.kind ? kind < o.kind : seq < o.seq;
  }
  bool operator==(const AgreementKey& o) const { return ctx == o.ctx && kind == o.kind && seq == o.seq; }
};
class ContextAgreement;

// A subrank's communicator handles (index = handle). A helper fiber of the
// subrank (a non-blocking collective, possibly running on another worker)
// may read a slot while the subrank adds one, so slots never move: they
// come in chunks that stay where they are made.
class CommTable {
 public:
  static constexpr std::size_t kChunk = 256;
  static constexpr std::size_t kChunks = 256;  // at most 65536 handles
  CommTable() = default;
  CommTable(const CommTable&) = delete;
  CommTable& operator=(const CommTable&) = delete;

  std::size_t size() const { return size_.load(std::memory_order_acquire); }
  CommPtr& operator[](std::size_t h) { return chunks_[h / kChunk][h % kChunk]; }
  const CommPtr& operator[](std::size_t h) const { return chunks_[h / kChunk][h % kChunk]; }
  // Empties the table and makes `n` empty slots.
  void reset(std::size_t n);
  // Adds a slot holding `c`; false when the table is full.
  bool push_back(CommPtr c);

 private:
  std::array<std::unique_ptr<CommPtr[]>, kChunks> chunks_;
  std::atomic<std::size_t> size_{0};
};

// One subrank's communicators and groups.
struct Handles {
  CommTable comms;
  std::vector<std::unique_ptr<Group>> groups;    // index = handle
  // Guards used_contexts, freed_in_use and next_private_context: a helper
  // fiber agreeing on MPI_Comm_idup's pair may run on another worker.
  sync::Mutex context_lock{sync::LockLevel::kLeaf, "context ids of a subrank"};
  // ids held by this subrank's communicators
  std::bitset<kMaxContexts> used_contexts TUCANA_GUARDED_BY(context_lock);
  // Freed communicators that pending operations still use: their context
  // ids stay taken until the last operation lets go (swept when ids are
  // allocated), so no new communicator's messages can meet theirs.
  std::vector<CommPtr> freed_in_use TUCANA_GUARDED_BY(context_lock);
  int next_private_context TUCANA_GUARDED_BY(context_lock) = kPrivateContextBase + 2;
  // The agreements on a context pair this subrank takes part in now (see
  // ContextAgreement): their keys, the one that holds the mask of the
  // shared pairs (null: none), and whether a blocking creation's eager
  // round is using the eager pairs.
  std::vector<AgreementKey> agreements TUCANA_GUARDED_BY(context_lock);
  const ContextAgreement* mask_holder TUCANA_GUARDED_BY(context_lock) = nullptr;
  bool eager_in_use TUCANA_GUARDED_BY(context_lock) = false;

  // Fills the table with MPI_COMM_WORLD and MPI_COMM_SELF for subrank `world`
  // of `world_size`.
  void init(int world, int world_size);
  // Gives back the context ids of `c` (a communicator being freed) now, or
  // when its pending operations are done.
  void release(CommPtr c);
  void sweep_freed();
  const Comm* comm(TMPI_Comm h) const {
    return h > 0 && static_cast<std::size_t>(h) < comms.size() ? comms[static_cast<std::size_t>(h)].get() : nullptr;
  }
  Comm* comm(TMPI_Comm h) {
    return h > 0 && static_cast<std::size_t>(h) < comms.size() ? comms[static_cast<std::size_t>(h)].get() : nullptr;
  }
  // The new handle of `c`, or MPI_COMM_NULL when the table is full.
  TMPI_Comm add(CommPtr c);
  const Group* group(TMPI_Group h) const {
    return h > 0 && static_cast<std::size_t>(h) < groups.size() ? groups[static_cast<std::size_t>(h)].get() : nullptr;
  }
  TMPI_Group add(std::unique_ptr<Group> g);
};

// One agreement on a context pair, as this subrank takes part in it:
// registered (by key) while the object lives. Blocking creations are
// `eager`: agree_pair tries the eager pairs first. Contract: made and
// destroyed by the fibers of one subrank; the caller takes the agreed pair
// (install_comm, take_pair) before destroying it, and holds no lock across
// agree_pair.
class ContextAgreement {
 public:
  ContextAgreement(Handles& h, AgreementKey key, bool eager);
  ~ContextAgreement();
  ContextAgreement(const ContextAgreement&) = delete;
  ContextAgreement& operator=(const ContextAgreement&) = delete;

  bool eager() const { return eager_; }
  // The eager pairs for this agreement's eager round: false when another
  // blocking creation of the subrank (a task's) is using them.
  bool take_eager();
  // The mask of the shared pairs for this agreement's next round: true
  // (taken, or held already) when it is free and no other agreement of the
  // subrank has a lower key.
  bool take_mask();
  // Gives back the mask (after a round that did not agree) or the eager pairs.
  void release();

 private:
  Handles& h_;
  AgreementKey key_;
  bool eager_;
  bool holds_eager_ = false;
};

// ANDs, in place, the free-pair masks of window `window` (0: the eager
// pairs, 1: the shared pairs, with one more word that says whether every
// member offered its pairs) over every member that must agree; the same
// result at every one of them. Returns an MPI error code.
using MaskReduce = std::function<int(std::vector<unsigned long long>& mask, int window)>;
// Picks the lowest pair free at every member (by `reduce`) into *p2p_ctx:
// an eager agreement tries the eager pairs in one round first; then rounds
// over the shared pairs until every member offers its pairs in one.
// Collective over those members; the caller takes the pair (install_comm)
// before destroying `agreement`. Errors (out of ids) are reported through
// `err_comm`.
int agree_pair(Subrank* me, TMPI_Comm err_comm, const char* call, ContextAgreement& agreement,
               const MaskReduce& reduce, int* p2p_ctx);

// What a call needs of a communicator, resolved once.
struct CommInfo {
  int size;
  int rank;
  int p2p_ctx;
  int coll_ctx;
  Comm* comm;
};
// Describes `comm` as seen by `me`; false if it is not a valid communicator.
// For an intercommunicator: the local group (size, rank).
bool comm_info(const Subrank* me, TMPI_Comm comm, CommInfo* out);
// MPI_ERR_COMM through `comm`'s error handler: "`call` is not supported on
// intercommunicators". For calls that need an intracommunicator.
int inter_unsupported(Subrank* me, TMPI_Comm comm, const char* call);
// True if `comm` is a valid intercommunicator at `me`.
bool is_inter(const Subrank* me, TMPI_Comm comm);
// Peer rank `rank` of `comm` (of the remote group on an intercommunicator)
// as a world rank.
int to_world(const Subrank* me, TMPI_Comm comm, int rank);
// World rank `world` as a peer rank of `comm` (MPI_ANY_SOURCE and
// MPI_PROC_NULL pass through; MPI_UNDEFINED for a non-member).
int from_world(const Subrank* me, TMPI_Comm comm, int world);
// The communicator's name for messages: "MPI_COMM_WORLD", or its
// MPI_Comm_set_name name, or "communicator N".
const char* comm_name(TMPI_Comm comm);
// The same as seen by subrank `who` (for reports made outside a subrank).
const char* comm_name(TMPI_Comm comm, const Subrank* who);
// A reference that keeps `comm` alive past MPI_Comm_free, for operations
// that may outlive the call; null for MPI_COMM_WORLD and MPI_COMM_SELF,
// which are never freed.
CommPtr keep_alive(const Subrank* me, TMPI_Comm comm);
// The error handler of `comm` at `me` (MPI_ERRORS_ARE_FATAL if invalid).
TMPI_Errhandler comm_errhandler(const Subrank* me, TMPI_Comm comm);

// Creates the communicator of `members` (world ranks, in rank order) with a
// context pair agreed over `parent` (described by `pi`). Collective over
// `parent`; a subrank that is not a member (`member` false) gets
// MPI_COMM_NULL. `created`, if given, receives the new object (or null).
int create_comm(Subrank* me, TMPI_Comm parent, const CommInfo& pi, const char* call, std::vector<int> members,
                bool member, TMPI_Comm* newcomm, Comm** created = nullptr);
// The members of `parent` whose color is `color`, ordered by (key, parent
// rank), as world ranks (MPI_Comm_split's rule). Collective over `parent`.
int split_members(Subrank* me, TMPI_Comm parent, const CommInfo& pi, int color, int key, std::vector<int>* out);
// The neighbours of `c`'s rank on its Cartesian grid in MPI's order (per
// dimension: at -1, then at +1; MPI_PROC_NULL off a non-periodic edge).
// False if `c` has no Cartesian topology.
bool cart_neighbors(const Comm& c, std::vector<int>* out);
// The sources and destinations of `c`'s rank in its process topology
// (Cartesian, graph or distributed graph; MPI's order). False if `c` has
// no topology.
bool topology_neighbors(const Comm& c, Neighbors* out);

}  // namespace tucana::mpi
