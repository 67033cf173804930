// Virtual MPI requests (the object behind TMPI_Request) and waiting on them.
#pragma once

#include <tucana/tmpi.h>

#include <atomic>
#include <memory>
#include <cstdint>
#include <functional>
#include <vector>

#include "comm/messenger.h"
#include "core/runtime.h"
#include "mpi/comm/communicator.h"
#include "mpi/datatype/typemap.h"
#include "regions/superblock_run.h"

// The type behind TMPI_Request (declared in the global namespace by tmpi.h):
// a messenger operation plus what the virtual MPI needs around it.
// (A Deferred too: a released receive's unpacking, left to the owner.)
struct tmpi_request : tucana::comm::Operation, tucana::regions::Deferred {
  // state: kPending, kDone, kFreeOnDone, or the Fiber* of a waiter.
  static constexpr std::uintptr_t kPending = 0;
  static constexpr std::uintptr_t kDone = 1;
  static constexpr std::uintptr_t kFreeOnDone = 2;

  std::atomic<std::uintptr_t> state{kPending};
  tucana::mpi::Subrank* subrank = nullptr;  // the subrank that made it
  const char* origin = "MPI_Isend";  // the call that created it, for reports
  TMPI_Comm comm = TMPI_COMM_WORLD;
  TMPI_Datatype type = TMPI_DATATYPE_NULL;
  int peer_rank = 0;        // as the program gave it (rank in comm)
  bool proc_null = false;   // peer was MPI_PROC_NULL: completes at once
  bool persistent = false;
  bool active = false;      // persistent: started and not yet waited on
  bool heap = true;         // false for the requests of blocking calls (on the stack)
  bool collective = false;  // a non-blocking collective's (no message of its own)
  bool cancelled = false;   // MPI_Cancel took it back before it matched
  bool io = false;          // an MPI-IO call's: complete from the start (with `collective`)
  long long status_bytes = 0;  // the byte count its status gives (MPI-IO)
  bool buffered_start = false;  // MPI_Bsend_init's: MPI_Start makes a buffered send
  std::size_t buffered = 0;     // a buffered send's share of the attached buffer
  // Keeps a communicator other than WORLD/SELF alive while the request is
  // (MPI_Comm_free may come first), for translating ranks in its status.
  std::shared_ptr<const tucana::mpi::Comm> comm_ref;
  // Posted inside a superblock region: the instance counts it until it
  // completes (then `instance` is cleared); `posted_in`, `posted_region`
  // and `posted_iteration` stay (MPI_Wait's coverage check reads them).
  // Non-contiguous data goes through `staging` (packed by the sender,
  // unpacked into `user_buf` once the owner sees the receive complete);
  // `unpack_map` is its datatype's map (a persistent send packs `user_buf`
  // again at every MPI_Start).
  std::vector<char> staging;
  void* user_buf = nullptr;
  std::size_t user_count = 0;
  tucana::mpi::TypeMapPtr unpack_map;
  bool unpacked = false;
  // A generalized request's callbacks (MPI_Grequest_start); null otherwise.
  // The free callback runs when the request object goes, whichever way.
  TMPI_Grequest_query_function* greq_query = nullptr;
  TMPI_Grequest_free_function* greq_free = nullptr;
  TMPI_Grequest_cancel_function* greq_cancel = nullptr;
  void* greq_extra = nullptr;
  ~tmpi_request() {
    if (greq_free) greq_free(greq_extra);
  }
  // A persistent collective's (MPI 4.0 MPI_Bcast_init...): MPI_Start calls
  // it to run the collective once more on this request (nonblocking.cc).
  std::function<int(tmpi_request*)> start_persistent;
  // MPI_Isendrecv's: the status is the receive's, kept here (with
  // status_bytes) when both halves are done.
  bool own_status = false;
  int own_source = 0;
  int own_tag = 0;
  tucana::regions::Instance* instance = nullptr;
  tucana::regions::SuperblockRun* posted_in = nullptr;
  int posted_region = -1;
  long posted_iteration = -1;
  // No handle (post_released): the completion delivers a receive's data,
  // fills *status_out (unless null) and deletes the request, all before
  // the region instance is told.
  bool released = false;
  TMPI_Status* status_out = nullptr;
};

