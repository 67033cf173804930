// Where a statement starts and ends in the text of the main file, as
// written: shared by the analysis (which region a token is in) and the
// emitter (where the glue goes).
#pragma once

namespace clang {
class LangOptions;
class SourceManager;
class Stmt;
}  // namespace clang

namespace tucana::translate {

// `s` without the attributes around it (`#pragma GCC unroll`, [[likely]]).
const clang::Stmt* unwrap_attributes(const clang::Stmt* s);

// Offset just past the last token of `s` as written: a macro call at the
// end counts whole, and an OpenMP directive ends with the statement it
// applies to, not with its pragma line. Contract (both functions): `s` is
// not null and its end is in a file (not in a builtin or scratch buffer).
unsigned end_offset(const clang::SourceManager& sm, const clang::LangOptions& lo, const clang::Stmt* s);

// The same, extended over the ';' that ends a statement when there is one
// (an expression statement's range stops before it; a { } block has none).
unsigned statement_end_offset(const clang::SourceManager& sm, const clang::LangOptions& lo, const clang::Stmt* s);

}  // namespace tucana::translate
