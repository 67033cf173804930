#include "core/signals.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "fiber/guard.h"
#include "core/output.h"
#include "core/runtime.h"
#include "sync/raw_write.h"

namespace tucana::mpi {

namespace {

constexpr int kFatalSignals[] = {SIGFPE, SIGILL, SIGABRT};
std::atomic<bool> g_dying{false};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
  }
}

// Dies by `sig` once the handler returns (or at once when it is unblocked).
void die_by(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
}

void on_fatal(int sig, siginfo_t*, void*) {
  if (g_dying.exchange(true)) die_by(sig);  // a second fault on the way out
  Runtime* rt = Runtime::instance();
  Subrank* s = rt ? current_subrank() : nullptr;
  sched::Worker* w = sched::Scheduler::current_worker();
  char text[256];
  if (s) {
    std::snprintf(text, sizeof text, "tucana: error: subrank %d (process %d, worker %d) received signal %s (%s)\n",
                  s->world, rt->layout.my_proc, w ? w->index() : -1, signal_name(sig), strsignal(sig));
  } else {
    std::snprintf(text, sizeof text, "tucana: error: process %d received signal %s (%s) outside any subrank\n",
                  rt ? rt->layout.my_proc : -1, signal_name(sig), strsignal(sig));
  }
  sync::write_stderr(text);
  void* frames[24];
  int n = backtrace(frames, 24);
  sync::write_stderr("tucana: backtrace (innermost first):\n");
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
  flush_all_subrank_output();
  if (rt) rt->write_trace();
  die_by(sig);
}

void on_terminate(int sig) {
  if (g_dying.exchange(true)) die_by(sig);
  flush_all_subrank_output();
  if (Runtime* rt = Runtime::instance()) rt->write_trace();
  die_by(sig);
}

}  // namespace

void install_signal_handlers() {
  // backtrace() loads its unwinder on first use: do it now, not in a handler.
  void* frame[1];
  backtrace(frame, 1);
  fiber::set_fault_fallback(&on_fatal);  // SIGSEGV/SIGBUS outside stack guards
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = &on_fatal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  for (int sig : kFatalSignals) sigaction(sig, &sa, nullptr);
  struct sigaction term;
  std::memset(&term, 0, sizeof term);
  sigemptyset(&term.sa_mask);
  term.sa_handler = &on_terminate;
  sigaction(SIGINT, &term, nullptr);
  sigaction(SIGTERM, &term, nullptr);
}

}  // namespace tucana::mpi
