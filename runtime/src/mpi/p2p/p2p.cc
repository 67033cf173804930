// Point-to-point calls of the virtual MPI.
#include <tucana/tmpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/request.h"
#include "regions/superblock_run.h"
#include "tasks/task.h"

namespace tucana::mpi {

namespace {

// Arguments of a point-to-point call, checked and resolved.
struct P2PArgs {
  CommInfo comm;
  const TypeMap* map = nullptr;  // the datatype's layout
  TypeMapPtr keep;               // keeps a derived datatype's map alive
  std::size_t count = 0;
  std::size_t bytes = 0;
  int world_peer = 0;  // or comm::kAnySource
  bool proc_null = false;
};

void deliver_released(Request* r);

// Packing and unpacking strided data that travels to or from another
// process (Config::pack_under_lock, `tucana-run --pack`). Split (the
// default): the subrank's own worker does it, outside every lock, so the
// workers of a process pack in parallel while one of them talks to MPI,
// and only contiguous bytes reach MPI. Locked: under the transport lock,
// as an MPI library with one process-wide lock packs a derived datatype
// (the control that measures what splitting gains).
template <class Copy>
void pack_step(int world_peer, Copy copy) {
  Runtime& rt = Runtime::get();
  if (rt.config.pack_under_lock && world_peer >= 0 && !rt.layout.is_local(world_peer)) {
    sync::MutexLock lock(rt.transport.mutex());
    copy();
    return;
  }
  assert(sync::locks_held() == 0 && "strided data is packed or unpacked under a lock");
  copy();
}

void on_complete(comm::Operation* op) {
  auto* r = static_cast<Request*>(op);
  if (r->released) {
    deliver_released(r);
    return;
  }
  // The region instance is told first, so that a request seen complete is
  // always accounted for in its region.
  if (regions::Instance* in = r->instance) {
    r->instance = nullptr;
    regions::SuperblockRun::request_completed(in);
  }
  std::uintptr_t prev = r->state.exchange(Request::kDone, std::memory_order_acq_rel);
  if (prev == Request::kFreeOnDone)
    delete r;
  else if (prev > Request::kFreeOnDone)
    sched::Scheduler::unpark(reinterpret_cast<fiber::Fiber*>(prev));
}

// The rank (in the request's communicator) of a matched message's sender.
int source_rank(const Request* r) {
  if (r->comm_ref) return r->matched_source < 0 ? r->matched_source : r->comm_ref->peer_from_world(r->matched_source);
  return from_world(r->subrank, r->comm, r->matched_source);
}

const char* tag_limit_note() {
  static thread_local char note[256];
  Runtime& rt = Runtime::get();
  if (rt.layout.nprocs > 1)
    std::snprintf(note, sizeof note,
                  "tags go from 0 to MPI_TAG_UB = %d (Tucana keeps 2 x %d bits of the underlying "
                  "MPI's %d-bit tag for the ids of up to %d subranks per process, and %d for communicator ids)",
                  rt.transport.user_tag_ub(), rt.transport.subrank_bits(), rt.transport.real_tag_bits(),
                  rt.layout.max_local_count(), rt.transport.context_bits());
  else
    std::snprintf(note, sizeof note, "tags go from 0 to MPI_TAG_UB = %d", rt.transport.user_tag_ub());
  return note;
}

// Checks the arguments of a send (is_send) or receive/probe; reports errors
// through the communicator's error handler.
int check_p2p(Subrank* me, const char* call, bool is_send, bool has_buffer, const void* buf,
              int count, TMPI_Datatype type, int peer, int tag, TMPI_Comm comm, P2PArgs* out) {
  if (!comm_info(me, comm, &out->comm))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
  if (has_buffer) {
    if (count < 0) return mpi_error(me, comm, TMPI_ERR_COUNT, call, "negative count %d", count);
    out->map = find_type(type, &out->keep);
    if (!out->map) return mpi_error(me, comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
    if (!out->map->committed)
      return mpi_error(me, comm, TMPI_ERR_TYPE, call, "datatype %d is not committed (MPI_Type_commit)", type);
    out->count = static_cast<std::size_t>(count);
    out->bytes = out->count * out->map->size;
    // A null buffer is MPI_BOTTOM: fine with a derived type of absolute addresses.
    if (!buf && out->bytes > 0 && out->map->predefined)
      return mpi_error(me, comm, TMPI_ERR_BUFFER, call, "null buffer for %d elements", count);
  }
  // Peers of an intercommunicator are ranks of its remote group.
  int size = out->comm.comm->peer_size();
  if (peer == TMPI_PROC_NULL) {
    out->proc_null = true;
  } else if (!is_send && peer == TMPI_ANY_SOURCE) {
    out->world_peer = comm::kAnySource;
  } else if (peer < 0 || peer >= size) {
    return mpi_error(me, comm, TMPI_ERR_RANK, call, "invalid rank %d (%s has %sranks 0 to %d)", peer,
                     comm_name(comm), out->comm.comm->inter() ? "remote " : "", size - 1);
  } else {
    out->world_peer = to_world(me, comm, peer);
  }
  int ub = Runtime::get().transport.user_tag_ub();
  bool tag_ok = (tag >= 0 && tag <= ub) || (!is_send && tag == TMPI_ANY_TAG);
  if (!tag_ok) return mpi_error(me, comm, TMPI_ERR_TAG, call, "invalid tag %d: %s", tag, tag_limit_note());
  return TMPI_SUCCESS;
}

Request* prepare(Request* r, Subrank* me, const char* call, comm::Operation::Kind kind, const void* buf,
                 const P2PArgs& a, int peer, int tag, TMPI_Comm comm, TMPI_Datatype type) {
  init_request(r, me, kind, const_cast<void*>(buf), a.bytes, a.world_peer, tag, a.comm.p2p_ctx);
  tasks::note_p2p_peer(me, a.world_peer);
  if (a.map && !a.map->contiguous() && a.bytes > 0) {
    // Only contiguous bytes travel: the subrank packs (here, for a send, so
    // that the buffer may be reused as MPI says) and unpacks (after the
    // receive completes) itself.
    r->staging.resize(a.bytes);
    r->buf = r->staging.data();
    if (kind == comm::Operation::Kind::Send)
      pack_step(a.world_peer, [&] { pack(buf, a.count, *a.map, r->staging.data()); });
    // A receive unpacks when it completes; a persistent send packs again at
    // every MPI_Start. (A predefined pair type, MPI_DOUBLE_INT, is not
    // contiguous either: its map has no `keep`.)
    r->user_buf = const_cast<void*>(buf);
    r->user_count = a.count;
    r->unpack_map = a.keep ? a.keep : type_map(type);
  }
  r->origin = call;
  r->comm = comm;
  r->comm_ref = keep_alive(me, comm);
  r->type = type;
  r->peer_rank = peer;
  r->proc_null = a.proc_null;
  return r;
}

int report_request_error(Subrank* me, const Request* r, const char* call) {
  if (r->error == TMPI_ERR_TRUNCATE)
    return mpi_error(me, r->comm, TMPI_ERR_TRUNCATE, call,
                     "message truncated: a message from rank %d (tag %d) is longer than the "
                     "receive buffer of %zu bytes",
                     source_rank(r), r->matched_tag, r->bytes);
  return mpi_error(me, r->comm, r->error, call, "%s", error_text(r->error));
}

int blocking_send(const char* call, const void* buf, int count, TMPI_Datatype type, int dest,
                  int tag, TMPI_Comm comm, bool synchronous) {
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, true, true, buf, count, type, dest, tag, comm, &a)) return e;
  if (a.proc_null) return TMPI_SUCCESS;
  Request r;
  r.heap = false;
  prepare(&r, me, call, comm::Operation::Kind::Send, buf, a, dest, tag, comm, type);
  r.synchronous = synchronous;
  r.eager_ok = !synchronous;
  start_request(&r);
  wait_done(me, &r, call);
  return TMPI_SUCCESS;
}

int nonblocking(const char* call, comm::Operation::Kind kind, const void* buf, int count,
                TMPI_Datatype type, int peer, int tag, TMPI_Comm comm, bool synchronous,
                bool persistent, TMPI_Request* request) {
  Entered me = enter(call);
  bool is_send = kind == comm::Operation::Kind::Send;
  P2PArgs a;
  if (int e = check_p2p(me, call, is_send, true, buf, count, type, peer, tag, comm, &a)) return e;
  if (!request) return mpi_error(me, comm, TMPI_ERR_REQUEST, call, "null request pointer");
  auto* r = prepare(new Request, me, call, kind, buf, a, peer, tag, comm, type);
  r->synchronous = synchronous;
  r->persistent = persistent;
  *request = r;
  if (persistent)
    r->state.store(Request::kDone);  // inactive until MPI_Start
  else
    start_request(r);
  return TMPI_SUCCESS;
}

// A released request completed (no handle: nobody waits on it): the status
// and the data reach the program, then the request goes, then the instance
// is told (after which the owner may run the regions that depend on it).
void deliver_released(Request* r) {
  regions::Instance* in = r->instance;
  // Strided data is unpacked by the subrank that owns the region, not by
  // the worker that completed the receive (which may hold the transport
  // lock): see pack_step.
  if (in && r->unpack_map && r->kind == comm::Operation::Kind::Recv && !r->proc_null) {
    r->instance = nullptr;
    r->regions::Deferred::instance = in;
    r->deliver = [](regions::Deferred* d) {
      auto* r = static_cast<Request*>(d);
      deliver_to_user(r);
      fill_status(r, r->status_out);
      if (r->status_out) r->status_out->MPI_ERROR = r->error;
      delete r;
    };
    regions::SuperblockRun::defer(r);
    return;
  }
  deliver_to_user(r);
  fill_status(r, r->status_out);
  if (r->status_out) r->status_out->MPI_ERROR = r->error;  // the only way a released receive reports
  delete r;
  if (in) regions::SuperblockRun::request_completed(in);
}

// A buffered send (MPI_Bsend) finished: its space in the attached buffer
// is free again.
void buffered_done(comm::Operation* op) {
  auto* r = static_cast<Request*>(op);
  r->subrank->bsend_used.fetch_sub(static_cast<long long>(r->buffered));
  delete r;
}

}  // namespace

