// Completion calls of the virtual MPI: Wait, Test and their variants.
#include <tucana/tmpi.h>

#include <cstdio>
#include <set>
#include <utility>
#include <vector>

#include "mpi/errors.h"
#include "mpi/request.h"
#include "regions/superblock_run.h"
#include "sync/mutex.h"
#include "tasks/task.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

// A request that is null or an inactive persistent request: completion calls
// treat it as already complete with an empty status.
bool is_empty(TMPI_Request r) { return r == TMPI_REQUEST_NULL || (r->persistent && !r->active); }

TMPI_Status* status_at(TMPI_Status* statuses, int i) {
  return statuses == TMPI_STATUSES_IGNORE ? TMPI_STATUS_IGNORE : &statuses[i];
}

// Whether a completion call completes one request or several: only the
// latter set a status's MPI_ERROR (MPI 3.1 sec. 3.2.5).
enum class Completes { kOne, kSeveral };

// Reports a finished request in `status` and retires it.
int finish(Subrank* me, TMPI_Request* handle, TMPI_Status* status, const char* call, Completes completes) {
  deliver_to_user(*handle);
  fill_status(*handle, status);
  Request* r = *handle;
  int err = r->error;
  if (err) err = request_error(me, r, call);
  if (completes == Completes::kSeveral && status) status->MPI_ERROR = err;
  retire(handle);
  return err;
}

// A completion call found nothing complete: the program polls. Let its
// siblings run and count it as blocked on `r` for the deadlock report.
void unsuccessful_poll(Subrank* me, const char* call, const Request* r) {
  if (r)
    note_polling(me, blocked_on(call, r));
  sched::Scheduler::yield_behind_all();
}

// A wait inside a running superblock region (here or in a function it
// calls) on a request that another region instance of the same superblock
// posted: the dependencies did not cover it (a covered request would be
// complete before the region ran), so the region blocks there, holding its
// worker's turn. Warns once per (superblock, waiting region). A request the
// running instance posted itself is an ordinary blocking pattern. Called
// where the wait would block (only pending requests are looked at).
void check_coverage(const Subrank* me, int count, TMPI_Request* requests) {
  const regions::Instance* running = me->current_instance;
  if (!running || tasks::current_task()) return;
  for (int i = 0; i < count; ++i) {
    Request* r = requests[i];
    if (is_empty(r) || is_done(r) || r->posted_in != running->run) continue;
    if (r->posted_region == running->region && r->posted_iteration == running->iteration) continue;
    // Its instance may already count it complete while its completion
    // (on another thread) has not yet marked it done: covered, then.
    if (running->run->instance_done(r->posted_region, r->posted_iteration)) continue;
    static sync::Mutex mutex(sync::LockLevel::kLeaf, "coverage warnings");
    static std::set<std::pair<const void*, int>> warned TUCANA_GUARDED_BY(mutex);
    const tucana_superblock_desc& d = running->run->desc();
    {
      sync::MutexLock lock(mutex);
      if (!warned.insert({d.regions, running->region}).second) return;
    }
    const char* waiting = d.regions[running->region].name;
    const char* poster = d.regions[r->posted_region].name;
    bool previous = r->posted_iteration < running->iteration;
    std::fprintf(stderr,
                 "tucana: warning: superblock %s: region %s waits for a request of region %s%s that its "
                 "dependencies do not cover, so it blocks there; add depends(%s%s) to region %s\n",
                 d.where, waiting, poster, previous ? " (an earlier iteration)" : "", poster, previous ? "*" : "",
                 waiting);
    return;
  }
}

// The first active, incomplete request, for reports.
const Request* first_pending(int count, TMPI_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (!is_empty(requests[i]) && !is_done(requests[i])) return requests[i];
  return nullptr;
}

// The index of the first active request that is done, or -1 (the sweep of
// MPI_Waitany and MPI_Testany). Sets *any_active to whether a request
// before it, or any when there is none, is active.
int first_done(int count, TMPI_Request requests[], bool* any_active) {
  *any_active = false;
  for (int i = 0; i < count; ++i) {
    if (is_empty(requests[i])) continue;
    *any_active = true;
    if (is_done(requests[i])) return i;
  }
  return -1;
}

