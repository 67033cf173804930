#include "trace/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

namespace tucana::trace {

namespace detail {
bool g_enabled = false;
}

namespace {

struct Event {
  const char* category;
  const char* name;
  std::int64_t begin_ns;
  std::int64_t end_ns;
  int subrank;
  long iteration;
};

// Each worker's buffer, padded to keep workers off each other's cache lines.
struct alignas(64) Buffer {
  std::vector<Event> events;
  std::size_t dropped = 0;
  std::vector<std::int64_t> wake_ns;  // wake_latency()
};

// A generous cap: about 48 MB per worker.
constexpr std::size_t kMaxEvents = 1u << 20;

int g_process = 0;
std::vector<std::unique_ptr<Buffer>> g_buffers;
std::int64_t g_start_ns = 0;

double us(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

// A name inside a JSON string (task labels come from the program).
void put_json_text(const char* text, FILE* out) {
  for (const char* c = text; *c; ++c) {
    unsigned char u = static_cast<unsigned char>(*c);
    if (u == '"' || u == '\\') std::fprintf(out, "\\%c", u);
    else if (u < 0x20) std::fprintf(out, "\\u%04x", u);
    else std::fputc(u, out);
  }
}

}  // namespace

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void start(int process, int workers) {
  g_process = process;
  g_buffers.clear();
  for (int i = 0; i < workers; ++i) {
    g_buffers.push_back(std::make_unique<Buffer>());
    g_buffers.back()->events.reserve(4096);
  }
  g_start_ns = now_ns();
  detail::g_enabled = true;
}

void span(int worker, const char* category, const char* name, std::int64_t begin_ns, std::int64_t end_ns,
          int subrank, long iteration) {
  if (worker < 0 || worker >= static_cast<int>(g_buffers.size())) return;
  Buffer& b = *g_buffers[static_cast<std::size_t>(worker)];
  if (b.events.size() >= kMaxEvents) {
    ++b.dropped;
    return;
  }
  b.events.push_back(Event{category, name, begin_ns, end_ns, subrank, iteration});
}

void subrank_span(int worker, int subrank, std::int64_t begin_ns, std::int64_t end_ns) {
  span(worker, "subrank", "subrank", begin_ns, end_ns, subrank);
}

void task_span(int worker, int subrank, int task, const char* label, std::int64_t begin_ns, std::int64_t end_ns) {
  span(worker, "task", label ? label : "task", begin_ns, end_ns, subrank, task);
}

void wake_latency(int worker, std::int64_t latency_ns) {
  if (worker < 0 || worker >= static_cast<int>(g_buffers.size())) return;
  Buffer& b = *g_buffers[static_cast<std::size_t>(worker)];
  if (b.wake_ns.size() < kMaxEvents) b.wake_ns.push_back(latency_ns);
}

void finish(const std::string& path, int nprocs) {
  if (!detail::g_enabled) return;
  detail::g_enabled = false;
  std::int64_t end_ns = now_ns();
  std::string file = nprocs > 1 ? path + "." + std::to_string(g_process) + ".part" : path;
  FILE* out = std::fopen(file.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "tucana: warning: cannot write the trace to '%s'\n", file.c_str());
    return;
  }
  // One event per line; a part file holds only event lines (each ending
  // with a comma), which tucana-run joins into one JSON document.
  if (nprocs == 1) std::fputs("{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n", out);
  std::fprintf(out, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": {\"name\": \"process %d\"}},\n",
               g_process, g_process);
  for (std::size_t w = 0; w < g_buffers.size(); ++w) {
    std::fprintf(out,
                 "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %zu, \"args\": {\"name\": "
                 "\"worker %zu\"}},\n",
                 g_process, w, w);
    for (const Event& e : g_buffers[w]->events) {
      std::fputs("{\"name\": \"", out);
      if (e.subrank >= 0 && std::string(e.category) == "subrank")
        std::fprintf(out, "subrank %d", e.subrank);
      else
        put_json_text(e.name, out);
      std::fprintf(out, "\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %zu",
                   e.category, us(e.begin_ns), us(e.end_ns - e.begin_ns), g_process, w);
      if (e.subrank >= 0) {
        std::fprintf(out, ", \"args\": {\"subrank\": %d", e.subrank);
        bool task = std::string(e.category) == "task";
        if (e.iteration >= 0) std::fprintf(out, ", \"%s\": %ld", task ? "task" : "iteration", e.iteration);
        std::fputs("}", out);
      }
      std::fputs("},\n", out);
    }
  }
  if (nprocs == 1)
    std::fprintf(out, "{\"ph\": \"M\", \"name\": \"trace_end\", \"pid\": %d, \"args\": {}}\n]}\n", g_process);
  std::fclose(out);

  // Utilization: the share of the run each worker spent running subranks
  // and their tasks (and inside regions), idle, and moving messages.
  double total = static_cast<double>(end_ns - g_start_ns);
  for (std::size_t w = 0; w < g_buffers.size(); ++w) {
    double busy = 0, regions = 0, idle = 0, mpi = 0;
    for (const Event& e : g_buffers[w]->events) {
      double d = static_cast<double>(e.end_ns - e.begin_ns);
      std::string cat = e.category;
      if (cat == "subrank" || cat == "task") busy += d;
      else if (cat == "region") regions += d;
      else if (cat == "idle") idle += d;
      else if (cat == "mpi") mpi += d;
    }
    std::fprintf(stderr,
                 "tucana: trace: process %d worker %zu: subranks running %.1f%% (in regions %.1f%%), idle %.1f%%, "
                 "MPI progress %.1f%% of %.3f s; %zu events%s\n",
                 g_process, w, 100 * busy / total, 100 * regions / total, 100 * idle / total, 100 * mpi / total,
                 total * 1e-9, g_buffers[w]->events.size(),
                 g_buffers[w]->dropped ? " (some dropped: buffer full)" : "");
  }
  std::vector<std::int64_t> wakes;
  for (const auto& b : g_buffers) wakes.insert(wakes.end(), b->wake_ns.begin(), b->wake_ns.end());
  if (!wakes.empty()) {
    std::sort(wakes.begin(), wakes.end());
    std::fprintf(stderr,
                 "tucana: trace: process %d: %zu wake-ups, from unpark to running: median %.1f us, "
                 "90th percentile %.1f us\n",
                 g_process, wakes.size(), us(wakes[wakes.size() / 2]), us(wakes[wakes.size() * 9 / 10]));
  }
}

}  // namespace tucana::trace
