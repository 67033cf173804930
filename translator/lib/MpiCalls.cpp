#include "tucana/translate/MpiCalls.h"

#include "llvm/ADT/StringMap.h"

namespace tucana::translate {

MpiCallInfo classify_mpi_call(llvm::StringRef name) {
  static const llvm::StringMap<MpiCallInfo> table = [] {
    llvm::StringMap<MpiCallInfo> t;
#define TUCANA_MPI_CALL(NAME, CLASS, NOTE) t[#NAME] = MpiCallInfo{MpiCallClass::CLASS, NOTE};
#include "tucana/translate/MpiCalls.def"
#undef TUCANA_MPI_CALL
    return t;
  }();
  auto it = table.find(name);
  return it == table.end() ? MpiCallInfo{MpiCallClass::Allowed, ""} : it->second;
}

}  // namespace tucana::translate
