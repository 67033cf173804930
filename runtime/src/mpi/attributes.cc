// User attributes (keyvals) on communicators, datatypes and windows, with
// their copy and delete callbacks, and the MPI-1 forms removed in MPI 3.0
// (MPI_Keyval_create, MPI_Attr_put/get/delete).
//
// Keyvals are process-wide numbers from kFirstKeyval up, never reused (a
// freed keyval stays valid for the attributes that still use it). Attributes
// are stored per object: a communicator is named by its subrank and handle
// (handles are per subrank), a datatype or a window by its handle.
#include <tucana/tmpi.h>

#include <cassert>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "mpi/attributes.h"
#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "sync/mutex.h"

using namespace tucana::mpi;

namespace {

constexpr int kFirstKeyval = 64;  // the predefined attribute keys are below

struct Keyval {
  AttrKind kind;
  void* copy_fn;    // TMPI_{Comm,Type,Win}_copy_attr_function*, or null
  void* delete_fn;  // TMPI_{Comm,Type,Win}_delete_attr_function*, or null
  void* extra_state;
  bool freed = false;
};

using Object = std::tuple<int, int, int>;  // kind, owner subrank (or -1), handle
using Values = std::vector<std::pair<int, void*>>;  // keyval, value; in the order set

// The callbacks (copy and delete functions) run without the lock: they may
// call MPI themselves.
// The attribute values share the keyvals' lock: a call looks up the keyval
// and changes the values in one step.
struct AttributeTable {
  // Never released: a freed keyval is only marked (Keyval::freed).
  HandleTable<Keyval, HandleReuse::kNever> keyvals{tucana::sync::LockLevel::kLeaf, "attributes", kFirstKeyval};
  std::map<Object, Values> values TUCANA_GUARDED_BY(keyvals.mutex());
};
AttributeTable& table() {
  static AttributeTable* t = new AttributeTable;  // never destroyed
  return *t;
}

Keyval* find_keyval(AttributeTable& t, int keyval, AttrKind kind) TUCANA_REQUIRES(t.keyvals.mutex()) {
  Keyval* k = t.keyvals.find_locked(keyval);
  return k && k->kind == kind ? k : nullptr;
}

Object object_of(AttrKind kind, int handle) {
  Subrank* me = current_subrank();
  return Object{static_cast<int>(kind), kind == AttrKind::Comm && me ? me->world : -1, handle};
}

int call_delete(AttrKind kind, const Keyval& k, int handle, int keyval, void* value) {
  if (!k.delete_fn) return TMPI_SUCCESS;
  switch (kind) {
    case AttrKind::Comm:
      return reinterpret_cast<TMPI_Comm_delete_attr_function*>(k.delete_fn)(handle, keyval, value, k.extra_state);
    case AttrKind::Type:
      return reinterpret_cast<TMPI_Type_delete_attr_function*>(k.delete_fn)(handle, keyval, value, k.extra_state);
    case AttrKind::Win:
      return reinterpret_cast<TMPI_Win_delete_attr_function*>(k.delete_fn)(handle, keyval, value, k.extra_state);
  }
  return TMPI_SUCCESS;
}

int call_copy(AttrKind kind, const Keyval& k, int handle, int keyval, void* in, void* out, int* flag) {
  *flag = 0;
  if (!k.copy_fn) return TMPI_SUCCESS;  // MPI_*_NULL_COPY_FN
  switch (kind) {
    case AttrKind::Comm:
      return reinterpret_cast<TMPI_Comm_copy_attr_function*>(k.copy_fn)(handle, keyval, k.extra_state, in, out, flag);
    case AttrKind::Type:
      return reinterpret_cast<TMPI_Type_copy_attr_function*>(k.copy_fn)(handle, keyval, k.extra_state, in, out, flag);
    case AttrKind::Win:
      return reinterpret_cast<TMPI_Win_copy_attr_function*>(k.copy_fn)(handle, keyval, k.extra_state, in, out, flag);
  }
  return TMPI_SUCCESS;
}

const char* kind_name(AttrKind kind) {
  return kind == AttrKind::Comm ? "communicator" : kind == AttrKind::Type ? "datatype" : "window";
}

int create_keyval(AttrKind kind, void* copy_fn, void* delete_fn, int* keyval, void* extra_state) {
  *keyval = table().keyvals.allocate(Keyval{kind, copy_fn, delete_fn, extra_state});
  return TMPI_SUCCESS;
}

int free_keyval(AttrKind kind, int* keyval, const char* call) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  Keyval* k = find_keyval(t, *keyval, kind);
  if (!k || k->freed) {
    hold.unlock();
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_KEYVAL, call, "invalid %s keyval %d",
                     kind_name(kind), *keyval);
  }
  k->freed = true;
  *keyval = TMPI_KEYVAL_INVALID;
  return TMPI_SUCCESS;
}

