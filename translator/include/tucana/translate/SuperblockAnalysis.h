// Analysis: attaches each annotation to the statement that follows it,
// finds the superblocks and the blocks in called functions, checks them, and
// builds the translation plan. Every problem is reported through the
// DiagnosticsEngine, all of them in one run.
#pragma once

#include "tucana/translate/PragmaParser.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
}

namespace tucana::translate {

// The plan for the main file. When it reports an error, the result must not
// be used.
TranslationPlan analyze_superblocks(clang::ASTContext& ctx, const AnnotationList& annotations);

}  // namespace tucana::translate
