// One-sided communication (MPI_Win_*, MPI_Put/Get/Accumulate and their
// relatives) at subrank granularity, over the virtual MPI's own messages.
//
// Every subrank that creates a window gets an agent: a helper fiber of that
// subrank (like the helper of a non-blocking collective) that serves the
// window's requests from origins, so a target makes progress whatever its
// main fiber does, and passive-target epochs need nothing from it. Requests
// travel on a private duplicate of the window's communicator:
//   origin -> agent  kRequest  a Header; then, on tag kData, the target's
//                              byte blocks (offset, length) and the payload
//   agent -> origin  kReply    data of a get (in the origin's datatype)
//                    kAck      a flush, lock, unlock or stop is done
//   origin <-> target kPost / kComplete   post-start-complete-wait epochs
// Messages between two subranks on one tag are not overtaken, so an agent
// applies one origin's operations in issue order (MPI's ordering of
// accumulates) and acknowledges a flush only after everything sent before
// it. An agent applies one operation at a time: accumulates from many origins
// to one location are atomic. Target datatypes are sent as byte blocks, so a
// derived datatype need not exist at the target.
//
// Synchronization: an origin remembers the targets it sent operations to
// since their last flush; a fence flushes those and then barriers, complete
// flushes the start group before telling each target, unlock asks the agent
// (which answers after the operations before it). Exclusive and shared locks
// are granted by the target's agent in request order.
#include <tucana/tmpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "mpi/attributes.h"
#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "mpi/info.h"
#include "mpi/rma/rma.h"
#include "mpi/datatype/typemap.h"
#include "sched/scheduler.h"
#include "sync/mutex.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

constexpr int kRequest = 1, kData = 2, kReply = 3, kAck = 4, kPost = 5, kComplete = 6;
constexpr std::size_t kAgentStack = 256u << 10;

enum class Kind : std::int32_t { Put, Get, Acc, GetAcc, Cas, Lock, Unlock, Flush, Stop };

struct Header {
  Kind kind;
  std::int32_t lock_type;
  std::int32_t op;
  std::int32_t basic;  // the predefined type of an accumulate's elements
  std::int64_t nblocks;
  std::int64_t bytes;  // payload bytes sent (Put, Acc, GetAcc, Cas)
  std::int64_t reply_bytes;
};

struct Window {
  Subrank* owner = nullptr;
  TMPI_Win handle = TMPI_WIN_NULL;
  TMPI_Comm comm = TMPI_COMM_NULL;  // private duplicate of the creating communicator
  int rank = 0, size = 0;
  char* base = nullptr;
  TMPI_Aint bytes = 0;
  int disp_unit = 1;
  int flavor = TMPI_WIN_FLAVOR_CREATE;
  int model = TMPI_WIN_UNIFIED;
  bool owns_memory = false;       // Win_allocate: freed by Win_free
  char* shared_block = nullptr;   // Win_allocate_shared: the whole block (rank 0 frees it)
  std::vector<TMPI_Aint> sizes;   // every rank's window size in bytes (-1: dynamic)
  std::vector<int> disp_units;
  std::vector<char*> bases;       // Win_allocate_shared: every rank's segment
  std::string name;
  // A handler from MPI_Win_create_errhandler (the predefined ones are set
  // on the private communicator instead).
  TMPI_Errhandler user_errhandler = TMPI_ERRHANDLER_NULL;
  // origin side
  bool fence_epoch = false;
  std::vector<int> start_group;   // targets of the current access epoch (Win_start)
  std::vector<int> lock_type;     // per target: 0, or the lock held (NOCHECK: -1)
  bool lock_all = false;
  std::vector<char> dirty;        // per target: operations sent since its last flush
  std::vector<std::vector<TMPI_Request>> replies;  // per target: get replies not yet waited for
  // target side
  std::vector<int> post_group;    // origins of the current exposure epoch (Win_post)
  // the agent's lock manager
  int shared_holders = 0;
  int exclusive_holder = -1;
  std::deque<std::pair<int, int>> lock_queue;  // (origin, lock type)
};

// 0 is MPI_WIN_NULL. The lowest free handle first (freed windows' handles are
// reused, as in MPICH; a window's name and its communicator's carry it).
using WindowTable = HandleTable<Window*, HandleReuse::kLowestFree>;
WindowTable& table() {
  static WindowTable* t = new WindowTable(sync::LockLevel::kLeaf, "windows", 1);  // never destroyed
  return *t;
}

Window* find(TMPI_Win win) { return table().find(win).value_or(nullptr); }

// ---------------------------------------------------------------- blocks

using Blocks = std::vector<std::int64_t>;  // offset, length, offset, length, ...

// The bytes `count` elements of `map` cover at byte offset `at`, adjacent
// blocks merged.
void append_blocks(const TypeMap& map, int count, std::int64_t at, Blocks* out) {
  auto add = [out](std::int64_t off, std::int64_t len) {
    if (!len) return;
    if (!out->empty() && (*out)[out->size() - 2] + out->back() == off)
      out->back() += len;
    else
      out->push_back(off), out->push_back(len);
  };
  if (map.size == 0) return;
  if (map.contiguous()) {  // one block, whatever the count (not one per element)
    add(at, static_cast<std::int64_t>(count) * map.extent());
    return;
  }
  for (int i = 0; i < count; ++i) {
    std::int64_t first = at + static_cast<std::int64_t>(i) * map.extent();
    for (const Block& b : map.blocks) add(first + b.offset, static_cast<std::int64_t>(b.length));
  }
}

void gather(const char* base, const Blocks& blocks, char* out) {
  for (std::size_t i = 0; i < blocks.size(); i += 2) {
    std::memcpy(out, base + blocks[i], static_cast<std::size_t>(blocks[i + 1]));
    out += blocks[i + 1];
  }
}

