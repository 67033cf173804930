#include "tucana/translate/MpiCalls.h"

#include <cassert>
#include <cstddef>

#include "llvm/ADT/StringMap.h"

namespace tucana::translate {

namespace {
struct Entry {
  const char* name;
  MpiCallInfo info;
};
const Entry kCalls[] = {
#define TMPI_FN(NAME, PARAMS, ROLE, NOTE) {"MPI_" #NAME, MpiCallInfo{MpiRole::ROLE, NOTE}},
#define TMPI_FN_R(RET, NAME, PARAMS, ROLE, NOTE) TMPI_FN(NAME, PARAMS, ROLE, NOTE)
#include "tucana/tmpi_functions.def"
#undef TMPI_FN_R
#undef TMPI_FN
};
}  // namespace

MpiCallInfo classify_mpi_call(llvm::StringRef name, bool* known) {
  static const llvm::StringMap<MpiCallInfo> table = [] {
    llvm::StringMap<MpiCallInfo> t;
    for (const Entry& e : kCalls) t[e.name] = e.info;
    return t;
  }();
  assert(table.size() == sizeof kCalls / sizeof kCalls[0] && "tmpi_functions.def names a call twice");
  auto it = table.find(name);
  if (known) *known = it != table.end();
  return it == table.end() ? MpiCallInfo{MpiRole::Local, ""} : it->second;
}

namespace {

// Every name of the table as an enumerator: a TMPI_ARGS row naming a call
// that is not a TMPI_FN row (a typo) does not compile.
enum class Fn {
#define TMPI_FN(NAME, PARAMS, ROLE, NOTE) NAME,
#define TMPI_FN_R(RET, NAME, PARAMS, ROLE, NOTE) NAME,
#include "tucana/tmpi_functions.def"
#undef TMPI_FN_R
#undef TMPI_FN
  none
};
static_assert(static_cast<std::size_t>(Fn::none) == sizeof kCalls / sizeof kCalls[0],
              "Fn and kCalls are the same rows in the same order");

// "MPI_<NAME>" of a row of the table, or nullptr for `none` (an empty column).
const char* name_of(Fn fn) {
  return fn == Fn::none ? nullptr : kCalls[static_cast<std::size_t>(fn)].name;
}

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

// nb, nb2: the counterparts, Fn::none for an empty column. sb_post: the
// runtime's posting form as the table spells it ("none": kept blocking; it
// names a runtime function, not a row, so it has no enumerator).
MpiCallArgs args_row(Fn fn, Fn nb, Fn nb2, Kind kind, int comm, int status, int request,
                     std::vector<MpiBufferArg> buffers, std::vector<int> arrays, llvm::StringRef sb_post) {
  MpiCallArgs c;
  c.name = name_of(fn), c.nonblocking = name_of(nb), c.nonblocking2 = name_of(nb2);
  c.sb_post = sb_post == "none" ? nullptr : sb_post.data();
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
#define TMPI_SEND(...) send_arg(__VA_ARGS__)
#define TMPI_RECV(...) recv_arg(__VA_ARGS__)
#define TMPI_INOUT(...) inout_arg(__VA_ARGS__)
#define TUCANA_LIST(...) {__VA_ARGS__}
#define TMPI_FN(NAME, PARAMS, ROLE, NOTE)
#define TMPI_FN_R(RET, NAME, PARAMS, ROLE, NOTE)
#define TMPI_ARGS(NAME, NB, NB2, KIND, COMM, STATUS, REQUEST, BUFFERS, ARRAYS, SB_POST)                               \
  t.push_back(args_row(Fn::NAME, Fn::NB, Fn::NB2, Kind::KIND, COMM, STATUS, REQUEST,                                 \
                       std::vector<MpiBufferArg> TUCANA_LIST BUFFERS, std::vector<int> TUCANA_LIST ARRAYS, #SB_POST));
#include "tucana/tmpi_functions.def"
#undef TMPI_ARGS
#undef TMPI_FN_R
#undef TMPI_FN
#undef TUCANA_LIST
#undef TMPI_INOUT
#undef TMPI_RECV
#undef TMPI_SEND
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
  assert(index.size() == table.size() && "tmpi_functions.def gives the arguments of a call twice");
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace tucana::translate