// The message is copied (packed) at once, so the call returns at once, as
// MPI's buffered mode says; the copy lives on the heap, and the attached
// buffer (MPI_Buffer_attach) only bounds how much may be in flight, so that
// a program that would run out of buffer space under MPI gets the same error.
int buffered_send(const char* call, const void* buf, int count, TMPI_Datatype type, int dest, int tag,
                  TMPI_Comm comm) {
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, true, true, buf, count, type, dest, tag, comm, &a)) return e;
  if (a.proc_null) return TMPI_SUCCESS;
  long long need = static_cast<long long>(a.bytes) + TMPI_BSEND_OVERHEAD;
  long long used = me->bsend_used.load();
  if (used + need > me->bsend_size)
    return mpi_error(me, comm, TMPI_ERR_BUFFER, call,
                     "the attached buffer (%d bytes, %lld in use) has no room for a message of %zu bytes plus "
                     "MPI_BSEND_OVERHEAD (%d); attach a larger one with MPI_Buffer_attach",
                     me->bsend_size, used, a.bytes, TMPI_BSEND_OVERHEAD);
  auto* r = prepare(new Request, me, call, comm::Operation::Kind::Send, buf, a, dest, tag, comm, type);
  r->heap = false;  // internal: no superblock region waits for it
  if (r->staging.empty() && a.bytes) {
    const char* data = static_cast<const char*>(buf);
    r->staging.assign(data, data + a.bytes);
    r->buf = r->staging.data();
  }
  r->buffered = static_cast<std::size_t>(need);
  me->bsend_used.fetch_add(need);
  r->on_complete = &buffered_done;
  start_request(r);
  return TMPI_SUCCESS;
}

