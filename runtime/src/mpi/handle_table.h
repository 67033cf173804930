// The process-wide tables of MPI objects behind integer handles (windows,
// files, info objects, sessions, matched messages, error handlers, keyvals,
// Fortran request numbers): one allocator with one lock, and a reuse policy
// per table that fixes which number a new object gets. docs/runtime.md
// ("Handle tables") says which table uses which policy and why.
#pragma once

#include <cassert>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "sync/mutex.h"

namespace tucana::mpi {

// Which number a new object gets once objects have been freed. The numbers
// are visible to programs (printed, compared, turned into Fortran integers),
// so a table keeps the policy it always had.
enum class HandleReuse {
  kNever,       // always the next unused number: a freed handle never names another object
  kLowestFree,  // the lowest freed number first (as MPICH does for windows)
  kLastFreed,   // the number freed last first (a LIFO free list)
};

// Objects of type T behind handles `first`, `first` + 1, ...; the handles
// below `first` are reserved (MPI_*_NULL and the predefined objects) and never
// allocated. Objects are stored in a std::map: a pointer from find_locked
// stays valid until its object is released (other allocations do not move
// it), and a table of never-reused handles holds only its live objects.
//
// Locking: every member function without the _locked suffix takes the
// table's mutex itself; the _locked ones require it held (mutex()), for
// callers that do more than one step atomically or guard state of their own
// with the same mutex (TUCANA_GUARDED_BY(table.mutex())).
template <class T, HandleReuse kReuse>
class HandleTable {
 public:
  using Handle = int;

  // Contract: first >= 0.
  HandleTable(sync::LockLevel level, const char* name, Handle first)
      : mutex_(level, name), next_(first) {
    assert(first >= 0 && "HandleTable: the first handle is not negative");
  }
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;

  sync::Mutex& mutex() TUCANA_RETURN_CAPABILITY(mutex_) { return mutex_; }

  // A new handle for `object`, chosen by the reuse policy.
  Handle allocate(T object) TUCANA_EXCLUDES(mutex_) {
    sync::MutexLock hold(mutex_);
    return allocate_locked(std::move(object));
  }
  Handle allocate_locked(T object) TUCANA_REQUIRES(mutex_) {
    Handle h = take_number();
    bool added = objects_.emplace(h, std::move(object)).second;
    assert(added && "HandleTable::allocate: the number chosen names a live object");
    (void)added;
    return h;
  }

  // A copy of the object of `h`; nothing for a reserved, never allocated
  // or freed handle.
  std::optional<T> find(Handle h) TUCANA_EXCLUDES(mutex_) {
    sync::MutexLock hold(mutex_);
    const T* object = find_locked(h);
    return object ? std::optional<T>(*object) : std::nullopt;
  }
  // The object of `h`, or null as find gives nothing. Valid while the object
  // is live (and, for the caller's use, while the mutex is held).
  T* find_locked(Handle h) TUCANA_REQUIRES(mutex_) {
    auto it = objects_.find(h);
    return it == objects_.end() ? nullptr : &it->second;
  }

  // Frees `h` and gives back its object; find gives nothing for `h` from
  // now on (until the policy hands the number out again).
  // Contract: `h` is live (allocated and not yet released).
  T release(Handle h) TUCANA_EXCLUDES(mutex_) {
    sync::MutexLock hold(mutex_);
    return release_locked(h);
  }
  T release_locked(Handle h) TUCANA_REQUIRES(mutex_) {
    auto it = objects_.find(h);
    assert(it != objects_.end() && "HandleTable::release: the handle is not live");
    T object = std::move(it->second);
    objects_.erase(it);
    if constexpr (kReuse == HandleReuse::kLowestFree) lowest_free_.push(h);
    if constexpr (kReuse == HandleReuse::kLastFreed) last_freed_.push_back(h);
    return object;
  }

  // Calls f(handle, object) for every live object, in increasing handle
  // order. `f` must not allocate or release.
  template <class F>
  void for_each_locked(F&& f) TUCANA_REQUIRES(mutex_) {
    for (auto& [h, object] : objects_) f(h, object);
  }

 private:
  Handle take_number() TUCANA_REQUIRES(mutex_) {
    if constexpr (kReuse == HandleReuse::kLowestFree) {
      if (!lowest_free_.empty()) {
        Handle h = lowest_free_.top();
        lowest_free_.pop();
        return h;
      }
    }
    if constexpr (kReuse == HandleReuse::kLastFreed) {
      if (!last_freed_.empty()) {
        Handle h = last_freed_.back();
        last_freed_.pop_back();
        return h;
      }
    }
    return next_++;
  }

  sync::Mutex mutex_;
  Handle next_ TUCANA_GUARDED_BY(mutex_);  // never handed out yet: next_ and above
  std::map<Handle, T> objects_ TUCANA_GUARDED_BY(mutex_);
  // The freed numbers below next_ (only the policy's own list is used).
  std::priority_queue<Handle, std::vector<Handle>, std::greater<Handle>> lowest_free_ TUCANA_GUARDED_BY(mutex_);
  std::vector<Handle> last_freed_ TUCANA_GUARDED_BY(mutex_);
};

}  // namespace tucana::mpi