// The sweep of MPI_Waitsome and MPI_Testsome: finishes every active request
// that is done, listing its index in `indices` and its status at the same
// position of `statuses`. Sets *done to how many and *any_active to whether
// any request was active; returns MPI_ERR_IN_STATUS if one of them failed.
int finish_done(Subrank* me, int incount, TMPI_Request requests[], int indices[], TMPI_Status statuses[],
                const char* call, int* done, bool* any_active) {
  *any_active = false;
  int n = 0;
  int result = TMPI_SUCCESS;
  for (int i = 0; i < incount; ++i) {
    if (is_empty(requests[i])) continue;
    *any_active = true;
    if (is_done(requests[i])) {
      indices[n] = i;
      if (finish(me, &requests[i], status_at(statuses, n), call, Completes::kSeveral)) result = TMPI_ERR_IN_STATUS;
      ++n;
    }
  }
  *done = n;
  return result;
}

// Blocks until at least one of the active requests is done.
void wait_any_done(Subrank* me, int count, TMPI_Request* requests, const char* call) {
  fiber::Fiber* fiber = sched::Scheduler::current_fiber();
  auto self = reinterpret_cast<std::uintptr_t>(fiber);
  std::vector<Request*> registered;
  Request* first = nullptr;
  for (int i = 0; i < count; ++i) {
    Request* r = requests[i];
    if (is_empty(r)) continue;
    std::uintptr_t expected = Request::kPending;
    if (!r->state.compare_exchange_strong(expected, self) && expected != self) {
      first = nullptr;  // already done: nothing to wait for
      for (Request* q : registered) {
        std::uintptr_t e = self;
        q->state.compare_exchange_strong(e, Request::kPending);
      }
      return;
    }
    if (!first) first = r;
    registered.push_back(r);
  }
  if (registered.empty()) return;
  BlockedIn* marked = tasks::unmarked_blocked_record(me);
  if (marked) *marked = blocked_on(call, first);
  for (;;) {
    bool any = false;
    for (Request* r : registered) any = any || is_done(r);
    if (any) break;
    sched::Scheduler::park();
  }
  if (marked) marked->call = nullptr;
  for (Request* r : registered) {
    std::uintptr_t e = self;
    r->state.compare_exchange_strong(e, Request::kPending);
  }
}

}  // namespace

extern "C" {

int TMPI_Wait(TMPI_Request* request, TMPI_Status* status) {
  const char* call = "MPI_Wait";
  Entered me = enter(call);
  if (is_empty(*request)) {
    empty_status(status);
    return TMPI_SUCCESS;
  }
  check_coverage(me, 1, request);
  wait_done(me, *request, call);
  return finish(me, request, status, call, Completes::kOne);
}

int TMPI_Waitall(int count, TMPI_Request requests[], TMPI_Status statuses[]) {
  const char* call = "MPI_Waitall";
  Entered me = enter(call);
  check_coverage(me, count, requests);
  for (int i = 0; i < count; ++i)
    if (!is_empty(requests[i])) wait_done(me, requests[i], call);
  int result = TMPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    if (is_empty(requests[i])) {
      empty_status(status_at(statuses, i));
    } else if (finish(me, &requests[i], status_at(statuses, i), call, Completes::kSeveral) != TMPI_SUCCESS) {
      result = TMPI_ERR_IN_STATUS;
    }
  }
  return result;
}

int TMPI_Waitany(int count, TMPI_Request requests[], int* index, TMPI_Status* status) {
  const char* call = "MPI_Waitany";
  Entered me = enter(call);
  for (;;) {
    bool any_active;
    int i = first_done(count, requests, &any_active);
    if (i >= 0) {
      *index = i;
      return finish(me, &requests[i], status, call, Completes::kOne);
    }
    if (!any_active) {
      *index = TMPI_UNDEFINED;
      empty_status(status);
      return TMPI_SUCCESS;
    }
    check_coverage(me, count, requests);
    wait_any_done(me, count, requests, call);
  }
}

int TMPI_Waitsome(int incount, TMPI_Request requests[], int* outcount, int indices[],
                  TMPI_Status statuses[]) {
  const char* call = "MPI_Waitsome";
  Entered me = enter(call);
  for (;;) {
    bool any_active;
    int n;
    int result = finish_done(me, incount, requests, indices, statuses, call, &n, &any_active);
    if (!any_active) {
      *outcount = TMPI_UNDEFINED;
      return TMPI_SUCCESS;
    }
    if (n > 0) {
      *outcount = n;
      return result;
    }
    check_coverage(me, incount, requests);
    wait_any_done(me, incount, requests, call);
  }
}

