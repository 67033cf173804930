// Shared between the stages of tucana-cco (not an interface of the tool).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/cco/Cco.h"

namespace tucana::cco {

// An object the analysis tracks: a variable's own storage (level 0: a scalar,
// a struct, an array) or whatever a pointer variable points to (level 1; all
// deeper levels are folded into it).
struct Obj {
  const clang::Decl* d;
  int level;
  bool operator<(const Obj& o) const { return d != o.d ? d < o.d : level < o.level; }
  bool operator==(const Obj& o) const { return d == o.d && level == o.level; }
};

struct Access {
  Obj obj{nullptr, 0};
  unsigned line = 0;  // the top-level statement of the loop body it comes from
};

// Read and write sets of a statement. For a communication statement the
// accesses that last until the request completes (buffers, count arrays,
// status) are `async_*`; the values of its arguments are read at the call.
struct Effects {
  std::map<Obj, Access> reads, writes, async_reads, async_writes;
  std::map<Obj, Access> send_bufs, recv_bufs, count_arrays;  // communication statements only
  std::vector<std::pair<std::string, unsigned>> unknown;      // functions of unknown side effects, line
};

std::optional<Obj> pointee_of(const clang::Expr* e);
std::optional<Obj> location_of(const clang::Expr* e);
std::string obj_name(const Obj& o);

class Analyzer {
 public:
  Analyzer(clang::ASTContext& ctx, PragmaList& pragmas);
  ~Analyzer();
  void set_ignored(const clang::Stmt* s, const CcoPragma* p);
  void set_override(const std::string& name, CcoPragma* p);
  // The effects of `s` (a top-level statement at `line`); `comm`: it is part of Comm(i).
  Effects effects(const clang::Stmt* s, unsigned line, bool comm);
  // The representative of `o`'s alias class in function `f`.
  Obj root(const clang::FunctionDecl* f, const Obj& o);
  // The representatives of every class `o` may alias in function `f`: its
  // own, and when a global pointer of unknown target is in its class, those
  // of every object that pointer may point to.
  std::vector<Obj> roots(const clang::FunctionDecl* f, const Obj& o);
  // Every object of `o`'s alias class in function `f`.
  std::vector<Obj> members(const clang::FunctionDecl* f, const Obj& o);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// A declaration's name, empty for operators, constructors and other names
// that are not identifiers (getName() asserts on those).
inline llvm::StringRef plain_name(const clang::NamedDecl* d) {
  return d && d->getIdentifier() ? d->getName() : llvm::StringRef();
}

// The pseudo object of the order of point-to-point messages.
bool is_message_order(const Obj& o);

// Whether `e` is MPI_IN_PLACE (as spelled: a macro of the MPI library).
bool is_in_place(const clang::Expr* e, clang::ASTContext& ctx);

// The loop helpers are the translator's (CanonicalLoop.h).
using translate::is_loop;
using translate::loop_body;

// The statement of a call at top level: `MPI_X(...);` or `rc = MPI_X(...);`.
const clang::CallExpr* top_level_call(const clang::Stmt* s);

}  // namespace tucana::cco
