// errno belongs to the context that runs (fiber/fiber.h: each switch saves
// and restores it): code that runs on a subrank's fiber on the runtime's
// behalf (real MPI calls, writes of its output) keeps the caller's errno
// with this guard, so that a program sees its own errno again after a call
// it made (docs/privatization.md). Contract: no switch inside the guard's
// scope (the fiber may resume on another thread, and a compiler may keep
// errno's address, which is the thread's, across the switch).
#pragma once

#include <cerrno>

namespace tucana::fiber {

class KeepErrno {
 public:
  KeepErrno() : saved_(errno) {}
  ~KeepErrno() { errno = saved_; }
  KeepErrno(const KeepErrno&) = delete;
  KeepErrno& operator=(const KeepErrno&) = delete;

 private:
  int saved_;
};

}  // namespace tucana::fiber