void scatter(const char* in, const Blocks& blocks, char* base) {
  for (std::size_t i = 0; i < blocks.size(); i += 2) {
    std::memcpy(base + blocks[i], in, static_cast<std::size_t>(blocks[i + 1]));
    in += blocks[i + 1];
  }
}

// ---------------------------------------------------------------- the agent

void grant_waiting_locks(Window* w) {
  while (!w->lock_queue.empty()) {
    auto [origin, type] = w->lock_queue.front();
    bool ok = type == TMPI_LOCK_EXCLUSIVE ? (w->exclusive_holder < 0 && w->shared_holders == 0)
                                          : w->exclusive_holder < 0;
    if (!ok) return;
    w->lock_queue.pop_front();
    if (type == TMPI_LOCK_EXCLUSIVE)
      w->exclusive_holder = origin;
    else
      ++w->shared_holders;
    TMPI_Send(nullptr, 0, TMPI_DT_BYTE, origin, kAck, w->comm);
  }
}

void agent_main(void* arg) {
  auto* w = static_cast<Window*>(arg);
  std::vector<char> payload, current;
  Blocks blocks;
  for (;;) {
    Header h;
    TMPI_Status st;
    TMPI_Recv(&h, sizeof h, TMPI_DT_BYTE, TMPI_ANY_SOURCE, kRequest, w->comm, &st);
    const int src = st.MPI_SOURCE;
    blocks.assign(static_cast<std::size_t>(2 * h.nblocks), 0);
    if (h.nblocks)
      TMPI_Recv(blocks.data(), static_cast<int>(blocks.size()), TMPI_DT_INT64_T, src, kData, w->comm,
                TMPI_STATUS_IGNORE);
    payload.resize(static_cast<std::size_t>(h.bytes));
    if (h.bytes)
      TMPI_Recv(payload.data(), static_cast<int>(h.bytes), TMPI_DT_BYTE, src, kData, w->comm, TMPI_STATUS_IGNORE);
    switch (h.kind) {
      case Kind::Put:
        scatter(payload.data(), blocks, w->base);
        break;
      case Kind::Get:
        current.resize(static_cast<std::size_t>(h.reply_bytes));
        gather(w->base, blocks, current.data());
        TMPI_Send(current.data(), static_cast<int>(current.size()), TMPI_DT_BYTE, src, kReply, w->comm);
        break;
      case Kind::Acc:
      case Kind::GetAcc: {
        current.resize(static_cast<std::size_t>(h.reply_bytes));
        gather(w->base, blocks, current.data());
        if (h.kind == Kind::GetAcc)
          TMPI_Send(current.data(), static_cast<int>(current.size()), TMPI_DT_BYTE, src, kReply, w->comm);
        std::size_t elem = type_info(h.basic)->size;
        if (h.op != TMPI_OP_NO_OP && h.bytes) {
          apply_op(h.op, h.basic, payload.data(), current.data(), static_cast<std::size_t>(h.bytes) / elem);
          scatter(current.data(), blocks, w->base);
        }
        break;
      }
      case Kind::Cas: {
        std::size_t elem = static_cast<std::size_t>(h.reply_bytes);
        current.resize(elem);
        gather(w->base, blocks, current.data());
        TMPI_Send(current.data(), static_cast<int>(elem), TMPI_DT_BYTE, src, kReply, w->comm);
        if (std::memcmp(current.data(), payload.data() + elem, elem) == 0) scatter(payload.data(), blocks, w->base);
        break;
      }
      case Kind::Lock:
        w->lock_queue.emplace_back(src, h.lock_type);
        grant_waiting_locks(w);
        break;
      case Kind::Unlock:
        if (w->exclusive_holder == src)
          w->exclusive_holder = -1;
        else if (w->shared_holders > 0)
          --w->shared_holders;
        TMPI_Send(nullptr, 0, TMPI_DT_BYTE, src, kAck, w->comm);
        grant_waiting_locks(w);
        break;
      case Kind::Flush:
        TMPI_Send(nullptr, 0, TMPI_DT_BYTE, src, kAck, w->comm);
        break;
      case Kind::Stop:
        TMPI_Send(nullptr, 0, TMPI_DT_BYTE, src, kAck, w->comm);
        return;
    }
  }
}

// ---------------------------------------------------------------- origin side

int win_error(Window* w, int code, const char* call, const char* what) {
  if (w->user_errhandler != TMPI_ERRHANDLER_NULL) {
    TMPI_Win object = w->handle;
    call_user_errhandler(w->user_errhandler, &object, code);
    return code;
  }
  return mpi_error(current_subrank(), w->comm, code, call, "%s", what);
}

#define TMPI_WIN_CALL(NAME, WIN)                                                                        \
  const char* const call_name = NAME;                                                                   \
  Entered me = enter(call_name);                                                                       \
  Window* w = find(WIN);                                                                                \
  if (!w || w->owner != me)                                                                             \
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_WIN, call_name, "invalid window %d", static_cast<int>(WIN))

int send_request(Window* w, int target, const Header& h, const Blocks& blocks) {
  if (int err = TMPI_Send(&h, sizeof h, TMPI_DT_BYTE, target, kRequest, w->comm)) return err;
  if (h.nblocks)
    return TMPI_Send(blocks.data(), static_cast<int>(blocks.size()), TMPI_DT_INT64_T, target, kData, w->comm);
  return TMPI_SUCCESS;
}

