// Finds the communication sites of the main file, the loop around each, and
// decides per site whether Comm(i) may overlap After(i-1) and Before(i+1).
#include <algorithm>
#include <functional>
#include <optional>
#include <sstream>

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "tucana/cco/Cco.h"
#include "tucana/cco/Internal.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"

namespace tucana::cco {

namespace {

using namespace clang;

using translate::Diag;

// Reports `id` of Diagnostics.def at `loc`, with its arguments in order.
void error(ASTContext& ctx, SourceLocation loc, Diag id, std::initializer_list<std::string> args = {}) {
  DiagnosticBuilder b = translate::report(ctx.getDiagnostics(), loc, id);
  for (const std::string& a : args) b << a;
}

struct CallSite {
  const CallExpr* call;
  const Stmt* loop;  // innermost, or null
  const FunctionDecl* function;
  std::vector<const Stmt*> outer;  // the enclosing loops, innermost first (loop included)
};

class Collector : public RecursiveASTVisitor<Collector> {
 public:
  Collector(ASTContext& ctx, const std::vector<CcoPragma*>& stmt_pragmas) : ctx_(ctx), pragmas_(stmt_pragmas) {}

  // Every function of the main file with a body: free functions, and C++
  // member functions, constructors and destructors (defined in the class or
  // out of it). Templates are not analyzed (their code is not typed yet).
  bool TraverseDecl(Decl* d) {
    auto* f = dyn_cast_or_null<FunctionDecl>(d);
    if (!f) return RecursiveASTVisitor::TraverseDecl(d);
    if (!f->doesThisDeclarationHaveABody() || !ctx_.getSourceManager().isInMainFile(
                                                  ctx_.getSourceManager().getExpansionLoc(f->getBeginLoc())))
      return true;
    const FunctionDecl* outer = function_;
    bool outer_template = in_template_;
    function_ = f;
    in_template_ = f->isDependentContext();
    RecursiveASTVisitor::TraverseDecl(d);
    function_ = outer;
    in_template_ = outer_template;
    return true;
  }
  bool TraverseStmt(Stmt* s) {
    if (!s) return true;
    bool loop = is_loop(s);
    if (loop) loops_.push_back(s);
    RecursiveASTVisitor::TraverseStmt(s);
    if (loop) loops_.pop_back();
    return true;
  }
  bool VisitCallExpr(CallExpr* c) {
    if (!function_) return true;
    const FunctionDecl* f = c->getDirectCallee();
    if (!f) return true;
    if (const FunctionDecl* def = nullptr; f->hasBody(def) && def && def != function_)
      calls_to[def].push_back(CallSite{c, loops_.empty() ? nullptr : loops_.back(), function_,
                                       std::vector<const Stmt*>(loops_.rbegin(), loops_.rend())});
    const CommSpec* spec = find_comm(plain_name(f));
    if (!spec || spec->wait) return true;
    sites.push_back(CallSite{c, loops_.empty() ? nullptr : loops_.back(), function_,
                             std::vector<const Stmt*>(loops_.rbegin(), loops_.rend())});
    if (in_template_) in_template.insert(c);
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt* cs) {
    SourceManager& sm = ctx_.getSourceManager();
    unsigned prev = sm.getFileOffset(sm.getExpansionLoc(cs->getLBracLoc()));
    if (!sm.isInMainFile(sm.getExpansionLoc(cs->getLBracLoc()))) return true;
    for (Stmt* child : cs->body()) {
      unsigned begin = sm.getFileOffset(sm.getExpansionLoc(child->getBeginLoc()));
      for (CcoPragma* p : pragmas_)
        if (p->offset > prev && p->offset < begin && !attached.count(p)) attached[p] = child, attached_in[p] = function_;
      prev = sm.getFileOffset(sm.getExpansionLoc(child->getEndLoc()));
    }
    return true;
  }

  std::vector<CallSite> sites;
  std::map<const FunctionDecl*, std::vector<CallSite>> calls_to;  // calls of functions with a body, by callee
  std::map<CcoPragma*, const Stmt*> attached;
  std::map<CcoPragma*, const FunctionDecl*> attached_in;  // the function of the statement
  std::set<const CallExpr*> in_template;  // sites in a template's code

 private:
  bool in_template_ = false;
  ASTContext& ctx_;
  const std::vector<CcoPragma*>& pragmas_;
  std::vector<const Stmt*> loops_;
  const FunctionDecl* function_ = nullptr;
};

// Jumps out of the loop body: break/continue not inside an inner loop (or
// switch for break), return, goto.
void find_jumps(const Stmt* s, bool in_loop, bool in_switch, SourceManager& sm, std::vector<std::string>& out) {
  if (!s || isa<LambdaExpr>(s)) return;  // a lambda's return leaves the lambda only
  auto line = [&](const Stmt* x) { return std::to_string(presumed_line(sm, x->getBeginLoc())); };
  if (isa<BreakStmt>(s) && !in_loop && !in_switch) out.push_back("'break' at line " + line(s) + " leaves the loop");
  if (isa<ContinueStmt>(s) && !in_loop) out.push_back("'continue' at line " + line(s) + " skips the rest of the body");
  if (isa<ReturnStmt>(s)) out.push_back("'return' at line " + line(s) + " leaves the loop");
  if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) out.push_back("'goto' at line " + line(s) + " may leave the loop");
  bool loop = is_loop(s), sw = isa<SwitchStmt>(s);
  for (const Stmt* c : s->children()) find_jumps(c, in_loop || loop, in_switch || sw, sm, out);
}

const VarDecl* loop_variable(const Stmt* loop) {
  auto* f = dyn_cast<ForStmt>(loop);
  if (!f) return nullptr;
  if (auto* d = dyn_cast_or_null<DeclStmt>(f->getInit()); d && d->isSingleDecl())
    return dyn_cast<VarDecl>(d->getSingleDecl());
  if (auto* b = dyn_cast_or_null<BinaryOperator>(f->getInit()); b && b->isAssignmentOp())
    if (auto* r = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts())) return dyn_cast<VarDecl>(r->getDecl());
  const Expr* inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto* u = dyn_cast_or_null<UnaryOperator>(inc))
    if (auto* r = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts())) return dyn_cast<VarDecl>(r->getDecl());
  if (auto* b = dyn_cast_or_null<BinaryOperator>(inc); b && b->isAssignmentOp())
    if (auto* r = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts())) return dyn_cast<VarDecl>(r->getDecl());
  return nullptr;
}

// Whether `s` contains the call `c`, or a communication call with `pred`.
bool contains_call(const Stmt* s, const CallExpr* c) {
  if (!s) return false;
  if (s == c) return true;
  for (const Stmt* x : s->children())
    if (contains_call(x, c)) return true;
  return false;
}
template <typename P>
void comm_calls(const Stmt* s, P pred, std::vector<const CallExpr*>& out) {
  if (!s || isa<LambdaExpr>(s)) return;
  if (auto* c = dyn_cast<CallExpr>(s))
    if (const FunctionDecl* f = c->getDirectCallee())
      if (const CommSpec* spec = find_comm(plain_name(f)); spec && pred(*spec)) out.push_back(c);
  for (const Stmt* x : s->children()) comm_calls(x, pred, out);
}
bool has_post(const Stmt* s) {
  std::vector<const CallExpr*> v;
  comm_calls(s, [](const CommSpec& c) { return c.post; }, v);
  return !v.empty();
}
bool has_wait(const Stmt* s) {
  std::vector<const CallExpr*> v;
  comm_calls(s, [](const CommSpec& c) { return c.wait; }, v);
  return !v.empty();
}

// The statements of a loop body with its { } blocks opened one level: the
// unit of Comm when the communication is not at top level.
std::vector<const Stmt*> flattened(const Stmt* body) {
  std::vector<const Stmt*> out;
  auto* b = dyn_cast_or_null<CompoundStmt>(body);
  if (!b) {
    if (body) out.push_back(body);
    return out;
  }
  for (const Stmt* s : b->body()) {
    if (auto* inner = dyn_cast<CompoundStmt>(s))
      out.insert(out.end(), inner->body_begin(), inner->body_end());
    else
      out.push_back(s);
  }
  return out;
}

