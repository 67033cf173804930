// OpenMP threadprivate variables, per subrank and per thread
// (docs/privatization.md, "OpenMP and threads inside a subrank").
//
// A threadprivate variable stays what the compiler made it, one copy per
// thread of the process (thread-local storage), so that copyin, copyprivate
// and the compiler's own accesses keep working. The translator registers
// each one (tucana_priv_threadprivate); the runtime then keeps the values of
// every (subrank, OpenMP thread) pair and makes a thread's copies hold the
// values of the pair it works for:
//  - a worker thread, when it is about to run a subrank's fiber (the
//    scheduler's run hook): the pair (subrank, its initial thread);
//  - a team thread of a parallel region a subrank started (threads.cc's
//    install_team_thread): the pair (subrank, the thread's place in its
//    team, and in the teams above it for nested regions).
// The swap is lazy: a thread's copies keep their pair's values until it
// works for another pair; it saves them then and loads the new pair's
// (from the thread that holds them, when another does, or the variables'
// initial values for a pair not seen before).
#include "omp/threadprivate.h"

#include <dlfcn.h>

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "core/runtime.h"

namespace tucana::omp {

namespace {

struct Variable {
  void* (*address)(void);  // its copy in the calling thread
  std::size_t size;
  std::size_t offset;  // in a pair's saved values
};

// Which copies a thread's variables hold: the subrank (its mpi::Subrank,
// the one its fibers work for) and the thread's path of team positions (empty
// for the subrank's own thread; a team's thread 0 is its parent thread).
struct Pair {
  const void* owner = nullptr;
  std::vector<int> path;
  bool operator<(const Pair& o) const { return owner != o.owner ? std::less<const void*>()(owner, o.owner) : path < o.path; }
  bool operator==(const Pair& o) const { return owner == o.owner && path == o.path; }
};

struct Holder;

struct Saved {
  std::vector<unsigned char> bytes;  // shorter than the registry when variables came later
  Holder* holder = nullptr;          // the thread whose copies hold the values now, if any
};

// One per thread that has held a pair's values.
struct Holder {
  // Cleared by another thread (under the registry's lock) that takes the
  // pair's values over; read without the lock by holding(): atomic.
  std::atomic<bool> holds{false};
  Pair pair;
  std::vector<void*> addresses;  // of the thread's copies, per variable
  ~Holder();
};

// Reached through a function: registrations come from the program's static
// constructors, which may run before this file's. Never destroyed: threads
// that end during exit still save into it.
struct Registry {
  std::mutex mutex;
  std::vector<Variable> variables;     // guarded by mutex
  std::vector<unsigned char> initial;  // the variables' initial values (guarded)
  std::map<Pair, Saved> saved;         // guarded by mutex
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}
std::atomic<bool> g_any{false};
thread_local Holder t_holder;

void refresh_addresses(Holder& h) {
  const Registry& r = registry();
  for (std::size_t i = h.addresses.size(); i < r.variables.size(); ++i) h.addresses.push_back(r.variables[i].address());
}

// Copies what `h`'s thread's copies hold into `s`. Contract: registry().mutex held.
void save_from(const Holder& h, Saved& s) {
  const Registry& r = registry();
  s.bytes.resize(r.initial.size());
  for (std::size_t i = 0; i < r.variables.size(); ++i) {
    const Variable& v = r.variables[i];
    // (A variable registered after that thread last loaded: never swapped there.)
    const void* from = i < h.addresses.size() ? h.addresses[i] : &r.initial[v.offset];
    std::memcpy(&s.bytes[v.offset], from, v.size);
  }
}

Holder::~Holder() {
  // The thread ends (a pool thread, a worker): its copies go with it.
  if (!g_any.load(std::memory_order_acquire)) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!holds) return;
  Saved& s = r.saved[pair];
  if (s.holder == this) {
    save_from(*this, s);
    s.holder = nullptr;
  }
  holds = false;
}

// Makes the calling thread's copies hold `pair`'s values.
void hold(Pair pair) {
  Holder& me = t_holder;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (me.holds && me.pair == pair && r.saved[pair].holder == &me) return;
  refresh_addresses(me);
  if (me.holds) {
    Saved& mine = r.saved[me.pair];
    if (mine.holder == &me) {
      save_from(me, mine);
      mine.holder = nullptr;
    }
  }
  Saved& wanted = r.saved[pair];
  if (wanted.holder && wanted.holder != &me) {
    // Another thread held them last (the subrank ran there): take them from
    // its copies, which nothing writes now (that thread works for another
    // pair, or for none until its next swap, which waits for this lock).
    save_from(*wanted.holder, wanted);
    wanted.holder->holds = false;
    wanted.holder = nullptr;
  }
  for (std::size_t i = 0; i < r.variables.size(); ++i) {
    const Variable& v = r.variables[i];
    const unsigned char* from = v.offset + v.size <= wanted.bytes.size() ? &wanted.bytes[v.offset] : &r.initial[v.offset];
    std::memcpy(me.addresses[i], from, v.size);
  }
  wanted.holder = &me;
  me.holds = true;
  me.pair = std::move(pair);
}

// The fast test, without the lock: the thread holds `pair` already.
bool holding(const void* owner, const std::vector<int>& path) {
  const Holder& me = t_holder;
  return me.holds.load(std::memory_order_relaxed) && me.pair.owner == owner && me.pair.path == path;
}

void on_run(mpi::Subrank* owner) {
  static const std::vector<int> kOwnThread;
  if (holding(owner, kOwnThread)) return;
  hold(Pair{owner, {}});
}

using LevelFn = int (*)(void);
using AncestorFn = int (*)(int);

}  // namespace

bool threadprivate_in_use() { return g_any.load(std::memory_order_acquire); }

void install_team_thread(const mpi::Subrank* subrank) {
  if (!threadprivate_in_use()) return;
  // The OpenMP runtime's (the program is linked with one: it started this team).
  static const auto level = reinterpret_cast<LevelFn>(dlsym(RTLD_DEFAULT, "omp_get_level"));
  static const auto ancestor = reinterpret_cast<AncestorFn>(dlsym(RTLD_DEFAULT, "omp_get_ancestor_thread_num"));
  if (!level || !ancestor) return;
  std::vector<int> path;
  for (int l = 1, n = level(); l <= n; ++l) path.push_back(ancestor(l));
  // A team's thread 0 is the thread that started it: the same copies.
  while (!path.empty() && path.back() == 0) path.pop_back();
  if (holding(subrank, path)) return;
  hold(Pair{subrank, std::move(path)});
}

}  // namespace tucana::omp

extern "C" void tucana_priv_threadprivate(void* (*address)(void), size_t size) {
  assert(address && size > 0 && "tucana_priv_threadprivate: a variable's address function and size");
  using namespace tucana::omp;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  void* here = address();
  for (const Variable& v : r.variables)
    if (v.address() == here) return;  // registered already (a tentative definition in two files)
  // Aligned for any type: the saved values are copied with memcpy anyway.
  std::size_t offset = (r.initial.size() + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                       alignof(std::max_align_t);
  r.variables.push_back(Variable{address, size, offset});
  r.initial.resize(offset + size);
  // Registered before main (or by a module as it loads), before the
  // variable is used: what the calling thread's copy holds now is its
  // initial value, which every pair starts from.
  std::memcpy(&r.initial[offset], here, size);
  g_any.store(true, std::memory_order_release);
  tucana::mpi::g_subrank_run_hook.store(&on_run, std::memory_order_release);
}
