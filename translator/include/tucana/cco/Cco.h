// tucana-cco: the safety analysis (check) and the software pipelining
// (rewrite) of blocking MPI communication inside loops, after the
// compiler-assisted overlapping of the seed paper (Sec. III-IV).
//
//   Pragmas.cpp   #pragma cco do | ignore | override, recorded by the preprocessor
//   Analysis.cpp  read/write sets per statement, alias classes, callee summaries
//   Loops.cpp     the sites of each loop grouped into Comm(i), dependences per
//                 loop, verdicts (analyze(), in named steps); check's output
//   Inline.cpp    a callee holding the loop's communication, inlined for rewrite
//   Rewrite.cpp   the pipelined loop (pure MPI) or Tucana annotations
//   Action.cpp    the Clang front-end action that runs them
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Preprocessor.h"
#include "tucana/translate/EditSet.h"
#include "tucana/translate/MpiCalls.h"
#include "clang/Tooling/Tooling.h"

namespace tucana::cco {

// The line of `loc` (of its expansion) as #line directives make it: the
// lines every report and generated #line uses (the inlined text of a callee
// carries #line directives back to the callee).
unsigned presumed_line(const clang::SourceManager& sm, clang::SourceLocation loc);

// ---------------------------------------------------------------- pragmas
enum class PragmaKind { Do, Ignore, Override };

struct OverrideItem {
  std::string name;  // a parameter or global name; empty when `position` is used
  int position = 0;  // 1-based parameter position, 0 when `name` is used
  clang::SourceLocation loc;
};

// An item of `#pragma cco do private(...)`: a variable, or the section
// name[lo:len] (OpenMP's array section: len elements from lo) of what the
// pointer `name` points to. `lo` and `len` are the expressions as written.
struct PrivateItem {
  std::string name, lo, len;
  bool section = false;
  clang::SourceLocation loc;
};

struct CcoPragma {
  PragmaKind kind;
  clang::SourceLocation loc;  // of the `cco` token's line (the pragma's start)
  unsigned offset = 0;        // file offset of `loc` in the main file
  bool in_main_file = false;
  // override only
  std::string function;
  clang::SourceLocation function_loc;
  std::vector<OverrideItem> reads, writes;
  // do only
  std::vector<PrivateItem> privates;
};

struct PragmaList {
  std::vector<CcoPragma> all;
  unsigned errors = 0;
};

// Registers the `#pragma cco ...` handler; pragmas are appended to `out`,
// malformed ones reported as errors (and counted in out.errors).
void register_cco_pragmas(clang::Preprocessor& pp, PragmaList& out);

// ---------------------------------------------------------------- MPI calls
// The argument roles of the calls that communicate are the translator's
// table (runtime/include/tucana/tmpi_functions.def, TMPI_ARGS rows).
using SizeKind = translate::MpiSize;
using BufferArg = translate::MpiBufferArg;
using CommSpec = translate::MpiCallArgs;

// The communication calls the analysis knows (blocking ones with a
// non-blocking counterpart, posts and waits); nullptr for others.
inline const CommSpec* find_comm(llvm::StringRef name) { return translate::mpi_call_args(name); }

// ---------------------------------------------------------------- analysis
enum class Verdict { Safe, Unsafe, Unsupported };
const char* verdict_name(Verdict v);

// A variable After(i) needs iteration i's value of: a variable of fixed
// size (`comm` null), or what a pointer variable points to when it is a
// count or displacement array of the v-collective `comm_call` (it then has
// MPI_Comm_size(comm) elements).
//
// A `private` item of `#pragma cco do` (`is_private`) is carried too, but
// After(i) may also write it: the user asserts that no value flows through it
// from one iteration to the next, so After(i)'s writes are not put back for
// Before(i+1), and After(N) runs on iteration N's copy after the loop. A
// section (`section`) copies `len` elements of what `var` points to from `lo`.
//
// A section from 0 in a loop whose trip count is known at its start
// (`trips`, the expression) is not copied at all (`swap`): iterations of
// one parity use the pointer's own storage, the others a second buffer,
// and the parity is chosen so that the last iteration uses its own; the
// pointer is set to its iteration's buffer for each part.
struct Carried {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* comm = nullptr;
  bool is_private = false, section = false, swap = false;
  std::string lo, len, trips;
  bool operator==(const Carried& o) const { return var == o.var; }
};

struct Site {
  unsigned line = 0, col = 0;
  unsigned last_line = 0;  // the last line of Comm's statements (--line matches any line of them)
  std::string call;  // the (first) blocking call of the group, or the first post
  Verdict verdict = Verdict::Unsupported;
  std::vector<std::string> reasons;
  std::vector<std::string> replicate;  // buffers (as written) replication protects
  // Rewrite data: the statements of the loop body forming Comm, [first, last].
  const clang::Stmt* loop = nullptr;
  unsigned first = 0, last = 0;
  std::set<unsigned> replicate_args;  // (statement index << 8 | arg index) of replicated buffers
  // Variables Before(i+1) rewrites while After(i) still needs iteration i's
  // value: kept per iteration (a copy taken at the post, put back for After).
  std::vector<Carried> carry;
  // Why rewrite refuses this site although check gives a verdict (Comm of
  // nested statements, communication inside a callee); empty if it does not.
  std::string no_rewrite;
  // The call of the function holding the communication, when it is a
  // statement of the loop body: rewrite inlines it (Inline.cpp).
  const clang::CallExpr* callee_call = nullptr;
};

struct LoopReport {
  unsigned line = 0, col = 0, end_line = 0;
  std::string var;
  const clang::VarDecl* var_decl = nullptr;
  const clang::Stmt* loop = nullptr;
  const clang::FunctionDecl* function = nullptr;
  std::vector<Site> sites;
};

struct CheckResult {
  std::string file;
  std::vector<LoopReport> loops;  // in source order; a pseudo loop (line 0) holds sites in no loop
  bool ok = false;
};

struct Options {
  enum class Mode { Check, RewriteMpi, RewriteTucana } mode = Mode::Check;
  std::vector<unsigned> lines;  // rewrite: only loops with a site at one of these lines
  // One MPI_Testall per this many progress calls. The calls sit in every loop
  // of the overlapped code, innermost ones included: FT at 1 gbit ran fastest
  // between 1024 and 4096 and slower than the original at 16 (docs/advise.md).
  int test_freq = 1024;
  std::string display_name;  // the input as the user named it (#line, messages)
  bool inline_calls = true;  // rewrite: inline callees holding a loop's communication (RewriteResult::inlined)
};

// Analyzes every loop of the main file; errors go to ctx's diagnostics.
CheckResult analyze(clang::ASTContext& ctx, PragmaList& pragmas);

struct RewriteResult {
  std::string file_name;  // the main file's path (the edits' file)
  std::string text;
  std::vector<std::string> notes;  // one line per loop transformed or skipped
  int done = 0;                    // loops pipelined or annotated
  // When a loop was not rewritten because its communication is inside a
  // called function: the file with those calls inlined (#line directives back
  // to the callees), for the tool to analyze and rewrite instead; else empty.
  std::string inlined;
  bool ok = false;
};

// Replaces the statement calling `call`'s callee (a function of this file)
// in `caller` with the callee's body (in braces when `block`, else its
// statements in place of the call's), as edits of the main file in `edits`:
// parameters and top-level locals become variables declared at the top of
// `caller`'s body, named `<callee>_<name>` (not in `taken`, which gets them).
// Returns "" or why the call cannot be inlined (nothing is edited then).
std::string inline_call(clang::ASTContext& ctx, translate::EditSet& edits, const clang::FunctionDecl* caller,
                        const clang::CallExpr* call, bool block, const std::string& file,
                        std::set<std::string>& taken);

RewriteResult rewrite(clang::ASTContext& ctx, const CheckResult& check, const Options& opts, const PragmaList& pragmas);

// Prints `result` as the compiler-style notes or as the JSON of docs/advise-check-rewrite.md.
// `name`: the file as the user named it.
std::string format_text(const CheckResult& result, const std::string& name);
std::string format_json(const CheckResult& result, const std::string& name);

// The front-end action: runs analyze (and rewrite) on each file.
struct RunResult {
  CheckResult check;
  RewriteResult rewrite;
  bool ok = false;
};
std::unique_ptr<clang::tooling::FrontendActionFactory> action_factory(const Options& opts, RunResult& out);

}  // namespace tucana::cco
