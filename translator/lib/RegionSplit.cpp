// The split analysis (RegionSplit.h): the region's shape, the nest, its
// accesses, and the proofs that make the interior safe to run first.
#include "tucana/translate/RegionSplit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprObjC.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/StatementText.h"

namespace tucana::translate {

using namespace clang;

namespace {

const VarDecl* var_of(const Expr* e) {
  if (const auto* ref = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

// An integer expression as c + sum(k * atom): atoms are variables that the
// nest does not write, or the nest's loop variables. Enough to compare a
// ghost cell's subscript with a loop bound (u[n + 1] against i <= n).
struct Linear {
  long long constant = 0;
  std::map<const VarDecl*, long long> terms;
  Linear operator-(const Linear& o) const {
    Linear r = *this;
    r.constant -= o.constant;
    for (auto& [v, k] : o.terms) r.terms[v] -= k;
    for (auto it = r.terms.begin(); it != r.terms.end();) it = it->second == 0 ? r.terms.erase(it) : std::next(it);
    return r;
  }
  bool is_constant() const { return terms.empty(); }
};

std::optional<Linear> linear(const Expr* e, const ASTContext& ctx) {
  e = e->IgnoreParenImpCasts();
  if (Expr::EvalResult r; !e->isValueDependent() && e->EvaluateAsInt(r, ctx)) {
    Linear l;
    l.constant = r.Val.getInt().getExtValue();
    return l;
  }
  if (const VarDecl* v = var_of(e)) {
    Linear l;
    l.terms[v] = 1;
    return l;
  }
  if (const auto* c = dyn_cast<CStyleCastExpr>(e)) {
    if (c->getType()->isIntegerType()) return linear(c->getSubExpr(), ctx);
    return std::nullopt;
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Minus)
      if (auto l = linear(u->getSubExpr(), ctx)) return Linear() - *l;
    if (u->getOpcode() == UO_Plus) return linear(u->getSubExpr(), ctx);
    return std::nullopt;
  }
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (!b) return std::nullopt;
  auto l = linear(b->getLHS(), ctx), r = linear(b->getRHS(), ctx);
  if (!l || !r) return std::nullopt;
  switch (b->getOpcode()) {
    case BO_Add: return *l - (Linear() - *r);
    case BO_Sub: return *l - *r;
    case BO_Mul:
      if (l->is_constant()) std::swap(l, r);
      if (!r->is_constant()) return std::nullopt;
      l->constant *= r->constant;
      for (auto& [v, k] : l->terms) k *= r->constant;
      return l;
    default: return std::nullopt;
  }
}

// Functions whose calls read only their arguments and write nothing.
bool is_pure_function(llvm::StringRef name) {
  static const std::set<std::string> names = {
      "fabs", "fabsf", "fabsl", "sqrt", "sqrtf", "fmax", "fmaxf", "fmin", "fminf", "exp", "expf", "log",
      "logf", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "floor", "ceil", "abs", "labs", "llabs",
      "copysign", "fma", "cbrt", "hypot", "tanh", "atan", "atan2", "round", "trunc"};
  return names.count(name.str()) || name.startswith("__builtin_");
}

bool is_wait(llvm::StringRef name) {
  return name == "MPI_Wait" || name == "MPI_Waitall" || name == "PMPI_Wait" || name == "PMPI_Waitall";
}

std::string callee_name(const CallExpr* c) {
  if (const FunctionDecl* f = c->getDirectCallee()) return f->getNameAsString();
  return "";
}

// Whether any expression in `s` depends on a template parameter (then
// types and values are not known before instantiation).
bool dependent(const Stmt* s) {
  if (!s) return false;
  if (const auto* e = dyn_cast<Expr>(s); e && e->isInstantiationDependent()) return true;
  for (const Stmt* child : s->children())
    if (dependent(child)) return true;
  return false;
}

bool contains_wait(const Stmt* s) {
  if (!s) return false;
  if (const auto* c = dyn_cast<CallExpr>(s); c && is_wait(callee_name(c))) return true;
  for (const Stmt* child : s->children())
    if (contains_wait(child)) return true;
  return false;
}

// One subscripted access: base[i0][i1]... (outermost subscript last in the
// chain, first in `index`).
struct Access {
  const VarDecl* base = nullptr;
  std::vector<const Expr*> index;
  const ArraySubscriptExpr* expr = nullptr;
  const Expr* name = nullptr;  // the base as written
  bool read = false, write = false;
};

// Collects what a statement does: subscripted accesses, scalar reads and
// writes, calls, and the first thing it cannot describe.
class Walker {
 public:
  explicit Walker(const ASTContext& ctx) : ctx_(&ctx) {}

  std::vector<Access> accesses;
  std::map<const VarDecl*, std::vector<const Expr*>> scalar_writes;  // the assignments
  std::set<const VarDecl*> scalar_reads;
  std::set<const VarDecl*> declared;  // declared inside
  std::vector<const CallExpr*> calls;
  std::set<const VarDecl*> wait_arguments;  // variables named in the arguments of waits
  std::optional<SplitRefusal> refusal;

  void walk(const Stmt* s) { visit(s, false, false); }

 private:
  void refuse(SourceLocation loc, std::string why) {
    if (!refusal) refusal = SplitRefusal{loc, std::move(why)};
  }

  // `write`/`read`: how the enclosing expression uses the value of `s` as
  // an lvalue (an assignment's left side is written, a compound one also read).
  void visit(const Stmt* s, bool write, bool read_too) {
    if (!s || refusal) return;
    if (const auto* ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : ds->decls())
        if (const auto* v = dyn_cast<VarDecl>(d)) {
          declared.insert(v);
          if (v->isStaticLocal()) refuse(v->getLocation(), "declares the static variable '" + v->getNameAsString() + "'");
          if (const Expr* init = v->getInit()) visit(init, false, false);
        }
      return;
    }
    if (const auto* e = dyn_cast<Expr>(s)) {
      const Expr* bare = e->IgnoreParens();
      if (const auto* ice = dyn_cast<ImplicitCastExpr>(bare)) {
        // An lvalue-to-rvalue conversion reads; other casts pass the use on.
        visit(ice->getSubExpr(), ice->getCastKind() == CK_LValueToRValue ? false : write,
              ice->getCastKind() == CK_LValueToRValue ? false : read_too);
        return;
      }
      if (const auto* a = dyn_cast<ArraySubscriptExpr>(bare)) return subscript(a, write, read_too);
      if (const auto* ref = dyn_cast<DeclRefExpr>(bare)) {
        if (const auto* v = dyn_cast<VarDecl>(ref->getDecl())) {
          if (write) scalar_writes[v].push_back(ref);
          if (!write || read_too) scalar_reads.insert(v);
        }
        return;
      }
      if (const auto* b = dyn_cast<BinaryOperator>(bare); b && b->isAssignmentOp()) {
        visit(b->getLHS(), true, b->isCompoundAssignmentOp());
        visit(b->getRHS(), false, false);
        return;
      }
      if (const auto* u = dyn_cast<UnaryOperator>(bare)) {
        if (u->isIncrementDecrementOp()) return visit(u->getSubExpr(), true, true);
        if (u->getOpcode() == UO_Deref && write)
          return refuse(u->getBeginLoc(), "writes through a pointer dereference ('*...')");
        if (u->getOpcode() == UO_AddrOf)
          return refuse(u->getBeginLoc(), "takes an address ('&...'): what it points to cannot be followed");
      }
      if (const auto* m = dyn_cast<MemberExpr>(bare); m && write)
        return refuse(m->getBeginLoc(), "writes a structure member ('" + m->getMemberDecl()->getNameAsString() + "')");
      if (const auto* c = dyn_cast<CallExpr>(bare)) {
        calls.push_back(c);
        // A wait's arguments are its requests and statuses: not followed,
        // but remembered (the nest must not use them).
        if (is_wait(callee_name(c))) {
          for (const Expr* arg : c->arguments()) collect_names(arg, wait_arguments);
          return;
        }
        for (const Expr* arg : c->arguments()) visit(arg, false, false);
        return;
      }
      if (isa<StmtExpr>(bare) || isa<LambdaExpr>(bare) || isa<BlockExpr>(bare))
        return refuse(bare->getBeginLoc(), "contains a statement expression, lambda or block");
    }
    if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) || isa<ReturnStmt>(s) || isa<BreakStmt>(s))
      return refuse(s->getBeginLoc(), "leaves the loop nest (break, goto or return)");
    for (const Stmt* child : s->children()) visit(child, false, false);
  }