// Comm(i) in `stmts` for the communication call `c` (a post or a blocking
// call anywhere in a statement): the statement holding it, for a post up to
// the last statement holding a wait before the next posts. False if the
// posts are not completed in `stmts`.
bool nested_group(const std::vector<const Stmt*>& stmts, const CallExpr* c, const CommSpec& spec, unsigned& first,
                  unsigned& last) {
  int k0 = -1;
  for (unsigned i = 0; i < stmts.size() && k0 < 0; ++i)
    if (contains_call(stmts[i], c)) k0 = static_cast<int>(i);
  if (k0 < 0) return false;
  first = last = static_cast<unsigned>(k0);
  if (!spec.post) return !has_wait(stmts[first]) || has_post(stmts[first]);
  bool seen_wait = false;
  for (unsigned j = first; j < stmts.size(); ++j) {
    bool w = has_wait(stmts[j]), p = has_post(stmts[j]);
    if (seen_wait && p && !w) break;
    if (w) {
      seen_wait = true;
      last = j;
    }
  }
  return seen_wait;
}

// Scalar privatization. A local arithmetic variable of the loop's function
// whose address never escapes, that the loop header and Comm(i) do not
// mention, whose first mention in Before(i) and in After(i) is a definition
// in that same part (`v = e;` or `for (v = e; ...)` with `e` free of `v`),
// and that is dead after the loop, carries nothing from one part or
// iteration to another: the pipelined order of the parts cannot change what
// it holds where it is read.
bool mentions(const Stmt* s, const VarDecl* v) {
  if (!s) return false;
  if (auto* r = dyn_cast<DeclRefExpr>(s); r && r->getDecl() == v) return true;
  if (auto* d = dyn_cast<DeclStmt>(s))
    for (const Decl* x : d->decls())
      if (auto* w = dyn_cast<VarDecl>(x); w && w->getInit() && mentions(w->getInit(), v)) return true;
  for (const Stmt* c : s->children())
    if (mentions(c, v)) return true;
  return false;
}
enum class FirstRef { None, Kill, Use };
// What the first mention of `v` in `s` (in execution order) is; Use when unsure.
FirstRef first_ref(const Stmt* s, const VarDecl* v) {
  if (!s || !mentions(s, v)) return FirstRef::None;
  if (auto* f = dyn_cast<ForStmt>(s)) {
    FirstRef r = first_ref(f->getInit(), v);
    return r == FirstRef::None ? FirstRef::Use : r;
  }
  if (auto* cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* c : cs->body())
      if (FirstRef r = first_ref(c, v); r != FirstRef::None) return r;
    return FirstRef::None;
  }
  if (auto* e = dyn_cast<Expr>(s)) {
    const Expr* x = e->IgnoreParens();
    if (auto* b = dyn_cast<BinaryOperator>(x)) {
      if (b->getOpcode() == BO_Comma) {
        FirstRef r = first_ref(b->getLHS(), v);
        return r != FirstRef::None ? r : first_ref(b->getRHS(), v);
      }
      if (b->getOpcode() == BO_Assign)
        if (auto* l = dyn_cast<DeclRefExpr>(b->getLHS()); l && l->getDecl() == v)
          return mentions(b->getRHS(), v) ? FirstRef::Use : FirstRef::Kill;
    }
  }
  return FirstRef::Use;
}
// Whether every mention of `v` in `s` is a read of its value, the left side
// of an assignment, or the operand of ++/--: its address never escapes.
bool plain_uses(const Stmt* s, const Stmt* parent, const VarDecl* v) {
  if (!s) return true;
  if (isa<LambdaExpr>(s) || isa<BlockExpr>(s)) return !mentions(s, v);
  if (auto* r = dyn_cast<DeclRefExpr>(s); r && r->getDecl() == v) {
    if (auto* c = dyn_cast_or_null<ImplicitCastExpr>(parent)) return c->getCastKind() == CK_LValueToRValue;
    if (auto* b = dyn_cast_or_null<BinaryOperator>(parent)) return b->isAssignmentOp() && b->getLHS() == s;
    if (auto* u = dyn_cast_or_null<UnaryOperator>(parent)) return u->isIncrementDecrementOp();
    return false;
  }
  if (auto* d = dyn_cast<DeclStmt>(s))
    for (const Decl* x : d->decls())
      if (auto* w = dyn_cast<VarDecl>(x); w && w->getInit() && !plain_uses(w->getInit(), nullptr, v)) return false;
  for (const Stmt* c : s->children())
    if (!plain_uses(c, s, v)) return false;
  return true;
}
bool has_goto(const Stmt* s) {
  if (!s) return false;
  if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) return true;
  for (const Stmt* c : s->children())
    if (has_goto(c)) return true;
  return false;
}
// The statements from `s` down to `target` (both included), or false.
bool path_to(const Stmt* s, const Stmt* target, std::vector<const Stmt*>& path) {
  if (!s) return false;
  path.push_back(s);
  if (s == target) return true;
  for (const Stmt* c : s->children())
    if (path_to(c, target, path)) return true;
  path.pop_back();
  return false;
}
// Whether `v` is dead when `loop` ends: the next mention of `v` in the
// function (leaving only blocks, if-branches and labels; no enclosing loop,
// no goto in the function) is a definition, or there is none.
bool dead_after(const FunctionDecl* f, const Stmt* loop, const VarDecl* v) {
  std::vector<const Stmt*> path;
  if (has_goto(f->getBody()) || !path_to(f->getBody(), loop, path)) return false;
  for (size_t k = path.size() - 1; k > 0; --k) {
    const Stmt* parent = path[k - 1];
    const Stmt* child = path[k];
    if (auto* cs = dyn_cast<CompoundStmt>(parent)) {
      bool after = false;
      for (const Stmt* x : cs->body()) {
        if (after) {
          FirstRef r = first_ref(x, v);
          if (r == FirstRef::Kill) return true;
          if (r == FirstRef::Use) return false;
        }
        if (x == child) after = true;
      }
    } else if (auto* i = dyn_cast<IfStmt>(parent)) {
      if (child != i->getThen() && child != i->getElse()) return false;
    } else if (!isa<LabelStmt>(parent)) {
      return false;
    }
  }
  return true;
}

// The variable named `name` that code at `loop` in `f` sees: a local of an
// enclosing scope declared before it, a parameter, or a global.
const VarDecl* visible_at(ASTContext& ctx, const FunctionDecl* f, const Stmt* loop, const std::string& name) {
  std::vector<std::vector<const VarDecl*>> scopes(1);
  for (const ParmVarDecl* p : f->parameters()) scopes[0].push_back(p);
  const VarDecl* found = nullptr;
  bool reached = false;
  std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
    if (!s || reached) return;
    if (s == loop) {
      reached = true;
      for (auto it = scopes.rbegin(); it != scopes.rend() && !found; ++it)
        for (auto v = it->rbegin(); v != it->rend() && !found; ++v)
          if ((*v)->getName() == name) found = *v;
      return;
    }
    bool scope = isa<CompoundStmt>(s) || isa<ForStmt>(s) || isa<IfStmt>(s) || isa<WhileStmt>(s) ||
                 isa<SwitchStmt>(s) || isa<CXXForRangeStmt>(s);
    if (scope) scopes.emplace_back();
    if (auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (auto* v = dyn_cast<VarDecl>(d)) scopes.back().push_back(v);
    for (const Stmt* c : s->children()) walk(c);
    if (scope) scopes.pop_back();
  };
  walk(f->getBody());
  if (found) return found;
  for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
    if (auto* v = dyn_cast<VarDecl>(d); v && v->getName() == name) found = v;
  return found;
}

