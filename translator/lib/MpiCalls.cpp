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

}  // namespace tucana::translate