int post_released(const char* call, comm::Operation::Kind kind, void* buf, int count, TMPI_Datatype type,
                  int peer, int tag, TMPI_Comm comm, TMPI_Status* status) {
  Entered me = enter(call);
  bool is_send = kind == comm::Operation::Kind::Send;
  P2PArgs a;
  if (int e = check_p2p(me, call, is_send, true, buf, count, type, peer, tag, comm, &a)) return e;
  auto* r = prepare(new Request, me, call, kind, buf, a, peer, tag, comm, type);
  if (a.proc_null) {
    fill_status(r, status);
    delete r;
    return TMPI_SUCCESS;
  }
  // The status is filled on whichever thread completes the request: it must
  // not look up the subrank's handle table, so MPI_COMM_SELF is kept too.
  if (!r->comm_ref && comm == TMPI_COMM_SELF) r->comm_ref = me->handles->comms[static_cast<std::size_t>(comm)];
  r->released = true;
  r->status_out = status;
  start_request(r);  // may complete (and free) it at once
  return TMPI_SUCCESS;
}

namespace {

// A request that is complete from the start (MPI_Ibsend's, whose message is
// already buffered).
Request* completed_send_request(Subrank* me, const char* call, int dest, int tag, TMPI_Comm comm) {
  auto* r = new Request;
  init_request(r, me, comm::Operation::Kind::Send, nullptr, 0, 0, tag, 0);
  r->origin = call;
  r->comm = comm;
  r->comm_ref = keep_alive(me, comm);
  r->peer_rank = dest;
  r->active = true;
  r->state.store(Request::kDone);
  return r;
}

}  // namespace

