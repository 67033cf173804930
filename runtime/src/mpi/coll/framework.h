// The framework the collectives are built on, as in Bamboo's utility layer:
// subrank point-to-point messages in the communicator's collective context.
//
// Call       one collective call: who, on which communicator, its sequence
//            number; checked arguments come with it.
// Collective its messages: every internal tag carries the call's sequence
//            number, so the messages of two collectives in flight on one
//            communicator (non-blocking ones) never match each other.
// Exchange   a batch of non-blocking internal messages completed together.
// Flat/Piece a user buffer as contiguous bytes (packed when the datatype is
//            not contiguous: only contiguous bytes travel).
// Reduction  how two buffers of a reduction combine.
//
// Layer: the framework (coll/framework.cc), the lowest of the collective
// layers: entry points (coll/entry_points.cc, nonblocking.cc) call the
// collective calls (coll/calls.h), which call the algorithms
// (coll/algorithms.h), which call this; it calls none of them. (The
// inter_* calls and MPI_Comm_idup's parts declared below belong to the calls
// layer: intercomm.cc and communicator.cc.)
#pragma once

#include <tucana/tmpi.h>

#include <memory>
#include <vector>

#include "mpi/errors.h"
#include "mpi/request.h"
#include "mpi/datatype/typemap.h"

namespace tucana::mpi {

// Kinds of internal message; a tag is (sequence << kKindBits) | kind.
enum CollectiveKind : int {
  kTagBarrier = 1, kTagBcast, kTagReduce, kTagGather, kTagScatter, kTagAlltoall, kTagScan,
  kTagAllgather, kTagAllreduce, kTagNeighborDown, kTagNeighborUp, kTagBcastScatter, kTagBcastRing,
  // MPI_Comm_create_group's agreement only (its sequence field is the
  // call's tag), so it never meets another collective's messages.
  kTagGroupUp, kTagGroupDown
};
constexpr int kKindBits = 4;

// One collective call on one subrank.
struct Call {
  Subrank* me = nullptr;
  TMPI_Comm comm = TMPI_COMM_NULL;
  CommInfo info{};
  // Non-blocking collectives: keeps info.comm valid even if the program
  // frees the handle before the operation completes.
  CommPtr keep;
  const char* name = nullptr;
  int seq = 0;
};

// Resolves `comm` for collective `name` and draws the call's sequence
// number. False (with *err set) if `comm` is invalid, or is an
// intercommunicator and `name` is not one of the collectives that run on
// intercommunicators (MPI_ERR_COMM "... not supported on intercommunicators").
// On an intercommunicator, out->info describes the local group.
bool begin_call(const char* name, TMPI_Comm comm, Call* out, int* err);

// The sequence number of the next collective call on `c` (begin_call's rule;
// every member draws the same ones in the same order).
int draw_seq(Comm& c);
// A collective on another view of base's intercommunicator (its remote
// group or the union of both groups): the same subrank, handle, contexts
// and name, with `view` as the communicator, `rank` as this subrank's rank
// in it (MPI_UNDEFINED in the remote group), and a fresh sequence number
// drawn from base.info.comm (both groups draw the same ones).
Call view_call(const Call& base, Comm* view, int rank);
// The sequence numbers a collective on an intercommunicator uses: its own
// and kInterViews - 1 more, all drawn by begin_call.
constexpr int kInterViews = 4;
// The same view with the k-th of those numbers (0 < k < kInterViews)
// instead of a fresh one: the intercommunicator collectives use it, so
// that their numbers are drawn in program order even when the body runs
// later (non-blocking).
Call view_call_at(const Call& base, Comm* view, int rank, int k);

// Collectives on an intercommunicator (MPI 3.1 section 5.2.2), from a Call
// of begin_call. Roots: MPI_ROOT at the root, MPI_PROC_NULL at the rest of
// its group, the root's rank in the remote group at the other group.
int inter_barrier(const Call& call);
int inter_bcast(const Call& call, void* buffer, int count, TMPI_Datatype type, int root);
int inter_reduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                 int root);
int inter_allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op);
int inter_gather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                 TMPI_Datatype rtype, int root);
int inter_scatter(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                  TMPI_Datatype rtype, int root);
int inter_allgather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                    TMPI_Datatype rtype);
int inter_alltoall(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                   TMPI_Datatype rtype);
int inter_alltoallw(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[],
                    const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const int rdispls[],
                    const TMPI_Datatype rtypes[], bool byte_displacements);
