#include "tucana/translate/MpiCalls.h"

#include <cassert>

#include "llvm/ADT/StringMap.h"

namespace tucana::translate {

namespace {
struct Entry {
  const char* name;
  MpiCallInfo info;
};
const Entry kCalls[] = {
#define TUCANA_MPI_CALL(NAME, ROLE, NOTE) {#NAME, MpiCallInfo{MpiRole::ROLE, NOTE}},
#include "tucana/translate/MpiCalls.def"
#undef TUCANA_MPI_CALL
};
}  // namespace

MpiCallInfo classify_mpi_call(llvm::StringRef name, bool* known) {
  static const llvm::StringMap<MpiCallInfo> table = [] {
    llvm::StringMap<MpiCallInfo> t;
    for (const Entry& e : kCalls) t[e.name] = e.info;
    return t;
  }();
  assert(table.size() == sizeof kCalls / sizeof kCalls[0] && "MpiCalls.def names a call twice");
  auto it = table.find(name);
  if (known) *known = it != table.end();
  return it == table.end() ? MpiCallInfo{MpiRole::Local, ""} : it->second;
}

namespace {

// Every name of the table as an enumerator: a TUCANA_MPI_ARGS row naming a
// call that is not a TUCANA_MPI_CALL row (a typo) does not compile.
enum class Fn {
#define TUCANA_MPI_CALL(NAME, ROLE, NOTE) NAME,
#include "tucana/translate/MpiCalls.def"
#undef TUCANA_MPI_CALL
  none
};

enum class Kind { PointToPoint, Collective, RootedCollective, Post, Wait };
constexpr MpiSize None = MpiSize::None, One = MpiSize::One, TimesSize = MpiSize::TimesSize, V = MpiSize::V;

MpiBufferArg send_arg(int buf, int count, int type, MpiSize size, int displs = -1) {
  MpiBufferArg b;
  b.buf = buf, b.count = count, b.type = type, b.size = size, b.displs = displs, b.read = true;
  return b;
}
MpiBufferArg recv_arg(int buf, int count, int type, MpiSize size, int displs = -1) {
  MpiBufferArg b = send_arg(buf, count, type, size, displs);
  b.read = false, b.written = true;
  return b;
}
MpiBufferArg inout_arg(int buf, int count, int type) {
  MpiBufferArg b = send_arg(buf, count, type, MpiSize::One);
  b.written = true;
  return b;
}

MpiCallArgs args_row(const char* name, const char* nb, const char* nb2, Kind kind, int comm, int status, int request,
                     std::vector<MpiBufferArg> buffers, std::vector<int> arrays) {
  MpiCallArgs c;
  auto named = [](const char* n) { return llvm::StringRef(n) == "none" ? nullptr : n; };
  c.name = name, c.nonblocking = named(nb), c.nonblocking2 = named(nb2);
  c.collective = kind == Kind::Collective || kind == Kind::RootedCollective;
  c.rooted = kind == Kind::RootedCollective;
  c.post = kind == Kind::Post;
  c.wait = kind == Kind::Wait;
  c.comm = comm, c.status = status, c.request = request;
  c.buffers = std::move(buffers), c.read_arrays = std::move(arrays);
  return c;
}

std::vector<MpiCallArgs> args_table() {
  std::vector<MpiCallArgs> t;
#define TUCANA_SEND(...) send_arg(__VA_ARGS__)
#define TUCANA_RECV(...) recv_arg(__VA_ARGS__)
#define TUCANA_INOUT(...) inout_arg(__VA_ARGS__)
#define TUCANA_LIST(...) {__VA_ARGS__}
#define TUCANA_MPI_ARGS(NAME, NB, NB2, KIND, COMM, STATUS, REQUEST, BUFFERS, ARRAYS)                                  \
  (void)Fn::NAME, (void)Fn::NB, (void)Fn::NB2;                                                                       \
  t.push_back(args_row(#NAME, #NB, #NB2, Kind::KIND, COMM, STATUS, REQUEST,                                            \
                       std::vector<MpiBufferArg> TUCANA_LIST BUFFERS, std::vector<int> TUCANA_LIST ARRAYS));
#include "tucana/translate/MpiCalls.def"
#undef TUCANA_MPI_ARGS
#undef TUCANA_LIST
#undef TUCANA_INOUT
#undef TUCANA_RECV
#undef TUCANA_SEND
  return t;
}

}  // namespace

const MpiCallArgs* mpi_call_args(llvm::StringRef name) {
  static const std::vector<MpiCallArgs> table = args_table();
  static const llvm::StringMap<const MpiCallArgs*> index = [] {
    llvm::StringMap<const MpiCallArgs*> m;
    for (const MpiCallArgs& c : table) m[c.name] = &c;
    return m;
  }();
  assert(index.size() == table.size() && "MpiCalls.def gives the arguments of a call twice");
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace tucana::translate
