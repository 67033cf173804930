// Reports a fiber stack overflow instead of a bare segmentation fault.
#pragma once

#include <signal.h>

#include <cstddef>

namespace tucana::fiber {

// Registers [lo, hi) as the guard region of the stack of the fiber named
// `name` (e.g. "subrank 3"), whose usable size is `usable`; an overflow
// report ends with `advice` (how to get a larger stack). Returns the slot
// to pass to unregister_guard when the stack goes away (-1 if the table is
// full). Thread-safe; the table is read from the signal handler. Contract:
// `advice` is a string that lives as long as the process (a literal).
int register_guard(const void* lo, const void* hi, const char* name, std::size_t usable, const char* advice);
void unregister_guard(int slot);

// Installs the SIGSEGV/SIGBUS handler (once per process) and an alternate
// signal stack for the calling thread (once per thread). A fault inside a
// registered guard prints "stack overflow in <name>" and ends the process
// with status 3; any other fault goes to the fallback (see below), or is
// re-raised with the default action.
void install_overflow_handler();

// What the SIGSEGV/SIGBUS handler does with a fault outside every guard
// region (the layer above names the subrank that took it). The fallback
// runs on the alternate signal stack and must not return normally unless
// the signal's default action has been restored. Set before workers run.
using FaultFallback = void (*)(int sig, siginfo_t* info, void* context);
void set_fault_fallback(FaultFallback fallback);

}  // namespace tucana::fiber
