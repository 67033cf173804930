// Emission: the translation plan as small separate edits (the glue around
// region bodies that stay in place), all in one tooling::Replacements.
#pragma once

#include <string>

#include "clang/Tooling/Core/Replacement.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
}

namespace tucana::translate {

// Adds the edits of `plan` to `out`; `display_name` is the input file's name
// as the user wrote it (for #line). Returns false (with a diagnostic) when
// two edits conflict.
bool emit_translation(clang::ASTContext& ctx, const TranslationPlan& plan, const std::string& display_name,
                      clang::tooling::Replacements& out);

}  // namespace tucana::translate
