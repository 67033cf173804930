// MPI 4.0 sessions (MPI_Session_*, MPI_Group_from_session_pset,
// MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups) over the
// fixed set of subranks a job starts with.
//
// Every subrank is started by the runtime whether or not the program calls
// MPI_Init, so a session needs no start-up of its own: it is a handle with
// an error handler and a thread level, and while a subrank holds one its MPI
// calls are allowed outside MPI_Init/MPI_Finalize (enter()). The process
// sets are the two MPI names: "mpi://WORLD" (every subrank of the job) and
// "mpi://SELF" (the caller). A communicator from a group is made by
// MPI_Comm_create_group on the job's subranks, the string tag hashed into
// its tag (MPI asks distinct tags only of creations that overlap in time
// and membership; two tags that hash alike then still work, in call order).
// Handles are per process, the lowest free one first.
#include <tucana/tmpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <strings.h>

#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "core/runtime.h"
#include "sync/mutex.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

struct Session {
  Subrank* owner = nullptr;
  TMPI_Errhandler errhandler = TMPI_ERRORS_ARE_FATAL;
  int thread_level = TMPI_THREAD_SINGLE;
};

// 0 is MPI_SESSION_NULL.
using SessionTable = HandleTable<Session*, HandleReuse::kLowestFree>;
SessionTable& table() {
  static SessionTable* t = new SessionTable(sync::LockLevel::kLeaf, "sessions", 1);  // never destroyed
  return *t;
}

// The session `s` of the calling subrank, or null.
Session* find(Subrank* me, TMPI_Session s) {
  Session* found = table().find(s).value_or(nullptr);
  return found && found->owner == me ? found : nullptr;
}

// An error of a call on session `s` (through its handler), or on an
// invalid session (through MPI_COMM_WORLD's, fatal by default).
int session_error(Subrank* me, TMPI_Session handle, Session* s, int code, const char* call, const char* what) {
  if (!s) return mpi_error(me, TMPI_COMM_WORLD, code, call, "%s", what);
  return report_error(me, s->errhandler, handle, code, call, "%s", what);
}

#define TMPI_SESSION_CALL(NAME, HANDLE)                                                              \
  const char* const call_name = NAME;                                                                \
  Entered me = enter(call_name, true);                                                               \
  Session* s = find(me, HANDLE);                                                                     \
  if (!s) return session_error(me, HANDLE, nullptr, TMPI_ERR_SESSION, call_name, "invalid session")

const char* const kPsets[] = {"mpi://WORLD", "mpi://SELF"};
constexpr int kNumPsets = 2;

// The communicator whose group a process set names (case does not matter),
// or MPI_COMM_NULL.
TMPI_Comm pset_comm(const char* name) {
  if (name && strcasecmp(name, kPsets[0]) == 0) return TMPI_COMM_WORLD;
  if (name && strcasecmp(name, kPsets[1]) == 0) return TMPI_COMM_SELF;
  return TMPI_COMM_NULL;
}

// pset_comm(name) into *comm, or an MPI_ERR_ARG of session `s` for a name
// that is not a process set.
int pset_comm_of(Subrank* me, TMPI_Session handle, Session* s, const char* name, const char* call,
                 TMPI_Comm* comm) {
  *comm = pset_comm(name);
  if (*comm != TMPI_COMM_NULL) return TMPI_SUCCESS;
  return session_error(me, handle, s, TMPI_ERR_ARG, call,
                       "unknown process set (Tucana has \"mpi://WORLD\" and \"mpi://SELF\")");
}

