// Where a statement starts and ends in the text of the main file, as
// written: shared by the analysis (which region a token is in) and the
// emitter (where the glue goes).
#pragma once

#include <vector>

namespace clang {
class ASTContext;
class LangOptions;
class SourceManager;
class Stmt;
}  // namespace clang

namespace tucana::translate {

// The statements a pragma can stand before (statements of a block, bodies
// of loops, branches, labels), the ends of the blocks and the starts of the
// function bodies of the main file, by offset: which statement a pragma
// line annotates.
class StatementIndex {
 public:
  explicit StatementIndex(clang::ASTContext& ctx);
  // The statement that follows the pragma ending at offset `after`, within
  // the same block; null when the block ends first or at file scope.
  const clang::Stmt* following(unsigned after) const;

  struct Entry {
    unsigned begin, end;
    const clang::Stmt* stmt;
  };

 private:
  friend class StatementIndexBuilder;
  std::vector<Entry> stmts_;
  std::vector<unsigned> block_ends_;
  std::vector<unsigned> body_begins_;
};

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