  static void collect_names(const Stmt* s, std::set<const VarDecl*>& out) {
    if (!s) return;
    if (const auto* ref = dyn_cast<DeclRefExpr>(s))
      if (const auto* v = dyn_cast<VarDecl>(ref->getDecl())) out.insert(v);
    for (const Stmt* child : s->children()) collect_names(child, out);
  }

  void subscript(const ArraySubscriptExpr* a, bool write, bool read_too) {
    Access acc;
    acc.expr = a;
    acc.write = write;
    acc.read = !write || read_too;
    const Expr* e = a;
    while (const auto* s = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts())) {
      acc.index.insert(acc.index.begin(), s->getIdx());
      e = s->getBase();
    }
    acc.base = var_of(e);
    acc.name = e->IgnoreParenImpCasts();
    if (!acc.base) return refuse(a->getBeginLoc(), "subscripts something other than a named array or pointer");
    // Each subscript but the first must index an array object (u[i][j] of
    // double u[][M] or double (*u)[M]), not a pointer read from memory
    // (double **u): then the elements are one block, ordered by subscript.
    for (const Expr* x = a; const auto* s = dyn_cast<ArraySubscriptExpr>(x->IgnoreParenImpCasts()); x = s->getBase())
      if (isa<ArraySubscriptExpr>(s->getBase()->IgnoreParenImpCasts()) &&
          !s->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return refuse(a->getBeginLoc(), "subscripts '" + acc.base->getNameAsString() +
                                            "' through pointers stored in memory (its rows are not one block)");
    for (const Expr* i : acc.index) visit(i, false, false);
    accesses.push_back(acc);
  }