// The callbacks run without the table lock: they may call MPI themselves.
int set_attr(AttrKind kind, int handle, int keyval, void* value, const char* call, TMPI_Comm report_on) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  const Keyval* k = find_keyval(t, keyval, kind);
  if (!k) {
    hold.unlock();
    return mpi_error(current_subrank(), report_on, TMPI_ERR_KEYVAL, call, "invalid %s keyval %d", kind_name(kind),
                     keyval);
  }
  Keyval copy = *k;
  Values& v = t.values[object_of(kind, handle)];
  for (auto& kv : v)
    if (kv.first == keyval) {
      // The old value's delete callback first: if it fails, the attribute
      // keeps its old value and the call fails (MPI 3.1 sec. 6.7.2).
      void* old = kv.second;
      hold.unlock();
      if (int err = call_delete(kind, copy, handle, keyval, old))
        return mpi_error(current_subrank(), report_on, err, call,
                         "the delete callback of %s keyval %d returned error %d: the attribute keeps its value",
                         kind_name(kind), keyval, err);
      hold.lock();
      Values& now = t.values[object_of(kind, handle)];  // (the callback may have changed the table)
      for (auto& again : now)
        if (again.first == keyval) {
          again.second = value;
          return TMPI_SUCCESS;
        }
      now.emplace_back(keyval, value);
      return TMPI_SUCCESS;
    }
  v.emplace_back(keyval, value);
  return TMPI_SUCCESS;
}

int delete_attr(AttrKind kind, int handle, int keyval, const char* call, TMPI_Comm report_on) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  const Keyval* k = find_keyval(t, keyval, kind);
  auto it = t.values.find(object_of(kind, handle));
  if (k && it != t.values.end())
    for (auto kv = it->second.begin(); kv != it->second.end(); ++kv)
      if (kv->first == keyval) {
        void* old = kv->second;
        Keyval copy = *k;
        hold.unlock();
        // Removed only when its delete callback succeeds (MPI 3.1 sec. 6.7.2).
        if (int err = call_delete(kind, copy, handle, keyval, old))
          return mpi_error(current_subrank(), report_on, err, call,
                           "the delete callback of %s keyval %d returned error %d: the attribute stays",
                           kind_name(kind), keyval, err);
        hold.lock();
        auto again = t.values.find(object_of(kind, handle));
        if (again != t.values.end())
          for (auto e = again->second.begin(); e != again->second.end(); ++e)
            if (e->first == keyval) {
              again->second.erase(e);
              break;
            }
        return TMPI_SUCCESS;
      }
  hold.unlock();
  return mpi_error(current_subrank(), report_on, TMPI_ERR_KEYVAL, call, "no attribute with %s keyval %d",
                   kind_name(kind), keyval);
}

// A copy of the attributes set on an object (none: empty); with `forget`,
// the object has none from now on. The callers run callbacks on the copy,
// without the lock.
Values values_of(AttrKind kind, int handle, bool forget) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  auto it = t.values.find(object_of(kind, handle));
  if (it == t.values.end()) return {};
  if (!forget) return it->second;
  Values old = std::move(it->second);
  t.values.erase(it);
  return old;
}

// A copy of the keyval of an attribute that is set (a freed keyval stays
// in the table for the attributes that use it).
Keyval keyval_of(AttrKind kind, int keyval) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  const Keyval* k = find_keyval(t, keyval, kind);
  assert(k && "keyval_of: the keyval of a set attribute");
  return *k;
}

}  // namespace