// Waits until the agent of `target` has applied everything this subrank sent it.
int flush_target(Window* w, int target) {
  if (w->dirty[static_cast<std::size_t>(target)]) {
    Header h{Kind::Flush, 0, 0, 0, 0, 0, 0};
    if (int err = send_request(w, target, h, {})) return err;
    if (int err = TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, target, kAck, w->comm, TMPI_STATUS_IGNORE)) return err;
    w->dirty[static_cast<std::size_t>(target)] = 0;
  }
  auto& pending = w->replies[static_cast<std::size_t>(target)];
  int err = pending.empty() ? TMPI_SUCCESS
                            : TMPI_Waitall(static_cast<int>(pending.size()), pending.data(), TMPI_STATUSES_IGNORE);
  pending.clear();
  return err;
}

int flush_all(Window* w) {
  for (int t = 0; t < w->size; ++t)
    if (int err = flush_target(w, t)) return err;
  return TMPI_SUCCESS;
}

bool in_access_epoch(const Window* w, int target) {
  return w->fence_epoch || w->lock_all || w->lock_type[static_cast<std::size_t>(target)] != 0 ||
         std::find(w->start_group.begin(), w->start_group.end(), target) != w->start_group.end();
}

// The target side of a communication call: its datatype's map (kept alive
// by `keep`) and the window bytes it covers.
struct TargetBytes {
  const TypeMap* map = nullptr;
  TypeMapPtr keep;
  Blocks blocks;
};

// Checks a communication call's target and describes the target bytes.
int target_of(Window* w, const char* call, int target, TMPI_Aint disp, int count, TMPI_Datatype type,
              TargetBytes* out) {
  if (target < 0 || target >= w->size) return win_error(w, TMPI_ERR_RANK, call, "invalid target rank");
  if (count < 0) return win_error(w, TMPI_ERR_COUNT, call, "negative count");
  out->map = find_type(type, &out->keep);
  if (!out->map) return win_error(w, TMPI_ERR_TYPE, call, "invalid target datatype");
  // The target's bytes travel as a list of blocks.
  if (out->map->compact())
    return win_error(w, TMPI_ERR_TYPE, call,
                     "the target datatype has more than 16 Mi separate blocks of data: Tucana's one-sided "
                     "operations list the target's blocks, and refuse one that large");
  if (!in_access_epoch(w, target))
    return win_error(w, TMPI_ERR_RMA_SYNC, call,
                     "no access epoch to the target (call MPI_Win_fence, MPI_Win_start or MPI_Win_lock first)");
  std::int64_t unit = w->disp_units[static_cast<std::size_t>(target)];
  append_blocks(*out->map, count, static_cast<std::int64_t>(disp) * unit, &out->blocks);
  TMPI_Aint limit = w->sizes[static_cast<std::size_t>(target)];
  if (limit >= 0)
    for (std::size_t i = 0; i < out->blocks.size(); i += 2)
      if (out->blocks[i] < 0 || out->blocks[i] + out->blocks[i + 1] > limit)
        return win_error(w, TMPI_ERR_RMA_RANGE, call, "target bytes outside the target's window");
  return TMPI_SUCCESS;
}

int origin_bytes(Window* w, const char* call, int count, TMPI_Datatype type, std::int64_t* bytes) {
  TypeMapPtr keep;
  const TypeMap* map = find_type(type, &keep);
  if (!map) return win_error(w, TMPI_ERR_TYPE, call, "invalid origin datatype");
  if (count < 0) return win_error(w, TMPI_ERR_COUNT, call, "negative count");
  *bytes = static_cast<std::int64_t>(map->size) * count;
  return TMPI_SUCCESS;
}

// The request of a request-based operation that has nothing left to do
// (a target of MPI_PROC_NULL, no data): complete from the start, as MPI
// wants a request the program can wait for, not MPI_REQUEST_NULL.
int completed_request(TMPI_Request* request) {
  return TMPI_Isend(nullptr, 0, TMPI_DT_BYTE, TMPI_PROC_NULL, 0, TMPI_COMM_SELF, request);
}

// TMPI_WIN_CALL for a communication call (`REQUEST` null unless it is
// request-based): the request stays null until it is made, and a target of
// MPI_PROC_NULL has nothing to do.
#define TMPI_WIN_OPERATION(NAME, WIN, TARGET, REQUEST)          \
  TMPI_WIN_CALL(NAME, WIN);                                    \
  if (REQUEST) *(REQUEST) = TMPI_REQUEST_NULL;                 \
  if ((TARGET) == TMPI_PROC_NULL) return (REQUEST) ? completed_request(REQUEST) : TMPI_SUCCESS

int do_put(const char* call, const void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp,
           int tcount, TMPI_Datatype ttype, TMPI_Win win, TMPI_Request* request) {
  TMPI_WIN_OPERATION(call, win, target, request);
  std::int64_t bytes;
  if (int err = origin_bytes(w, call, ocount, otype, &bytes)) return err;
  TargetBytes to;
  if (int err = target_of(w, call, target, disp, tcount, ttype, &to)) return err;
  const TypeMap* tmap = to.map;
  const Blocks& blocks = to.blocks;
  if (bytes != static_cast<std::int64_t>(tmap->size) * tcount)
    return win_error(w, TMPI_ERR_TYPE, call, "origin and target data differ in size");
  Header h{Kind::Put, 0, 0, 0, static_cast<std::int64_t>(blocks.size() / 2), bytes, 0};
  if (int err = send_request(w, target, h, blocks)) return err;
  w->dirty[static_cast<std::size_t>(target)] = 1;
  if (!bytes) return request ? completed_request(request) : TMPI_SUCCESS;
  if (request) return TMPI_Isend(origin, ocount, otype, target, kData, w->comm, request);
  return TMPI_Send(origin, ocount, otype, target, kData, w->comm);
}