int TMPI_Test(TMPI_Request* request, int* flag, TMPI_Status* status) {
  const char* call = "MPI_Test";
  Entered me = enter(call);
  if (is_empty(*request)) {
    *flag = 1;
    empty_status(status);
    return TMPI_SUCCESS;
  }
  if (!is_done(*request)) Runtime::get().messenger->poll();
  *flag = is_done(*request);
  if (!*flag) {
    unsuccessful_poll(me, call, *request);
    return TMPI_SUCCESS;
  }
  return finish(me, request, status, call, Completes::kOne);
}

int TMPI_Testall(int count, TMPI_Request requests[], int* flag, TMPI_Status statuses[]) {
  const char* call = "MPI_Testall";
  Entered me = enter(call);
  Runtime::get().messenger->poll();
  for (int i = 0; i < count; ++i) {
    if (!is_empty(requests[i]) && !is_done(requests[i])) {
      *flag = 0;
      unsuccessful_poll(me, call, requests[i]);
      return TMPI_SUCCESS;
    }
  }
  *flag = 1;
  int result = TMPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    if (is_empty(requests[i]))
      empty_status(status_at(statuses, i));
    else if (finish(me, &requests[i], status_at(statuses, i), call, Completes::kSeveral))
      result = TMPI_ERR_IN_STATUS;
  }
  return result;
}

int TMPI_Testany(int count, TMPI_Request requests[], int* index, int* flag, TMPI_Status* status) {
  const char* call = "MPI_Testany";
  Entered me = enter(call);
  Runtime::get().messenger->poll();
  bool any_active;
  int i = first_done(count, requests, &any_active);
  if (i >= 0) {
    *flag = 1;
    *index = i;
    return finish(me, &requests[i], status, call, Completes::kOne);
  }
  *index = TMPI_UNDEFINED;
  *flag = any_active ? 0 : 1;
  if (any_active)
    unsuccessful_poll(me, call, first_pending(count, requests));
  else
    empty_status(status);
  return TMPI_SUCCESS;
}

int TMPI_Testsome(int incount, TMPI_Request requests[], int* outcount, int indices[],
                  TMPI_Status statuses[]) {
  const char* call = "MPI_Testsome";
  Entered me = enter(call);
  Runtime::get().messenger->poll();
  bool any_active;
  int n;
  int result = finish_done(me, incount, requests, indices, statuses, call, &n, &any_active);
  *outcount = any_active ? n : TMPI_UNDEFINED;
  if (any_active && n == 0) unsuccessful_poll(me, call, first_pending(incount, requests));
  return result;
}

int TMPI_Request_get_status(TMPI_Request request, int* flag, TMPI_Status* status) {
  const char* call = "MPI_Request_get_status";
  Entered me = enter(call);
  if (is_empty(request)) {
    *flag = 1;
    empty_status(status);
    return TMPI_SUCCESS;
  }
  if (!is_done(request)) Runtime::get().messenger->poll();
  *flag = is_done(request);
  if (!*flag) unsuccessful_poll(me, call, request);
  else deliver_to_user(request);
  if (*flag) fill_status(request, status);
  return TMPI_SUCCESS;
}

int TMPI_Request_free(TMPI_Request* request) {
  const char* call = "MPI_Request_free";
  Entered me = enter(call);
  Request* r = *request;
  if (!r) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_REQUEST, call, "MPI_REQUEST_NULL cannot be freed");
  *request = TMPI_REQUEST_NULL;
  if (r->persistent && !r->active) {
    delete r;
    return TMPI_SUCCESS;
  }
  // Active: the request is freed when its operation completes.
  std::uintptr_t expected = Request::kPending;
  if (!r->state.compare_exchange_strong(expected, Request::kFreeOnDone)) delete r;
  return TMPI_SUCCESS;
}