// Counts and displacements per rank of the remote group.
int inter_allgatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                     const int rcounts[], const int displs[], TMPI_Datatype rtype);
int inter_gatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                  const int rcounts[], const int displs[], TMPI_Datatype rtype, int root);
int inter_scatterv(const Call& call, const void* sendbuf, const int scounts[], const int displs[],
                   TMPI_Datatype stype, void* recvbuf, int rcount, TMPI_Datatype rtype, int root);
// rcounts: per rank of the local group; each group's send buffers hold
// sum(rcounts) elements, reduced and scattered over the other group (both
// groups' sums must be equal, as in MPICH).
int inter_reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf, const int rcounts[],
                         TMPI_Datatype type, TMPI_Op op);

// MPI_Comm_idup in two parts: start_idup (in the call: checks, draws the
// turn and the sequence numbers, makes the new handle and copies the
// attributes) and finish_idup (on the helper fiber: agrees on the context
// pair). `call` receives the Call the helper runs as. Without
// `copy_attributes` the program's attributes stay behind (a communicator of
// the runtime's own, such as a persistent collective's).
struct PendingDup;
int start_idup(Subrank* me, TMPI_Comm comm, TMPI_Comm* newcomm, std::shared_ptr<PendingDup>* out, Call* call,
               bool copy_attributes = true);
int finish_idup(PendingDup& d);

class Collective {
 public:
  // `call` must outlive the Collective (it lives in the calling frame, or
  // in the non-blocking collective's task).
  explicit Collective(const Call& call);
  ~Collective();
  Collective(const Collective&) = delete;
  Collective& operator=(const Collective&) = delete;

  const Call& call() const { return call_; }
  Subrank* me() const { return call_.me; }
  int size() const { return call_.info.size; }
  int rank() const { return call_.info.rank; }
  int tag(int kind) const { return (call_.seq << kKindBits) | kind; }

  void prepare(Request* r, comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int kind_tag);
  // Blocking send and receive of one internal message.
  void send(const void* buf, std::size_t bytes, int rank, int kind);
  void recv(void* buf, std::size_t bytes, int rank, int kind);
  // Both at once (deadlock-free pairwise exchange).
  void sendrecv(const void* sbuf, std::size_t sbytes, int dest, void* rbuf, std::size_t rbytes, int source, int kind);
  void wait(Request* r);
  // The first error of an internal message (a truncation: the ranks'
  // counts or datatypes disagree), or MPI_SUCCESS.
  int error() const { return error_; }

 private:
  void note_peer(const char* label, int rank, int tag);
  const Call& call_;
  BlockedIn* marked_ = nullptr;  // the caller's wait record, when this call marked it
  int error_ = TMPI_SUCCESS;
};

// The end of a collective call: MPI_SUCCESS, or the first error of its
// messages reported through the communicator's error handler.
int finish(const Collective& c);

// The non-blocking internal messages of one collective, completed together.
class Exchange {
 public:
  explicit Exchange(Collective& c) : c_(c) {}
  void recv(void* buf, std::size_t bytes, int rank, int kind) { post(comm::Operation::Kind::Recv, buf, bytes, rank, kind); }
  void send(const void* buf, std::size_t bytes, int rank, int kind) { post(comm::Operation::Kind::Send, buf, bytes, rank, kind); }
  void wait();

 private:
  void post(comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int kind_tag);
  Collective& c_;
  std::vector<std::unique_ptr<Request>> requests_;
};

