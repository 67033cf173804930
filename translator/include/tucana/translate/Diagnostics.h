// The translator's diagnostics, reported through clang's DiagnosticsEngine
// so that they print as `file:line:col: error: ...` with the source line and
// a caret, like the compiler's own.
#pragma once

#include "clang/Basic/Diagnostic.h"

namespace tucana::translate {

enum class Diag {
#define TUCANA_DIAG(ID, LEVEL, TEXT) ID,
#include "tucana/translate/Diagnostics.def"
#undef TUCANA_DIAG
};

// Starts a diagnostic at `loc`; stream arguments into it with <<.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine& diags, clang::SourceLocation loc, Diag id);

}  // namespace tucana::translate
