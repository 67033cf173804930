// A counted `for` loop in OpenMP's canonical form, as the taskloop
// translation and tucana-cco's rewrite need it:
//   for (T i = START; i OP END; STEP-FORM) BODY      (or `i = START`)
// OP is <, <=, >, >= or != (END OP i is read as i OP' END); STEP-FORM is
// i++, ++i, i--, --i, i += S, i -= S, i = i + S, i = S + i or i = i - S.
#pragma once

#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace tucana::translate {

// Whether `s` is a for, while, do or range-for loop, and its body (nullptr
// for other statements).
bool is_loop(const clang::Stmt* s);
const clang::Stmt* loop_body(const clang::Stmt* s);

struct CanonicalLoop {
  const clang::VarDecl* var = nullptr;
  std::string op;   // with i on the left
  int direction = 1;  // +1: i grows; -1: it shrinks
  const clang::Expr* start = nullptr;
  const clang::Expr* end = nullptr;
  const clang::Expr* step = nullptr;  // S; null for ++ and --
  // The type the condition compares in when it is unsigned, as written in C
  // ("unsigned int"): the trip count is computed in it; empty when signed.
  std::string unsigned_compare;
  const clang::Stmt* body = nullptr;
};

// Parses `f`. On failure returns false, with `why` (a sentence for a
// diagnostic) and `where` (the part of the header at fault).
bool parse_canonical_loop(const clang::ForStmt* f, const clang::ASTContext& ctx, CanonicalLoop& out, std::string& why,
                          clang::SourceLocation& where);

// The number of iterations as an expression of type long long, given
// expressions for START and END (as long long) and for the signed step
// (negative when the loop counts down), each evaluated as often as the
// expression uses it: pass variables, or expressions free of side effects.
std::string trip_count_expression(const CanonicalLoop& loop, const std::string& start, const std::string& end,
                                  const std::string& step);

}  // namespace tucana::translate
