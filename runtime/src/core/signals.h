// Fatal signals and termination requests, attributed to subranks.
#pragma once

namespace tucana::mpi {

// Installs the process's handlers. A fatal signal (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGABRT) is reported as "subrank R (process P, worker W) received
// signal SIGSEGV (...)" with a short backtrace; SIGINT and SIGTERM (mpirun
// passes a Ctrl-C on as SIGTERM) end the process. Either way, pending output
// lines and the --trace part are written first (best effort: a signal may
// arrive while the state they read is being changed), and the process then
// dies by the same signal, so its status is 128+N as mpirun users expect.
// Contract: called once, before workers run.
void install_signal_handlers();

}  // namespace tucana::mpi