// The source text of `e` as written (a macro's use, not its expansion).
std::string source_text(ASTContext& ctx, const Expr* e) {
  SourceManager& sm = ctx.getSourceManager();
  CharSourceRange r = sm.getExpansionRange(e->getSourceRange());
  return Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
}

// Whether every mention of `v` in `s` is the left side of a plain assignment.
bool only_assigned(const Stmt* s, const VarDecl* v) {
  if (!s) return true;
  if (auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign)
    if (auto* l = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens()); l && l->getDecl() == v)
      return only_assigned(b->getRHS(), v);
  if (auto* r = dyn_cast<DeclRefExpr>(s); r && r->getDecl() == v) return false;
  for (const Stmt* c : s->children())
    if (!only_assigned(c, v)) return false;
  return true;
}

// The trip count of the canonical loop `loop` (CanonicalLoop.h) over `v`, as
// an expression evaluated before the loop, when its start, end and step have
// no side effects and read nothing in `written`; "" otherwise.
std::string trip_count(ASTContext& ctx, const Stmt* loop, const VarDecl* v, const std::set<const Decl*>& written) {
  auto* f = dyn_cast<ForStmt>(loop);
  translate::CanonicalLoop c;
  std::string why;
  SourceLocation where;
  if (!f || !translate::parse_canonical_loop(f, ctx, c, why, where) || c.var != v) return "";
  bool reads_written = false;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s) return;
    if (auto* r = dyn_cast<DeclRefExpr>(s); r && written.count(r->getDecl())) reads_written = true;
    for (const Stmt* k : s->children()) scan(k);
  };
  for (const Expr* e : {c.start, c.end, c.step}) {
    if (e && e->HasSideEffects(ctx)) return "";
    if (e != c.start) scan(e);
  }
  if (reads_written) return "";
  std::string step = c.step ? "(long long)(" + source_text(ctx, c.step) + ")" : "1LL";
  if (c.direction < 0) step = "-" + step;
  return "(long)(" +
         translate::trip_count_expression(c, "(long long)(" + source_text(ctx, c.start) + ")",
                                          "(long long)(" + source_text(ctx, c.end) + ")", step) +
         ")";
}

class SiteChecker {
 public:
  SiteChecker(ASTContext& ctx, Analyzer& an, const FunctionDecl* f, const Stmt* loop, const VarDecl* var,
              const std::vector<Carried>& privates = {})
      : ctx_(ctx), an_(an), f_(f), loop_(loop), var_(var), private_items_(privates) {}