void init_request(Request* r, Subrank* me, comm::Operation::Kind kind, void* buf, std::size_t bytes,
                  int world_peer, int tag, int ctx) {
  r->kind = kind;
  r->subrank = me;
  r->ctx = ctx;
  r->owner = me->world;
  r->peer = world_peer;
  r->tag = tag;
  r->buf = buf;
  r->bytes = bytes;
  r->on_complete = &on_complete;
}

void deliver_to_user(Request* r) {
  if (!r->unpack_map || r->unpacked || r->proc_null || r->kind != comm::Operation::Kind::Recv) return;
  r->unpacked = true;
  std::size_t capacity = r->user_count * r->unpack_map->size;
  pack_step(r->matched_source, [&] {
    unpack_bytes(r->staging.data(), std::min(r->matched_bytes, capacity), *r->unpack_map, r->user_buf);
  });
}

void start_request(Request* r) {
  r->active = true;
  r->unpacked = false;
  r->cancelled = false;
  r->error = 0;
  r->matched_bytes = 0;
  r->next = nullptr;
  if (r->proc_null) {
    r->state.store(Request::kDone, std::memory_order_release);
    return;
  }
  start_detached(r);
  Runtime::get().messenger->post(r);
}

void start_detached(Request* r) {
  r->state.store(Request::kPending, std::memory_order_release);
  // (A task's requests belong to no region: tasks outlive the regions that spawn them.)
  if (r->heap && r->subrank->current_instance && !tasks::current_task()) {
    regions::Instance* in = r->subrank->current_instance;
    r->instance = in;
    r->posted_in = in->run;
    r->posted_region = in->region;
    r->posted_iteration = in->iteration;
    // Its buffer, for split regions: contiguous data is [buf, buf + bytes)
    // (non-contiguous data goes through staging: the user's buffer is not
    // one range).
    const char* lo = r->unpack_map || !r->buf ? nullptr : static_cast<const char*>(r->buf);
    regions::SuperblockRun::request_posted(in, lo, lo ? lo + r->bytes : nullptr);
  }
}

bool is_done(const Request* r) { return r->state.load(std::memory_order_acquire) == Request::kDone; }

void wait_done(Subrank* me, Request* r, const char* call) {
  if (is_done(r)) return;
  // The waiter may be a helper fiber of the subrank (non-blocking collectives).
  fiber::Fiber* fiber = sched::Scheduler::current_fiber();
  auto self = reinterpret_cast<std::uintptr_t>(fiber);
  std::uintptr_t expected = Request::kPending;
  if (!r->state.compare_exchange_strong(expected, self) && expected != self) return;  // done meanwhile
  BlockedIn* marked = tasks::unmarked_blocked_record(me);
  if (marked) *marked = blocked_on(call, r);
  while (!is_done(r)) sched::Scheduler::park();
  if (marked) marked->call = nullptr;
}

BlockedIn blocked_on(const char* call, const Request* r) {
  const char* label = r->collective ? nullptr : r->kind == comm::Operation::Kind::Send ? "dest" : "source";
  return BlockedIn{call, r->origin, label, r->peer_rank, r->tag, r->comm};
}

