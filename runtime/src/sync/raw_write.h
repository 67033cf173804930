// Writing a message to standard error with write(2) alone: no stdio, no
// allocation and no lock, so that a signal handler may call it, and so may
// a report about locks (printf to stderr may take a subrank's output lock,
// core/output.cc, which could be the very lock being reported). It lives
// in sync/, the lowest layer, so that every layer can report this way.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstring>

namespace tucana::sync {

// Writes the `n` bytes at `text` to standard error, as many calls as it
// takes; stops early, silently, at the first write that fails or writes
// nothing (there is nowhere left to report that).
inline void write_stderr(const char* text, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

// The same for the C string `text`.
inline void write_stderr(const char* text) { write_stderr(text, std::strlen(text)); }

}  // namespace tucana::sync