  // `stmts`: the loop body's statements (top-level ones, or with blocks
  // flattened for a Comm of nested statements); Comm is [site.first, site.last].
  void check(const Stmt* body, const std::vector<const Stmt*>& stmts, Site& site) {
    SourceManager& sm = ctx_.getSourceManager();
    Effects before, comm, after;
    std::vector<std::pair<std::string, unsigned>> unknown;
    for (unsigned k = 0; k < stmts.size(); ++k) {
      unsigned line = presumed_line(sm, stmts[k]->getBeginLoc());
      bool in_comm = k >= site.first && k <= site.last;
      Effects e = an_.effects(stmts[k], line, in_comm);
      Effects& part = in_comm ? comm : (k < site.first ? before : after);
      merge(part, e);
      for (auto& u : e.unknown) unknown.push_back(u);
    }
    std::vector<std::string>& r = site.reasons;
    find_jumps(body, false, false, sm, r);
    find_privates(stmts, site);
    auto L0 = [](unsigned l) { return std::to_string(l); };
    // The loop variable must be the loop header's alone.
    for (const Effects* part : {&before, &comm, &after})
      for (const auto& [o, a] : part->writes)
        if (o.d == var_ && o.level == 0) {
          r.push_back("the loop variable '" + obj_name(o) + "' is written in the body (line " + L0(a.line) + ")");
          break;
        }
    // Buffers of the body's own variables do not outlive the iteration.
    for (const std::map<Obj, Access>* m : {&comm.send_bufs, &comm.recv_bufs, &comm.count_arrays})
      for (const auto& [o, a] : *m)
        if (o.level == 0 && body_local(o.d) && o.d != var_)
          r.push_back("buffer '" + obj_name(o) + "' (line " + L0(a.line) +
                      ") is declared in the loop body: it would not outlive the iteration while Comm(i) is in flight");
    // The condition and the increment of iteration i+1 run before After(i)
    // and while Comm(i) is in flight.
    if (auto* f = dyn_cast<ForStmt>(loop_)) {
      unsigned line = presumed_line(sm, loop_->getBeginLoc());
      Effects header;
      if (f->getCond()) merge(header, an_.effects(f->getCond(), line, false));
      if (f->getInc()) merge(header, an_.effects(f->getInc(), line, false));
      for (const auto& [o, h] : header.reads) {
        if (is_private(o)) continue;
        std::vector<Obj> xs = an_.roots(f_, o);
        auto aliases = [&](const Obj& w) {
          for (const Obj& y : an_.roots(f_, w))
            if (std::find(xs.begin(), xs.end(), y) != xs.end()) return true;
          return false;
        };
        for (const auto& [w, a] : after.writes)
          if (aliases(w) && !is_private(w))
            r.push_back("After(i) writes '" + obj_name(w) + "' (line " + L0(a.line) +
                        ") which the loop header of iteration i+1 reads (line " + L0(h.line) + ")");
        for (const auto& [w, c] : comm.async_writes)
          if (aliases(w) && !is_private(w))
            r.push_back("Comm(i) writes '" + obj_name(w) + "' (line " + L0(c.line) +
                        ") which the loop header of iteration i+1 reads (line " + L0(h.line) + ")");
      }
      for (const auto& [name, line2] : header.unknown)
        r.push_back("unknown side effects of '" + name + "' (line " + L0(line2) + ") in the loop header");
    }
    // Each function once, with the lines of the statements that call it.
    std::vector<std::pair<std::string, std::vector<unsigned>>> by_name;
    for (auto& [name, line] : unknown) {
      auto it = std::find_if(by_name.begin(), by_name.end(), [&](const auto& x) { return x.first == name; });
      if (it == by_name.end()) it = by_name.insert(by_name.end(), {name, {}});
      if (std::find(it->second.begin(), it->second.end(), line) == it->second.end()) it->second.push_back(line);
    }
    for (auto& [name, lines] : by_name) {
      std::string at = lines.size() == 1 ? "line " : "lines ";
      for (size_t i = 0; i < lines.size(); ++i) at += (i ? ", " : "") + std::to_string(lines[i]);
      r.push_back("unknown side effects of '" + name + "' (" + at + "): give it a body or a '#pragma cco override'");
    }
    std::set<Obj> replicate;  // roots
    auto rooted = [&](const std::map<Obj, Access>& m) {
      std::map<Obj, Access> out;
      for (const auto& [o, a] : m)
        if (!is_private(o))
          for (const Obj& x : an_.roots(f_, o)) out.emplace(x, a);
      return out;
    };
    auto B_r = rooted(before.reads), B_w = rooted(before.writes), A_r = rooted(after.reads), A_w = rooted(after.writes);
    auto C_r = rooted(comm.reads), C_w = rooted(comm.writes), C_ar = rooted(comm.async_reads),
         C_aw = rooted(comm.async_writes);
    auto S = rooted(comm.send_bufs), R = rooted(comm.recv_bufs), K = rooted(comm.count_arrays);
    auto L = [](unsigned l) { return std::to_string(l); };
    auto N = [](const Access& a) { return "'" + obj_name(a.obj) + "'"; };
    // The private(...) items of the loop, by the objects they name: no value
    // flows through them from one iteration to the next (the user says so),
    // so Before(i+1) and After(i) may both use them, each with its own copy.
    std::map<Obj, const Carried*> priv;
    std::set<const Decl*> written;  // variables the loop body writes
    for (const Effects* part : {&before, &comm, &after})
      for (const auto& [o, a] : part->writes)
        if (o.level == 0) written.insert(o.d);
    std::vector<const Stmt*> before_stmts(stmts.begin(), stmts.begin() + site.first),
        after_stmts(stmts.begin() + std::min<size_t>(site.last + 1, stmts.size()), stmts.end()),
        comm_stmts(stmts.begin() + site.first, stmts.begin() + std::min<size_t>(site.last + 1, stmts.size()));
    for (Carried& c : private_items_) {
      // Swapping buffers needs every other pointer into the section to be
      // set in the part that uses it, before that use, and none read by the
      // loop header or Comm(i): it then points into its own iteration's buffer.
      if (!c.section || c.lo != "0" || c.swap) continue;
      c.trips = trip_count(ctx_, loop_, var_, written);
      bool ok = !c.trips.empty();
      for (const Obj& m : an_.members(f_, Obj{c.var, 1})) {
        if (!ok) break;
        if (m.d == c.var) continue;
        auto* p = dyn_cast_or_null<VarDecl>(m.d);
        if (!p || m.level != 1) { ok = false; break; }
        for (const Stmt* x : comm_stmts) ok &= !mentions(x, p);
        if (auto* fs = dyn_cast<ForStmt>(loop_)) ok &= !mentions(fs->getCond(), p) && !mentions(fs->getInc(), p);
        for (const std::vector<const Stmt*>* part : {&before_stmts, &after_stmts})
          for (const Stmt* x : *part) {
            FirstRef fr = first_ref(x, p);
            if (fr == FirstRef::Kill) break;
            if (fr == FirstRef::Use && !only_assigned(x, p)) { ok = false; break; }
          }
      }
      c.swap = ok;
    }
    for (const Carried& c : private_items_) {
      for (const Effects* part : {&before, &comm, &after})
        if (auto w = part->writes.find(Obj{c.var, 0}); c.section && w != part->writes.end())
          r.push_back("'" + c.var->getNameAsString() + "' is private(" + c.var->getNameAsString() +
                      "[...]) but the loop assigns '" + c.var->getNameAsString() + "' itself (line " + L(w->second.line) +
                      ")");
      for (const Obj& x : an_.roots(f_, Obj{c.var, c.section ? 1 : 0})) priv[x] = &c;
    }
    // A private object Comm(i) does not write is carried: After(i) gets the
    // copy of iteration i; Comm(i) sends from a replica when After(i-1)
    // writes what it sends.
    // A swapped section has a buffer per iteration parity: no conflict of
    // iteration i with i-1 or i+1 remains, whoever writes it.
    auto swapped = [&](const Obj& x) { return priv.count(x) && priv[x]->swap; };
    auto carried_private = [&](const Obj& x) {
      if (!priv.count(x) || (!swapped(x) && (C_aw.count(x) || C_w.count(x)))) return false;
      if (std::find(site.carry.begin(), site.carry.end(), *priv[x]) == site.carry.end()) site.carry.push_back(*priv[x]);
      return true;
    };
    // (a) After(i-1) runs while Comm(i) is in flight.
    for (auto& [x, a] : A_w) {
      if (swapped(x) && carried_private(x)) continue;
      if ((!C_ar.count(x) || S.count(x) || K.count(x)) && carried_private(x)) {
        if (C_ar.count(x) && !swapped(x)) replicate.insert(x);
        continue;
      }
      if (auto c = find(C_r, C_ar, x))
        r.push_back("After(i-1) writes " + N(a) + " (line " + L(a.line) + ") which Comm(i) reads (line " + L(c->line) + ")");
      else if (C_aw.count(x) && R.count(x))
        replicate.insert(x);
      else if (C_aw.count(x) && is_message_order(x))
        r.push_back("After(i-1) sends or receives (line " + L(a.line) + ") while Comm(i) (line " + L(C_aw[x].line) +
                    ") is in flight: the messages could match differently");
      else if (C_w.count(x))
        r.push_back("After(i-1) writes " + N(a) + " (line " + L(a.line) + ") which Comm(i) writes (line " +
                    L(C_w[x].line) + ")");
    }
    for (auto& [x, a] : A_r) {
      if (swapped(x) && carried_private(x)) continue;
      if (C_aw.count(x) && R.count(x)) replicate.insert(x);
      else if (C_w.count(x))
        r.push_back("Comm(i) writes " + N(a) + " (line " + L(C_w[x].line) + ") which After(i-1) reads (line " +
                    L(a.line) + ")");
    }
    // (b) Before(i+1) runs while Comm(i) is in flight (the arguments' values were read at the post).
    for (auto& [x, b] : B_w) {
      if (swapped(x) && carried_private(x)) continue;  // Before(i+1) writes the other buffer
      if (C_aw.count(x) && is_message_order(x))
        r.push_back("Before(i+1) sends or receives (line " + L(b.line) + ") while Comm(i) (line " + L(C_aw[x].line) +
                    ") is in flight: the messages could match differently");
      else if (C_aw.count(x))
        r.push_back("Before(i+1) writes " + N(b) + " (line " + L(b.line) + ") which Comm(i) writes (line " +
                    L(C_aw[x].line) + ")");
      else if (C_ar.count(x) && (S.count(x) || K.count(x)))
        replicate.insert(x);
      else if (C_ar.count(x))
        r.push_back("Before(i+1) writes " + N(b) + " (line " + L(b.line) + ") which Comm(i) reads (line " +
                    L(C_ar[x].line) + ")");
    }
    for (auto& [x, b] : B_r)
      if (swapped(x) && carried_private(x)) continue;
      else if (C_aw.count(x))
        r.push_back("Comm(i) writes " + N(b) + " (line " + L(C_aw[x].line) + ") which Before(i+1) reads (line " +
                    L(b.line) + ")");
    // A variable Before(i+1) sets before any use (`s = 0;` first) and After(i)
    // updates (`s += ...`): After(i) gets iteration i's copy, and what it
    // writes is not needed by Before(i+1), which sets it anew.
    auto carried_killed = [&](const Obj& x) {
      if (x.level != 0 || C_aw.count(x) || C_w.count(x)) return false;
      auto* v = dyn_cast_or_null<VarDecl>(x.d);
      if (!v || v == var_ || !(v->getType()->isScalarType() || v->getType()->isStructureType())) return false;
      if (v->hasGlobalStorage() || v->getParentFunctionOrMethod() != f_ || !plain_uses(f_->getBody(), nullptr, v) ||
          !dead_after(f_, loop_, v))
        return false;
      for (unsigned k = 0; k < site.first && k < stmts.size(); ++k) {
        FirstRef fr = first_ref(stmts[k], v);
        if (fr == FirstRef::Use) return false;
        if (fr == FirstRef::Kill) {
          Carried c;
          c.var = v;
          if (std::find(site.carry.begin(), site.carry.end(), c) == site.carry.end()) site.carry.push_back(c);
          return true;
        }
      }
      return false;
    };
    // (c) Before(i+1) now runs before After(i).
    for (auto& [x, a] : A_w) {
      if ((B_r.count(x) || B_w.count(x)) && carried_private(x)) continue;
      if (B_w.count(x) && carried_killed(x)) continue;
      if (B_r.count(x))
        r.push_back("After(i) writes " + N(a) + " (line " + L(a.line) + ") which Before(i+1) reads (line " +
                    L(B_r[x].line) + ")");
      else if (B_w.count(x))
        r.push_back("Before(i+1) and After(i) both write " + N(a) + " (lines " + L(B_w[x].line) + " and " + L(a.line) +
                    ")");
    }
    for (auto& [x, a] : A_r)
      if (B_w.count(x) && carried_private(x)) {
        continue;
      } else if (B_w.count(x) && !A_w.count(x)) {
        // Removable when the object is a variable of known size that Comm(i)
        // does not write: After(i) gets a copy of its value at the post.
        const VarDecl* keep = nullptr;
        int candidates = 0;
        for (const Obj& m : an_.members(f_, a.obj)) {
          auto* v = dyn_cast_or_null<VarDecl>(m.d);
          if (!v || m.level != 0 || v == var_) continue;
          QualType t = v->getType();
          // (A pointer variable itself is a scalar: its value is what is kept.)
          if (isa<ConstantArrayType>(t.getTypePtr()) || t->isScalarType() || t->isStructureType()) {
            keep = v;
            ++candidates;
          }
        }
        SourceLocation loop_begin = sm.getExpansionLoc(loop_->getBeginLoc());
        bool visible = keep && (keep->hasGlobalStorage() ||
                                sm.isBeforeInTranslationUnit(sm.getExpansionLoc(keep->getLocation()), loop_begin));
        if (candidates == 1 && visible && !C_aw.count(x) && !C_w.count(x)) {
          Carried c;
          c.var = keep;
          if (std::find(site.carry.begin(), site.carry.end(), c) == site.carry.end()) site.carry.push_back(c);
          continue;
        }
        // A count or displacement array of a v-collective of Comm(i) has
        // comm-size elements: After(i) gets a copy of them, taken at the post.
        if (!C_aw.count(x) && !C_w.count(x))
          if (auto c = comm_size_array(stmts, site, x, before, comm, after)) {
            if (std::find(site.carry.begin(), site.carry.end(), *c) == site.carry.end()) site.carry.push_back(*c);
            continue;
          }
        r.push_back("Before(i+1) writes " + N(a) + " (line " + L(B_w[x].line) + ") which After(i) reads (line " +
                    L(a.line) + ")");
      }
    // The buffers to replicate, by argument.
    size_t dependences = r.size();
    for (unsigned k = site.first; k <= site.last; ++k) {
      const CallExpr* call = top_level_call(stmts[k]);
      const CommSpec* spec = call && call->getDirectCallee() ? find_comm(plain_name(call->getDirectCallee())) : nullptr;
      if (!spec) continue;
      auto consider = [&](int arg, bool sized, const char* what) {
        if (arg < 0 || static_cast<unsigned>(arg) >= call->getNumArgs()) return;
        auto p = pointee_of(call->getArg(arg));
        if (!p || !replicate.count(an_.root(f_, *p))) return;
        bool in_place = false;
        for (const Expr* a : call->arguments()) in_place |= is_in_place(a, ctx_);
        if (dependences == 0 && (!sized || in_place || spec->rooted || (!spec->nonblocking && !spec->post)))
          r.push_back(std::string(what) + " '" + obj_name(*p) + "' of " + spec->name + " (line " +
                      L(presumed_line(sm, call->getBeginLoc())) +
                      ") would need a replica, which tucana-cco cannot size for this call");
        site.replicate_args.insert(k << 8 | static_cast<unsigned>(arg));
        std::string name = obj_name(*p);
        if (std::find(site.replicate.begin(), site.replicate.end(), name) == site.replicate.end())
          site.replicate.push_back(name);
      };
      for (const BufferArg& b : spec->buffers) consider(b.buf, b.size != SizeKind::None, "buffer");
      for (int i : spec->read_arrays) consider(i, spec->collective, "count array");
    }
    if (!site.no_rewrite.empty())  // no top-level calls to match: name what would be replicated
      for (const Obj& x : replicate)
        if (std::find(site.replicate.begin(), site.replicate.end(), obj_name(x)) == site.replicate.end())
          site.replicate.push_back(obj_name(x));
    for (const Carried& c : site.carry) {
      std::string name = c.var->getNameAsString();
      if (std::find(site.replicate.begin(), site.replicate.end(), name) == site.replicate.end())
        site.replicate.push_back(name);
    }
    // Each reason once (a dependence found through several statements or calls).
    {
      std::vector<std::string> unique;
      size_t unique_dependences = 0;
      for (size_t i = 0; i < r.size(); ++i)
        if (std::find(unique.begin(), unique.end(), r[i]) == unique.end()) {
          unique.push_back(r[i]);
          if (i < dependences) ++unique_dependences;
        }
      r.swap(unique);
      dependences = unique_dependences;
    }
    if (r.size() > dependences) {
      site.verdict = Verdict::Unsupported;  // safe, but a buffer cannot be replicated
    } else if (!r.empty()) {
      site.verdict = Verdict::Unsafe;
      site.carry.clear();
      site.replicate.clear();
      site.replicate_args.clear();
    } else {
      site.verdict = Verdict::Safe;
    }
  }

