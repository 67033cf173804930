// The communication calls tucana-cco pipelines, with the role of each
// argument. Which calls block or are collective agrees with the translator's
// table (MpiCalls.def); this adds what that table lacks: buffers and sizes.
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "tucana/cco/Cco.h"
#include "tucana/translate/MpiCalls.h"

namespace tucana::cco {

namespace {

BufferArg send(int buf, int count, int type, SizeKind size, int displs = -1) {
  BufferArg b;
  b.buf = buf, b.count = count, b.type = type, b.size = size, b.displs = displs, b.read = true;
  return b;
}
BufferArg recv(int buf, int count, int type, SizeKind size, int displs = -1) {
  BufferArg b = send(buf, count, type, size, displs);
  b.read = false, b.written = true;
  return b;
}
BufferArg inout(int buf, int count, int type) {
  BufferArg b = send(buf, count, type, SizeKind::One);
  b.written = true;
  return b;
}

CommSpec spec(const char* name, const char* nonblocking) {
  CommSpec c;
  c.name = name, c.nonblocking = nonblocking;
  return c;
}

std::vector<CommSpec> make_table() {
  using S = SizeKind;
  std::vector<CommSpec> t;
  auto p2p = [&](const char* name, const char* nb, BufferArg b, int comm, int status) {
    CommSpec c = spec(name, nb);
    c.buffers = {b}, c.comm = comm, c.status = status;
    t.push_back(c);
  };
  for (const char* n : {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"}) {
    static const std::map<std::string, const char*> nb = {
        {"MPI_Send", "MPI_Isend"}, {"MPI_Ssend", "MPI_Issend"}, {"MPI_Rsend", "MPI_Irsend"}, {"MPI_Bsend", "MPI_Ibsend"}};
    p2p(n, nb.at(n), send(0, 1, 2, S::One), 5, -1);
  }
  p2p("MPI_Recv", "MPI_Irecv", recv(0, 1, 2, S::One), 5, 6);
  {
    CommSpec c = spec("MPI_Sendrecv", "MPI_Isend+MPI_Irecv");
    c.buffers = {send(0, 1, 2, S::One), recv(5, 6, 7, S::One)}, c.comm = 10, c.status = 11;
    t.push_back(c);
  }
  {
    CommSpec c = spec("MPI_Sendrecv_replace", nullptr);
    c.buffers = {inout(0, 1, 2)}, c.comm = 9, c.status = 10;
    t.push_back(c);
  }
  for (const char* n : {"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend"}) {
    CommSpec c = spec(n, nullptr);
    c.post = true, c.buffers = {send(0, 1, 2, S::One)}, c.comm = 5, c.request = 6;
    t.push_back(c);
  }
  {
    CommSpec c = spec("MPI_Irecv", nullptr);
    c.post = true, c.buffers = {recv(0, 1, 2, S::One)}, c.comm = 5, c.request = 6;
    t.push_back(c);
  }
  {
    CommSpec c = spec("MPI_Waitall", nullptr);
    c.wait = true, c.request = 1, c.status = 2;
    t.push_back(c);
    CommSpec w = spec("MPI_Wait", nullptr);
    w.wait = true, w.request = 0, w.status = 1;
    t.push_back(w);
  }
  auto coll = [&](const char* name, const char* nb, std::vector<BufferArg> bufs, int comm, std::vector<int> arrays = {},
                  bool rooted = false) {
    CommSpec c = spec(name, nb);
    c.collective = true, c.rooted = rooted, c.buffers = std::move(bufs), c.comm = comm, c.read_arrays = std::move(arrays);
    t.push_back(c);
  };
  coll("MPI_Barrier", "MPI_Ibarrier", {}, 0);
  coll("MPI_Bcast", "MPI_Ibcast", {inout(0, 1, 2)}, 4, {}, true);
  coll("MPI_Alltoall", "MPI_Ialltoall", {send(0, 1, 2, S::TimesSize), recv(3, 4, 5, S::TimesSize)}, 6);
  coll("MPI_Alltoallv", "MPI_Ialltoallv", {send(0, 1, 3, S::V, 2), recv(4, 5, 7, S::V, 6)}, 8, {1, 2, 5, 6});
  coll("MPI_Alltoallw", "MPI_Ialltoallw", {send(0, 1, -1, S::None), recv(4, 5, -1, S::None)}, 8, {1, 2, 3, 5, 6, 7});
  coll("MPI_Allgather", "MPI_Iallgather", {send(0, 1, 2, S::One), recv(3, 4, 5, S::TimesSize)}, 6);
  coll("MPI_Allgatherv", "MPI_Iallgatherv", {send(0, 1, 2, S::One), recv(3, 4, 6, S::V, 5)}, 7, {4, 5});
  coll("MPI_Allreduce", "MPI_Iallreduce", {send(0, 2, 3, S::One), recv(1, 2, 3, S::One)}, 5);
  coll("MPI_Scan", "MPI_Iscan", {send(0, 2, 3, S::One), recv(1, 2, 3, S::One)}, 5);
  coll("MPI_Exscan", "MPI_Iexscan", {send(0, 2, 3, S::One), recv(1, 2, 3, S::One)}, 5);
  coll("MPI_Reduce", "MPI_Ireduce", {send(0, 2, 3, S::One), recv(1, 2, 3, S::None)}, 6, {}, true);
  coll("MPI_Gather", "MPI_Igather", {send(0, 1, 2, S::One), recv(3, 4, 5, S::None)}, 7, {}, true);
  coll("MPI_Gatherv", "MPI_Igatherv", {send(0, 1, 2, S::One), recv(3, 4, 6, S::None, 5)}, 8, {4, 5}, true);
  coll("MPI_Scatter", "MPI_Iscatter", {send(0, 1, 2, S::None), recv(3, 4, 5, S::One)}, 7, {}, true);
  coll("MPI_Scatterv", "MPI_Iscatterv", {send(0, 1, 3, S::None, 2), recv(4, 5, 6, S::One)}, 8, {1, 2}, true);
  coll("MPI_Reduce_scatter", "MPI_Ireduce_scatter", {send(0, 2, 3, S::None), recv(1, 2, 3, S::None)}, 5, {2});
  coll("MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block",
       {send(0, 2, 3, S::TimesSize), recv(1, 2, 3, S::One)}, 5);
  return t;
}

}  // namespace

const CommSpec* find_comm(llvm::StringRef name) {
  static const std::vector<CommSpec> table = make_table();
  static const llvm::StringMap<const CommSpec*> index = [] {
    llvm::StringMap<const CommSpec*> m;
    for (const CommSpec& c : table) {
      // Every name here, and every non-blocking counterpart, must be one of
      // the translator's MpiCalls.def: a typo stops the tool (and so fails
      // every test that runs it) instead of dropping the call silently.
      llvm::SmallVector<llvm::StringRef, 3> names{c.name};
      if (c.nonblocking) llvm::StringRef(c.nonblocking).split(names, '+');
      for (llvm::StringRef n : names) {
        bool known = false;
        translate::classify_mpi_call(n, &known);
        if (!known)
          llvm::report_fatal_error(llvm::Twine("tucana-cco: the MPI call table (MpiComm.cpp) names '") + n +
                                   "', which is not in the translator's MpiCalls.def");
      }
      m[c.name] = &c;
    }
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace tucana::cco