namespace tucana::mpi {

bool get_attribute(AttrKind kind, int handle, int keyval, void** value) {
  AttributeTable& t = table();
  tucana::sync::MutexLock hold(t.keyvals.mutex());
  auto it = t.values.find(object_of(kind, handle));
  if (it == t.values.end()) return false;
  for (auto& kv : it->second)
    if (kv.first == keyval) {
      *value = kv.second;
      return true;
    }
  return false;
}

int copy_attributes(AttrKind kind, int from, int to) {
  for (auto& [keyval, value] : values_of(kind, from, false)) {
    Keyval k = keyval_of(kind, keyval);
    void* out = nullptr;
    int flag = 0;
    if (int err = call_copy(kind, k, from, keyval, value, &out, &flag)) return err;
    if (flag) {
      tucana::sync::MutexLock hold(table().keyvals.mutex());
      table().values[object_of(kind, to)].emplace_back(keyval, out);
    }
  }
  return TMPI_SUCCESS;
}

int delete_attributes(AttrKind kind, int handle) {
  Values old = values_of(kind, handle, true);
  // MPI leaves the order open; last set, first deleted (as MPICH does).
  int result = TMPI_SUCCESS;
  for (auto kv = old.rbegin(); kv != old.rend(); ++kv)
    if (int err = call_delete(kind, keyval_of(kind, kv->first), handle, kv->first, kv->second)) result = err;
  return result;
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Comm_create_keyval(TMPI_Comm_copy_attr_function* copy_fn, TMPI_Comm_delete_attr_function* delete_fn,
                            int* keyval, void* extra_state) {
  enter("MPI_Comm_create_keyval");
  return create_keyval(AttrKind::Comm, reinterpret_cast<void*>(copy_fn), reinterpret_cast<void*>(delete_fn),
                       keyval, extra_state);
}
int TMPI_Comm_free_keyval(int* keyval) {
  enter("MPI_Comm_free_keyval");
  return free_keyval(AttrKind::Comm, keyval, "MPI_Comm_free_keyval");
}
int TMPI_Comm_set_attr(TMPI_Comm comm, int keyval, void* value) {
  int rank;
  if (int err = TMPI_Comm_rank(comm, &rank)) return err;
  return set_attr(AttrKind::Comm, comm, keyval, value, "MPI_Comm_set_attr", comm);
}
int TMPI_Comm_delete_attr(TMPI_Comm comm, int keyval) {
  int rank;
  if (int err = TMPI_Comm_rank(comm, &rank)) return err;
  return delete_attr(AttrKind::Comm, comm, keyval, "MPI_Comm_delete_attr", comm);
}

int TMPI_Type_create_keyval(TMPI_Type_copy_attr_function* copy_fn, TMPI_Type_delete_attr_function* delete_fn,
                            int* keyval, void* extra_state) {
  enter("MPI_Type_create_keyval");
  return create_keyval(AttrKind::Type, reinterpret_cast<void*>(copy_fn), reinterpret_cast<void*>(delete_fn),
                       keyval, extra_state);
}
int TMPI_Type_free_keyval(int* keyval) {
  enter("MPI_Type_free_keyval");
  return free_keyval(AttrKind::Type, keyval, "MPI_Type_free_keyval");
}
int TMPI_Type_set_attr(TMPI_Datatype type, int keyval, void* value) {
  enter("MPI_Type_set_attr");
  return set_attr(AttrKind::Type, type, keyval, value, "MPI_Type_set_attr", TMPI_COMM_WORLD);
}
int TMPI_Type_get_attr(TMPI_Datatype type, int keyval, void* value, int* flag) {
  enter("MPI_Type_get_attr");
  void* v = nullptr;
  *flag = get_attribute(AttrKind::Type, type, keyval, &v);
  if (*flag) *static_cast<void**>(value) = v;
  return TMPI_SUCCESS;
}
int TMPI_Type_delete_attr(TMPI_Datatype type, int keyval) {
  enter("MPI_Type_delete_attr");
  return delete_attr(AttrKind::Type, type, keyval, "MPI_Type_delete_attr", TMPI_COMM_WORLD);
}

int TMPI_Win_create_keyval(TMPI_Win_copy_attr_function* copy_fn, TMPI_Win_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  enter("MPI_Win_create_keyval");
  return create_keyval(AttrKind::Win, reinterpret_cast<void*>(copy_fn), reinterpret_cast<void*>(delete_fn), keyval,
                       extra_state);
}
int TMPI_Win_free_keyval(int* keyval) {
  enter("MPI_Win_free_keyval");
  return free_keyval(AttrKind::Win, keyval, "MPI_Win_free_keyval");
}
int TMPI_Win_set_attr(TMPI_Win win, int keyval, void* value) {
  enter("MPI_Win_set_attr");
  return set_attr(AttrKind::Win, win, keyval, value, "MPI_Win_set_attr", TMPI_COMM_WORLD);
}
int TMPI_Win_delete_attr(TMPI_Win win, int keyval) {
  enter("MPI_Win_delete_attr");
  return delete_attr(AttrKind::Win, win, keyval, "MPI_Win_delete_attr", TMPI_COMM_WORLD);
}

// The MPI-1 names, removed in MPI 3.0 (old codes still call them).
int TMPI_Keyval_create(TMPI_Copy_function* copy_fn, TMPI_Delete_function* delete_fn, int* keyval,
                       void* extra_state) {
  return TMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
int TMPI_Keyval_free(int* keyval) { return TMPI_Comm_free_keyval(keyval); }
int TMPI_Attr_put(TMPI_Comm comm, int keyval, void* value) { return TMPI_Comm_set_attr(comm, keyval, value); }
int TMPI_Attr_get(TMPI_Comm comm, int keyval, void* value, int* flag) {
  return TMPI_Comm_get_attr(comm, keyval, value, flag);
}
int TMPI_Attr_delete(TMPI_Comm comm, int keyval) { return TMPI_Comm_delete_attr(comm, keyval); }

}  // extern "C"