 private:
  // The pointer variable `p` when `x` is what it points to, `p` is a count or
  // displacement argument (written as `p`) of a v-collective of Comm, and no
  // part of the loop body assigns `p` itself.
  std::optional<Carried> comm_size_array(const std::vector<const Stmt*>& stmts, const Site& site, const Obj& x,
                                         const Effects& before, const Effects& comm, const Effects& after) {
    for (unsigned k = site.first; k <= site.last && k < stmts.size(); ++k) {
      const CallExpr* call = top_level_call(stmts[k]);
      const CommSpec* spec = call && call->getDirectCallee() ? find_comm(plain_name(call->getDirectCallee())) : nullptr;
      if (!spec || !spec->collective || spec->comm < 0 || static_cast<unsigned>(spec->comm) >= call->getNumArgs())
        continue;
      for (int i : spec->read_arrays) {
        if (static_cast<unsigned>(i) >= call->getNumArgs()) continue;
        auto* ref = dyn_cast<DeclRefExpr>(call->getArg(i)->IgnoreParenImpCasts());
        auto* v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
        if (!v || !v->getType()->isPointerType() || v == var_) continue;
        if (!(an_.root(f_, Obj{v, 1}) == x)) continue;
        Obj self{v, 0};
        if (before.writes.count(self) || comm.writes.count(self) || after.writes.count(self)) continue;
        SourceManager& sm = ctx_.getSourceManager();
        if (!v->hasGlobalStorage() && !sm.isBeforeInTranslationUnit(sm.getExpansionLoc(v->getLocation()),
                                                                       sm.getExpansionLoc(loop_->getBeginLoc())))
          continue;
        Carried c;
        c.var = v, c.comm = call->getArg(spec->comm);
        return c;
      }
    }
    return std::nullopt;
  }

  static void merge(Effects& into, const Effects& e) {
    for (std::map<Obj, Access> Effects::*m : {&Effects::reads, &Effects::writes, &Effects::async_reads, &Effects::async_writes, &Effects::send_bufs,
                    &Effects::recv_bufs, &Effects::count_arrays})
      for (const auto& [o, a] : e.*m) (into.*m).emplace(o, a);
  }
  static const Access* find(const std::map<Obj, Access>& a, const std::map<Obj, Access>& b, const Obj& x) {
    if (auto it = a.find(x); it != a.end()) return &it->second;
    if (auto it = b.find(x); it != b.end()) return &it->second;
    return nullptr;
  }
  bool body_local(const Decl* d) {
    if (!d || d == var_) return d != nullptr;
    auto* v = dyn_cast<VarDecl>(d);
    if (!v || v->hasGlobalStorage()) return false;
    SourceManager& sm = ctx_.getSourceManager();
    SourceRange body = loop_body(loop_)->getSourceRange();
    SourceLocation l = sm.getExpansionLoc(v->getLocation());
    return !sm.isBeforeInTranslationUnit(l, sm.getExpansionLoc(body.getBegin())) &&
           !sm.isBeforeInTranslationUnit(sm.getExpansionLoc(body.getEnd()), l);
  }
  // The scalars privatized for this partition (see dead_after above).
  void find_privates(const std::vector<const Stmt*>& stmts, const Site& site) {
    privates_.clear();
    std::set<const VarDecl*> candidates;
    std::function<void(const Stmt*)> collect = [&](const Stmt* s) {
      if (!s) return;
      if (auto* r = dyn_cast<DeclRefExpr>(s))
        if (auto* v = dyn_cast<VarDecl>(r->getDecl())) candidates.insert(v);
      for (const Stmt* c : s->children()) collect(c);
    };
    for (const Stmt* s : stmts) collect(s);
    for (const VarDecl* v : candidates) {
      QualType t = v->getType();
      if (v == var_ || body_local(v) || !v->hasLocalStorage() || v->isStaticLocal() ||
          v->getParentFunctionOrMethod() != f_ || t.isVolatileQualified() || t->isReferenceType() ||
          !(t->isIntegralOrEnumerationType() || t->isRealFloatingType()))
        continue;
      bool ok = plain_uses(f_->getBody(), nullptr, v);
      for (const Stmt* c : loop_->children())
        if (c != loop_body(loop_) && mentions(c, v)) ok = false;
      for (unsigned k = site.first; ok && k <= site.last && k < stmts.size(); ++k)
        if (mentions(stmts[k], v)) ok = false;
      for (auto [from, to] : {std::pair<unsigned, unsigned>{0, site.first},
                              std::pair<unsigned, unsigned>{site.last + 1, static_cast<unsigned>(stmts.size())}})
        for (unsigned k = from; ok && k < to; ++k)
          if (FirstRef fr = first_ref(stmts[k], v); fr != FirstRef::None) {
            if (fr == FirstRef::Use) ok = false;
            break;
          }
      if (ok && dead_after(f_, loop_, v)) privates_.insert(v);
    }
  }
  bool is_private(const Obj& o) {
    if (o.level == 0 && privates_.count(dyn_cast_or_null<VarDecl>(o.d))) return true;
    if (o.level == 0) return body_local(o.d);
    for (const Obj& m : an_.members(f_, o))
      if (!body_local(m.d)) return false;
    return true;
  }

