// errno belongs to the context that runs (fiber/fiber.h: each switch saves
// and restores it): code that runs on a subrank's fiber on the runtime's
// behalf (real MPI calls, writes of its output) keeps the caller's errno
// with these guards, so that a program sees its own errno again after a
// call it made (docs/privatization.md).
#pragma once

#include <cerrno>

namespace tucana::fiber {

// The calling thread's errno, its address computed anew at every call:
// glibc declares __errno_location const, so a compiler may otherwise keep
// an address computed before a fiber switch, when the fiber may resume on
// another thread.
inline int* errno_here() {
  int* (*location)(void) = __errno_location;
  __asm__ volatile("" : "+r"(location));
  return location();
}

// Keeps errno over a scope with no switch in it. Contract: no switch inside
// the guard's scope (the compiler may keep errno's address, which is the
// thread's, across it); use KeepCallErrno where the scope may switch.
class KeepErrno {
 public:
  KeepErrno() : saved_(errno) {}
  ~KeepErrno() { errno = saved_; }
  KeepErrno(const KeepErrno&) = delete;
  KeepErrno& operator=(const KeepErrno&) = delete;

 private:
  int saved_;
};

// Keeps the caller's errno over a whole MPI call, which may switch fibers
// and resume on another thread: whatever the runtime's own work in it sets
// (a real MPI call, a wait on a lock, or on the first initialization of a
// function's static, which libstdc++ waits for with a futex system call
// that may end in EAGAIN) is undone when the scope ends.
class KeepCallErrno {
 public:
  KeepCallErrno() : saved_(*errno_here()) {}
  explicit KeepCallErrno(int saved) : saved_(saved) {}
  ~KeepCallErrno() { *errno_here() = saved_; }
  KeepCallErrno(const KeepCallErrno&) = delete;
  KeepCallErrno& operator=(const KeepCallErrno&) = delete;

 private:
  int saved_;
};

}  // namespace tucana::fiber