  const ASTContext* ctx_;
};

class Planner {
 public:
  Planner(ASTContext& ctx, const Superblock& sb, int region, SplitPlan& plan)
      : ctx_(ctx), sm_(ctx.getSourceManager()), sb_(sb), region_(sb.regions[static_cast<std::size_t>(region)]),
        plan_(plan) {
    plan_.region = region;
  }

  bool run(SplitRefusal& refusal);

 private:
  bool fail(SourceLocation loc, std::string why) {
    refusal_ = SplitRefusal{loc, std::move(why)};
    return false;
  }
  std::string text(const Expr* e) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), sm_, ctx_.getLangOpts()).str();
  }
  std::vector<const Stmt*> region_statements() const;
  // Whether the text of `s` holds an annotation (#pragma or _Pragma of
  // tucana, toucan, mate or bamboo): the other stages translate it in place,
  // which a copy of the text would miss.
  bool contains_annotation(const Stmt* s) const {
    unsigned b = sm_.getFileOffset(sm_.getExpansionLoc(s->getBeginLoc()));
    unsigned e = sm_.getFileOffset(sm_.getExpansionLoc(s->getEndLoc()));
    llvm::StringRef text = sm_.getBufferData(sm_.getMainFileID()).substr(b, e >= b ? e - b : 0);
    for (const char* ns : {"tucana", "toucan", "mate", "bamboo"})
      for (std::size_t at = text.find(ns); at != llvm::StringRef::npos; at = text.find(ns, at + 1)) {
        llvm::StringRef before = text.substr(0, at).rtrim(" \t(\"");
        if (before.endswith("pragma") || before.endswith("_Pragma")) return true;
      }
    return false;
  }
  bool find_nest(const std::vector<const Stmt*>& stmts, std::size_t pick, std::size_t& candidates);
  bool loops();
  bool nest_accesses();
  bool pre_writes();
  int level_of(const VarDecl* v) const {
    for (std::size_t k = 0; k < plan_.loops.size(); ++k)
      if (plan_.loops[k].var == v) return static_cast<int>(k);
    return -1;
  }

  ASTContext& ctx_;
  const SourceManager& sm_;
  const Superblock& sb_;
  const Region& region_;
  SplitPlan& plan_;
  SplitRefusal refusal_;
  Walker pre_{ctx_};
  Walker nest_{ctx_};
  std::set<const VarDecl*> pre_declared_;
};