  ASTContext& ctx_;
  Analyzer& an_;
  const FunctionDecl* f_;
  const Stmt* loop_;
  const VarDecl* var_;
  std::set<const VarDecl*> privates_;
  std::vector<Carried> private_items_;  // of the loop's `#pragma cco do private(...)`
};

// The steps of analyze(), in the order it runs them: the pragmas checked
// and attached (attach_statement_pragmas, collect_private_items,
// check_overrides), then each loop's sites grouped into Comm(i) and judged
// (report_loop; sites in no loop: report_sites_outside_loops), the sites
// whose Comm(i) is in an enclosing loop or in a calling loop found on the
// way (group_in_enclosing_loop, report_under_calling_loop), and last the
// reports of one loop merged (merge_enclosing_reports).
class LoopAnalysis {
 public:
  LoopAnalysis(ASTContext& ctx, PragmaList& pragmas)
      : ctx_(ctx), sm_(ctx.getSourceManager()), pragmas_(pragmas), an_(ctx, pragmas),
        stmt_pragmas_(statement_pragmas(pragmas)), col_(ctx, stmt_pragmas_) {
    for (const CcoPragma& p : pragmas.all)
      if (p.kind == PragmaKind::Do) marked_only_ = true;
    callee_spec_.nonblocking = "";
  }

  CheckResult run() {
    col_.TraverseDecl(ctx_.getTranslationUnitDecl());
    attach_statement_pragmas();
    collect_private_items();
    check_overrides();
    if (ctx_.getDiagnostics().hasErrorOccurred()) return std::move(result_);

    result_.file = sm_.getFileEntryRefForID(sm_.getMainFileID())->getName().str();
    // Group the sites by loop, in source order.
    std::vector<const Stmt*> order;
    std::map<const Stmt*, std::vector<CallSite>> by_loop;
    for (const CallSite& s : col_.sites) {
      if (!by_loop.count(s.loop)) order.push_back(s.loop);
      by_loop[s.loop].push_back(s);
    }
    for (const Stmt* loop : order) {
      if (loop)
        report_loop(loop, by_loop[loop]);
      else
        report_sites_outside_loops(by_loop[loop]);
    }
    merge_enclosing_reports();
    result_.ok = true;
    return std::move(result_);
  }

 private:
  static std::vector<CcoPragma*> statement_pragmas(PragmaList& pragmas) {
    std::vector<CcoPragma*> out;
    for (CcoPragma& p : pragmas.all)
      if (p.kind != PragmaKind::Override && p.in_main_file) out.push_back(&p);
    return out;
  }

  // `#pragma cco do` and `ignore` must stand before a statement (`do`: a
  // loop); the loops marked `do`, and the statements ignored, are recorded.
  void attach_statement_pragmas() {
    for (CcoPragma* p : stmt_pragmas_) {
      auto it = col_.attached.find(p);
      const char* kw = p->kind == PragmaKind::Do ? "do" : "ignore";
      if (it == col_.attached.end()) {
        error(ctx_, p->loc, Diag::CcoNotBeforeStatement, {kw});
        continue;
      }
      if (p->kind == PragmaKind::Do) {
        if (!is_loop(it->second)) error(ctx_, p->loc, Diag::CcoDoNotOnLoop);
        marked_.insert(it->second);
      } else {
        an_.set_ignored(it->second, p);
      }
    }
  }

  // The private(...) items of each marked loop: variables visible at the
  // loop, of a known size (a section for a pointer).
  void collect_private_items() {
    for (CcoPragma* p : stmt_pragmas_) {
      if (p->kind != PragmaKind::Do || !col_.attached.count(p) || !col_.attached_in[p]) continue;
      const Stmt* L = col_.attached[p];
      for (const PrivateItem& item : p->privates) {
        const VarDecl* v = visible_at(ctx_, col_.attached_in[p], L, item.name);
        if (!v) {
          error(ctx_, item.loc, Diag::CcoPrivateUnknown, {item.name});
          continue;
        }
        QualType t = v->getType();
        if (item.section && !t->isPointerType()) {
          error(ctx_, item.loc, Diag::CcoPrivateSectionOfArray, {item.name});
          continue;
        }
        if (!item.section && !(isa<ConstantArrayType>(t.getTypePtr()) || (t->isScalarType() && !t->isPointerType()) ||
                               t->isStructureType())) {
          error(ctx_, item.loc, t->isPointerType() ? Diag::CcoPrivatePointer : Diag::CcoPrivateNoSize, {item.name});
          continue;
        }
        Carried c;
        c.var = v, c.is_private = true, c.section = item.section, c.lo = item.lo, c.len = item.len;
        private_items_[L].push_back(c);
      }
    }
  }

  // Overrides name a declared function and its parameters or globals; the
  // valid ones are handed to the analyzer.
  void check_overrides() {
    for (CcoPragma& p : pragmas_.all) {
      if (p.kind != PragmaKind::Override) continue;
      const FunctionDecl* f = nullptr;
      for (const Decl* d : ctx_.getTranslationUnitDecl()->decls())
        if (auto* fd = dyn_cast<FunctionDecl>(d); fd && plain_name(fd) == p.function) f = fd;
      if (!f) {
        error(ctx_, p.function_loc, Diag::CcoOverrideUnknownFunction, {p.function});
        continue;
      }
      bool ok = true;
      for (auto* items : {&p.reads, &p.writes})
        for (const OverrideItem& i : *items) {
          if (i.position > 0 && static_cast<unsigned>(i.position) > f->getNumParams()) {
            error(ctx_, i.loc, Diag::CcoOverridePosition,
                  {p.function, std::to_string(f->getNumParams()), std::to_string(i.position)});
            ok = false;
          } else if (!i.name.empty()) {
            bool found = false;
            for (unsigned k = 0; k < f->getNumParams(); ++k) found |= f->getParamDecl(k)->getName() == i.name;
            for (const Decl* d : ctx_.getTranslationUnitDecl()->decls())
              if (auto* v = dyn_cast<VarDecl>(d); v && v->getName() == i.name) found = true;
            if (!found) {
              error(ctx_, i.loc, Diag::CcoOverrideUnknownName, {i.name, p.function});
              ok = false;
            }
          }
        }
      if (ok) an_.set_override(p.function, &p);
    }
  }