// Get, Accumulate, Get_accumulate, Fetch_and_op: `origin` (may be null for a
// get) is sent, and the target's old data lands in `result` when given.
int do_access(const char* call, Kind kind, const void* origin, int ocount, TMPI_Datatype otype, void* result,
              int rcount, TMPI_Datatype rtype, int target, TMPI_Aint disp, int tcount, TMPI_Datatype ttype,
              TMPI_Op op, TMPI_Win win, TMPI_Request* request) {
  TMPI_WIN_OPERATION(call, win, target, request);
  TargetBytes to;
  if (int err = target_of(w, call, target, disp, tcount, ttype, &to)) return err;
  const TypeMap* tmap = to.map;
  const Blocks& blocks = to.blocks;
  std::int64_t target_bytes = static_cast<std::int64_t>(tmap->size) * tcount;
  std::int64_t sent = 0;
  Header h{kind, 0, op, tmap->basic, static_cast<std::int64_t>(blocks.size() / 2), 0, target_bytes};
  if (kind != Kind::Get) {
    if (op == TMPI_OP_NULL || op < TMPI_OP_FIRST_ || op >= TMPI_OP_END_)
      return win_error(w, TMPI_ERR_OP, call, "one-sided accumulates take predefined operations only");
    if (tmap->basic == TMPI_DATATYPE_NULL || !type_info(tmap->basic))
      return win_error(w, TMPI_ERR_TYPE, call, "the target datatype must be made of one predefined type");
    if (op != TMPI_OP_NO_OP) {
      if (int err = origin_bytes(w, call, ocount, otype, &sent)) return err;
      if (sent != target_bytes) return win_error(w, TMPI_ERR_TYPE, call, "origin and target data differ in size");
      std::vector<char> probe(type_info(tmap->basic)->size * 2);
      if (!apply_op(op, tmap->basic, probe.data(), probe.data() + probe.size() / 2, 0) && op != TMPI_OP_REPLACE)
        return win_error(w, TMPI_ERR_OP, call, "the operation is not defined on the target datatype");
    }
    h.bytes = sent;
  }
  if (result) {
    std::int64_t rbytes;
    if (int err = origin_bytes(w, call, rcount, rtype, &rbytes)) return err;
    if (rbytes != target_bytes) return win_error(w, TMPI_ERR_TYPE, call, "result and target data differ in size");
  }
  // The reply's receive is posted first: the agent may answer at once.
  TMPI_Request reply = TMPI_REQUEST_NULL;
  if (result && target_bytes) {
    if (int err = TMPI_Irecv(result, rcount, rtype, target, kReply, w->comm, &reply)) return err;
  } else if (result || kind == Kind::Get || kind == Kind::GetAcc) {
    // nothing to receive, but the agent still answers
    if (int err = TMPI_Irecv(nullptr, 0, TMPI_DT_BYTE, target, kReply, w->comm, &reply)) return err;
  }
  if (int err = send_request(w, target, h, blocks)) return err;
  w->dirty[static_cast<std::size_t>(target)] = 1;
  if (sent) {
    if (int err = TMPI_Send(origin, ocount, otype, target, kData, w->comm)) return err;
  }
  if (reply != TMPI_REQUEST_NULL) {
    if (request)
      *request = reply;
    else
      w->replies[static_cast<std::size_t>(target)].push_back(reply);
  } else if (request) {
    return completed_request(request);
  }
  return TMPI_SUCCESS;
}

int to_window_ranks(Window* w, TMPI_Group group, std::vector<int>* out) {
  int n = 0;
  if (int err = TMPI_Group_size(group, &n)) return err;
  std::vector<int> in(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = i;
  out->assign(static_cast<std::size_t>(n), 0);
  TMPI_Group wg;
  TMPI_Comm_group(w->comm, &wg);
  int err = TMPI_Group_translate_ranks(group, n, in.data(), wg, out->data());
  TMPI_Group_free(&wg);
  return err;
}

int create_window(const char* call, TMPI_Comm comm, char* base, TMPI_Aint size, int disp_unit, int flavor,
                  TMPI_Win* win, Window** made = nullptr) {
  Entered me = enter(call);
  if (!win) return mpi_error(me, comm, TMPI_ERR_ARG, call, "null window pointer");
  if (is_inter(me, comm)) return inter_unsupported(me, comm, call);
  if (size < 0) return mpi_error(me, comm, TMPI_ERR_SIZE, call, "negative size");
  if (disp_unit <= 0) return mpi_error(me, comm, TMPI_ERR_DISP, call, "displacement unit must be positive");
  auto* w = new Window;
  if (int err = TMPI_Comm_dup(comm, &w->comm)) {
    delete w;
    return err;
  }
  w->owner = me;
  w->base = base;
  w->bytes = size;
  w->disp_unit = disp_unit;
  w->flavor = flavor;
  TMPI_Comm_rank(w->comm, &w->rank);
  TMPI_Comm_size(w->comm, &w->size);
  w->sizes.resize(static_cast<std::size_t>(w->size));
  w->disp_units.resize(static_cast<std::size_t>(w->size));
  TMPI_Aint mine = flavor == TMPI_WIN_FLAVOR_DYNAMIC ? -1 : size;
  TMPI_Allgather(&mine, 1, TMPI_DT_AINT, w->sizes.data(), 1, TMPI_DT_AINT, w->comm);
  TMPI_Allgather(&disp_unit, 1, TMPI_DT_INT, w->disp_units.data(), 1, TMPI_DT_INT, w->comm);
  w->lock_type.assign(static_cast<std::size_t>(w->size), 0);
  w->dirty.assign(static_cast<std::size_t>(w->size), 0);
  w->replies.resize(static_cast<std::size_t>(w->size));
  w->handle = table().allocate(w);
  w->name = "window " + std::to_string(w->handle);
  std::string comm_label = "MPI_Win " + std::to_string(w->handle) + " (one-sided requests)";
  TMPI_Comm_set_name(w->comm, comm_label.c_str());
  Runtime& rt = Runtime::get();
  rt.scheduler->spawn_transient(&agent_main, w, kAgentStack, me, me->world);
  *win = w->handle;
  if (made) *made = w;
  return TMPI_SUCCESS;
}

// Ends the agent of `w` and forgets the window (its memory stays).
void stop_agent(Window* w) {
  Header h{Kind::Stop, 0, 0, 0, 0, 0, 0};
  TMPI_Send(&h, sizeof h, TMPI_DT_BYTE, w->rank, kRequest, w->comm);
  TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, w->rank, kAck, w->comm, TMPI_STATUS_IGNORE);
}

}  // namespace

