#include "core/output.h"

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cassert>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <streambuf>

#include "fiber/keep_errno.h"

#include "core/runtime.h"

namespace tucana::mpi {

namespace {

bool g_tag = false;
std::string g_directory;

// Runs on the printing subrank's fiber: keeps its errno. A descriptor the
// launcher made non-blocking (a pipe that is full) is waited for, not given
// up on: output is never dropped.
void write_all(int fd, const char* data, std::size_t n) {
  fiber::KeepErrno keep;
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd p = {fd, POLLOUT, 0};
      ::poll(&p, 1, 100);
      continue;
    }
    if (w <= 0) return;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

// The descriptor a subrank's stream `which` (0 stdout, 1 stderr) goes to.
int target_fd(Subrank* s, int which) TUCANA_REQUIRES(s->output.mutex) {
  if (g_directory.empty()) return which == 0 ? STDOUT_FILENO : STDERR_FILENO;
  int& fd = s->output.fd[which];
  if (fd < 0) {
    std::string dir = g_directory + "/rank." + std::to_string(s->world);
    ::mkdir(dir.c_str(), 0777);  // may exist already
    std::string file = dir + (which == 0 ? "/stdout" : "/stderr");
    fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0) fd = which == 0 ? STDOUT_FILENO : STDERR_FILENO;  // could not: the terminal
  }
  return fd;
}

// Writes `text` (whole lines, or the rest at the end) with one write(2).
void emit(Subrank* s, int which, const std::string& text) TUCANA_REQUIRES(s->output.mutex) {
  if (text.empty()) return;
  if (g_tag) {
    std::string tagged;
    std::string prefix = "[" + std::to_string(s->world) + "] ";
    std::size_t begin = 0;
    while (begin < text.size()) {
      std::size_t end = text.find('\n', begin);
      end = end == std::string::npos ? text.size() : end + 1;
      tagged += prefix;
      tagged.append(text, begin, end - begin);
      begin = end;
    }
    write_all(target_fd(s, which), tagged.data(), tagged.size());
  } else {
    write_all(target_fd(s, which), text.data(), text.size());
  }
}

void take(int which, const char* data, std::size_t n) {
  Subrank* s = Runtime::instance() ? current_subrank() : nullptr;
  if (!s) {
    write_all(which == 0 ? STDOUT_FILENO : STDERR_FILENO, data, n);
    return;
  }
  sync::MutexLock lock(s->output.mutex);
  std::string& pending = s->output.pending[which];
  pending.append(data, n);
  std::size_t last = pending.rfind('\n');
  if (last != std::string::npos) {
    emit(s, which, pending.substr(0, last + 1));
    pending.erase(0, last + 1);
  }
  if (pending.size() > kMaxPendingLine) {
    emit(s, which, pending);
    pending.clear();
  }
}

ssize_t cookie_write(void* cookie, const char* data, std::size_t n) {
  take(static_cast<int>(reinterpret_cast<std::intptr_t>(cookie)), data, n);
  return static_cast<ssize_t>(n);
}

// C++'s side: an unbuffered streambuf that hands everything to take().
class SubrankStreambuf : public std::streambuf {
 public:
  explicit SubrankStreambuf(int which) : which_(which) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    char ch = traits_type::to_char_type(c);
    take(which_, &ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    take(which_, s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  int which_;
};

FILE* open_stream(int which) {
  cookie_io_functions_t io{};
  io.write = &cookie_write;
  FILE* f = fopencookie(reinterpret_cast<void*>(static_cast<std::intptr_t>(which)), "w", io);
  if (f) setvbuf(f, nullptr, _IONBF, 0);
  return f;
}

}  // namespace

void install_subrank_output(bool tag, const std::string& directory) {
  g_tag = tag;
  g_directory = directory;
  if (!directory.empty()) ::mkdir(directory.c_str(), 0777);
  std::fflush(stdout);
  std::fflush(stderr);
  FILE* out = open_stream(0);
  FILE* err = open_stream(1);
  if (!out || !err) return;  // keep the process's own streams
  stdout = out;
  stderr = err;
  // Never destroyed: output may come until the very end of the process.
  static SubrankStreambuf* out_buf = new SubrankStreambuf(0);
  static SubrankStreambuf* err_buf = new SubrankStreambuf(1);
  std::cout.flush();
  std::cout.rdbuf(out_buf);
  std::cerr.rdbuf(err_buf);
  std::clog.rdbuf(err_buf);
}

void flush_subrank_output(Subrank* s) {
  sync::MutexLock lock(s->output.mutex);
  for (int which = 0; which < 2; ++which) {
    emit(s, which, s->output.pending[which]);
    s->output.pending[which].clear();
  }
}

void flush_all_subrank_output() {
  Runtime* rt = Runtime::instance();
  if (!rt) return;
  for (auto& owned : rt->subranks) {
    Subrank* s = owned.get();
    if (!s->output.mutex.try_lock()) continue;  // held by whoever crashed: skip it
    sync::MutexLock lock(s->output.mutex, std::adopt_lock);
    for (int which = 0; which < 2; ++which) {
      emit(s, which, s->output.pending[which]);
      s->output.pending[which].clear();
    }
  }
}

// (Declared in output.h: every layer from the core up reports fatal errors
// through it.)
void fatal(const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "tucana: error: %s\n", msg);
  if (Runtime* rt = Runtime::instance()) rt->abort(1);
  std::exit(1);
}

}  // namespace tucana::mpi