  // The outward search: the first loop around `c`, innermost first, in whose
  // (flattened) body `c` and the waits completing it form Comm(i); the site
  // `s` is judged there and reported under that loop. `callee`: `c` is a
  // call of a function holding the communication (a blocking unit of Comm).
  bool group_in_enclosing_loop(const CallSite& c, Site s, bool callee) {
    const CommSpec* spec = callee ? &callee_spec_ : find_comm(plain_name(c.call->getDirectCallee()));
    if (!spec->post && !spec->nonblocking) return false;
    for (const Stmt* L : c.outer) {
      if (marked_only_ && !marked_.count(L)) continue;
      const VarDecl* var = loop_variable(L);
      if (!var) continue;
      std::vector<const Stmt*> flat = flattened(loop_body(L));
      if (!nested_group(flat, c.call, *spec, s.first, s.last)) continue;
      std::vector<const CallExpr*> in_comm;
      for (unsigned i = s.first; i <= s.last; ++i) comm_calls(flat[i], [](const CommSpec&) { return true; }, in_comm);
      grouped_.insert(in_comm.begin(), in_comm.end());
      s.loop = L;
      s.last_line = std::max(s.line, presumed_line(sm_, flat[s.last]->getEndLoc()));
      if (callee) {
        s.last_line = s.line;  // the site stays the MPI call inside the callee
        std::string name = c.call->getDirectCallee()->getNameAsString();
        // A call that is a statement of the loop body of its own can be inlined.
        if (s.first == s.last && top_level_call(flat[s.first]) == c.call) s.callee_call = c.call;
        s.no_rewrite = "communication inside '" + name + "' (line " +
                       std::to_string(presumed_line(sm_, c.call->getBeginLoc())) +
                       "): inline it, or split it into post and wait";
      } else {
        s.no_rewrite = "Comm(i) is made of nested statements (lines " +
                       std::to_string(presumed_line(sm_, flat[s.first]->getBeginLoc())) + "-" +
                       std::to_string(s.last_line) +
                       "): tucana-cco rewrites only posts, waits and blocking calls that are top-level statements of "
                       "the loop body";
      }
      SiteChecker(ctx_, an_, c.function, L, var, private_items_[L]).check(loop_body(L), flat, s);
      LoopReport& lr = outer_reports_[L];
      if (!lr.loop) {
        lr.loop = L;
        lr.function = c.function;
        SourceLocation begin = sm_.getExpansionLoc(L->getBeginLoc());
        lr.line = presumed_line(sm_, begin);
        lr.col = sm_.getExpansionColumnNumber(begin);
        lr.end_line = presumed_line(sm_, L->getEndLoc());
        lr.var_decl = var;
        lr.var = var->getNameAsString();
      }
      lr.sites.push_back(s);
      return true;
    }
    return false;
  }

  // A site in a function some loop calls: the call of that function is Comm(i)
  // of the caller's loop (the first call in a loop of the main file). Every
  // site of the function is reported, each with that loop's verdict.
  bool report_under_calling_loop(const CallSite& c) {
    const FunctionDecl* f = c.function;
    if (!f || !f->getBody()) return false;
    const FunctionDecl* def = nullptr;
    f->hasBody(def);
    Site s;
    s.line = presumed_line(sm_, c.call->getBeginLoc());
    s.col = sm_.getExpansionColumnNumber(c.call->getBeginLoc());
    s.call = c.call->getDirectCallee()->getNameAsString();
    if (!in_calling_loop(def, s, 0)) return false;
    grouped_.insert(c.call);
    return true;
  }
  // Callers not in a loop pass the search on to their own callers.
  bool in_calling_loop(const FunctionDecl* fn, const Site& s, int depth) {
    auto it = col_.calls_to.find(fn);
    if (it == col_.calls_to.end() || depth > 4) return false;
    for (const CallSite& caller : it->second) {
      if (caller.loop ? group_in_enclosing_loop(caller, s, true)
                      : caller.function && in_calling_loop(caller.function, s, depth + 1))
        return true;
    }
    return false;
  }

  Site site_of(const CallExpr* c, const Stmt* loop) {
    Site s;
    s.line = presumed_line(sm_, c->getBeginLoc());
    s.col = sm_.getExpansionColumnNumber(c->getBeginLoc());
    s.call = c->getDirectCallee()->getNameAsString();
    s.loop = loop;
    return s;
  }

  // A site in a template's code is reported, unsupported.
  bool template_site(const CallSite& c, LoopReport& lr) {
    if (!col_.in_template.count(c.call)) return false;
    Site s = site_of(c.call, lr.loop);
    s.verdict = Verdict::Unsupported;
    s.reasons.push_back("in the template '" + c.function->getQualifiedNameAsString() +
                        "': tucana-cco analyzes only code that is not a template (its types are not known)");
    lr.sites.push_back(s);
    return true;
  }

  // The sites in no loop of their function: under a calling loop when there
  // is one, else reported unsupported (in the pseudo loop of line 0).
  void report_sites_outside_loops(const std::vector<CallSite>& calls) {
    LoopReport lr;
    lr.function = calls.front().function;
    for (const CallSite& c : calls) {
      if (template_site(c, lr)) continue;
      if (grouped_.count(c.call) || report_under_calling_loop(c)) continue;
      Site s = site_of(c.call, nullptr);
      std::string why = "not in a loop";
      // Say where the function is called in a loop that could not take it.
      const FunctionDecl* def = nullptr;
      if (c.function && c.function->hasBody(def))
        if (auto it = col_.calls_to.find(def); it != col_.calls_to.end())
          for (const CallSite& caller : it->second)
            if (caller.loop) {
              why += " ('" + c.function->getNameAsString() + "' is called in the loop at line " +
                     std::to_string(presumed_line(sm_, caller.loop->getBeginLoc())) +
                     ", which is not a counted for loop)";
              break;
            }
      s.reasons.push_back(why);
      lr.sites.push_back(s);
    }
    if (!lr.sites.empty()) result_.loops.push_back(lr);
  }

  // Comm(i) of the site `s` at top-level statement s.first of `stmts`: the
  // posts up to the waits completing them, or consecutive blocking
  // point-to-point calls; s.last is set. Returns why it cannot be overlapped
  // ("" when it can); `structural`: because of the loop's shape (an
  // enclosing loop may still take it).
  std::string group_comm(const std::vector<const Stmt*>& stmts, Site& s, bool& structural) {
    const CommSpec* spec = find_comm(s.call);
    auto spec_at = [&](unsigned i) -> const CommSpec* {
      const CallExpr* ce = i < stmts.size() ? top_level_call(stmts[i]) : nullptr;
      return ce && ce->getDirectCallee() ? find_comm(plain_name(ce->getDirectCallee())) : nullptr;
    };
    std::string why;
    if (spec->post) {
      // Posts up to the waits that complete them.
      unsigned i = s.last + 1;
      while (spec_at(i) && spec_at(i)->post) ++i;
      if (!spec_at(i) || !spec_at(i)->wait) {
        why = "the requests of " + s.call + " are not completed by an MPI_Wait/MPI_Waitall that follows the posts at top level";
        structural = true;
      } else {
        while (spec_at(i + 1) && spec_at(i + 1)->wait) ++i;
        s.last = i;
      }
    } else if (!spec->collective) {
      // Consecutive blocking point-to-point calls go together (a Send and a Recv).
      while (spec_at(s.last + 1) && !spec_at(s.last + 1)->collective && !spec_at(s.last + 1)->post &&
             !spec_at(s.last + 1)->wait)
        ++s.last;
    }
    if (why.empty() && !spec->post && !spec->nonblocking) why = s.call + " has no non-blocking counterpart";
    return why;
  }