namespace tucana::mpi {

void rma_finalize(Subrank* me) {
  std::vector<Window*> mine;
  {
    WindowTable& t = table();
    sync::MutexLock hold(t.mutex());
    t.for_each_locked([&](TMPI_Win, Window* w) {
      if (w->owner == me) mine.push_back(w);
    });
  }
  // Windows the program did not free: their agents must end for the
  // process to end. Nothing more will be applied to their memory.
  for (Window* w : mine) {
    stop_agent(w);
    table().release(w->handle);
  }
}

}  // namespace tucana::mpi

extern "C" {

// ---------------------------------------------------------------- creation

int TMPI_Win_create(void* base, TMPI_Aint size, int disp_unit, TMPI_Info, TMPI_Comm comm, TMPI_Win* win) {
  return create_window("MPI_Win_create", comm, static_cast<char*>(base), size, disp_unit, TMPI_WIN_FLAVOR_CREATE,
                       win);
}

int TMPI_Win_allocate(TMPI_Aint size, int disp_unit, TMPI_Info, TMPI_Comm comm, void* baseptr, TMPI_Win* win) {
  char* base = size > 0 ? static_cast<char*>(std::calloc(1, static_cast<std::size_t>(size))) : nullptr;
  Window* w = nullptr;
  int err = create_window("MPI_Win_allocate", comm, base, size, disp_unit, TMPI_WIN_FLAVOR_ALLOCATE, win, &w);
  if (err) {
    std::free(base);
    return err;
  }
  w->owns_memory = true;
  *static_cast<void**>(baseptr) = base;
  return TMPI_SUCCESS;
}

// The subranks of one process share its memory: the segments are one block,
// rank after rank (MPI's default, contiguous layout).
int TMPI_Win_allocate_shared(TMPI_Aint size, int disp_unit, TMPI_Info, TMPI_Comm comm, void* baseptr,
                             TMPI_Win* win) {
  const char* call = "MPI_Win_allocate_shared";
  Entered me = enter(call);
  int n = 0, rank = 0;
  if (int err = TMPI_Comm_size(comm, &n)) return err;
  TMPI_Comm_rank(comm, &rank);
  std::vector<long long> pids(static_cast<std::size_t>(n));
  long long pid = static_cast<long long>(getpid());
  TMPI_Allgather(&pid, 1, TMPI_DT_LONG_LONG_INT, pids.data(), 1, TMPI_DT_LONG_LONG_INT, comm);
  if (std::any_of(pids.begin(), pids.end(), [&](long long p) { return p != pid; }))
    return mpi_error(me, comm, TMPI_ERR_RMA_SHARED, call,
                     "the communicator spans several processes; memory is shared only by the subranks of one "
                     "process (split with MPI_COMM_TYPE_SHARED first)");
  std::vector<TMPI_Aint> sizes(static_cast<std::size_t>(n));
  TMPI_Aint mine = std::max<TMPI_Aint>(size, 0);
  TMPI_Allgather(&mine, 1, TMPI_DT_AINT, sizes.data(), 1, TMPI_DT_AINT, comm);
  TMPI_Aint total = 0;
  for (TMPI_Aint s : sizes) total += (s + 15) / 16 * 16;
  TMPI_Aint block = 0;
  if (rank == 0) block = reinterpret_cast<TMPI_Aint>(std::calloc(1, static_cast<std::size_t>(total ? total : 1)));
  TMPI_Bcast(&block, 1, TMPI_DT_AINT, 0, comm);
  std::vector<char*> bases(static_cast<std::size_t>(n));
  TMPI_Aint at = 0;
  for (int r = 0; r < n; ++r) {
    bases[static_cast<std::size_t>(r)] = reinterpret_cast<char*>(block) + at;
    at += (sizes[static_cast<std::size_t>(r)] + 15) / 16 * 16;
  }
  Window* w = nullptr;
  if (int err = create_window(call, comm, bases[static_cast<std::size_t>(rank)], size, disp_unit,
                              TMPI_WIN_FLAVOR_SHARED, win, &w))
    return err;
  w->bases = std::move(bases);
  if (rank == 0) w->shared_block = reinterpret_cast<char*>(block);
  *static_cast<void**>(baseptr) = w->base;
  return TMPI_SUCCESS;
}

int TMPI_Win_create_dynamic(TMPI_Info, TMPI_Comm comm, TMPI_Win* win) {
  return create_window("MPI_Win_create_dynamic", comm, nullptr, 0, 1, TMPI_WIN_FLAVOR_DYNAMIC, win);
}

// A dynamic window's target displacements are addresses (MPI_Get_address at
// the target), so attaching records nothing.
int TMPI_Win_attach(TMPI_Win win, void* base, TMPI_Aint size) {
  TMPI_WIN_CALL("MPI_Win_attach", win);
  if (w->flavor != TMPI_WIN_FLAVOR_DYNAMIC)
    return win_error(w, TMPI_ERR_RMA_FLAVOR, call_name, "not a window of MPI_Win_create_dynamic");
  if (size < 0 || (!base && size > 0)) return win_error(w, TMPI_ERR_RMA_ATTACH, call_name, "invalid memory");
  return TMPI_SUCCESS;
}

int TMPI_Win_detach(TMPI_Win win, const void*) {
  TMPI_WIN_CALL("MPI_Win_detach", win);
  if (w->flavor != TMPI_WIN_FLAVOR_DYNAMIC)
    return win_error(w, TMPI_ERR_RMA_FLAVOR, call_name, "not a window of MPI_Win_create_dynamic");
  return TMPI_SUCCESS;
}

int TMPI_Win_free(TMPI_Win* win) {
  if (!win) return mpi_error(enter("MPI_Win_free"), TMPI_COMM_WORLD, TMPI_ERR_WIN, "MPI_Win_free", "null window");
  TMPI_WIN_CALL("MPI_Win_free", *win);
  if (int err = delete_attributes(AttrKind::Win, w->handle)) return err;
  if (int err = flush_all(w)) return err;
  // After the barrier no origin sends this window anything more.
  if (int err = TMPI_Barrier(w->comm)) return err;
  stop_agent(w);
  table().release(w->handle);
  if (w->owns_memory) std::free(w->base);
  std::free(w->shared_block);
  TMPI_Comm_free(&w->comm);
  delete w;
  *win = TMPI_WIN_NULL;
  return TMPI_SUCCESS;
}

int TMPI_Win_shared_query(TMPI_Win win, int rank, TMPI_Aint* size, int* disp_unit, void* baseptr) {
  TMPI_WIN_CALL("MPI_Win_shared_query", win);
  if (w->flavor != TMPI_WIN_FLAVOR_SHARED)
    return win_error(w, TMPI_ERR_RMA_FLAVOR, call_name, "not a window of MPI_Win_allocate_shared");
  if (rank == TMPI_PROC_NULL) {  // the first rank with memory
    rank = 0;
    while (rank < w->size - 1 && w->sizes[static_cast<std::size_t>(rank)] == 0) ++rank;
  }
  if (rank < 0 || rank >= w->size) return win_error(w, TMPI_ERR_RANK, call_name, "invalid rank");
  *size = w->sizes[static_cast<std::size_t>(rank)];
  *disp_unit = w->disp_units[static_cast<std::size_t>(rank)];
  // A segment of size 0 has no address: NULL (as MPI says and MPICH does),
  // even where it sits between two others in the block.
  *static_cast<void**>(baseptr) = *size == 0 ? nullptr : w->bases[static_cast<std::size_t>(rank)];
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- queries

int TMPI_Win_get_attr(TMPI_Win win, int keyval, void* value, int* flag) {
  TMPI_WIN_CALL("MPI_Win_get_attr", win);
  *flag = 1;
  switch (keyval) {
    case TMPI_WIN_BASE: *static_cast<void**>(value) = w->base; break;
    case TMPI_WIN_SIZE: *static_cast<TMPI_Aint**>(value) = &w->bytes; break;
    case TMPI_WIN_DISP_UNIT: *static_cast<int**>(value) = &w->disp_unit; break;
    case TMPI_WIN_CREATE_FLAVOR: *static_cast<int**>(value) = &w->flavor; break;
    case TMPI_WIN_MODEL: *static_cast<int**>(value) = &w->model; break;
    default: {
      void* user = nullptr;
      *flag = get_attribute(AttrKind::Win, win, keyval, &user);
      if (*flag) *static_cast<void**>(value) = user;
    }
  }
  return TMPI_SUCCESS;
}

int TMPI_Win_get_group(TMPI_Win win, TMPI_Group* group) {
  TMPI_WIN_CALL("MPI_Win_get_group", win);
  return TMPI_Comm_group(w->comm, group);
}

int TMPI_Win_set_name(TMPI_Win win, const char* name) {
  TMPI_WIN_CALL("MPI_Win_set_name", win);
  w->name.assign(name ? name : "", 0, TMPI_MAX_OBJECT_NAME - 1);
  return TMPI_SUCCESS;
}

int TMPI_Win_get_name(TMPI_Win win, char* name, int* resultlen) {
  TMPI_WIN_CALL("MPI_Win_get_name", win);
  std::strcpy(name, w->name.c_str());
  *resultlen = static_cast<int>(w->name.size());
  return TMPI_SUCCESS;
}

// A window's errors go through the error handler of its private communicator.
int TMPI_Win_set_errhandler(TMPI_Win win, TMPI_Errhandler errhandler) {
  TMPI_WIN_CALL("MPI_Win_set_errhandler", win);
  if (errhandler == TMPI_ERRORS_ARE_FATAL || errhandler == TMPI_ERRORS_RETURN) {
    w->user_errhandler = TMPI_ERRHANDLER_NULL;
    return TMPI_Comm_set_errhandler(w->comm, errhandler);
  }
  if (!valid_errhandler(errhandler, ErrhandlerKind::Win))
    return win_error(w, TMPI_ERR_ARG, call_name, "not an error handler for windows (MPI_Win_create_errhandler makes them)");
  w->user_errhandler = errhandler;
  return TMPI_SUCCESS;
}

int TMPI_Win_get_errhandler(TMPI_Win win, TMPI_Errhandler* errhandler) {
  TMPI_WIN_CALL("MPI_Win_get_errhandler", win);
  if (w->user_errhandler != TMPI_ERRHANDLER_NULL) {
    *errhandler = w->user_errhandler;
    return TMPI_SUCCESS;
  }
  return TMPI_Comm_get_errhandler(w->comm, errhandler);
}

int TMPI_Win_call_errhandler(TMPI_Win win, int errorcode) {
  TMPI_WIN_CALL("MPI_Win_call_errhandler", win);
  win_error(w, errorcode, call_name, "error code raised by the program");
  return TMPI_SUCCESS;  // the handler returned
}

int TMPI_Win_set_info(TMPI_Win win, TMPI_Info info) {
  TMPI_WIN_CALL("MPI_Win_set_info", win);
  if (!valid_info(info)) return win_error(w, TMPI_ERR_INFO, call_name, "invalid info object");
  return TMPI_SUCCESS;
}

int TMPI_Win_get_info(TMPI_Win win, TMPI_Info* info_used) {
  TMPI_WIN_CALL("MPI_Win_get_info", win);
  *info_used = new_info();
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- communication

int TMPI_Put(const void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
             TMPI_Datatype ttype, TMPI_Win win) {
  return do_put("MPI_Put", origin, ocount, otype, target, disp, tcount, ttype, win, nullptr);
}

int TMPI_Rput(const void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
              TMPI_Datatype ttype, TMPI_Win win, TMPI_Request* request) {
  return do_put("MPI_Rput", origin, ocount, otype, target, disp, tcount, ttype, win, request);
}

int TMPI_Get(void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
             TMPI_Datatype ttype, TMPI_Win win) {
  return do_access("MPI_Get", Kind::Get, nullptr, 0, TMPI_DT_BYTE, origin, ocount, otype, target, disp, tcount, ttype,
                   TMPI_OP_NO_OP, win, nullptr);
}

int TMPI_Rget(void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
              TMPI_Datatype ttype, TMPI_Win win, TMPI_Request* request) {
  return do_access("MPI_Rget", Kind::Get, nullptr, 0, TMPI_DT_BYTE, origin, ocount, otype, target, disp, tcount, ttype,
                   TMPI_OP_NO_OP, win, request);
}

int TMPI_Accumulate(const void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
                    TMPI_Datatype ttype, TMPI_Op op, TMPI_Win win) {
  return do_access("MPI_Accumulate", Kind::Acc, origin, ocount, otype, nullptr, 0, TMPI_DT_BYTE, target, disp, tcount,
                   ttype, op, win, nullptr);
}

// A request-based accumulate completes locally when its data has been sent,
// which the blocking send below has done by the time the call returns.
int TMPI_Raccumulate(const void* origin, int ocount, TMPI_Datatype otype, int target, TMPI_Aint disp, int tcount,
                     TMPI_Datatype ttype, TMPI_Op op, TMPI_Win win, TMPI_Request* request) {
  int err = do_access("MPI_Raccumulate", Kind::Acc, origin, ocount, otype, nullptr, 0, TMPI_DT_BYTE, target, disp,
                      tcount, ttype, op, win, nullptr);
  if (err) return err;
  return completed_request(request);
}

int TMPI_Get_accumulate(const void* origin, int ocount, TMPI_Datatype otype, void* result, int rcount,
                        TMPI_Datatype rtype, int target, TMPI_Aint disp, int tcount, TMPI_Datatype ttype, TMPI_Op op,
                        TMPI_Win win) {
  return do_access("MPI_Get_accumulate", Kind::GetAcc, origin, ocount, otype, result, rcount, rtype, target, disp,
                   tcount, ttype, op, win, nullptr);
}

int TMPI_Rget_accumulate(const void* origin, int ocount, TMPI_Datatype otype, void* result, int rcount,
                         TMPI_Datatype rtype, int target, TMPI_Aint disp, int tcount, TMPI_Datatype ttype, TMPI_Op op,
                         TMPI_Win win, TMPI_Request* request) {
  return do_access("MPI_Rget_accumulate", Kind::GetAcc, origin, ocount, otype, result, rcount, rtype, target, disp,
                   tcount, ttype, op, win, request);
}

int TMPI_Fetch_and_op(const void* origin, void* result, TMPI_Datatype type, int target, TMPI_Aint disp, TMPI_Op op,
                      TMPI_Win win) {
  return do_access("MPI_Fetch_and_op", Kind::GetAcc, origin, 1, type, result, 1, type, target, disp, 1, type, op,
                   win, nullptr);
}

int TMPI_Compare_and_swap(const void* origin, const void* compare, void* result, TMPI_Datatype type, int target,
                          TMPI_Aint disp, TMPI_Win win) {
  const char* call = "MPI_Compare_and_swap";
  TMPI_WIN_CALL(call, win);
  if (target == TMPI_PROC_NULL) return TMPI_SUCCESS;
  TargetBytes to;
  if (int err = target_of(w, call, target, disp, 1, type, &to)) return err;
  const TypeMap* map = to.map;
  const Blocks& blocks = to.blocks;
  if (!map->predefined) return win_error(w, TMPI_ERR_TYPE, call, "the datatype must be predefined");
  std::int64_t elem = static_cast<std::int64_t>(map->size);
  std::vector<char> payload(static_cast<std::size_t>(2 * elem));
  pack(origin, 1, *map, payload.data());
  pack(compare, 1, *map, payload.data() + elem);
  TMPI_Request reply;
  if (int err = TMPI_Irecv(result, 1, type, target, kReply, w->comm, &reply)) return err;
  Header h{Kind::Cas, 0, 0, type, static_cast<std::int64_t>(blocks.size() / 2), 2 * elem, elem};
  if (int err = send_request(w, target, h, blocks)) return err;
  w->dirty[static_cast<std::size_t>(target)] = 1;
  if (int err = TMPI_Send(payload.data(), static_cast<int>(payload.size()), TMPI_DT_BYTE, target, kData, w->comm))
    return err;
  w->replies[static_cast<std::size_t>(target)].push_back(reply);
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- synchronization

int TMPI_Win_fence(int assert, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_fence", win);
  if (int err = flush_all(w)) return err;
  if (int err = TMPI_Barrier(w->comm)) return err;
  w->fence_epoch = !(assert & TMPI_MODE_NOSUCCEED);
  return TMPI_SUCCESS;
}

int TMPI_Win_post(TMPI_Group group, int, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_post", win);
  if (!w->post_group.empty()) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "an exposure epoch is open already");
  if (int err = to_window_ranks(w, group, &w->post_group)) return err;
  for (int origin : w->post_group)
    if (int err = TMPI_Send(nullptr, 0, TMPI_DT_BYTE, origin, kPost, w->comm)) return err;
  return TMPI_SUCCESS;
}

int TMPI_Win_start(TMPI_Group group, int, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_start", win);
  if (!w->start_group.empty()) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "an access epoch is open already");
  std::vector<int> targets;
  if (int err = to_window_ranks(w, group, &targets)) return err;
  for (int target : targets)
    if (int err = TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, target, kPost, w->comm, TMPI_STATUS_IGNORE)) return err;
  w->start_group = std::move(targets);
  return TMPI_SUCCESS;
}

int TMPI_Win_complete(TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_complete", win);
  for (int target : w->start_group) {
    if (int err = flush_target(w, target)) return err;
    if (int err = TMPI_Send(nullptr, 0, TMPI_DT_BYTE, target, kComplete, w->comm)) return err;
  }
  w->start_group.clear();
  return TMPI_SUCCESS;
}

int TMPI_Win_wait(TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_wait", win);
  for (int origin : w->post_group)
    if (int err = TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, origin, kComplete, w->comm, TMPI_STATUS_IGNORE)) return err;
  w->post_group.clear();
  return TMPI_SUCCESS;
}

