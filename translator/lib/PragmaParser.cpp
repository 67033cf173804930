// #pragma tucana superblock [priority(E)]
// #pragma tucana receive | send | compute [priority(E)] [split(off | N)]
// #pragma tucana region(NAME) [depends(A, B*, ...)] [role(R)] [priority(E)] [split(off | N)]
// #pragma toucan superblock | receive | send | compute
// #pragma mate   region(NAME) [depends(...)] [role(R)] [priority(E)]
// #pragma bamboo olap | receive | send | priority(N)
// #pragma tucana task [depend(in|out|inout: X, ...)]... [shared(V, ...)] [priority(E)] [boundary] [name("L")]
// #pragma tucana taskwait
// #pragma tucana taskloop [num_tasks(E) | grainsize(E)] [shared(V, ...)] [priority(E)] [boundary] [name("L")]
// (task, taskwait and taskloop: the toucan spelling too)
#include "tucana/translate/PragmaParser.h"

#include <vector>

#include "clang/Lex/Lexer.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "tucana/translate/Diagnostics.h"

namespace tucana::translate {

const char* kind_keyword(AnnotationKind kind) {
  switch (kind) {
    case AnnotationKind::Superblock: return "superblock";
    case AnnotationKind::Receive: return "receive";
    case AnnotationKind::Send: return "send";
    case AnnotationKind::Compute: return "compute";
    case AnnotationKind::Region: return "region";
    case AnnotationKind::Priority: return "priority";
    case AnnotationKind::Shared: return "shared";
    case AnnotationKind::Task: return "task";
    case AnnotationKind::Taskwait: return "taskwait";
    case AnnotationKind::Taskloop: return "taskloop";
  }
  return "?";
}

const char* Annotation::keyword() const {
  if (kind == AnnotationKind::Superblock && is_bamboo()) return "olap";
  return kind_keyword(kind);
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
    if (ns == "toucan") return "superblock, receive, send, compute, task, taskwait or taskloop";
    if (ns == "bamboo") return "olap, receive, send or priority(N)";
    return "superblock, receive, send, compute, region(NAME), shared, task, taskwait or taskloop";
  }
  // The clauses `kind` accepts in this spelling, for messages.
  const char* clauses(AnnotationKind kind) const {
    llvm::StringRef ns = getName();
    if (ns == "toucan" || (ns == "bamboo" && kind != AnnotationKind::Priority)) return "this pragma takes no clauses";
    if (kind == AnnotationKind::Region) return "expected depends(...), role(...), priority(...) or split(...)";
    if (kind == AnnotationKind::Compute) return "expected priority(...) or split(...)";
    return "expected priority(...)";
  }
  bool parse_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_region_name(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_depends(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_role(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_expression(clang::Preprocessor& pp, Token& tok, Annotation& a, const char* clause);
  bool parse_shared_names(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_task_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_split(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_task_depend(clang::Preprocessor& pp, Token& tok, Annotation& a);
  bool parse_task_label(clang::Preprocessor& pp, Token& tok, Annotation& a);
  // Reports that `what` was expected at tok in a `pragma` annotation
  // (`#pragma <namespace> <pragma>`); returns false.
  bool report_expected(clang::Preprocessor& pp, const Token& tok, llvm::StringRef what, llvm::StringRef pragma);
  // Lexes past tok if it is a `kind`; else reports `what` as expected.
  bool expect(clang::Preprocessor& pp, Token& tok, tok::TokenKind kind, llvm::StringRef what, llvm::StringRef pragma);
  // Records `a` as malformed (its error is reported) and skips the line.
  void broken(clang::Preprocessor& pp, Token& tok, Annotation& a) {
    while (tok.isNot(tok::eod)) pp.Lex(tok);
    set_extent(pp, tok, a);
    a.broken = true;
    out_.add(std::move(a));
  }
  // Where the annotation is in the file: a `#pragma` line from its '#' to
  // its newline; `_Pragma("...")` from `_Pragma` to its ')', or the whole
  // call of a macro that expands to the _Pragma alone; for a macro that
  // expands to more, the empty text at the start of its call. `eod`: the
  // token that ends the pragma's text.
  void set_extent(clang::Preprocessor& pp, const Token& eod, Annotation& a);

  clang::PragmaIntroducerKind introducer_ = clang::PIK_HashPragma;

  AnnotationList& out_;
};

void AnnotationPragmaHandler::HandlePragma(clang::Preprocessor& pp, clang::PragmaIntroducer introducer,
                                           Token& first) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  Annotation a;
  a.spelling = ns;
  a.hash_loc = introducer.Loc;
  introducer_ = introducer.Kind;
  a.kind = AnnotationKind::Region;
  a.name = "?";
  Token tok;
  pp.Lex(tok);
  if (tok.is(tok::eod)) {
    report(diags, first.getLocation(), Diag::MissingKeyword) << ns << expected();
    return broken(pp, tok, a);
  }
  a.keyword_loc = tok.getLocation();
  llvm::StringRef word = tok.getIdentifierInfo() ? tok.getIdentifierInfo()->getName() : llvm::StringRef();
  bool mate = ns == "mate", toucan = ns == "toucan", bamboo = ns == "bamboo";
  if ((word == "superblock" && !mate && !bamboo) || (word == "olap" && bamboo)) {
    a.kind = AnnotationKind::Superblock;
  } else if ((word == "receive" || word == "send" || (word == "compute" && !bamboo)) && !mate) {
    a.kind = word == "receive" ? AnnotationKind::Receive
             : word == "send"  ? AnnotationKind::Send
                               : AnnotationKind::Compute;
    a.name = word.str();
  } else if (word == "region" && !toucan && !bamboo) {
    a.kind = AnnotationKind::Region;
  } else if (word == "priority" && bamboo) {
    a.kind = AnnotationKind::Priority;
  } else if (word == "shared" && ns == "tucana") {
    a.kind = AnnotationKind::Shared;
    a.name = "shared";
  } else if ((word == "task" || word == "taskwait" || word == "taskloop") && (ns == "tucana" || toucan)) {
    a.kind = word == "task" ? AnnotationKind::Task : word == "taskwait" ? AnnotationKind::Taskwait : AnnotationKind::Taskloop;
    a.name = word.str();
  } else {
    std::string spelled = word.empty() ? pp.getSpelling(tok) : word.str();
    report(diags, tok.getLocation(), Diag::UnknownKeyword) << ns << spelled << expected();
    return broken(pp, tok, a);
  }
  pp.Lex(tok);
  if (a.kind == AnnotationKind::Region && !parse_region_name(pp, tok, a)) return broken(pp, tok, a);
  if (a.kind == AnnotationKind::Priority) {  // bamboo priority(N)
    if (!parse_expression(pp, tok, a, "priority")) return broken(pp, tok, a);
  }
  if (a.kind == AnnotationKind::Shared) {
    if (!parse_shared_names(pp, tok, a)) return broken(pp, tok, a);
    if (tok.isNot(tok::eod)) {
      report(diags, tok.getLocation(), Diag::ExtraTokens) << ns << "shared";
      return broken(pp, tok, a);
    }
  }
  if (a.is_task()) {
    if (!parse_task_clauses(pp, tok, a)) return broken(pp, tok, a);
  } else if (!parse_clauses(pp, tok, a)) {
    return broken(pp, tok, a);
  }
  set_extent(pp, tok, a);
  out_.add(std::move(a));
}

void AnnotationPragmaHandler::set_extent(clang::Preprocessor& pp, const Token& eod, Annotation& a) {
  a.end_loc = eod.getLocation();
  if (introducer_ == clang::PIK_HashPragma) return;
  // The pragma's tokens were lexed from a copy of the string, mapped to the
  // range _Pragma ... ')' (Lexer::Create_PragmaLexer).
  clang::SourceManager& sm = pp.getSourceManager();
  const clang::LangOptions& lo = pp.getLangOpts();
  clang::CharSourceRange operator_range = sm.getImmediateExpansionRange(eod.getLocation());
  clang::SourceLocation begin = operator_range.getBegin(), end = operator_range.getEnd();
  if (begin.isMacroID() || end.isMacroID()) {
    clang::SourceLocation macro_begin, macro_end;
    if (!clang::Lexer::isAtStartOfMacroExpansion(begin, sm, lo, &macro_begin) ||
        !clang::Lexer::isAtEndOfMacroExpansion(end, sm, lo, &macro_end)) {
      // The macro expands to more than the _Pragma: its call stays (the
      // compiler ignores the tucana pragma in it, as a plain build does),
      // and the annotation's replacement goes right before the call.
      a.hash_loc = sm.getExpansionLoc(begin);
      a.end_loc = a.hash_loc;
      return;
    }
    begin = macro_begin;
    end = macro_end;
  }
  a.hash_loc = sm.getExpansionLoc(begin);
  a.end_loc = clang::Lexer::getLocForEndOfToken(sm.getExpansionLoc(end), 0, sm, lo);
}

// The clauses of task and taskloop (taskwait takes none), up to the end of
// the line: depend may repeat, the others come once.
bool AnnotationPragmaHandler::parse_task_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  bool loop = a.kind == AnnotationKind::Taskloop;
  const char* expected = a.kind == AnnotationKind::Taskwait ? "this pragma takes no clauses"
                         : loop ? "expected num_tasks(...), grainsize(...), shared(...), priority(...), boundary or name(...)"
                                : "expected depend(...), shared(...), priority(...), boundary or name(...)";
  while (tok.isNot(tok::eod)) {
    if (tok.isNot(tok::identifier)) {
      report(diags, tok.getLocation(), Diag::ExtraTokens) << ns << a.keyword();
      return false;
    }
    llvm::StringRef clause = tok.getIdentifierInfo()->getName();
    bool task_clause = clause == "shared" || clause == "priority" || clause == "boundary" || clause == "name";
    bool known = a.kind != AnnotationKind::Taskwait &&
                 (task_clause || (!loop && (clause == "depend" || clause == "depends")) ||
                  (loop && (clause == "num_tasks" || clause == "grainsize")));
    if (!known) {
      report(diags, tok.getLocation(), Diag::UnknownClause) << clause << ns << a.keyword() << expected;
      return false;
    }
    bool given = clause == "shared"      ? a.has_shared
                 : clause == "priority"  ? !a.priority.empty()
                 : clause == "boundary"  ? a.boundary
                 : clause == "name"      ? !a.label.empty()
                 : clause == "num_tasks" ? !a.num_tasks.empty()
                 : clause == "grainsize" ? !a.grainsize.empty()
                                         : false;
    if (given) {
      report(diags, tok.getLocation(), Diag::DuplicateClause) << clause;
      return false;
    }
    if ((clause == "num_tasks" && !a.grainsize.empty()) || (clause == "grainsize" && !a.num_tasks.empty())) {
      report(diags, tok.getLocation(), Diag::NumTasksAndGrainsize);
      return false;
    }
    pp.Lex(tok);
    bool ok = true;
    if (clause == "depend" || clause == "depends") {  // (OpenMP's spelling, or the regions')
      ok = parse_task_depend(pp, tok, a);
    } else if (clause == "shared") {
      a.has_shared = true;
      if (tok.isNot(tok::l_paren)) return report_expected(pp, tok, "'(' after shared", a.keyword());
      ok = parse_shared_names(pp, tok, a);
    } else if (clause == "boundary") {
      a.boundary = true;
    } else if (clause == "name") {
      ok = parse_task_label(pp, tok, a);
    } else {
      // priority, num_tasks, grainsize: an expression (parse_expression
      // stores it as the priority; the other two move it).
      std::string saved = a.priority;
      clang::SourceLocation saved_loc = a.priority_loc;
      ok = parse_expression(pp, tok, a, clause.str().c_str());
      if (ok && clause != "priority") {
        (clause == "num_tasks" ? a.num_tasks : a.grainsize) = a.priority;
        a.priority = saved;
        a.priority_loc = saved_loc;
      }
    }
    if (!ok) return false;
  }
  return true;
}

// ( in|out|inout : ITEM {, ITEM} ), where ITEM is any expression (the
// tokens up to a ',' or ')' outside parentheses and brackets).
bool AnnotationPragmaHandler::parse_task_depend(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  if (!expect(pp, tok, tok::l_paren, "'(' after depend", a.keyword())) return false;
  llvm::StringRef kind = tok.getIdentifierInfo() ? tok.getIdentifierInfo()->getName() : llvm::StringRef();
  TaskDepend::Kind k;
  if (kind == "in") k = TaskDepend::In;
  else if (kind == "out") k = TaskDepend::Out;
  else if (kind == "inout") k = TaskDepend::InOut;
  else {
    return report_expected(pp, tok, "in, out or inout in depend(...)", a.keyword());
  }
  pp.Lex(tok);
  if (!expect(pp, tok, tok::colon, "':' after the dependence kind", a.keyword())) return false;
  for (;;) {
    TaskDepend d;
    d.kind = k;
    d.loc = tok.getLocation();
    // Brackets open in the item: where each '[' starts in d.expr, the '?'
    // still waiting for their ':' (a conditional, not a section), and
    // where a section's ':' cut the text (OpenMP array sections
    // `a[lower : length]`, `a[: length]`, `a[lower :]`).
    struct Bracket {
      bool square;
      std::size_t start;
      int questions = 0;
      std::size_t colon = std::string::npos;
    };
    std::vector<Bracket> open;
    for (; tok.isNot(tok::eod); pp.Lex(tok)) {
      if (open.empty() && (tok.is(tok::comma) || tok.is(tok::r_paren))) break;
      if (!open.empty() && open.back().square) {
        Bracket& b = open.back();
        if (tok.is(tok::question)) ++b.questions;
        if (tok.is(tok::colon) && b.questions > 0) {
          --b.questions;
        } else if (tok.is(tok::colon)) {
          if (b.colon != std::string::npos) {
            return report_expected(
                pp, tok, "']' after an array section's length (strided sections are not allowed in depend)",
                a.keyword());
          }
          b.colon = d.expr.size();
          continue;
        }
      }
      if (tok.isOneOf(tok::r_paren, tok::r_square) && !open.empty()) {
        Bracket b = open.back();
        open.pop_back();
        if (b.square && b.colon != std::string::npos) {
          // The section's storage starts at its first element: a
          // dependence is keyed by that address (docs/tasks.md).
          std::string lower = d.expr.substr(b.start, b.colon - b.start);  // the length is dropped
          d.expr = d.expr.substr(0, b.start) + (llvm::StringRef(lower).trim().empty() ? "0" : lower);
        }
      }
      if (tok.isOneOf(tok::l_paren, tok::l_square)) {
        if (!d.expr.empty() && tok.hasLeadingSpace()) d.expr += ' ';
        d.expr += pp.getSpelling(tok);
        open.push_back({tok.is(tok::l_square), d.expr.size()});
        continue;
      }
      if (!d.expr.empty() && tok.hasLeadingSpace()) d.expr += ' ';
      d.expr += pp.getSpelling(tok);
    }
    if (tok.is(tok::eod)) return report_expected(pp, tok, "')' closing depend(...)", a.keyword());
    if (d.expr.empty()) return report_expected(pp, tok, "an lvalue in depend(...)", a.keyword());
    a.task_deps.push_back(d);
    bool last = tok.is(tok::r_paren);
    pp.Lex(tok);
    if (last) return true;
  }
}

// ( "LABEL" ): a string literal, kept as written.
bool AnnotationPragmaHandler::parse_task_label(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  if (!expect(pp, tok, tok::l_paren, "'(' after name", a.keyword())) return false;
  if (tok.isNot(tok::string_literal)) return report_expected(pp, tok, "a string literal in name(...)", a.keyword());
  a.label = pp.getSpelling(tok);
  pp.Lex(tok);
  return expect(pp, tok, tok::r_paren, "')' after the name", a.keyword());
}

// { depends(...) | role(...) | priority(...) } up to the end of the line.
bool AnnotationPragmaHandler::parse_clauses(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  clang::DiagnosticsEngine& diags = pp.getDiagnostics();
  std::string ns = getName().str();
  bool plain = ns == "toucan" || ns == "bamboo";  // the original spellings take no clauses
  while (tok.isNot(tok::eod)) {
    if (tok.isNot(tok::identifier)) {
      report(diags, tok.getLocation(), Diag::ExtraTokens) << ns << a.keyword();
      return false;
    }
    llvm::StringRef clause = tok.getIdentifierInfo()->getName();
    bool region = a.kind == AnnotationKind::Region;
    if (a.kind == AnnotationKind::Priority) {  // bamboo priority(N) takes nothing more
      report(diags, tok.getLocation(), Diag::ExtraTokens) << ns << "priority(...)";
      return false;
    }
    bool splits = region || a.kind == AnnotationKind::Compute;
    bool known = !plain && ((region && (clause == "depends" || clause == "role")) || clause == "priority" ||
                            (splits && clause == "split"));
    if (!known) {
      report(diags, tok.getLocation(), Diag::UnknownClause) << clause << ns << a.keyword() << clauses(a.kind);
      return false;
    }
    bool given = clause == "depends" ? a.has_depends
                 : clause == "role"  ? a.has_role
                 : clause == "split" ? a.has_split
                                     : !a.priority.empty();
    if (given) {
      report(diags, tok.getLocation(), Diag::DuplicateClause) << clause;
      return false;
    }
    pp.Lex(tok);
    bool ok = clause == "depends" ? parse_depends(pp, tok, a)
              : clause == "role"  ? parse_role(pp, tok, a)
              : clause == "split" ? parse_split(pp, tok, a)
                                  : parse_expression(pp, tok, a, "priority");
    if (!ok) return false;
  }
  return true;
}

// [ ( NAME {, NAME} ) ]
bool AnnotationPragmaHandler::parse_shared_names(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  if (tok.isNot(tok::l_paren)) return true;  // the next declaration's variables
  pp.Lex(tok);
  for (;;) {
    if (tok.isNot(tok::identifier)) return report_expected(pp, tok, "a variable name", a.keyword());
    a.names.push_back({tok.getIdentifierInfo()->getName().str(), false, tok.getLocation()});
    pp.Lex(tok);
    if (tok.is(tok::comma)) {
      pp.Lex(tok);
      continue;
    }
    if (tok.isNot(tok::r_paren)) return report_expected(pp, tok, "',' or ')'", a.keyword());
    pp.Lex(tok);
    return true;
  }
}

// ( NAME )
bool AnnotationPragmaHandler::parse_region_name(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  if (!expect(pp, tok, tok::l_paren, "'(' and a region name", "region")) return false;
  if (tok.isNot(tok::identifier)) return report_expected(pp, tok, "a region name", "region");
  a.name = tok.getIdentifierInfo()->getName().str();
  pp.Lex(tok);
  return expect(pp, tok, tok::r_paren, "')' after the region name", "region");
}

// ( off ) or ( N ): N an integer literal, the halo width
bool AnnotationPragmaHandler::parse_split(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  a.has_split = true;
  a.split_loc = tok.getLocation();
  if (!expect(pp, tok, tok::l_paren, "'(' after split", a.keyword())) return false;
  if (tok.is(tok::identifier) && tok.getIdentifierInfo()->getName() == "off") {
    a.split_off = true;
  } else if (tok.is(tok::numeric_constant)) {
    std::string digits = pp.getSpelling(tok);
    if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos)
      return report_expected(pp, tok, "off or a halo width (0 to 9999) in split(...)", a.keyword());
    a.split_halo = std::stoi(digits);
  } else {
    return report_expected(pp, tok, "off or a halo width (0 to 9999) in split(...)", a.keyword());
  }
  pp.Lex(tok);
  return expect(pp, tok, tok::r_paren, "')' after split's argument", a.keyword());
}

// ( dep {, dep} ) where dep = NAME [*]
bool AnnotationPragmaHandler::parse_depends(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  a.has_depends = true;
  if (!expect(pp, tok, tok::l_paren, "'(' after depends", "region")) return false;
  if (tok.is(tok::r_paren)) {  // depends() : no dependency
    pp.Lex(tok);
    return true;
  }
  for (;;) {
    if (tok.isNot(tok::identifier)) return report_expected(pp, tok, "a region name in depends(...)", "region");
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
    return report_expected(pp, tok, "',' or ')' in depends(...)", "region");
  }
}

// ( receive | send | compute | any )
bool AnnotationPragmaHandler::parse_role(clang::Preprocessor& pp, Token& tok, Annotation& a) {
  a.has_role = true;
  if (!expect(pp, tok, tok::l_paren, "'(' after role", "region")) return false;
  llvm::StringRef r = tok.getIdentifierInfo() ? tok.getIdentifierInfo()->getName() : llvm::StringRef();
  if (r == "receive") a.role = RegionRole::Receive;
  else if (r == "send") a.role = RegionRole::Send;
  else if (r == "compute") a.role = RegionRole::Compute;
  else if (r == "any") a.role = RegionRole::Any;
  else {
    return report_expected(pp, tok, "receive, send, compute or any in role(...)", "region");
  }
  pp.Lex(tok);
  return expect(pp, tok, tok::r_paren, "')' after the role", "region");
}

// ( EXPR ): the tokens up to the matching ')', kept as C text.
bool AnnotationPragmaHandler::parse_expression(clang::Preprocessor& pp, Token& tok, Annotation& a, const char* clause) {
  std::string what = std::string("'(' after ") + clause;
  if (tok.isNot(tok::l_paren)) return report_expected(pp, tok, what, a.keyword());
  a.priority_loc = tok.getLocation();
  int depth = 1;
  std::string text;
  for (pp.Lex(tok); !tok.is(tok::eod); pp.Lex(tok)) {
    if (tok.is(tok::l_paren)) ++depth;
    if (tok.is(tok::r_paren) && --depth == 0) break;
    if (!text.empty() && tok.hasLeadingSpace()) text += ' ';
    text += pp.getSpelling(tok);
  }
  if (tok.is(tok::eod)) return report_expected(pp, tok, "')' closing the expression", a.keyword());
  if (text.empty()) return report_expected(pp, tok, "an expression", a.keyword());
  a.priority = text;
  pp.Lex(tok);
  return true;
}

bool AnnotationPragmaHandler::report_expected(clang::Preprocessor& pp, const Token& tok, llvm::StringRef what,
                                              llvm::StringRef pragma) {
  report(pp.getDiagnostics(), tok.getLocation(), Diag::ExpectedToken) << what << getName() << pragma;
  return false;
}

bool AnnotationPragmaHandler::expect(clang::Preprocessor& pp, Token& tok, tok::TokenKind kind, llvm::StringRef what,
                                     llvm::StringRef pragma) {
  if (tok.isNot(kind)) return report_expected(pp, tok, what, pragma);
  pp.Lex(tok);
  return true;
}

}  // namespace

void register_annotation_pragmas(clang::Preprocessor& pp, AnnotationList& out) {
  for (const char* ns : {"tucana", "toucan", "mate", "bamboo"}) pp.AddPragmaHandler(new AnnotationPragmaHandler(ns, out));
}

}  // namespace tucana::translate