const char* thread_level_name(int level) {
  switch (level) {
    case TMPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case TMPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case TMPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

int thread_level_of(const char* name) {
  for (int level : {TMPI_THREAD_SINGLE, TMPI_THREAD_FUNNELED, TMPI_THREAD_SERIALIZED, TMPI_THREAD_MULTIPLE})
    if (strcasecmp(name, thread_level_name(level)) == 0) return level;
  return -1;
}

// The tag of a communicator made from a group with string tag `tag`.
int tag_of(const char* tag) {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (const char* c = tag; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
  return static_cast<int>(h % 32768u);
}

}  // namespace

extern "C" {

int TMPI_Session_init(TMPI_Info info, TMPI_Errhandler errhandler, TMPI_Session* session) {
  const char* call = "MPI_Session_init";
  Entered me = enter(call, true);
  if (!session) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null session pointer");
  if (errhandler != TMPI_ERRORS_ARE_FATAL && errhandler != TMPI_ERRORS_RETURN &&
      !valid_errhandler(errhandler, ErrhandlerKind::Session))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call,
                     "invalid error handler %d (one from MPI_Session_create_errhandler, "
                     "MPI_ERRORS_RETURN or MPI_ERRORS_ARE_FATAL)",
                     static_cast<int>(errhandler));
  if (me->finalized)
    return report_error(me, errhandler, TMPI_SESSION_NULL, TMPI_ERR_OTHER, call,
                        "called after MPI_Finalize: Tucana's subrank has left MPI by then, so a session "
                        "cannot start (start it before MPI_Finalize)");
  auto* s = new Session;
  s->owner = me;
  s->errhandler = errhandler;
  // The thread level asked for ("thread_level"), at most what a subrank gives.
  s->thread_level = TMPI_THREAD_FUNNELED;
  if (info != TMPI_INFO_NULL) {
    char value[64];
    int flag = 0;
    if (int err = TMPI_Info_get(info, "thread_level", static_cast<int>(sizeof value) - 1, value, &flag)) {
      delete s;
      return err;
    }
    int asked = flag ? thread_level_of(value) : -1;
    if (flag && asked < 0) {
      delete s;
      return report_error(me, errhandler, TMPI_SESSION_NULL, TMPI_ERR_ARG, call,
                          "invalid thread_level \"%s\" in the info (MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED "
                          "or _MULTIPLE)",
                          value);
    }
    if (asked >= 0 && asked < s->thread_level) s->thread_level = asked;
  }
  *session = table().allocate(s);
  ++me->sessions;
  return TMPI_SUCCESS;
}

int TMPI_Session_finalize(TMPI_Session* session) {
  const char* call = "MPI_Session_finalize";
  Entered me = enter(call, true);
  if (!session) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null session pointer");
  Session* s = find(me, *session);
  if (!s) return session_error(me, *session, nullptr, TMPI_ERR_SESSION, call, "invalid session");
  table().release(*session);
  delete s;
  --me->sessions;
  *session = TMPI_SESSION_NULL;
  return TMPI_SUCCESS;
}

int TMPI_Session_get_num_psets(TMPI_Session session, TMPI_Info info, int* npset_names) {
  (void)info;
  TMPI_SESSION_CALL("MPI_Session_get_num_psets", session);
  if (!npset_names) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null npset_names pointer");
  *npset_names = kNumPsets;
  return TMPI_SUCCESS;
}

// As MPI 4.0 says: with *pset_len 0, only the length (with the terminating
// null) is returned; otherwise at most *pset_len - 1 characters and a null.
int TMPI_Session_get_nth_pset(TMPI_Session session, TMPI_Info info, int n, int* pset_len, char* pset_name) {
  (void)info;
  TMPI_SESSION_CALL("MPI_Session_get_nth_pset", session);
  if (n < 0 || n >= kNumPsets)
    return session_error(me, session, s, TMPI_ERR_ARG, call_name, "no process set of that index (there are 2)");
  if (!pset_len) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null pset_len pointer");
  const int need = static_cast<int>(std::strlen(kPsets[n])) + 1;
  if (*pset_len == 0) {
    *pset_len = need;
    return TMPI_SUCCESS;
  }
  if (!pset_name) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null pset_name pointer");
  if (*pset_len < 0) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "negative pset_len");
  int copy = *pset_len - 1 < need - 1 ? *pset_len - 1 : need - 1;
  std::memcpy(pset_name, kPsets[n], static_cast<std::size_t>(copy));
  pset_name[copy] = '\0';
  *pset_len = need;
  return TMPI_SUCCESS;
}

int TMPI_Session_get_info(TMPI_Session session, TMPI_Info* info_used) {
  TMPI_SESSION_CALL("MPI_Session_get_info", session);
  if (!info_used) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null info pointer");
  if (int err = TMPI_Info_create(info_used)) return err;
  return TMPI_Info_set(*info_used, "thread_level", thread_level_name(s->thread_level));
}

int TMPI_Session_get_pset_info(TMPI_Session session, const char* pset_name, TMPI_Info* info) {
  TMPI_SESSION_CALL("MPI_Session_get_pset_info", session);
  TMPI_Comm comm;
  if (int err = pset_comm_of(me, session, s, pset_name, call_name, &comm)) return err;
  if (!info) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null info pointer");
  int size = 0;
  if (int err = TMPI_Comm_size(comm, &size)) return err;
  if (int err = TMPI_Info_create(info)) return err;
  return TMPI_Info_set(*info, "mpi_size", std::to_string(size).c_str());
}

int TMPI_Group_from_session_pset(TMPI_Session session, const char* pset_name, TMPI_Group* newgroup) {
  TMPI_SESSION_CALL("MPI_Group_from_session_pset", session);
  TMPI_Comm comm;
  if (int err = pset_comm_of(me, session, s, pset_name, call_name, &comm)) return err;
  if (!newgroup) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null group pointer");
  return TMPI_Comm_group(comm, newgroup);
}

int TMPI_Session_create_errhandler(TMPI_Session_errhandler_function* fn, TMPI_Errhandler* errhandler) {
  const char* call = "MPI_Session_create_errhandler";
  Entered me = enter(call, true);
  if (!fn || !errhandler)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null function or error handler pointer");
  return create_errhandler(ErrhandlerKind::Session, reinterpret_cast<void*>(fn), errhandler);
}

int TMPI_Session_set_errhandler(TMPI_Session session, TMPI_Errhandler errhandler) {
  TMPI_SESSION_CALL("MPI_Session_set_errhandler", session);
  if (errhandler != TMPI_ERRORS_ARE_FATAL && errhandler != TMPI_ERRORS_RETURN &&
      !valid_errhandler(errhandler, ErrhandlerKind::Session))
    return session_error(me, session, s, TMPI_ERR_ARG, call_name,
                         "not an error handler for sessions (MPI_Session_create_errhandler makes one)");
  s->errhandler = errhandler;
  return TMPI_SUCCESS;
}

int TMPI_Session_get_errhandler(TMPI_Session session, TMPI_Errhandler* errhandler) {
  TMPI_SESSION_CALL("MPI_Session_get_errhandler", session);
  if (!errhandler) return session_error(me, session, s, TMPI_ERR_ARG, call_name, "null error handler pointer");
  *errhandler = s->errhandler;
  return TMPI_SUCCESS;
}

int TMPI_Session_call_errhandler(TMPI_Session session, int errorcode) {
  TMPI_SESSION_CALL("MPI_Session_call_errhandler", session);
  report_error(me, s->errhandler, session, errorcode, call_name, "error code %d raised by the program", errorcode);
  return TMPI_SUCCESS;  // the handler returned
}

int TMPI_Comm_create_from_group(TMPI_Group group, const char* stringtag, TMPI_Info info, TMPI_Errhandler errhandler,
                                TMPI_Comm* newcomm) {
  (void)info;
  const char* call = "MPI_Comm_create_from_group";
  Entered me = enter(call);
  if (errhandler != TMPI_ERRHANDLER_NULL && errhandler != TMPI_ERRORS_ARE_FATAL &&
      errhandler != TMPI_ERRORS_RETURN && !valid_errhandler(errhandler, ErrhandlerKind::Comm))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "not an error handler for communicators");
  // Errors go to the handler the new communicator was to have.
  if (!stringtag || !newcomm)
    return report_error(me, errhandler == TMPI_ERRHANDLER_NULL ? TMPI_ERRORS_ARE_FATAL : errhandler, TMPI_COMM_NULL,
                        TMPI_ERR_ARG, call, "null string tag or communicator pointer");
  int size = 0, rank = TMPI_UNDEFINED;
  if (int err = TMPI_Group_size(group, &size)) return err;
  if (size == 0) {  // MPI_GROUP_EMPTY (or an empty group): no communicator
    *newcomm = TMPI_COMM_NULL;
    return TMPI_SUCCESS;
  }
  if (int err = TMPI_Group_rank(group, &rank)) return err;
  if (rank == TMPI_UNDEFINED)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_GROUP, call, "the calling rank is not in the group");
  if (int err = TMPI_Comm_create_group(TMPI_COMM_WORLD, group, tag_of(stringtag), newcomm)) return err;
  return TMPI_Comm_set_errhandler(*newcomm, errhandler == TMPI_ERRHANDLER_NULL ? TMPI_ERRORS_ARE_FATAL : errhandler);
}