int TMPI_Win_test(TMPI_Win win, int* flag) {
  TMPI_WIN_CALL("MPI_Win_test", win);
  for (int origin : w->post_group) {
    int here = 0;
    if (int err = TMPI_Iprobe(origin, kComplete, w->comm, &here, TMPI_STATUS_IGNORE)) return err;
    if (!here) {
      *flag = 0;
      return TMPI_SUCCESS;
    }
  }
  *flag = 1;
  return TMPI_Win_wait(win);
}

int TMPI_Win_lock(int lock_type, int rank, int assert, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_lock", win);
  if (lock_type != TMPI_LOCK_SHARED && lock_type != TMPI_LOCK_EXCLUSIVE)
    return win_error(w, TMPI_ERR_LOCKTYPE, call_name, "invalid lock type");
  if (rank == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (rank < 0 || rank >= w->size) return win_error(w, TMPI_ERR_RANK, call_name, "invalid rank");
  int& held = w->lock_type[static_cast<std::size_t>(rank)];
  if (held) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "the target is locked already");
  if (assert & TMPI_MODE_NOCHECK) {  // the program promises no conflicting lock
    held = -1;
    return TMPI_SUCCESS;
  }
  Header h{Kind::Lock, lock_type, 0, 0, 0, 0, 0};
  if (int err = send_request(w, rank, h, {})) return err;
  if (int err = TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, rank, kAck, w->comm, TMPI_STATUS_IGNORE)) return err;
  held = lock_type;
  return TMPI_SUCCESS;
}