int TMPI_Start(TMPI_Request* request) {
  const char* call = "MPI_Start";
  Entered me = enter(call);
  Request* r = *request;
  if (!r || !r->persistent)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_REQUEST, call, "not a persistent request");
  if (r->active)
    return mpi_error(me, r->comm, TMPI_ERR_REQUEST, call, "the persistent request is already active");
  if (r->start_persistent) {
    // Region instances run in a different order at different ranks; the
    // members of a communicator must start its collectives in one order.
    if (me->current_instance && !tasks::current_task())
      return mpi_error(me, r->comm, TMPI_ERR_REQUEST, call,
                       "a persistent collective (%s) cannot be started inside a superblock region: every member "
                       "must start its collectives in the same order; start it before or after the superblock",
                       r->origin);
    return r->start_persistent(r);
  }
  if (r->buffered_start) {
    // MPI_Bsend_init's communicator is resolved by handle when started.
    if (r->comm_ref && me->handles->comm(r->comm) != r->comm_ref.get())
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call,
                       "the communicator of this persistent buffered send has been freed (MPI_Comm_free); "
                       "Tucana needs it until the request is freed");
    if (int e = buffered_send("MPI_Start", r->user_buf, static_cast<int>(r->user_count), r->type, r->peer_rank,
                              r->tag, r->comm))
      return e;
    r->active = true;
    r->state.store(Request::kDone);
    return TMPI_SUCCESS;
  }
  // A persistent send of non-contiguous data sends what the buffer holds now.
  if (r->kind == comm::Operation::Kind::Send && r->unpack_map && !r->staging.empty())
    pack(r->user_buf, r->user_count, *r->unpack_map, r->staging.data());
  start_request(r);
  return TMPI_SUCCESS;
}

int TMPI_Cancel(TMPI_Request* request) {
  const char* call = "MPI_Cancel";
  Entered me = enter(call);
  Request* r = request ? *request : nullptr;
  if (!r) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_REQUEST, call, "MPI_REQUEST_NULL cannot be cancelled");
  if (r->greq_cancel) return r->greq_cancel(r->greq_extra, is_done(r) ? 1 : 0);
  if (r->io) return TMPI_SUCCESS;  // its I/O is done: nothing to take back
  if (r->collective)
    return mpi_error(me, r->comm, TMPI_ERR_REQUEST, call, "a non-blocking collective cannot be cancelled");
  // A receive that has not matched is taken back and completes as
  // cancelled. A send is not: MPI lets that fail, and the send completes
  // normally (MPI_Test_cancelled says false).
  if (r->kind == comm::Operation::Kind::Recv && !is_done(r) && !r->proc_null &&
      Runtime::get().messenger->cancel_receive(r)) {
    r->cancelled = true;
    r->on_complete(r);
  }
  return TMPI_SUCCESS;
}

// Generalized requests: pending until the program completes them.
int TMPI_Grequest_start(TMPI_Grequest_query_function* query_fn, TMPI_Grequest_free_function* free_fn,
                        TMPI_Grequest_cancel_function* cancel_fn, void* extra_state, TMPI_Request* request) {
  const char* call = "MPI_Grequest_start";
  Entered me = enter(call);
  if (!request || !query_fn || !free_fn || !cancel_fn)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null request pointer or callback");
  auto* r = new Request;
  init_request(r, me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, 0);
  r->origin = call;
  r->collective = true;  // no message and no peer of its own
  r->greq_query = query_fn;
  r->greq_free = free_fn;
  r->greq_cancel = cancel_fn;
  r->greq_extra = extra_state;
  start_detached(r);
  *request = r;
  return TMPI_SUCCESS;
}

int TMPI_Grequest_complete(TMPI_Request request) {
  const char* call = "MPI_Grequest_complete";
  Entered me = enter(call);
  Request* r = request;
  if (!r || !r->greq_query || is_done(r))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_REQUEST, call, "not a pending generalized request");
  r->on_complete(r);
  return TMPI_SUCCESS;
}

int TMPI_Test_cancelled(const TMPI_Status* status, int* flag) {
  enter("MPI_Test_cancelled");
  *flag = status->tmpi_cancelled != 0;
  return TMPI_SUCCESS;
}

int TMPI_Status_set_cancelled(TMPI_Status* status, int flag) {
  enter("MPI_Status_set_cancelled");
  status->tmpi_cancelled = flag != 0;
  return TMPI_SUCCESS;
}

int TMPI_Status_set_elements(TMPI_Status* status, TMPI_Datatype type, int count) {
  const char* call = "MPI_Status_set_elements";
  Entered me = enter(call);
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  // Elements are the predefined ones the datatype is made of, in the order
  // of its type signature (MPI_Get_elements then gives `count` back).
  status->tmpi_bytes = bytes_of_elements(*m, count);
  return TMPI_SUCCESS;
}

int TMPI_Startall(int count, TMPI_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (int e = TMPI_Start(&requests[i])) return e;
  return TMPI_SUCCESS;
}

}  // extern "C"
