// Analysis: attaches each annotation to the statement that follows it,
// finds the superblocks, checks them, and builds the Superblock models.
// Every problem is reported through the DiagnosticsEngine.
#pragma once

#include <vector>

#include "tucana/translate/PragmaParser.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
}

namespace tucana::translate {

// Returns the superblocks of the main file in source order. When it reports
// an error, the result must not be used.
std::vector<Superblock> analyze_superblocks(clang::ASTContext& ctx, const AnnotationList& annotations);

}  // namespace tucana::translate