std::vector<const Stmt*> Planner::region_statements() const {
  std::vector<const Stmt*> out;
  const Stmt* only = unwrap_attributes(region_.first);
  if (region_.first == region_.last)
    if (const auto* cs = dyn_cast<CompoundStmt>(only)) {
      for (const Stmt* s : cs->body()) out.push_back(s);
      return out;
    }
  bool in = false;
  for (const Stmt* s : sb_.body->body()) {
    if (s == region_.first) in = true;
    if (in) out.push_back(s);
    if (s == region_.last) break;
  }
  return out;
}

// Nest candidates: the `for` statements after the last statement that
// waits; `pick` chooses the k-th of them (PRE is everything before it).
bool Planner::find_nest(const std::vector<const Stmt*>& stmts, std::size_t pick, std::size_t& candidates) {
  std::size_t last_wait = stmts.size();
  for (std::size_t k = 0; k < stmts.size(); ++k)
    if (contains_wait(stmts[k])) last_wait = k;
  if (last_wait == stmts.size())
    return fail(region_.first->getBeginLoc(),
                "the region waits for no request (MPI_Wait or MPI_Waitall) before its loops, so no part of it "
                "can run before the messages arrive");
  candidates = 0;
  plan_.pre.clear();
  plan_.nest = nullptr;
  for (std::size_t k = 0; k < stmts.size(); ++k) {
    const Stmt* s = unwrap_attributes(stmts[k]);
    if (k > last_wait && isa<ForStmt>(s) && candidates++ == pick) {
      plan_.nest = cast<ForStmt>(s);
      return true;
    }
    plan_.pre.push_back(stmts[k]);
  }
  // Say where the work is, when it is in a call after the last candidate;
  // else the last candidate's refusal stands.
  std::size_t after = last_wait + 1;
  for (std::size_t k = after; k < stmts.size(); ++k)
    if (isa<ForStmt>(unwrap_attributes(stmts[k]))) after = k + 1;
  for (std::size_t k = after; k < stmts.size(); ++k) {
    Walker w(ctx_);
    w.walk(stmts[k]);
    for (const CallExpr* c : w.calls)
      if (std::string name = callee_name(c); !name.empty() && !is_pure_function(name) && !is_wait(name))
        return fail(c->getBeginLoc(), "its loops after the last wait are in the called function '" + name +
                                          "'; a loop nest in a called function is not split (write the loop nest "
                                          "in the region)");
  }
  if (pick > 0) return false;
  return fail(stmts[last_wait]->getBeginLoc(), "no 'for' loop follows the region's last wait");
}

// The nest: perfectly nested canonical loops counting up by one, with
// bounds that no loop of the nest changes.
bool Planner::loops() {
  const Stmt* s = plan_.nest;
  while (const auto* f = dyn_cast_or_null<ForStmt>(s)) {
    CanonicalLoop c;
    std::string why;
    SourceLocation where;
    if (!parse_canonical_loop(f, ctx_, c, why, where)) return fail(where, "the loop is not in canonical form: " + why);
    Expr::EvalResult one;
    if (c.direction != 1 || (c.step && !(c.step->EvaluateAsInt(one, ctx_) && one.Val.getInt() == 1)) ||
        (c.op != "<" && c.op != "<="))
      return fail(f->getBeginLoc(), "the loop does not count up by one with '<' or '<='");
    for (const Expr* bound : {c.start, c.end}) {
      if (bound->HasSideEffects(ctx_)) return fail(bound->getBeginLoc(), "the loop bound '" + text(bound) + "' has side effects");
      Walker w(ctx_);
      w.walk(bound);
      for (const VarDecl* v : w.scalar_reads)
        if (level_of(v) >= 0)
          return fail(bound->getBeginLoc(), "the loop bound '" + text(bound) + "' depends on the outer loop variable '" +
                                                v->getNameAsString() + "' (the nest must be a box)");
      if (!w.accesses.empty() || !w.calls.empty())
        return fail(bound->getBeginLoc(), "the loop bound '" + text(bound) + "' reads memory or calls a function");
    }
    SplitLoop l;
    l.loop = f;
    l.var = c.var;
    l.lo = text(c.start);
    l.hi = c.op == "<" ? text(c.end) : "(" + text(c.end) + ") + 1";
    l.start = c.start;
    l.end = c.end;
    l.inclusive = c.op == "<=";
    // The header's own tokens (bounds may be macros: their text is copied
    // as written).
    const auto* cond = dyn_cast<BinaryOperator>(f->getCond()->IgnoreParenImpCasts());
    if (f->getForLoc().isMacroID() || c.var->getLocation().isMacroID() || !cond || cond->getOperatorLoc().isMacroID())
      return fail(f->getBeginLoc(), "the loop header is written by a macro");
    if (plan_.loops.size() == 8) return fail(f->getBeginLoc(), "the nest has more than 8 loops");
    plan_.loops.push_back(l);
    s = unwrap_attributes(f->getBody());
    if (const auto* cs = dyn_cast<CompoundStmt>(s); cs && cs->size() == 1 && isa<ForStmt>(cs->body_front()))
      s = cs->body_front();
  }
  return true;
}