int TMPI_Intercomm_create_from_groups(TMPI_Group local_group, int local_leader, TMPI_Group remote_group,
                                      int remote_leader, const char* stringtag, TMPI_Info info,
                                      TMPI_Errhandler errhandler, TMPI_Comm* newintercomm) {
  const char* call = "MPI_Intercomm_create_from_groups";
  Entered me = enter(call);
  if (!stringtag || !newintercomm)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "null string tag or communicator pointer");
  int remote_size = 0;
  if (int err = TMPI_Group_size(remote_group, &remote_size)) return err;
  if (remote_leader < 0 || remote_leader >= remote_size)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_RANK, call, "remote leader %d outside the remote group",
                     remote_leader);
  // The remote leader's rank in the job: the peer communicator is MPI_COMM_WORLD.
  TMPI_Group world_group;
  if (int err = TMPI_Comm_group(TMPI_COMM_WORLD, &world_group)) return err;
  int remote_world = TMPI_UNDEFINED;
  int err = TMPI_Group_translate_ranks(remote_group, 1, &remote_leader, world_group, &remote_world);
  TMPI_Group_free(&world_group);
  if (err) return err;
  TMPI_Comm local;
  std::string local_tag = std::string(stringtag) + " (local side)";
  if (int e = TMPI_Comm_create_from_group(local_group, local_tag.c_str(), info, TMPI_ERRORS_RETURN, &local))
    return e;
  err = TMPI_Intercomm_create(local, local_leader, TMPI_COMM_WORLD, remote_world, tag_of(stringtag), newintercomm);
  TMPI_Comm_free(&local);
  if (err) return err;
  return TMPI_Comm_set_errhandler(*newintercomm,
                                  errhandler == TMPI_ERRHANDLER_NULL ? TMPI_ERRORS_ARE_FATAL : errhandler);
}

}  // extern "C"
