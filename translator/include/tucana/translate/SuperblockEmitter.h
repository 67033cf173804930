// Emission: the translation plan as small separate edits (the glue around
// region bodies that stay in place), all in one tooling::Replacements.
#pragma once

#include <string>

#include "llvm/ADT/StringRef.h"
#include "tucana/translate/EditSet.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
}

namespace tucana::translate {

// Adds the edits of `plan` to `out`; `display_name` is the input file's name
// as the user wrote it (for #line).
void emit_translation(clang::ASTContext& ctx, const TranslationPlan& plan, const std::string& display_name,
                      EditSet& out);

// `#line LINE "DISPLAY_NAME"`: compiler messages name the user's file.
std::string line_directive(unsigned line, llvm::StringRef display_name);

}  // namespace tucana::translate