bool Planner::nest_accesses() {
  nest_.walk(plan_.nest);
  if (nest_.refusal) return fail(nest_.refusal->loc, "the loop nest " + nest_.refusal->why);
  for (const CallExpr* c : nest_.calls) {
    std::string name = callee_name(c);
    if (!is_pure_function(name))
      return fail(c->getBeginLoc(), "the loop nest calls " + (name.empty() ? std::string("a function pointer") : "'" + name + "'") +
                                        ", which the translator does not see into");
  }
  // Scalars: loop variables are only read; other outside scalars are read,
  // or are a max/min reduction (exact in any order).
  for (auto& [v, writes] : nest_.scalar_writes) {
    if (nest_.declared.count(v)) continue;
    if (level_of(v) >= 0) {
      if (writes.size() > 1 || plan_.loops[static_cast<std::size_t>(level_of(v))].loop->getInc() == nullptr)
        return fail(writes.back()->getBeginLoc(), "the loop nest writes its loop variable '" + v->getNameAsString() + "'");
      continue;  // the increment itself
    }
    return fail(writes.front()->getBeginLoc(), "the loop nest writes '" + v->getNameAsString() +
                                                   "', declared outside it: the iterations would not run in their "
                                                   "order (only arrays indexed by the loop variables may be written)");
  }
  for (const Access& a : nest_.accesses)
    if (pre_.wait_arguments.count(a.base))
      return fail(a.expr->getBeginLoc(), "the loop nest uses '" + a.base->getNameAsString() +
                                             "', which the region passes to MPI_Wait or MPI_Waitall");
  for (const VarDecl* v : nest_.scalar_reads)
    if (pre_.wait_arguments.count(v))
      return fail(plan_.nest->getBeginLoc(), "the loop nest uses '" + v->getNameAsString() +
                                                 "', which the region passes to MPI_Wait or MPI_Waitall");
  for (const VarDecl* v : nest_.scalar_reads)
    if (pre_declared_.count(v))
      return fail(plan_.nest->getBeginLoc(), "the loop nest uses '" + v->getNameAsString() +
                                                 "', declared in the region before it (the interior runs before "
                                                 "that declaration)");
  // Arrays: every subscript follows one loop variable plus a constant, or
  // is invariant; written arrays are not read, and every write names each
  // loop variable (two iterations never write one element).
  std::map<const VarDecl*, SplitArray> arrays;
  for (const Access& a : nest_.accesses) {
    if (nest_.declared.count(a.base)) continue;  // a local array of the body
    if (pre_declared_.count(a.base))
      return fail(a.expr->getBeginLoc(), "the loop nest uses '" + a.base->getNameAsString() +
                                             "', declared in the region before it");
    SplitArray& arr = arrays[a.base];
    bool first = !arr.base;
    arr.base = a.base;
    if (first) arr.name = a.name;
    arr.pointer = a.base->getType()->isPointerType();
    arr.written = arr.written || a.write;
    if (first) arr.dims.resize(a.index.size());
    if (arr.dims.size() != a.index.size())
      return fail(a.expr->getBeginLoc(), "'" + a.base->getNameAsString() + "' is subscripted with different numbers of dimensions");
    std::set<int> levels;
    for (std::size_t d = 0; d < a.index.size(); ++d) {
      auto l = linear(a.index[d], ctx_);
      int level = -1;
      long long offset = 0;
      if (l) {
        // A loop variable once, with coefficient 1; other variables must be
        // ones the nest neither writes nor declares.
        bool affine = true;
        for (auto& [v, k] : l->terms) {
          int lv = level_of(v);
          if (lv < 0) {
            if (nest_.scalar_writes.count(v) || nest_.declared.count(v)) affine = false;
          } else if (k != 1 || level >= 0) {
            affine = false;
          } else {
            level = lv;
          }
        }
        if (!affine) l.reset(), level = -1;
      }
      if (l && level >= 0) {
        if (l->terms.size() != 1)
          return fail(a.index[d]->getBeginLoc(), "subscript '" + text(a.index[d]) + "' of '" + a.base->getNameAsString() +
                                                     "' mixes a loop variable with other variables");
        offset = l->constant;
      }
      if (!l) {
        if (a.index[d]->HasSideEffects(ctx_))
          return fail(a.index[d]->getBeginLoc(), "subscript '" + text(a.index[d]) + "' has side effects");
        Walker w(ctx_);
        w.walk(a.index[d]);
        bool uses_loop = false;
        for (const VarDecl* v : w.scalar_reads) uses_loop = uses_loop || level_of(v) >= 0 || nest_.declared.count(v);
        if (uses_loop || !w.accesses.empty())
          return fail(a.index[d]->getBeginLoc(), "subscript '" + text(a.index[d]) + "' of '" + a.base->getNameAsString() +
                                                     "' is not a loop variable of the nest plus a constant");
      }
      SplitArray::Dim& dim = arr.dims[d];
      if (first) {
        dim.level = level;
        dim.min_offset = dim.max_offset = offset;
        if (level < 0) dim.invariant = text(a.index[d]), dim.invariant_expr = a.index[d];
      } else if (dim.level != level || (level < 0 && dim.invariant != text(a.index[d]))) {
        return fail(a.index[d]->getBeginLoc(), "dimension " + std::to_string(d + 1) + " of '" + a.base->getNameAsString() +
                                                   "' follows different loop variables in different accesses");
      } else {
        dim.min_offset = std::min(dim.min_offset, offset);
        dim.max_offset = std::max(dim.max_offset, offset);
      }
      if (level >= 0) levels.insert(level);
    }
    if (a.write && levels.size() != plan_.loops.size())
      return fail(a.expr->getBeginLoc(), "the write to '" + a.base->getNameAsString() +
                                             "' does not follow every loop variable (iterations would write the "
                                             "same element)");
  }
  for (const Access& a : nest_.accesses)
    if (arrays.count(a.base) && arrays[a.base].written && a.read)
      return fail(a.expr->getBeginLoc(), "the loop nest reads '" + a.base->getNameAsString() +
                                             "', which it also writes (its iterations may depend on each other)");
  for (const Access& a : nest_.accesses)
    if (arrays.count(a.base) && arrays[a.base].written) {
      for (const auto& d : arrays[a.base].dims)
        if (d.level >= 0 && d.min_offset != d.max_offset)
          return fail(a.expr->getBeginLoc(), "'" + a.base->getNameAsString() + "' is written at several offsets");
    }
  for (auto& [v, arr] : arrays) plan_.arrays.push_back(arr);
  return true;
}

