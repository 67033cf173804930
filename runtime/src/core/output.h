// The output of subranks: line-buffered per subrank, so that lines printed by
// different subranks never mix inside a line (subranks of a process share
// its stdout and stderr, and a blocking MPI call between two printf()s of
// one line lets another subrank print in between).
//
// At start-up the program's stdout and stderr (the C FILE streams and C++'s
// cout, cerr and clog) are replaced by unbuffered streams that hand every
// write to the subrank running it. Each subrank keeps its partial line and
// writes each complete line with one write(2): with --tag-output prefixed by
// "[R] " (R its rank in MPI_COMM_WORLD), with --output-filename into
// DIR/rank.R/stdout or stderr. Output made outside any subrank (start-up,
// exit handlers) goes straight to the process's descriptors.
//
// A partial line appears when it is completed, when the subrank ends, when
// it grows past kMaxPendingLine, or when the job is aborted; fflush() on
// stdout does not push out a partial line.
#pragma once

#include <string>

#include "sync/mutex.h"

namespace tucana::mpi {

struct Subrank;

// A subrank's pending output. Contract: touched only through the functions
// below (its mutex serializes a subrank's helper fibers with the subrank).
// The innermost lock: any code may print, whatever it holds; under it only
// write(2) and open(2) run.
struct SubrankOutput {
  sync::Mutex mutex{sync::LockLevel::kOutput, "output of a subrank"};
  std::string pending[2] TUCANA_GUARDED_BY(mutex);  // [0] stdout, [1] stderr: text after the last newline
  int fd[2] TUCANA_GUARDED_BY(mutex) = {-1, -1};    // --output-filename: the subrank's own files
};

constexpr std::size_t kMaxPendingLine = 64 * 1024;

// Installs the streams. `tag`: --tag-output; `directory`: --output-filename
// (empty: the terminal). Contract: called once, before any subrank runs.
void install_subrank_output(bool tag, const std::string& directory);

// Writes out whatever `s` has pending (its last line without a newline).
// Call when the subrank ends.
void flush_subrank_output(Subrank* s);

// Prints "tucana: error: MESSAGE" and aborts the job (or exits if MPI is not
// running yet).
[[noreturn]] void fatal(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Writes out the pending output of every subrank of this process: on the way
// to an abort. Best effort: takes no lock that a crashed subrank may hold.
void flush_all_subrank_output();

}  // namespace tucana::mpi
