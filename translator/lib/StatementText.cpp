#include "tucana/translate/StatementText.h"

#include <cassert>
#include <optional>

#include <algorithm>

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace tucana::translate {

using namespace clang;

class StatementIndexBuilder : public RecursiveASTVisitor<StatementIndexBuilder> {
 public:
  StatementIndexBuilder(SourceManager& sm, StatementIndex& index) : sm_(sm), ix_(index) {}

  bool VisitCompoundStmt(CompoundStmt* block) {
    for (Stmt* child : block->body()) add(child);
    if (sm_.isInMainFile(sm_.getExpansionLoc(block->getRBracLoc())))
      ix_.block_ends_.push_back(offset(block->getRBracLoc()));
    return true;
  }
  bool VisitIfStmt(IfStmt* s) { return add(s->getThen()), add(s->getElse()), true; }
  bool VisitForStmt(ForStmt* s) { return add(s->getBody()), true; }
  bool VisitWhileStmt(WhileStmt* s) { return add(s->getBody()), true; }
  bool VisitDoStmt(DoStmt* s) { return add(s->getBody()), true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt* s) { return add(s->getBody()), true; }
  bool VisitSwitchCase(SwitchCase* s) { return add(s->getSubStmt()), true; }
  bool VisitLabelStmt(LabelStmt* s) { return add(s->getSubStmt()), true; }
  bool VisitAttributedStmt(AttributedStmt* s) { return add(s->getSubStmt()), true; }
  // A pragma before a function's body is not a pragma of its statements.
  bool VisitFunctionDecl(FunctionDecl* f) {
    if (f->doesThisDeclarationHaveABody() && f->getBody() &&
        sm_.isInMainFile(sm_.getExpansionLoc(f->getBody()->getBeginLoc())))
      ix_.body_begins_.push_back(offset(f->getBody()->getBeginLoc()));
    return true;
  }

  void finish() {
    // Outermost first. A statement from a macro (`RECV(x);` expanding to
    // `do { MPI_Recv(...); } while (0)`) has the same text range as the
    // statements inside it: the traversal added the outer one first, and a
    // stable sort keeps it first (an unstable one picked either, depending
    // on the rest of the file).
    std::stable_sort(ix_.stmts_.begin(), ix_.stmts_.end(),
                     [](const StatementIndex::Entry& a, const StatementIndex::Entry& b) {
                       return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
                     });
    std::sort(ix_.block_ends_.begin(), ix_.block_ends_.end());
    std::sort(ix_.body_begins_.begin(), ix_.body_begins_.end());
  }

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  void add(const Stmt* s) {
    if (!s) return;
    SourceLocation b = sm_.getExpansionLoc(s->getBeginLoc());
    if (!sm_.isInMainFile(b)) return;
    ix_.stmts_.push_back({offset(b), offset(sm_.getExpansionRange(s->getEndLoc()).getEnd()), s});
  }
  SourceManager& sm_;
  StatementIndex& ix_;
};

StatementIndex::StatementIndex(ASTContext& ctx) {
  StatementIndexBuilder builder(ctx.getSourceManager(), *this);
  builder.TraverseDecl(ctx.getTranslationUnitDecl());
  builder.finish();
}

const Stmt* StatementIndex::following(unsigned after) const {
  auto it = std::lower_bound(stmts_.begin(), stmts_.end(), after,
                             [](const Entry& e, unsigned off) { return e.begin < off; });
  if (it == stmts_.end()) return nullptr;
  auto end = std::lower_bound(block_ends_.begin(), block_ends_.end(), after);
  if (end != block_ends_.end() && *end < it->begin) return nullptr;
  auto body = std::lower_bound(body_begins_.begin(), body_begins_.end(), after);
  if (body != body_begins_.end() && *body <= it->begin) return nullptr;  // a file-scope pragma
  return it->stmt;
}

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