  // Why rewrite cannot edit the site (a loop header or a call written
  // through a macro has no text of its own), or "".
  std::string macro_obstacle(const Stmt* loop, const CompoundStmt* body, const std::vector<const Stmt*>& stmts,
                             const Site& s) {
    auto macro = [&](SourceLocation l) {
      return "'" + Lexer::getImmediateMacroName(l, sm_, ctx_.getLangOpts()).str() + "'";
    };
    auto* fs = dyn_cast<ForStmt>(loop);
    if (fs && (fs->getLParenLoc().isMacroID() || body->getLBracLoc().isMacroID()))
      return "the loop header is written through the macro " + macro(fs->getLParenLoc()) +
             ": tucana-cco cannot edit it";
    for (unsigned i = s.first; i <= s.last; ++i)
      if (stmts[i]->getBeginLoc().isMacroID() || stmts[i]->getEndLoc().isMacroID())
        return "the communication at line " + std::to_string(presumed_line(sm_, stmts[i]->getBeginLoc())) +
               " is written through the macro " + macro(stmts[i]->getBeginLoc()) + ": tucana-cco cannot edit it";
    return "";
  }

  // The sites of `loop` (their innermost loop): each grouped into Comm(i)
  // with the calls after it and judged, or unsupported with the reason (when
  // the reason is the loop's shape, an enclosing or calling loop may take it).
  void report_loop(const Stmt* loop, const std::vector<CallSite>& calls) {
    LoopReport lr;
    lr.loop = loop;
    lr.function = calls.front().function;
    SourceLocation begin = sm_.getExpansionLoc(loop->getBeginLoc());
    lr.line = presumed_line(sm_, begin);
    lr.col = sm_.getExpansionColumnNumber(begin);
    lr.end_line = presumed_line(sm_, loop->getEndLoc());
    const VarDecl* var = loop_variable(loop);
    lr.var_decl = var;
    lr.var = var ? var->getNameAsString() : "";
    auto* body = dyn_cast<CompoundStmt>(loop_body(loop));
    std::vector<const Stmt*> stmts;
    if (body) stmts.assign(body->body_begin(), body->body_end());
    std::set<const CallExpr*> done;
    for (const CallSite& c : calls) {
      if (template_site(c, lr)) continue;
      if (done.count(c.call) || grouped_.count(c.call)) continue;
      Site s = site_of(c.call, loop);
      std::string why;
      bool structural = false;
      if (marked_only_ && !marked_.count(loop)) why = "the loop is not marked '#pragma cco do' (other loops of the file are)";
      else if (!var) why = "not a counted loop (a for loop with a loop variable)";
      else if (!body) why = "the loop body is not a { } block";
      int k = -1;
      for (unsigned i = 0; i < stmts.size(); ++i)
        if (top_level_call(stmts[i]) == c.call) k = static_cast<int>(i);
      if (why.empty() && k < 0) why = "not a top-level statement of the loop body";
      structural = !why.empty() && !(marked_only_ && !marked_.count(loop));
      if (why.empty()) {
        s.first = s.last = static_cast<unsigned>(k);
        why = group_comm(stmts, s, structural);
        for (unsigned i = s.first; i <= s.last; ++i)
          if (const CallExpr* ce = top_level_call(stmts[i])) done.insert(ce);
      }
      s.last_line = s.line;
      if (k >= 0)
        s.last_line = std::max(s.line, presumed_line(sm_, stmts[why.empty() ? s.last : s.first]->getEndLoc()));
      if (!why.empty() && structural &&
          (group_in_enclosing_loop(c, site_of(c.call, loop), false) || report_under_calling_loop(c)))
        continue;
      if (!why.empty()) {
        s.reasons.push_back(why);
        s.verdict = Verdict::Unsupported;
      } else {
        s.no_rewrite = macro_obstacle(loop, body, stmts, s);
        SiteChecker(ctx_, an_, lr.function, loop, var, private_items_[loop]).check(body, stmts, s);
      }
      lr.sites.push_back(s);
    }
    if (!lr.sites.empty()) result_.loops.push_back(lr);
  }

  // A loop with sites of its own and sites in callees is one report.
  void merge_enclosing_reports() {
    for (auto& [l, lr] : outer_reports_) {
      auto same = std::find_if(result_.loops.begin(), result_.loops.end(),
                               [&, l = l](const LoopReport& r) { return r.loop == l; });
      if (same == result_.loops.end()) {
        result_.loops.push_back(lr);
        continue;
      }
      same->sites.insert(same->sites.end(), lr.sites.begin(), lr.sites.end());
      std::stable_sort(same->sites.begin(), same->sites.end(),
                       [](const Site& a, const Site& b) { return a.line < b.line; });
    }
    std::stable_sort(result_.loops.begin(), result_.loops.end(),
                     [](const LoopReport& a, const LoopReport& b) { return a.line < b.line; });
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  PragmaList& pragmas_;
  Analyzer an_;
  std::vector<CcoPragma*> stmt_pragmas_;  // do and ignore of the main file (col_ refers to it)
  Collector col_;
  bool marked_only_ = false;  // some loop is marked '#pragma cco do': only those are analyzed
  std::set<const Stmt*> marked_;
  std::map<const Stmt*, std::vector<Carried>> private_items_;  // of each marked loop
  // Sites whose Comm(i) is nested statements of an enclosing loop, by loop.
  std::map<const Stmt*, LoopReport> outer_reports_;
  std::set<const CallExpr*> grouped_;  // calls of such a Comm(i) already reported
  CommSpec callee_spec_;               // a call of a function holding communication: blocking, no counterpart
  CheckResult result_;
};

}  // namespace

CheckResult analyze(ASTContext& ctx, PragmaList& pragmas) { return LoopAnalysis(ctx, pragmas).run(); }

// ---------------------------------------------------------------- output
namespace {
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}
std::string join(const std::vector<std::string>& v, const std::string& sep, const std::string& quote = "") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + quote + v[i] + quote;
  return out;
}
}  // namespace

std::string format_text(const CheckResult& r, const std::string& name) {
  std::vector<std::pair<unsigned, std::string>> lines;  // in the order of the file
  for (const LoopReport& l : r.loops)
    for (const Site& s : l.sites) {
      std::ostringstream out;
      std::string at = s.call + " at line " + std::to_string(s.line);
      if (!l.loop) {
        out << name << ":" << s.line << ":" << s.col << ": note: " << at << " cannot be pipelined: " << join(s.reasons, "; ")
            << "\n";
        lines.push_back({s.line, out.str()});
        continue;
      }
      out << name << ":" << l.line << ":" << l.col << ": ";
      std::string loop = l.var.empty() ? "loop: " : "loop over '" + l.var + "': ";
      switch (s.verdict) {
        case Verdict::Safe:
          out << "note: " << loop << at << " is safe to pipeline";
          if (!s.replicate.empty()) out << " (replicates " << join(s.replicate, ", ", "'") << ")";
          break;
        case Verdict::Unsafe: out << "warning: " << loop << at << " is not safe to pipeline: " << join(s.reasons, "; "); break;
        case Verdict::Unsupported: out << "note: " << loop << at << " cannot be pipelined: " << join(s.reasons, "; "); break;
      }
      out << "\n";
      lines.push_back({l.line, out.str()});
    }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text;
  for (auto& x : lines) text += x.second;
  return text;
}

std::string format_json(const CheckResult& r, const std::string& name) {
  std::ostringstream out;
  out << "{\"file\": " << json_string(name) << ", \"loops\": [";
  for (size_t i = 0; i < r.loops.size(); ++i) {
    const LoopReport& l = r.loops[i];
    out << (i ? ", " : "") << "{\"line\": " << l.line << ", \"end_line\": " << l.end_line
        << ", \"var\": " << json_string(l.var) << ", \"sites\": [";
    for (size_t j = 0; j < l.sites.size(); ++j) {
      const Site& s = l.sites[j];
      std::vector<std::string> reasons, rep;
      for (auto& x : s.reasons) reasons.push_back(json_string(x));
      for (auto& x : s.replicate) rep.push_back(json_string(x));
      out << (j ? ", " : "") << "{\"line\": " << s.line << ", \"call\": " << json_string(s.call)
          << ", \"verdict\": " << json_string(verdict_name(s.verdict)) << ", \"reasons\": [" << join(reasons, ", ")
          << "], \"replicate\": [" << join(rep, ", ") << "]}";
    }
    out << "]}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace tucana::cco