int TMPI_Win_unlock(int rank, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_unlock", win);
  if (rank == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (rank < 0 || rank >= w->size) return win_error(w, TMPI_ERR_RANK, call_name, "invalid rank");
  int& held = w->lock_type[static_cast<std::size_t>(rank)];
  if (!held) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "the target is not locked");
  if (held > 0) {  // the agent answers after applying what came before
    Header h{Kind::Unlock, 0, 0, 0, 0, 0, 0};
    if (int err = send_request(w, rank, h, {})) return err;
    if (int err = TMPI_Recv(nullptr, 0, TMPI_DT_BYTE, rank, kAck, w->comm, TMPI_STATUS_IGNORE)) return err;
    w->dirty[static_cast<std::size_t>(rank)] = 0;
  }
  int err = flush_target(w, rank);
  held = 0;
  return err;
}

int TMPI_Win_lock_all(int assert, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_lock_all", win);
  if (w->lock_all) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "MPI_Win_lock_all was called already");
  for (int r = 0; r < w->size; ++r)
    if (int err = TMPI_Win_lock(TMPI_LOCK_SHARED, r, assert, win)) return err;
  w->lock_all = true;
  return TMPI_SUCCESS;
}

int TMPI_Win_unlock_all(TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_unlock_all", win);
  if (!w->lock_all) return win_error(w, TMPI_ERR_RMA_SYNC, call_name, "no MPI_Win_lock_all to end");
  w->lock_all = false;
  for (int r = 0; r < w->size; ++r)
    if (int err = TMPI_Win_unlock(r, win)) return err;
  return TMPI_SUCCESS;
}

int TMPI_Win_flush(int rank, TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_flush", win);
  if (rank == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (rank < 0 || rank >= w->size) return win_error(w, TMPI_ERR_RANK, call_name, "invalid rank");
  return flush_target(w, rank);
}

int TMPI_Win_flush_all(TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_flush_all", win);
  return flush_all(w);
}

// Local completion: Tucana's flush is also local completion.
int TMPI_Win_flush_local(int rank, TMPI_Win win) { return TMPI_Win_flush(rank, win); }
int TMPI_Win_flush_local_all(TMPI_Win win) { return TMPI_Win_flush_all(win); }

int TMPI_Win_sync(TMPI_Win win) {
  TMPI_WIN_CALL("MPI_Win_sync", win);
  (void)w;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return TMPI_SUCCESS;
}

}  // extern "C"
