#include "tucana/translate/StatementText.h"

#include <cassert>
#include <optional>

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace tucana::translate {

using namespace clang;

const Stmt* unwrap_attributes(const Stmt* s) {
  while (const auto* a = dyn_cast_or_null<AttributedStmt>(s)) s = a->getSubStmt();
  return s;
}

namespace {
// The statement whose last token is `s`'s last token as written.
const Stmt* last_written(const Stmt* s) {
  while (const auto* omp = dyn_cast_or_null<OMPExecutableDirective>(s)) {
    if (!omp->hasAssociatedStmt()) break;
    s = omp->getAssociatedStmt();
    if (const auto* captured = dyn_cast<CapturedStmt>(s)) s = captured->getCapturedStmt();
  }
  return s;
}
}  // namespace

unsigned end_offset(const SourceManager& sm, const LangOptions& lo, const Stmt* s) {
  assert(s && "end_offset of no statement");
  SourceLocation last = sm.getExpansionRange(last_written(s)->getEndLoc()).getEnd();
  return sm.getFileOffset(Lexer::getLocForEndOfToken(last, 0, sm, lo));
}

unsigned statement_end_offset(const SourceManager& sm, const LangOptions& lo, const Stmt* s) {
  assert(s && "statement_end_offset of no statement");
  s = last_written(s);
  SourceLocation last = sm.getExpansionRange(s->getEndLoc()).getEnd();
  std::optional<Token> next = Lexer::findNextToken(last, sm, lo);
  if (next && next->is(tok::semi) && !isa<CompoundStmt>(s)) return sm.getFileOffset(next->getEndLoc());
  return end_offset(sm, lo, s);
}

}  // namespace tucana::translate
