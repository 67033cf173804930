// #pragma cco do [private(ITEM, ...)]   ITEM: a variable, or name[lower:length]
// #pragma cco ignore
// #pragma cco override NAME [reads(ITEM, ...)] [writes(ITEM, ...)]
//   ITEM: a parameter name, a 1-based parameter position, or a global variable
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "tucana/cco/Cco.h"
#include "tucana/translate/Diagnostics.h"

namespace tucana::cco {

namespace {

using clang::Token;
using translate::Diag;
namespace tok = clang::tok;


llvm::StringRef word_of(const Token& t) {
  return t.getIdentifierInfo() ? t.getIdentifierInfo()->getName() : llvm::StringRef();
}

class CcoPragmaHandler : public clang::PragmaHandler {
 public:
  explicit CcoPragmaHandler(PragmaList& out) : clang::PragmaHandler("cco"), out_(out) {}

  void HandlePragma(clang::Preprocessor& pp, clang::PragmaIntroducer introducer, Token& first) override {
    CcoPragma p;
    p.loc = first.getLocation();
    clang::SourceManager& sm = pp.getSourceManager();
    clang::SourceLocation floc = sm.getFileLoc(introducer.Loc);
    p.in_main_file = sm.isWrittenInMainFile(floc);
    p.offset = sm.getFileOffset(floc);
    Token t;
    pp.Lex(t);
    llvm::StringRef w = word_of(t);
    if (t.is(tok::eod)) return fail(pp, t, first.getLocation(), Diag::CcoMissingKeyword);
    if (w == "do" || w == "ignore") {
      p.kind = w == "do" ? PragmaKind::Do : PragmaKind::Ignore;
      pp.Lex(t);
      if (w == "do" && word_of(t) == "private") {
        if (!parse_private(pp, t, p)) return;
        pp.Lex(t);
      }
      if (t.isNot(tok::eod))
        return w == "do" ? fail(pp, t, t.getLocation(), Diag::CcoExtraTokensDo)
                         : fail(pp, t, t.getLocation(), Diag::CcoExtraTokens, {w.str()});
      out_.all.push_back(p);
      return;
    }
    if (w != "override")
      return fail(pp, t, t.getLocation(), Diag::CcoUnknownKeyword, {pp.getSpelling(t)});
    p.kind = PragmaKind::Override;
    pp.Lex(t);
    if (t.isNot(tok::identifier))
      return fail(pp, t, t.getLocation(), Diag::CcoExpectedFunction);
    p.function = word_of(t).str();
    p.function_loc = t.getLocation();
    pp.Lex(t);
    bool seen_reads = false, seen_writes = false;
    while (t.isNot(tok::eod)) {
      llvm::StringRef clause = word_of(t);
      if (clause != "reads" && clause != "writes")
        return fail(pp, t, t.getLocation(), Diag::CcoUnknownClause, {pp.getSpelling(t)});
      bool& seen = clause == "reads" ? seen_reads : seen_writes;
      if (seen) return fail(pp, t, t.getLocation(), Diag::CcoDuplicateClause, {clause.str()});
      seen = true;
      std::vector<OverrideItem>& items = clause == "reads" ? p.reads : p.writes;
      pp.Lex(t);
      if (t.isNot(tok::l_paren)) return fail(pp, t, t.getLocation(), Diag::CcoExpectedLParen, {clause.str()});
      pp.Lex(t);
      while (t.isNot(tok::r_paren)) {
        OverrideItem item;
        item.loc = t.getLocation();
        if (t.is(tok::identifier)) {
          item.name = word_of(t).str();
        } else if (t.is(tok::numeric_constant)) {
          std::string digits = pp.getSpelling(t);
          int n = 0;
          if (llvm::StringRef(digits).getAsInteger(10, n) || n < 1)
            return fail(pp, t, t.getLocation(), Diag::CcoBadPosition, {digits});
          item.position = n;
        } else {
          return fail(pp, t, t.getLocation(), Diag::CcoBadItem, {clause.str()});
        }
        items.push_back(item);
        pp.Lex(t);
        if (t.is(tok::comma)) {
          pp.Lex(t);
          if (t.is(tok::r_paren)) return fail(pp, t, t.getLocation(), Diag::CcoExpectedItem);
        } else if (t.isNot(tok::r_paren)) {
          return fail(pp, t, t.getLocation(), Diag::CcoExpectedCommaOrRParen, {clause.str()});
        }
      }
      pp.Lex(t);
    }
    out_.all.push_back(p);
  }

 private:
  // private(ITEM, ...) with ITEM `name` or `name[lo:len]`; on return `t` is the ')'.
  bool parse_private(clang::Preprocessor& pp, Token& t, CcoPragma& p) {
    pp.Lex(t);
    if (t.isNot(tok::l_paren)) return fail(pp, t, t.getLocation(), Diag::CcoExpectedLParen, {"private"}), false;
    pp.Lex(t);
    while (true) {
      PrivateItem item;
      item.loc = t.getLocation();
      if (t.isNot(tok::identifier))
        return fail(pp, t, t.getLocation(), Diag::CcoExpectedVariable), false;
      item.name = word_of(t).str();
      pp.Lex(t);
      if (t.is(tok::l_square)) {
        // The bounds as written, up to ':' and ']' at bracket depth 0.
        item.section = true;
        std::string* into = &item.lo;
        int depth = 0;
        for (pp.Lex(t);; pp.Lex(t)) {
          if (t.is(tok::eod)) return fail(pp, t, t.getLocation(), Diag::CcoExpectedRSquare), false;
          if (depth == 0 && t.is(tok::colon) && into == &item.lo) {
            into = &item.len;
            continue;
          }
          if (depth == 0 && t.is(tok::r_square)) break;
          if (t.isOneOf(tok::l_paren, tok::l_square)) ++depth;
          if (t.isOneOf(tok::r_paren, tok::r_square)) --depth;
          *into += (into->empty() ? "" : " ") + pp.getSpelling(t);
        }
        if (into != &item.len || item.len.empty())
          return fail(pp, t, item.loc, Diag::CcoExpectedSection), false;
        if (item.lo.empty()) item.lo = "0";
        pp.Lex(t);
      }
      p.privates.push_back(item);
      if (t.is(tok::r_paren)) return true;
      if (t.isNot(tok::comma)) return fail(pp, t, t.getLocation(), Diag::CcoExpectedCommaOrRParen, {"private"}), false;
      pp.Lex(t);
    }
  }
  // Reports `id` (its arguments in order) and skips the rest of the pragma.
  void fail(clang::Preprocessor& pp, Token& t, clang::SourceLocation loc, Diag id,
            std::initializer_list<std::string> args = {}) {
    {
      clang::DiagnosticBuilder b = translate::report(pp.getDiagnostics(), loc, id);
      for (const std::string& a : args) b << a;
    }
    ++out_.errors;
    while (t.isNot(tok::eod)) pp.Lex(t);
  }
  PragmaList& out_;
};

}  // namespace

void register_cco_pragmas(clang::Preprocessor& pp, PragmaList& out) { pp.AddPragmaHandler(new CcoPragmaHandler(out)); }

}  // namespace tucana::cco
