// Emission: the text that replaces each superblock (a region dispatch loop
// over the runtime's superblock interface), with the waits inside it
// rewritten, as clang::tooling::Replacements that are applied once.
#pragma once

#include <string>
#include <vector>

#include "clang/Tooling/Core/Replacement.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
}

namespace tucana::translate {

// Adds to `out` one replacement per superblock and the #include of the
// runtime's superblock interface. Returns false (with a diagnostic) when
// two edits conflict.
bool emit_superblocks(clang::ASTContext& ctx, const std::vector<Superblock>& superblocks,
                      clang::tooling::Replacements& out);

}  // namespace tucana::translate
