// Info objects (MPI_Info_*): ordered (key, value) lists in a process-wide
// table, since an info handle may be passed between the subranks of a
// process like any other value. Tucana reads no hints: MPI_Comm_get_info and
// MPI_Win_get_info give an empty info (what MPI allows when no hint is used).
#include <tucana/tmpi.h>

#include <cstring>
#include <unistd.h>
#include <string>
#include <utility>
#include <vector>

#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "mpi/info.h"
#include "core/runtime.h"
#include "sync/mutex.h"

using namespace tucana::mpi;

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

// 0: MPI_INFO_NULL, 1: MPI_INFO_ENV (not in the table). A freed handle is
// the next one given out (a LIFO free list). The entries an object points to
// are guarded by the table's lock too.
using InfoTable = HandleTable<Entries*, HandleReuse::kLastFreed>;
InfoTable& table() {
  // Never destroyed: used until the process exits.
  static InfoTable* t = new InfoTable(tucana::sync::LockLevel::kLeaf, "info objects", 2);
  return *t;
}

// MPI_INFO_ENV: what mpiexec was asked for, as far as Tucana knows it. The
// first call makes MPI calls: not under the table lock (lookup's callers
// make it first).
Entries* env_entries() {
  static Entries* env = [] {
    auto* e = new Entries;
    // (The layout, not MPI_Comm_size: MPI_INFO_ENV may be read before MPI_Init.)
    e->emplace_back("maxprocs", std::to_string(tucana::mpi::Runtime::get().layout.total));
    e->emplace_back("thread_level", "MPI_THREAD_FUNNELED");
    return e;
  }();
  return env;
}

// The entries of `info`, or null when it is not a live info.
Entries* lookup(TMPI_Info info) TUCANA_REQUIRES(table().mutex()) {
  if (info == TMPI_INFO_ENV) return env_entries();
  Entries** e = table().find_locked(info);
  return e ? *e : nullptr;
}

int info_error(int code, const char* call, const char* what) {
  return mpi_error(current_subrank(), TMPI_COMM_WORLD, code, call, "%s", what);
}

}  // namespace

namespace tucana::mpi {

TMPI_Info new_info() {
  return table().allocate(new Entries);
}

bool valid_info(TMPI_Info info) {
  if (info == TMPI_INFO_NULL) return true;
  tucana::sync::MutexLock hold(table().mutex());
  return info == TMPI_INFO_ENV || lookup(info) != nullptr;
}

}  // namespace tucana::mpi

// MPI 4.0: the MPI_Info calls work before MPI_Init and after MPI_Finalize.
#define TMPI_INFO_LOOKUP(CALL, INFO)                                                      \
  enter(CALL, true);                                                                      \
  if ((INFO) == TMPI_INFO_ENV) env_entries(); /* made outside the lock */                 \
  tucana::sync::MutexLock hold(table().mutex());                                          \
  Entries* e = lookup(INFO);                                                              \
  if (!e) {                                                                               \
    hold.unlock();                                                                        \
    return info_error(TMPI_ERR_INFO, CALL, "invalid info object");                        \
  }

extern "C" {

int TMPI_Info_create(TMPI_Info* info) {
  enter("MPI_Info_create", true);
  if (!info) return info_error(TMPI_ERR_ARG, "MPI_Info_create", "null info pointer");
  *info = new_info();
  return TMPI_SUCCESS;
}

// MPI 4.0: how the program was started, as MPI_Comm_spawn's keys say it
// (its command, arguments, the number of ranks, the working directory,
// the thread level Tucana provides). Also before MPI_Init.
int TMPI_Info_create_env(int argc, char* argv[], TMPI_Info* info) {
  const char* call = "MPI_Info_create_env";
  enter(call, true);
  if (!info) return info_error(TMPI_ERR_ARG, call, "null info pointer");
  *info = new_info();
  std::vector<std::pair<std::string, std::string>> entries;
  if (argc > 0 && argv && argv[0]) {
    entries.emplace_back("command", argv[0]);
    std::string args;
    for (int i = 1; i < argc && argv[i]; ++i) args += (i > 1 ? " " : "") + std::string(argv[i]);
    if (!args.empty()) entries.emplace_back("argv", args);
  }
  entries.emplace_back("maxprocs", std::to_string(Runtime::get().layout.total));
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) entries.emplace_back("wdir", cwd);
  entries.emplace_back("thread_level", "MPI_THREAD_FUNNELED");
  for (const auto& [key, value] : entries)
    if (key.size() <= TMPI_MAX_INFO_KEY && value.size() <= TMPI_MAX_INFO_VAL)
      if (int e = TMPI_Info_set(*info, key.c_str(), value.c_str())) return e;
  return TMPI_SUCCESS;
}

