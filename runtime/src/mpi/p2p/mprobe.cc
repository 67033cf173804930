// Matched probes (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv).
//
// A matched probe must take the message out of matching, so that no later
// receive of the subrank gets it. Tucana does that by receiving it at once
// into a buffer of the message handle: the probe tells its source, tag and
// size, and a receive with exactly that source and tag takes the earliest
// such message, which is the one probed (messages between two subranks are
// not overtaken). MPI_Mrecv then copies from the buffer into the program's.
#include <tucana/tmpi.h>

#include <cstring>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "mpi/request.h"
#include "mpi/datatype/typemap.h"
#include "sync/mutex.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

struct Message {
  Subrank* owner;
  TMPI_Comm comm;
  TMPI_Status status;
  std::vector<char> data;  // the payload, packed
};

// Handles are never reused: a stale handle (received already) is an error,
// not another subrank's message. 0: MPI_MESSAGE_NULL, 1: MPI_MESSAGE_NO_PROC.
using MessageTable = HandleTable<Message, HandleReuse::kNever>;
MessageTable& table() {
  static MessageTable* t = new MessageTable(sync::LockLevel::kLeaf, "matched messages", 2);  // never destroyed
  return *t;
}

// Takes the message `st` describes out of matching, into a new handle.
int take(TMPI_Comm comm, const TMPI_Status& st, TMPI_Message* message) {
  Message m{current_subrank(), comm, st, std::vector<char>(static_cast<std::size_t>(st.tmpi_bytes))};
  if (int err = TMPI_Recv(m.data.data(), static_cast<int>(m.data.size()), TMPI_DT_BYTE, st.MPI_SOURCE, st.MPI_TAG,
                          comm, TMPI_STATUS_IGNORE))
    return err;
  *message = table().allocate(std::move(m));
  return TMPI_SUCCESS;
}

void proc_null_status(TMPI_Status* status) { message_status(status, TMPI_PROC_NULL, TMPI_ANY_TAG, 0); }

// `from`'s source, tag and count into *to (may be MPI_STATUS_IGNORE), whose
// MPI_ERROR stays as it was (single-completion calls leave it alone).
void copy_status(const TMPI_Status& from, TMPI_Status* to) {
  message_status(to, from.MPI_SOURCE, from.MPI_TAG, from.tmpi_bytes);
}

// Receives message `*message` into (buf, count, type): the status it had,
// or an error (truncation, a bad handle).
int receive(const char* call, void* buf, int count, TMPI_Datatype type, TMPI_Message* message, TMPI_Status* st,
            TMPI_Comm* comm) {
  Entered me = enter(call);
  if (!message) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null message pointer");
  if (*message == TMPI_MESSAGE_NO_PROC) {
    proc_null_status(st);
    *comm = TMPI_COMM_NULL;
    *message = TMPI_MESSAGE_NULL;
    return TMPI_SUCCESS;
  }
  Message m;
  {
    MessageTable& t = table();
    sync::MutexLock hold(t.mutex());
    const Message* found = t.find_locked(*message);
    if (!found || found->owner != me) {
      hold.unlock();  // the error handler is the program's
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_REQUEST, call, "invalid message handle %d", *message);
    }
    m = t.release_locked(*message);
  }
  *message = TMPI_MESSAGE_NULL;
  *comm = m.comm;
  TypeMapPtr keep;
  const TypeMap* map = find_type(type, &keep);
  if (!map) return mpi_error(me, m.comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  std::size_t capacity = static_cast<std::size_t>(count < 0 ? 0 : count) * map->size;
  std::size_t n = std::min(capacity, m.data.size());
  if (n) unpack_bytes(m.data.data(), n, *map, buf);
  copy_status(m.status, st);
  st->tmpi_bytes = static_cast<long long>(n);
  if (m.data.size() > capacity) {
    return mpi_error(me, m.comm, TMPI_ERR_TRUNCATE, call, "message of %zu bytes truncated to %zu", m.data.size(),
                     capacity);
  }
  return TMPI_SUCCESS;
}

}  // namespace

extern "C" {

int TMPI_Mprobe(int source, int tag, TMPI_Comm comm, TMPI_Message* message, TMPI_Status* status) {
  if (source == TMPI_PROC_NULL) {
    enter("MPI_Mprobe");
    *message = TMPI_MESSAGE_NO_PROC;
    proc_null_status(status);
    return TMPI_SUCCESS;
  }
  TMPI_Status st;
  if (int err = TMPI_Probe(source, tag, comm, &st)) return err;
  if (int err = take(comm, st, message)) return err;
  copy_status(st, status);
  return TMPI_SUCCESS;
}

int TMPI_Improbe(int source, int tag, TMPI_Comm comm, int* flag, TMPI_Message* message, TMPI_Status* status) {
  if (source == TMPI_PROC_NULL) {
    enter("MPI_Improbe");
    *flag = 1;
    *message = TMPI_MESSAGE_NO_PROC;
    proc_null_status(status);
    return TMPI_SUCCESS;
  }
  TMPI_Status st;
  if (int err = TMPI_Iprobe(source, tag, comm, flag, &st)) return err;
  if (!*flag) return TMPI_SUCCESS;
  if (int err = take(comm, st, message)) return err;
  copy_status(st, status);
  return TMPI_SUCCESS;
}

int TMPI_Mrecv(void* buf, int count, TMPI_Datatype type, TMPI_Message* message, TMPI_Status* status) {
  TMPI_Status st{};
  TMPI_Comm comm;
  int err = receive("MPI_Mrecv", buf, count, type, message, &st, &comm);
  copy_status(st, status);
  return err;
}

// The data is here already: the request is complete when it is returned,
// and waiting on it gives the message's status.
int TMPI_Imrecv(void* buf, int count, TMPI_Datatype type, TMPI_Message* message, TMPI_Request* request) {
  TMPI_Status st;
  TMPI_Comm comm;
  if (int err = receive("MPI_Imrecv", buf, count, type, message, &st, &comm)) return err;
  Subrank* me = current_subrank();
  auto* r = new Request;
  if (comm == TMPI_COMM_NULL) {  // from MPI_MESSAGE_NO_PROC
    init_request(r, me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, 0);
    r->proc_null = true;
    r->origin = "MPI_Imrecv";
    start_request(r);
    *request = r;
    return TMPI_SUCCESS;
  }
  const Comm* c = me->handles->comm(comm);
  int world_source = c ? c->peer_to_world(st.MPI_SOURCE) : st.MPI_SOURCE;
  init_request(r, me, comm::Operation::Kind::Recv, nullptr, 0, world_source, st.MPI_TAG, c ? c->p2p_ctx : 0);
  r->origin = "MPI_Imrecv";
  r->comm = comm;
  r->comm_ref = keep_alive(me, comm);
  r->peer_rank = st.MPI_SOURCE;
  start_detached(r);
  r->matched_source = world_source;
  r->matched_tag = st.MPI_TAG;
  r->matched_bytes = static_cast<std::size_t>(st.tmpi_bytes);
  r->on_complete(r);
  *request = r;
  return TMPI_SUCCESS;
}

}  // extern "C"
