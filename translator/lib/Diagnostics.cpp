#include "tucana/translate/Diagnostics.h"

#include <map>

namespace tucana::translate {

namespace {
struct DiagInfo {
  clang::DiagnosticsEngine::Level level;
  const char* text;
};
const DiagInfo kDiags[] = {
#define TUCANA_DIAG(ID, LEVEL, TEXT) {clang::DiagnosticsEngine::LEVEL, TEXT},
#include "tucana/translate/Diagnostics.def"
#undef TUCANA_DIAG
};
}  // namespace

clang::DiagnosticBuilder report(clang::DiagnosticsEngine& diags, clang::SourceLocation loc, Diag id) {
  const DiagInfo& info = kDiags[static_cast<int>(id)];
  // getCustomDiagID returns the same ID for the same (level, text).
  unsigned diag_id = diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(info.level), info.text);
  return diags.Report(loc, diag_id);
}

}  // namespace tucana::translate