// PRE's writes: into arrays the nest reads (the ghost cells), each outside
// the nest's box in some dimension; into its own locals; nothing else.
bool Planner::pre_writes() {
  for (auto& [v, writes] : pre_.scalar_writes)
    if (!pre_.declared.count(v) && nest_.scalar_reads.count(v))
      return fail(writes.front()->getBeginLoc(), "the region writes '" + v->getNameAsString() +
                                                     "' before its loop nest, which reads it");
  if (region_.annotation && region_.annotation->split_halo >= 0) {
    // split(N): the user's word for which iterations read received data.
    for (SplitLoop& l : plan_.loops) l.halo_lo = l.halo_hi = region_.annotation->split_halo;
    return true;
  }
  for (const CallExpr* c : pre_.calls) {
    std::string name = callee_name(c);
    if (!is_wait(name) && !is_pure_function(name))
      return fail(c->getBeginLoc(), "the region calls " +
                                        (name.empty() ? std::string("a function pointer") : "'" + name + "'") +
                                        " before its loop nest: the translator does not see what it writes, so "
                                        "it cannot tell which iterations read received data");
  }
  for (auto& [v, writes] : pre_.scalar_writes)
    if (!pre_.declared.count(v))
      for (const SplitArray& a : plan_.arrays)
        if (a.base == v)
          return fail(writes.front()->getBeginLoc(), "the region assigns '" + v->getNameAsString() + "' before its loop nest");
  std::set<std::string> ghosts;
  std::set<int> fenced_levels;
  for (const Access& w : pre_.accesses) {
    if (!w.write || pre_.declared.count(w.base)) continue;
    const SplitArray* arr = nullptr;
    for (const SplitArray& a : plan_.arrays)
      if (a.base == w.base) arr = &a;
    if (!arr)
      return fail(w.expr->getBeginLoc(), "the region writes '" + w.base->getNameAsString() +
                                             "' before its loop nest, and the loop nest does not read it");
    if (arr->written)
      return fail(w.expr->getBeginLoc(), "the region writes '" + w.base->getNameAsString() +
                                             "' before its loop nest, which also writes it");
    if (arr->dims.size() != w.index.size())
      return fail(w.expr->getBeginLoc(), "'" + w.base->getNameAsString() + "' is subscripted with different numbers of dimensions");
    bool outside = false;
    for (std::size_t d = 0; d < w.index.size() && !outside; ++d) {
      int level = arr->dims[d].level;
      if (level < 0) continue;
      const SplitLoop& l = plan_.loops[static_cast<std::size_t>(level)];
      CanonicalLoop c;
      std::string why;
      SourceLocation where;
      parse_canonical_loop(l.loop, ctx_, c, why, where);
      auto idx = linear(w.index[d], ctx_), lo = linear(c.start, ctx_), end = linear(c.end, ctx_);
      if (!idx || !lo || !end) continue;
      Linear below = *idx - *lo;            // < 0: before the box
      Linear above = *idx - *end;           // >= 0 (<) or > 0 (<=): after it
      if ((below.is_constant() && below.constant < 0) ||
          (above.is_constant() && (c.op == "<" ? above.constant >= 0 : above.constant > 0))) {
        outside = true;
        fenced_levels.insert(level);  // reads stay off this write if they stay inside the box in this level
      }
    }
    if (!outside)
      return fail(w.expr->getBeginLoc(), "cannot show that this write into '" + w.base->getNameAsString() +
                                             "' lies outside the cells the loop nest computes (its subscripts "
                                             "must be a constant or an expression of the loop bounds, e.g. "
                                             "'lo - 1' or 'hi', in one dimension)");
    ghosts.insert(w.base->getNameAsString());
  }
  if (ghosts.empty())
    return fail(plan_.nest->getBeginLoc(), "the region writes no array that its loop nest reads before the nest, "
                                           "so the translator cannot tell which iterations read received data");
  plan_.ghosts.assign(ghosts.begin(), ghosts.end());
  for (const SplitArray& a : plan_.arrays) {
    if (!ghosts.count(a.base->getNameAsString())) continue;
    for (const SplitArray::Dim& d : a.dims) {
      if (d.level < 0 || !fenced_levels.count(d.level)) continue;
      SplitLoop& l = plan_.loops[static_cast<std::size_t>(d.level)];
      l.halo_lo = std::max<int>(l.halo_lo, static_cast<int>(-std::min<long long>(d.min_offset, 0)));
      l.halo_hi = std::max<int>(l.halo_hi, static_cast<int>(std::max<long long>(d.max_offset, 0)));
    }
  }
  return true;
}