// How to combine two buffers of a reduction: a predefined operation runs on
// the predefined type the datatype is made of; a user operation gets the
// program's datatype and count, as MPI says (inout = in OP inout), and its
// data laid out as the datatype says (the buffers here are packed: for a
// datatype that is not contiguous, copies are unpacked for the function).
struct Reduction {
  TMPI_Op op = TMPI_OP_NULL;
  TMPI_Datatype basic = TMPI_DATATYPE_NULL;
  std::size_t basic_count = 0;
  std::size_t basic_size = 0;
  TMPI_User_function* fn = nullptr;
  bool fn_big_count = false;  // fn is an MPI_User_function_c: its length is an MPI_Count
  TMPI_Datatype user_type = TMPI_DATATYPE_NULL;
  int user_count = 0;
  std::size_t user_size = 0;
  TypeMapPtr user_map;  // the user datatype's map when it is not contiguous
  bool commute = true;

  // inout = in OP inout over the whole buffer.
  void apply(const void* in, void* inout) const;
  // The same over `count` elements (of the unit below) starting at element `first`.
  void apply_part(const void* in, void* inout, std::size_t first, std::size_t count) const;
  // Elements of the whole buffer, and the bytes of one (the unit that a
  // partial reduction may split at).
  std::size_t elements() const { return fn ? static_cast<std::size_t>(user_count) : basic_count; }
  std::size_t element_size() const { return fn ? user_size : basic_size; }

 private:
  void call_user(const void* in, void* inout, std::size_t count) const;
};

int make_reduction(Subrank* me, TMPI_Comm comm, const char* call, TMPI_Op op, TMPI_Datatype type, int count,
                   const TypeMapPtr& map, Reduction* out);

int check_buffer(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type, TypeMapPtr* map,
                 std::size_t* bytes);
int check_part(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type, TypeMapPtr* map);
int check_root(const Call& c, int root);
// A reduction's buffer (check_buffer) and then its operation on that
// datatype (make_reduction), both on the call's communicator: the checks
// every reducing collective makes first. Sets *map, *bytes and *red.
int check_reduction(const Call& c, int count, TMPI_Datatype type, TMPI_Op op, TypeMapPtr* map, std::size_t* bytes,
                    Reduction* red);

// A collective's buffer as contiguous bytes: the user's buffer itself when
// its datatype is contiguous, else a packed copy that store() unpacks back.
class Flat {
 public:
  Flat(const void* buf, std::size_t count, const TypeMapPtr& map, bool load);
  void* data() const { return data_; }
  void store();

 private:
  void* buf_;
  std::size_t count_;
  TypeMapPtr map_;  // only for a non-contiguous datatype
  std::vector<char> copy_;
  void* data_;
};

// `count` elements of a datatype at element `displacement` of `base`, as
// contiguous bytes: the user's memory when the datatype is contiguous (and
// no copy is forced), else a packed copy that store() unpacks back.
class Piece {
 public:
  Piece(const void* base, std::ptrdiff_t displacement, std::size_t count, const TypeMapPtr& map, bool load,
        bool force_copy = false);
  // The same at a byte offset (MPI_Alltoallw's displacements).
  static std::unique_ptr<Piece> at_bytes(const void* base, std::ptrdiff_t byte_offset, std::size_t count,
                                         const TypeMapPtr& map, bool load);
  void* data() { return copied_ ? static_cast<void*>(staging_.data()) : addr_; }
  std::size_t bytes() const { return count_ * map_->size; }
  void store();

 private:
  Piece() = default;
  char* addr_ = nullptr;
  std::size_t count_ = 0;
  TypeMapPtr map_;
  std::vector<char> staging_;
  bool copied_ = false;
};

// Scratch memory for one collective call. Large buffers come from a
// process-wide pool and go back to it: a fresh 1 MiB allocation is a fresh
// mapping in glibc, and its page faults cost more than the reduction itself.
class Scratch {
 public:
  explicit Scratch(std::size_t bytes);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  char* data() const { return data_; }

 private:
  char* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace tucana::mpi
