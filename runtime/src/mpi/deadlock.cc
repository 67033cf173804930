#include "mpi/deadlock.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>

#include "mpi/errors.h"
#include "core/runtime.h"
#include "tasks/task.h"

namespace tucana::mpi {

namespace {

std::string describe(const BlockedIn& b, const Subrank* who) {
  char buf[512];
  auto rank_text = [](int r, char* out, std::size_t n) {
    if (r == TMPI_ANY_SOURCE) std::snprintf(out, n, "MPI_ANY_SOURCE");
    else if (r == TMPI_PROC_NULL) std::snprintf(out, n, "MPI_PROC_NULL");
    else std::snprintf(out, n, "%d", r);
  };
  char peer[32], tag[32];
  rank_text(b.peer, peer, sizeof peer);
  if (b.tag == TMPI_ANY_TAG) std::snprintf(tag, sizeof tag, "MPI_ANY_TAG");
  else std::snprintf(tag, sizeof tag, "%d", b.tag);
  if (b.note) {
    std::snprintf(buf, sizeof buf, "%s: %s", b.call, b.note);
  } else if (std::strcmp(b.call, "MPI_Finalize") == 0) {
    std::snprintf(buf, sizeof buf, "MPI_Finalize, waiting for the other subranks of this process");
  } else if (!b.peer_label) {  // a non-blocking collective
    std::snprintf(buf, sizeof buf, "%s, on %s(comm=%s)", b.call, b.op, comm_name(b.comm, who));
  } else if (b.op == b.call || std::strcmp(b.op, b.call) == 0) {
    std::snprintf(buf, sizeof buf, "%s(%s=%s, tag=%s, comm=%s)", b.call, b.peer_label, peer, tag,
                  comm_name(b.comm, who));
  } else {
    std::snprintf(buf, sizeof buf, "%s, on %s(%s=%s, tag=%s, comm=%s)", b.call, b.op, b.peer_label, peer, tag,
                  comm_name(b.comm, who));
  }
  return buf;
}


std::int64_t now_ns() { return sched::Scheduler::now_ns(); }

// The subranks a report names (its task lines are indented further).
int count_lines(const std::string& text) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find("  subrank ", at)) != std::string::npos; at += 10)
    if (at == 0 || text[at - 1] == '\n') ++n;
  return n;
}

}  // namespace

std::string blocked_subrank_lines(const Runtime& rt) {
  std::string text;
  char line[640];
  // Each subrank's started, unfinished tasks, under its task lock (an
  // outer one to the polling lock: see below for that).
  std::vector<std::string> task_lines(rt.subranks.size());
  for (std::size_t i = 0; i < rt.subranks.size(); ++i) {
    const Subrank& s = *rt.subranks[i];
    if (s.finished || !s.tasks) continue;
    tasks::RankTasks& tasks = *s.tasks;
    sync::MutexLock lock(tasks.mutex);
    sync::MutexLock polling(polling_mutex());
    for (const tasks::Task* t = tasks.live; t; t = t->live_next) {
      std::snprintf(line, sizeof line, "    task %d '%s' of subrank %d: %s\n", t->id, t->label, s.world,
                    t->blocked.call ? describe(t->blocked, &s).c_str() : "ready or blocked outside MPI");
      task_lines[i] += line;
    }
    if (!tasks.waiting_for_slot.empty()) {
      std::snprintf(line, sizeof line,
                    "    %zu more ready task(s) of subrank %d wait for one of its %d started tasks to finish (a "
                    "subrank runs at most that many at once)\n",
                    tasks.waiting_for_slot.size(), s.world, tasks.live_count);
      task_lines[i] += line;
    }
    if (tasks.unstarted > 0) {
      std::snprintf(line, sizeof line, "    %d more task(s) of subrank %d wait for the tasks they depend on\n",
                    tasks.unstarted, s.world);
      task_lines[i] += line;
    }
  }
  // A polling subrank keeps rewriting its `blocked` on its own worker
  // (the others' are written before they park, which the quiescence
  // counters order before this).
  sync::MutexLock lock(polling_mutex());
  for (std::size_t i = 0; i < rt.subranks.size(); ++i) {
    const Subrank* s = rt.subranks[i].get();
    if (s->finished) continue;
    std::snprintf(line, sizeof line, "  subrank %d (process %d, worker %d): %s\n", s->world, rt.layout.my_proc,
                  s->worker, s->blocked.call ? describe(s->blocked, s).c_str() : "blocked");
    text += line + task_lines[i];
  }
  return text;
}