bool Planner::run(SplitRefusal& refusal) {
  std::vector<const Stmt*> stmts = region_statements();
  // The first candidate that plans wins; the refusal of the last one tried
  // is the one reported (earlier loops are usually the unpacking).
  std::size_t candidates = 0;
  for (std::size_t pick = 0;; ++pick) {
    plan_.loops.clear();
    plan_.arrays.clear();
    plan_.ghosts.clear();
    pre_ = Walker(ctx_);
    nest_ = Walker(ctx_);
    if (!find_nest(stmts, pick, candidates)) {
      if (pick > 0) break;  // keep the last candidate's refusal
      refusal = refusal_;
      return false;
    }
    if (contains_annotation(plan_.nest)) {
      fail(plan_.nest->getBeginLoc(), "the loop nest contains a Tucana pragma (a task, a nested region)");
      continue;
    }
    if (dependent(plan_.nest)) {
      fail(plan_.nest->getBeginLoc(), "the loop nest depends on template parameters");
      refusal = refusal_;
      return false;
    }
    for (const Stmt* s : plan_.pre) pre_.walk(s);
    const bool asserted = region_.annotation && region_.annotation->split_halo >= 0;
    if (pre_.refusal && !asserted) {
      fail(pre_.refusal->loc, "before its loop nest the region " + pre_.refusal->why);
      continue;
    }
    pre_declared_ = pre_.declared;
    if (loops() && nest_accesses() && pre_writes()) return true;
  }
  refusal = refusal_;
  return false;
}

}  // namespace