Request* completed_io_request(Subrank* me, const char* call, long long bytes) {
  auto* r = new Request;
  init_request(r, me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, 0);
  r->collective = true;  // no message of its own
  r->io = true;
  r->status_bytes = bytes;
  r->origin = call;
  r->comm = TMPI_COMM_SELF;
  r->peer_rank = TMPI_PROC_NULL;
  r->active = true;
  r->state.store(Request::kDone);
  return r;
}

void empty_status(TMPI_Status* status) {
  if (!status) return;
  status->MPI_SOURCE = TMPI_ANY_SOURCE;
  status->MPI_TAG = TMPI_ANY_TAG;
  status->MPI_ERROR = TMPI_SUCCESS;
  status->tmpi_cancelled = 0;
  status->tmpi_bytes = 0;
}

void message_status(TMPI_Status* status, int source, int tag, long long bytes) {
  if (!status) return;
  status->MPI_SOURCE = source;
  status->MPI_TAG = tag;
  status->tmpi_cancelled = 0;
  status->tmpi_bytes = bytes;
}

void fill_status(const Request* r, TMPI_Status* status) {
  if (r->greq_query) {  // the program's query callback says what the status is
    TMPI_Status ignored;
    if (!status) status = &ignored;
    const int error = status->MPI_ERROR;
    empty_status(status);
    status->MPI_ERROR = error;
    r->greq_query(r->greq_extra, status);
    return;
  }
  if (!status) return;
  status->tmpi_cancelled = r->cancelled;
  if (r->own_status && !r->cancelled) {
    status->MPI_SOURCE = r->own_source;
    status->MPI_TAG = r->own_tag;
    status->tmpi_bytes = r->status_bytes;
  } else if (r->collective || r->cancelled) {
    status->MPI_SOURCE = TMPI_ANY_SOURCE;
    status->MPI_TAG = TMPI_ANY_TAG;
    status->tmpi_bytes = r->cancelled ? 0 : r->status_bytes;
  } else if (r->proc_null) {
    status->MPI_SOURCE = TMPI_PROC_NULL;
    status->MPI_TAG = TMPI_ANY_TAG;
    status->tmpi_bytes = 0;
  } else if (r->kind == comm::Operation::Kind::Recv) {
    status->MPI_SOURCE = source_rank(r);
    status->MPI_TAG = r->matched_tag;
    status->tmpi_bytes = static_cast<long long>(r->matched_bytes);
  } else {
    status->MPI_SOURCE = r->peer_rank;
    status->MPI_TAG = r->tag;
    status->tmpi_bytes = 0;
  }
}

void retire(TMPI_Request* handle) {
  Request* r = *handle;
  if (r->persistent) {
    r->active = false;
    return;
  }
  delete r;
  *handle = TMPI_REQUEST_NULL;
}

int request_error(Subrank* me, const Request* r, const char* call) {
  return r->error ? report_request_error(me, r, call) : TMPI_SUCCESS;
}

}  // namespace tucana::mpi

using namespace tucana;
using namespace tucana::mpi;

extern "C" {

int TMPI_Send(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) {
  return blocking_send("MPI_Send", buf, count, type, dest, tag, comm, false);
}

int TMPI_Ssend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) {
  return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, true);
}

int TMPI_Isend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
               TMPI_Request* request) {
  return nonblocking("MPI_Isend", comm::Operation::Kind::Send, buf, count, type, dest, tag, comm,
                     false, false, request);
}

int TMPI_Issend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                TMPI_Request* request) {
  return nonblocking("MPI_Issend", comm::Operation::Kind::Send, buf, count, type, dest, tag, comm,
                     true, false, request);
}

int TMPI_Irecv(void* buf, int count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
               TMPI_Request* request) {
  return nonblocking("MPI_Irecv", comm::Operation::Kind::Recv, buf, count, type, source, tag, comm,
                     false, false, request);
}

int TMPI_Send_init(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                   TMPI_Request* request) {
  return nonblocking("MPI_Send_init", comm::Operation::Kind::Send, buf, count, type, dest, tag, comm,
                     false, true, request);
}

int TMPI_Ssend_init(const void* buf, int count, TMPI_Datatype type, int dest, int tag,
                    TMPI_Comm comm, TMPI_Request* request) {
  return nonblocking("MPI_Ssend_init", comm::Operation::Kind::Send, buf, count, type, dest, tag,
                     comm, true, true, request);
}