namespace tucana::mpi {

using Request = tmpi_request;

// Prepares `r` for a send or receive of `bytes` at `buf`; the world ranks
// and context are already resolved. Does not post it.
void init_request(Request* r, Subrank* me, comm::Operation::Kind kind, void* buf,
                  std::size_t bytes, int world_peer, int tag, int ctx);
// Posts a prepared request (or completes it at once for MPI_PROC_NULL).
void start_request(Request* r);
// The blocking send or receive of a superblock region, reinterpreted
// (tucana_sb_recv/send/sendrecv): checks the arguments as `call` does, then
// posts it as the non-blocking one, attributed to the running region
// instance, with no handle: its completion delivers a receive's data and
// fills *status (unless MPI_STATUS_IGNORE; MPI_ERROR says how it went), then
// frees the request, before the instance counts it complete. To
// MPI_PROC_NULL it completes at once. Contract: me->current_instance is set;
// buf and status stay valid until the region instance is done.
int post_released(const char* call, comm::Operation::Kind kind, void* buf, int count, TMPI_Datatype type,
                  int peer, int tag, TMPI_Comm comm, TMPI_Status* status);
// MPI_Bsend: copies the message and sends the copy (see p2p.cc).
int buffered_send(const char* call, const void* buf, int count, TMPI_Datatype type, int dest, int tag,
                  TMPI_Comm comm);
// Starts a request that completes by other means than a message (a
// non-blocking collective): pending, and counted by the superblock region
// that posts it; r->on_complete(r) completes it.
void start_detached(Request* r);

bool is_done(const Request* r);
// Blocks the calling subrank until `r` is done. `call` names the MPI call
// the program is in, for the deadlock report.
void wait_done(Subrank* me, Request* r, const char* call);
// Fills `status` (may be MPI_STATUS_IGNORE) from a finished request. Its
// MPI_ERROR stays as it was: MPI 3.1 sec. 3.2.5 lets only the calls that
// complete several requests (MPI_Waitall, _some, MPI_Testall, _some)
// update it; they set it themselves.
void fill_status(const Request* r, TMPI_Status* status);
// Sets a status's source, tag and byte count (not cancelled), leaving its
// MPI_ERROR as it was (see fill_status). `status` may be MPI_STATUS_IGNORE.
void message_status(TMPI_Status* status, int source, int tag, long long bytes);
// After a finished request was reported: frees a one-shot request and sets
// the handle to MPI_REQUEST_NULL, or deactivates a persistent one.
void retire(TMPI_Request* handle);
// Copies a completed receive of non-contiguous data from its staging
// buffer into the user's buffer (once). Contract: called by the owner after
// it saw the request complete.
void deliver_to_user(Request* r);
// What a subrank waiting on `r` in `call` waits in, for the deadlock report.
BlockedIn blocked_on(const char* call, const Request* r);
// A request that is complete from the start and whose status counts
// `bytes` (the non-blocking MPI-IO calls, which do their I/O at once).
Request* completed_io_request(Subrank* me, const char* call, long long bytes);
// The status of an empty (null or inactive) request (MPI_ERROR too:
// MPI_SUCCESS is part of an empty status).
void empty_status(TMPI_Status* status);
// MPI_SUCCESS, or the request's error reported through the error handler.
int request_error(Subrank* me, const Request* r, const char* call);
// Runs `body` on a helper fiber of `me` (as a non-blocking collective's
// algorithm runs): MPI calls it makes belong to the subrank.
void run_on_helper(Subrank* me, std::function<void()> body);

}  // namespace tucana::mpi