// One process: every subrank here blocked, and nothing can come from elsewhere.
void Runtime::report_deadlock() {
  std::string lines = blocked_subrank_lines(*this);
  char header[256];
  std::snprintf(header, sizeof header,
                "tucana: error: deadlock: all %d running subranks of process %d are blocked and no "
                "message has moved for %.1f s (--deadlock-timeout):\n",
                count_lines(lines), layout.my_proc, config.deadlock_timeout);
  std::fputs((header + lines).c_str(), stderr);
  abort(2);
}

DeadlockDetector::DeadlockDetector(Runtime& rt)
    : rt_(rt), timeout_ns_(static_cast<std::int64_t>(rt.config.deadlock_timeout * 1e9)) {
  assert(rt.transport.size() > 1 && timeout_ns_ > 0);
  // After an inconclusive round, a tenth of the timeout (0.1 to 1 s) of
  // quiescence before the next: no busy rounds while a job is stuck elsewhere.
  retry_ns_ = std::clamp<std::int64_t>(timeout_ns_ / 10, 100'000'000, 1'000'000'000);
}

void DeadlockDetector::poll() {
  // Cheap test first: this runs at every poll of every idle worker.
  if (now_ns() < next_step_ns_.load(std::memory_order_relaxed)) return;
  step(false);
}

void DeadlockDetector::wait_for_all() {
  {
    // An earlier step may have put the next one off until a timeout after
    // the last quiescence: a process that has ended joins a round at once.
    sync::MutexLock lock(mutex_);
    next_step_ns_.store(0, std::memory_order_relaxed);
  }
  while (!step(true)) {
    rt_.transport.poll();  // messages may still arrive (and acknowledgements leave)
    usleep(500);
  }
}

bool DeadlockDetector::step(bool done) {
  if (!mutex_.try_lock()) return false;
  sync::MutexLock lock(mutex_, std::adopt_lock);
  std::int64_t now = now_ns();
  if (!outstanding_) {
    if (now < next_step_ns_.load(std::memory_order_relaxed)) return false;
    // A process whose subranks have ended is quiescent for good (since 0).
    std::int64_t since = done ? 0 : rt_.scheduler->quiescent_since_ns();
    if (!done && (since < 0 || rt_.transport.receives_in_flight() > 0)) {
      next_step_ns_.store(now + 10'000'000, std::memory_order_relaxed);  // busy: look again in 10 ms
      return false;
    }
    if (!done && now - since < timeout_ns_) {
      next_step_ns_.store(since + timeout_ns_, std::memory_order_relaxed);
      return false;
    }
    long long in[comm::Transport::kAgreementValues] = {
        done ? 0 : 1, since_contributed_ < 0 || since != since_contributed_ ? 1 : 0,
        rt_.transport.messages_sent(), rt_.transport.messages_received()};
    if (!rt_.transport.agreement_start(in)) return false;
    outstanding_ = true;
    since_contributed_ = since;
    next_step_ns_.store(now + 1'000'000, std::memory_order_relaxed);  // test the round every millisecond
    return false;
  }
  if (now < next_step_ns_.load(std::memory_order_relaxed)) return false;
  long long out[comm::Transport::kAgreementValues];
  int state = rt_.transport.agreement_test(out);
  if (state <= 0) {
    next_step_ns_.store(now + 1'000'000, std::memory_order_relaxed);
    return false;
  }
  outstanding_ = false;
  ++rounds_;
  if (out[0] == 0) return true;  // every process has ended
  if (out[1] == 0 && out[2] == out[3]) report();
  next_step_ns_.store(now + (done ? 1'000'000 : retry_ns_), std::memory_order_relaxed);
  return false;
}

void DeadlockDetector::report() {
  std::string all;
  rt_.transport.gather_text(blocked_subrank_lines(rt_), &all);
  if (rt_.transport.rank() == 0) {
    char header[320];
    std::snprintf(header, sizeof header,
                  "tucana: error: deadlock: all %d running subranks of %d processes are blocked and no message "
                  "is in flight (checked across processes after %.1f s, --deadlock-timeout):\n",
                  count_lines(all), rt_.transport.size(), rt_.config.deadlock_timeout);
    std::string text = header + all;
    // Straight to the descriptor: the reporting thread may be running a subrank.
    ssize_t ignored = ::write(STDERR_FILENO, text.data(), text.size());
    (void)ignored;
    rt_.abort(2);
  }
  // The other processes wait for process 0 to end the job.
  sleep(30);
  rt_.abort(2);
}

}  // namespace tucana::mpi