int TMPI_Recv_init(void* buf, int count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
                   TMPI_Request* request) {
  return nonblocking("MPI_Recv_init", comm::Operation::Kind::Recv, buf, count, type, source, tag,
                     comm, false, true, request);
}

// Ready mode: the program promises the receive is posted; the standard
// send is a correct implementation of that promise.
int TMPI_Rsend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) {
  return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, false);
}

int TMPI_Irsend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                TMPI_Request* request) {
  return nonblocking("MPI_Irsend", comm::Operation::Kind::Send, buf, count, type, dest, tag, comm,
                     false, false, request);
}

int TMPI_Rsend_init(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                    TMPI_Request* request) {
  return nonblocking("MPI_Rsend_init", comm::Operation::Kind::Send, buf, count, type, dest, tag, comm,
                     false, true, request);
}

int TMPI_Bsend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) {
  return buffered_send("MPI_Bsend", buf, count, type, dest, tag, comm);
}

int TMPI_Ibsend(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                TMPI_Request* request) {
  const char* call = "MPI_Ibsend";
  if (int e = buffered_send(call, buf, count, type, dest, tag, comm)) return e;
  *request = completed_send_request(current_subrank(), call, dest, tag, comm);
  return TMPI_SUCCESS;
}

int TMPI_Bsend_init(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,
                    TMPI_Request* request) {
  const char* call = "MPI_Bsend_init";
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, true, true, buf, count, type, dest, tag, comm, &a)) return e;
  Request* r = completed_send_request(me, call, dest, tag, comm);
  r->persistent = true;
  r->active = false;
  r->buffered_start = true;  // MPI_Start buffers the message anew each time
  r->user_buf = const_cast<void*>(buf);
  r->user_count = static_cast<std::size_t>(count);
  r->type = type;
  *request = r;
  return TMPI_SUCCESS;
}

int TMPI_Buffer_attach(void* buffer, int size) {
  const char* call = "MPI_Buffer_attach";
  Entered me = enter(call);
  if (me->bsend_buffer)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_BUFFER, call, "a buffer is already attached (MPI_Buffer_detach it first)");
  if (size < 0) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "negative size %d", size);
  me->bsend_buffer = buffer;
  me->bsend_size = size;
  return TMPI_SUCCESS;
}

int TMPI_Buffer_detach(void* buffer_addr, int* size) {
  const char* call = "MPI_Buffer_detach";
  Entered me = enter(call);
  // MPI: returns when every buffered message has been sent.
  if (me->bsend_used.load() > 0) {
    note_polling(me, BlockedIn{call, "MPI_Bsend", "dest", TMPI_ANY_SOURCE, TMPI_ANY_TAG, TMPI_COMM_WORLD});
    while (me->bsend_used.load() > 0) sched::Scheduler::yield_behind_all();
  }
  *static_cast<void**>(buffer_addr) = me->bsend_buffer;
  *size = me->bsend_size;
  me->bsend_buffer = nullptr;
  me->bsend_size = 0;
  return TMPI_SUCCESS;
}

int TMPI_Recv(void* buf, int count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
              TMPI_Status* status) {
  const char* call = "MPI_Recv";
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, false, true, buf, count, type, source, tag, comm, &a)) return e;
  Request r;
  r.heap = false;
  prepare(&r, me, call, comm::Operation::Kind::Recv, buf, a, source, tag, comm, type);
  start_request(&r);
  wait_done(me, &r, call);
  deliver_to_user(&r);
  fill_status(&r, status);
  return request_error(me, &r, call);
}

int TMPI_Sendrecv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, TMPI_Datatype recvtype, int source, int recvtag,
                  TMPI_Comm comm, TMPI_Status* status) {
  const char* call = "MPI_Sendrecv";
  Entered me = enter(call);
  P2PArgs sa, ra;
  if (int e = check_p2p(me, call, true, true, sendbuf, sendcount, sendtype, dest, sendtag, comm, &sa)) return e;
  if (int e = check_p2p(me, call, false, true, recvbuf, recvcount, recvtype, source, recvtag, comm, &ra)) return e;
  Request recv, send;
  recv.heap = send.heap = false;
  prepare(&recv, me, call, comm::Operation::Kind::Recv, recvbuf, ra, source, recvtag, comm, recvtype);
  prepare(&send, me, call, comm::Operation::Kind::Send, sendbuf, sa, dest, sendtag, comm, sendtype);
  start_request(&recv);
  start_request(&send);
  wait_done(me, &send, call);
  wait_done(me, &recv, call);
  deliver_to_user(&recv);
  fill_status(&recv, status);
  return request_error(me, &recv, call);
}

