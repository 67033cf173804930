// #pragma tucana superblock | receive | send | compute | region(NAME) [depends(A, B*, ...)]
// #pragma toucan superblock | receive | send | compute
// #pragma mate   region(NAME) [depends(...)]
#include "tucana/translate/PragmaParser.h"

#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Pragma.h"
#include "tucana/translate/Diagnostics.h"

namespace tucana::translate {

const char* kind_keyword(AnnotationKind kind) {
  switch (kind) {
    case AnnotationKind::Superblock: return "superblock";
    case AnnotationKind::Receive: return "receive";
    case AnnotationKind::Send: return "send";
    case AnnotationKind::Compute: return "compute";
    case AnnotationKind::Region: return "region";
  }
  return "?";
}

namespace {

using clang::Token;
namespace tok = clang::tok;

class AnnotationPragmaHandler : public clang::PragmaHandler {
 public:
  AnnotationPragmaHandler(const char* ns, AnnotationList& out) : clang::PragmaHandler(ns), out_(out) {}

  void HandlePragma(clang::Preprocessor& pp, clang::PragmaIntroducer introducer, Token& first) override;

 private:
  // The keywords this spelling accepts, for messages.
  const char* expected() const {
    llvm::StringRef ns = getName();
    if (ns == "mate") return "region(NAME)";
    if (ns == "toucan") return "superblock, receive, send or compute";
    return "superblock, receive, send, compute or region(NAME)";
  }
  bool parse_region_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_depends(clang::Preprocessor& pp, Token& tok, Annotation& a);
  static void skip_to_eod(clang::Preprocessor& pp, Token& tok) {
    while (tok.isNot(tok::eod)) pp.Lex(tok);
  }

  AnnotationList& out_;
};

void AnnotationPragmaHandler::HandlePragma(clang::Preprocessor& pp, clang::PragmaIntroducer introducer,
                                           Token& first) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  Annotation a;
  a.spelling = ns;
  a.hash_loc = introducer.Loc;
  Token tok;
  pp.Lex(tok);
  if (tok.is(tok::eod)) {
    report(diags, first.getLocation(), Diag::MissingKeyword) << ns << expected();
    return;
  }
  a.keyword_loc = tok.getLocation();
  llvm::StringRef word = tok.getIdentifierInfo() ? tok.getIdentifierInfo()->getName() : llvm::StringRef();
  bool mate = ns == "mate";
  bool toucan = ns == "toucan";
  if (word == "superblock" && !mate) {
    a.kind = AnnotationKind::Superblock;
  } else if ((word == "receive" || word == "send" || word == "compute") && !mate) {
    a.kind = word == "receive" ? AnnotationKind::Receive
             : word == "send"  ? AnnotationKind::Send
                               : AnnotationKind::Compute;
    a.name = word.str();
  } else if (word == "region" && !toucan) {
    a.kind = AnnotationKind::Region;
  } else {
    std::string spelled = word.empty() ? pp.getSpelling(tok) : word.str();
    report(diags, tok.getLocation(), Diag::UnknownKeyword) << ns << spelled << expected();
    skip_to_eod(pp, tok);
    return;
  }
  pp.Lex(tok);
  if (a.kind == AnnotationKind::Region) {
    if (!parse_region_clauses(pp, tok, a)) {
      skip_to_eod(pp, tok);
      return;
    }
  }
  if (tok.isNot(tok::eod)) {
    if (tok.is(tok::identifier))
      report(diags, tok.getLocation(), Diag::UnknownClause)
          << tok.getIdentifierInfo()->getName() << ns << kind_keyword(a.kind)
          << (a.kind == AnnotationKind::Region ? "expected depends(...)" : "this pragma takes no clauses");
    else
      report(diags, tok.getLocation(), Diag::ExtraTokens) << ns << kind_keyword(a.kind);
    skip_to_eod(pp, tok);
    return;
  }
  a.end_loc = tok.getLocation();
  out_.add(std::move(a));
}

// region ( NAME ) [ depends ( dep {, dep} ) ]
bool AnnotationPragmaHandler::parse_region_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  if (tok.isNot(tok::l_paren)) {
    report(diags, tok.getLocation(), Diag::ExpectedToken) << "'(' and a region name" << ns << "region";
    return false;
  }
  pp.Lex(tok);
  if (tok.isNot(tok::identifier)) {
    report(diags, tok.getLocation(), Diag::ExpectedToken) << "a region name" << ns << "region";
    return false;
  }
  a.name = tok.getIdentifierInfo()->getName().str();
  pp.Lex(tok);
  if (tok.isNot(tok::r_paren)) {
    report(diags, tok.getLocation(), Diag::ExpectedToken) << "')' after the region name" << ns << "region";
    return false;
  }
  pp.Lex(tok);
  while (tok.is(tok::identifier)) {
    llvm::StringRef clause = tok.getIdentifierInfo()->getName();
    if (clause != "depends") {
      report(diags, tok.getLocation(), Diag::UnknownClause) << clause << ns << "region" << "expected depends(...)";
      return false;
    }
    if (a.has_depends) {
      report(diags, tok.getLocation(), Diag::DuplicateClause) << "depends";
      return false;
    }
    a.has_depends = true;
    pp.Lex(tok);
    if (!parse_depends(pp, tok, a)) return false;
  }
  return true;
}

// ( dep {, dep} ) where dep = NAME [*]
bool AnnotationPragmaHandler::parse_depends(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  if (tok.isNot(tok::l_paren)) {
    report(diags, tok.getLocation(), Diag::ExpectedToken) << "'(' after depends" << ns << "region";
    return false;
  }
  pp.Lex(tok);
  if (tok.is(tok::r_paren)) {  // depends() : no dependency
    pp.Lex(tok);
    return true;
  }
  for (;;) {
    if (tok.isNot(tok::identifier)) {
      report(diags, tok.getLocation(), Diag::ExpectedToken) << "a region name in depends(...)" << ns << "region";
      return false;
    }
    Dependency d;
    d.name = tok.getIdentifierInfo()->getName().str();
    d.loc = tok.getLocation();
    pp.Lex(tok);
    if (tok.is(tok::star)) {
      d.previous = true;
      pp.Lex(tok);
    }
    a.deps.push_back(d);
    if (tok.is(tok::comma)) {
      pp.Lex(tok);
      continue;
    }
    if (tok.is(tok::r_paren)) {
      pp.Lex(tok);
      return true;
    }
    report(diags, tok.getLocation(), Diag::ExpectedToken) << "',' or ')' in depends(...)" << ns << "region";
    return false;
  }
}

// '#pragma bamboo ...' would otherwise be ignored like any unknown pragma,
// and the loop would silently run without overlap: refuse it.
class BambooPragmaHandler : public clang::PragmaHandler {
 public:
  BambooPragmaHandler() : clang::PragmaHandler("bamboo") {}
  void HandlePragma(clang::Preprocessor& pp, clang::PragmaIntroducer, Token& first) override {
    report(pp.getDiagnostics(), first.getLocation(), Diag::BambooUnsupported);
    Token tok;
    do pp.Lex(tok);
    while (tok.isNot(tok::eod));
  }
};

}  // namespace

void register_annotation_pragmas(clang::Preprocessor& pp, AnnotationList& out) {
  for (const char* ns : {"tucana", "toucan", "mate"}) pp.AddPragmaHandler(new AnnotationPragmaHandler(ns, out));
  pp.AddPragmaHandler(new BambooPragmaHandler);
}

}  // namespace tucana::translate