bool plan_region_split(ASTContext& ctx, const Superblock& sb, int region, SplitPlan& plan, SplitRefusal& refusal) {
  plan = SplitPlan();
  Planner p(ctx, sb, region, plan);
  return p.run(refusal);
}

std::vector<SplitPlan> plan_splits(ASTContext& ctx, TranslationPlan& plan, bool remarks) {
  std::vector<SplitPlan> out;
  auto receives = [](const Region& r) { return r.kind == AnnotationKind::Receive || r.role == RegionRole::Receive; };
  for (Superblock& sb : plan.superblocks)
    for (std::size_t i = 0; i < sb.regions.size(); ++i) {
      Region& r = sb.regions[i];
      if (!r.annotation) continue;  // a Bamboo compute part
      const Region* source = nullptr;
      for (const RegionDep& d : r.deps)
        if (!d.previous && receives(sb.regions[static_cast<std::size_t>(d.region)]))
          source = &sb.regions[static_cast<std::size_t>(d.region)];
      if (r.kind != AnnotationKind::Compute && r.role != RegionRole::Compute && !r.annotation->has_split) continue;
      if (!source) {
        if (r.annotation && r.annotation->has_split && !r.annotation->split_off)
          report(ctx.getDiagnostics(), r.annotation->split_loc, Diag::SplitWithoutReceive) << r.name;
        continue;
      }
      SplitPlan p;
      SplitRefusal why;
      SourceLocation at = r.annotation->keyword_loc;
      if (r.annotation->split_off) {
        if (remarks) report(ctx.getDiagnostics(), r.annotation->split_loc, Diag::RegionNotSplit) << r.name << "split(off)";
        continue;
      }
      if (!plan_region_split(ctx, sb, static_cast<int>(i), p, why)) {
        // Asked for with split(N): always said; else with the remarks.
        if (r.annotation->has_split)
          report(ctx.getDiagnostics(), why.loc.isValid() ? why.loc : at, Diag::SplitRefused) << r.name << why.why;
        else if (remarks)
          report(ctx.getDiagnostics(), why.loc.isValid() ? why.loc : at, Diag::RegionNotSplit) << r.name << why.why;
        continue;
      }
      if (remarks) {
        std::string box;
        for (const SplitLoop& l : p.loops)
          box += (box.empty() ? "" : ", ") + l.var->getNameAsString() + " in [" + l.lo +
                 (l.halo_lo ? " + " + std::to_string(l.halo_lo) : std::string()) + ", " + l.hi +
                 (l.halo_hi ? " - " + std::to_string(l.halo_hi) : std::string()) + ")";
        report(ctx.getDiagnostics(), p.nest->getBeginLoc(), Diag::RegionSplit) << r.name << box << source->name;
      }
      r.split = true;
      p.superblock = sb.index;
      out.push_back(std::move(p));
    }
  return out;
}

bool split_needs_only_code(const Superblock& sb, const Region& r, const RegionDep& d) {
  if (!r.split || d.previous) return false;
  const Region& dep = sb.regions[static_cast<std::size_t>(d.region)];
  return dep.kind == AnnotationKind::Receive || dep.kind == AnnotationKind::Send || dep.role == RegionRole::Receive ||
         dep.role == RegionRole::Send;
}

}  // namespace tucana::translate