int TMPI_Sendrecv_replace(void* buf, int count, TMPI_Datatype type, int dest, int sendtag,
                          int source, int recvtag, TMPI_Comm comm, TMPI_Status* status) {
  // The outgoing data is packed aside first, then sent as bytes.
  TypeMapPtr m = type_map(type);
  std::vector<char> copy(m && count > 0 ? static_cast<std::size_t>(count) * m->size : 0);
  if (!copy.empty()) pack(buf, static_cast<std::size_t>(count), *m, copy.data());
  return TMPI_Sendrecv(copy.data(), static_cast<int>(copy.size()), TMPI_DT_BYTE, dest, sendtag, buf, count, type,
                       source, recvtag, comm, status);
}

}  // extern "C"

namespace {

// MPI_Isendrecv and _replace (MPI 4.0): the receive and the send are
// posted here, in program order (so MPI's non-overtaking holds against the
// subrank's other messages); a helper fiber waits for both and completes
// the request with the receive's status and the first error of the two.
// `keep` (the replace's packed copy) lives until then.
int post_sendrecv(Subrank* me, const char* call, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                  int dest, int sendtag, void* recvbuf, int recvcount, TMPI_Datatype recvtype, int source,
                  int recvtag, TMPI_Comm comm, std::shared_ptr<std::vector<char>> keep, TMPI_Request* request) {
  P2PArgs sa, ra;
  if (int e = check_p2p(me, call, true, true, sendbuf, sendcount, sendtype, dest, sendtag, comm, &sa)) return e;
  if (int e = check_p2p(me, call, false, true, recvbuf, recvcount, recvtype, source, recvtag, comm, &ra)) return e;
  if (!request) return mpi_error(me, comm, TMPI_ERR_REQUEST, call, "null request pointer");
  // The halves are not counted by a region instance (heap = false): the
  // request the program holds is.
  struct Halves {
    Request recv, send;
  };
  auto halves = std::make_shared<Halves>();
  halves->recv.heap = halves->send.heap = false;
  prepare(&halves->recv, me, call, comm::Operation::Kind::Recv, recvbuf, ra, source, recvtag, comm, recvtype);
  prepare(&halves->send, me, call, comm::Operation::Kind::Send, sendbuf, sa, dest, sendtag, comm, sendtype);
  auto* r = new Request;
  init_request(r, me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, ra.comm.p2p_ctx);
  r->origin = call;
  r->comm = comm;
  r->comm_ref = keep_alive(me, comm);
  r->peer_rank = source;
  r->tag = recvtag;
  r->own_status = true;
  start_detached(r);
  *request = r;
  start_request(&halves->recv);
  start_request(&halves->send);
  run_on_helper(me, [me, call, halves, keep, r] {
    wait_done(me, &halves->send, call);
    wait_done(me, &halves->recv, call);
    deliver_to_user(&halves->recv);
    TMPI_Status st;
    fill_status(&halves->recv, &st);
    r->own_source = st.MPI_SOURCE;
    r->own_tag = st.MPI_TAG;
    r->status_bytes = st.tmpi_bytes;
    r->error = halves->recv.error ? halves->recv.error : halves->send.error;
    r->on_complete(r);
  });
  return TMPI_SUCCESS;
}

}  // namespace

extern "C" {

int TMPI_Isendrecv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, int dest, int sendtag,
                   void* recvbuf, int recvcount, TMPI_Datatype recvtype, int source, int recvtag,
                   TMPI_Comm comm, TMPI_Request* request) {
  const char* call = "MPI_Isendrecv";
  Entered me = enter(call);
  return post_sendrecv(me, call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                       recvtag, comm, nullptr, request);
}