int TMPI_Info_set(TMPI_Info info, const char* key, const char* value) {
  if (!key || !value) return info_error(TMPI_ERR_ARG, "MPI_Info_set", "null key or value");
  if (std::strlen(key) > TMPI_MAX_INFO_KEY || !*key)
    return info_error(TMPI_ERR_INFO_KEY, "MPI_Info_set", "key empty or longer than MPI_MAX_INFO_KEY");
  if (std::strlen(value) > TMPI_MAX_INFO_VAL)
    return info_error(TMPI_ERR_INFO_VALUE, "MPI_Info_set", "value longer than MPI_MAX_INFO_VAL");
  if (info == TMPI_INFO_ENV) return info_error(TMPI_ERR_INFO, "MPI_Info_set", "MPI_INFO_ENV is read-only");
  TMPI_INFO_LOOKUP("MPI_Info_set", info);
  for (auto& kv : *e)
    if (kv.first == key) {
      kv.second = value;
      return TMPI_SUCCESS;
    }
  e->emplace_back(key, value);
  return TMPI_SUCCESS;
}

int TMPI_Info_delete(TMPI_Info info, const char* key) {
  if (info == TMPI_INFO_ENV) return info_error(TMPI_ERR_INFO, "MPI_Info_delete", "MPI_INFO_ENV is read-only");
  TMPI_INFO_LOOKUP("MPI_Info_delete", info);
  for (auto it = e->begin(); it != e->end(); ++it)
    if (key && it->first == key) {
      e->erase(it);
      return TMPI_SUCCESS;
    }
  hold.unlock();
  return info_error(TMPI_ERR_INFO_NOKEY, "MPI_Info_delete", "no such key");
}

int TMPI_Info_get(TMPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  TMPI_INFO_LOOKUP("MPI_Info_get", info);
  *flag = 0;
  for (auto& kv : *e)
    if (key && kv.first == key) {
      *flag = 1;
      // valuelen excludes the terminating null, which is always written.
      std::size_t n = std::min(kv.second.size(), static_cast<std::size_t>(std::max(valuelen, 0)));
      std::memcpy(value, kv.second.data(), n);
      value[n] = '\0';
      break;
    }
  return TMPI_SUCCESS;
}

// MPI 4.0: *buflen in, the room in `value`; out, the value's length plus
// its terminating null. At most *buflen - 1 characters and the null are
// written (nothing when *buflen is 0).
int TMPI_Info_get_string(TMPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  TMPI_INFO_LOOKUP("MPI_Info_get_string", info);
  *flag = 0;
  for (auto& kv : *e)
    if (key && kv.first == key) {
      *flag = 1;
      if (*buflen > 0) {
        std::size_t n = std::min(kv.second.size(), static_cast<std::size_t>(*buflen - 1));
        std::memcpy(value, kv.second.data(), n);
        value[n] = '\0';
      }
      *buflen = static_cast<int>(kv.second.size()) + 1;
      break;
    }
  return TMPI_SUCCESS;
}

int TMPI_Info_get_valuelen(TMPI_Info info, const char* key, int* valuelen, int* flag) {
  TMPI_INFO_LOOKUP("MPI_Info_get_valuelen", info);
  *flag = 0;
  for (auto& kv : *e)
    if (key && kv.first == key) {
      *flag = 1;
      *valuelen = static_cast<int>(kv.second.size());
    }
  return TMPI_SUCCESS;
}

int TMPI_Info_get_nkeys(TMPI_Info info, int* nkeys) {
  TMPI_INFO_LOOKUP("MPI_Info_get_nkeys", info);
  *nkeys = static_cast<int>(e->size());
  return TMPI_SUCCESS;
}

int TMPI_Info_get_nthkey(TMPI_Info info, int n, char* key) {
  TMPI_INFO_LOOKUP("MPI_Info_get_nthkey", info);
  if (n < 0 || static_cast<std::size_t>(n) >= e->size()) {
    hold.unlock();
    return info_error(TMPI_ERR_ARG, "MPI_Info_get_nthkey", "n is not below the number of keys");
  }
  std::strcpy(key, (*e)[static_cast<std::size_t>(n)].first.c_str());
  return TMPI_SUCCESS;
}

int TMPI_Info_dup(TMPI_Info info, TMPI_Info* newinfo) {
  Entries copy;
  {
    TMPI_INFO_LOOKUP("MPI_Info_dup", info);
    copy = *e;
  }
  *newinfo = new_info();
  tucana::sync::MutexLock hold(table().mutex());
  *lookup(*newinfo) = std::move(copy);
  return TMPI_SUCCESS;
}

int TMPI_Info_free(TMPI_Info* info) {
  if (!info || *info == TMPI_INFO_ENV)
    return info_error(TMPI_ERR_INFO, "MPI_Info_free", "invalid info object (MPI_INFO_ENV cannot be freed)");
  TMPI_INFO_LOOKUP("MPI_Info_free", *info);
  table().release_locked(*info);
  delete e;
  *info = TMPI_INFO_NULL;
  return TMPI_SUCCESS;
}

// Communicator hints: accepted and not used.
int TMPI_Comm_set_info(TMPI_Comm comm, TMPI_Info info) {
  int rank;
  if (int err = TMPI_Comm_rank(comm, &rank)) return err;
  if (!valid_info(info)) return info_error(TMPI_ERR_INFO, "MPI_Comm_set_info", "invalid info object");
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_info(TMPI_Comm comm, TMPI_Info* info_used) {
  int rank;
  if (int err = TMPI_Comm_rank(comm, &rank)) return err;
  *info_used = new_info();
  return TMPI_SUCCESS;
}

}  // extern "C"