// The outgoing data is packed aside first (as MPI_Sendrecv_replace does)
// and sent as bytes.
int TMPI_Isendrecv_replace(void* buf, int count, TMPI_Datatype type, int dest, int sendtag, int source,
                           int recvtag, TMPI_Comm comm, TMPI_Request* request) {
  const char* call = "MPI_Isendrecv_replace";
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, true, true, buf, count, type, dest, sendtag, comm, &a)) return e;
  auto copy = std::make_shared<std::vector<char>>(a.bytes);
  if (!copy->empty()) pack(buf, a.count, *a.map, copy->data());
  if (copy->size() > static_cast<std::size_t>(INT_MAX))
    return mpi_error(me, comm, TMPI_ERR_COUNT, call, "%zu bytes: more than one message of MPI_BYTE carries (INT_MAX)",
                     copy->size());
  return post_sendrecv(me, call, copy->data(), static_cast<int>(copy->size()), TMPI_DT_BYTE, dest, sendtag, buf,
                       count, type, source, recvtag, comm, copy, request);
}

int TMPI_Iprobe(int source, int tag, TMPI_Comm comm, int* flag, TMPI_Status* status) {
  const char* call = "MPI_Iprobe";
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, false, false, nullptr, 0, 0, source, tag, comm, &a)) return e;
  if (a.proc_null) {
    *flag = 1;
    message_status(status, TMPI_PROC_NULL, TMPI_ANY_TAG, 0);
    return TMPI_SUCCESS;
  }
  Runtime& rt = Runtime::get();
  comm::ProbeResult found;
  rt.messenger->poll();
  *flag = rt.messenger->probe(me->world, a.comm.p2p_ctx, a.world_peer, tag, &found);
  if (*flag) message_status(status, from_world(me, comm, found.source), found.tag, static_cast<long long>(found.bytes));
  // A program that polls with MPI_Iprobe must let its siblings run, or the
  // message it waits for may never be sent.
  if (!*flag) {
    note_polling(me, BlockedIn{call, call, "source", source, tag, comm});
    sched::Scheduler::yield_behind_all();
  }
  return TMPI_SUCCESS;
}

int TMPI_Probe(int source, int tag, TMPI_Comm comm, TMPI_Status* status) {
  const char* call = "MPI_Probe";
  Entered me = enter(call);
  P2PArgs a;
  if (int e = check_p2p(me, call, false, false, nullptr, 0, 0, source, tag, comm, &a)) return e;
  if (a.proc_null) {
    message_status(status, TMPI_PROC_NULL, TMPI_ANY_TAG, 0);
    return TMPI_SUCCESS;
  }
  Runtime& rt = Runtime::get();
  comm::ProbeResult found;
  BlockedIn* marked = tasks::unmarked_blocked_record(me);
  fiber::Fiber* self = sched::Scheduler::current_fiber();  // the subrank's, or its task's
  for (;;) {
    // Register first, then look: an arrival in between still wakes us.
    rt.messenger->wait_for_arrival(me->world, self);
    if (rt.messenger->probe(me->world, a.comm.p2p_ctx, a.world_peer, tag, &found)) break;
    if (marked) *marked = BlockedIn{call, call, "source", source, tag, comm};
    sched::Scheduler::park();
  }
  if (marked) marked->call = nullptr;
  message_status(status, from_world(me, comm, found.source), found.tag, static_cast<long long>(found.bytes));
  return TMPI_SUCCESS;
}

int TMPI_Get_count(const TMPI_Status* status, TMPI_Datatype type, int* count) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Get_count", "invalid datatype %d", type);
  long long bytes = status->tmpi_bytes;
  long long size = static_cast<long long>(m->size);
  if (size == 0)
    *count = 0;
  else if (bytes % size || bytes / size > INT_MAX)
    *count = TMPI_UNDEFINED;
  else
    *count = static_cast<int>(bytes / size);
  return TMPI_SUCCESS;
}

// Predefined elements received: whole elements of `type` times their
// predefined elements, plus those of a partly received element, counted
// along the type signature (MPI_UNDEFINED only when the data ends inside
// a predefined element).
int TMPI_Get_elements(const TMPI_Status* status, TMPI_Datatype type, int* count) {
  long long elements;
  if (int err = received_elements("MPI_Get_elements", status, type, &elements)) return err;
  *count = elements < 0 || elements > INT_MAX ? TMPI_UNDEFINED : static_cast<int>(elements);
  return TMPI_SUCCESS;
}

}  // extern "C"
