// Tasks: analysis (what the statement captures, what cannot move) and
// emission (the outlined function, the spawn, taskwait). See Tasks.h.
#include "tucana/translate/Tasks.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/LeavingFlow.h"
#include "tucana/translate/StatementText.h"
#include "tucana/translate/SuperblockEmitter.h"

namespace tucana::translate {

namespace {

// A declaration's name for a message: a lambda's closure type and other
// unnamed or operator declarations have no plain identifier.
std::string spelled_name(const clang::NamedDecl* d) {
  if (const auto* r = llvm::dyn_cast<clang::CXXRecordDecl>(d); r && r->isLambda()) return "a lambda's closure type";
  if (d->getIdentifier()) return d->getName().str();
  std::string s = d->getNameAsString();
  return s.empty() ? "an unnamed type" : s;
}

using namespace clang;

// The declaration of a type declared inside a function that `t` names (the
// outlined function, at namespace scope, could not name it), or null.
const NamedDecl* local_decl_in_type(QualType t, int depth = 0) {
  if (t.isNull() || depth > 32) return nullptr;
  const Type* ty = t.getTypePtr();
  if (const auto* td = dyn_cast<TypedefType>(ty)) {
    if (td->getDecl()->getParentFunctionOrMethod()) return td->getDecl();
    return local_decl_in_type(td->desugar(), depth + 1);
  }
  if (const auto* tag = dyn_cast<TagType>(ty)) {
    const auto* record = dyn_cast<CXXRecordDecl>(tag->getDecl());
    bool lambda = record && record->isLambda();
    return lambda || tag->getDecl()->getParentFunctionOrMethod() ? tag->getDecl() : nullptr;
  }
  if (const auto* e = dyn_cast<ElaboratedType>(ty)) return local_decl_in_type(e->getNamedType(), depth + 1);
  if (const auto* p = dyn_cast<ParenType>(ty)) return local_decl_in_type(p->getInnerType(), depth + 1);
  if (const auto* p = dyn_cast<PointerType>(ty)) return local_decl_in_type(p->getPointeeType(), depth + 1);
  if (const auto* r = dyn_cast<ReferenceType>(ty)) return local_decl_in_type(r->getPointeeType(), depth + 1);
  if (const auto* a = dyn_cast<ArrayType>(ty)) return local_decl_in_type(a->getElementType(), depth + 1);
  if (const auto* a = dyn_cast<AttributedType>(ty)) return local_decl_in_type(a->getModifiedType(), depth + 1);
  if (const auto* f = dyn_cast<FunctionProtoType>(ty)) {
    if (const NamedDecl* d = local_decl_in_type(f->getReturnType(), depth + 1)) return d;
    for (QualType p : f->param_types())
      if (const NamedDecl* d = local_decl_in_type(p, depth + 1)) return d;
  }
  if (const auto* d = dyn_cast<DecltypeType>(ty)) return local_decl_in_type(d->desugar(), depth + 1);
  // `auto` and anything else sugared: the type it stands for. A lambda's
  // closure type has no name anywhere.
  QualType canonical = t.getCanonicalType();
  if (canonical.getTypePtr() != ty) return local_decl_in_type(canonical, depth + 1);
  return nullptr;
}

// Control flow that would leave the task's statement (LeavingFlow; a
// taskloop body's own continue is fine), and case labels of a switch
// around it.
class TaskFlow : public LeavingFlow<TaskFlow> {
 public:
  TaskFlow(DiagnosticsEngine& diags, SourceManager& sm, unsigned begin, unsigned end, const char* what, bool loop_body)
      : LeavingFlow(sm, begin, end, /*continue_allowed=*/loop_body), diags_(diags), what_(what) {}
  void leaves(SourceLocation at, const char* keyword) {
    report(diags_, at, Diag::TaskControlFlowOut) << keyword << what_;
  }
  // A case of a switch outside the statement: the jump to it would enter
  // the moved code.
  bool VisitSwitchCase(SwitchCase* s) {
    if (switch_depth() == 0)
      report(diags_, s->getBeginLoc(), Diag::TaskCaseOutside) << (isa<CaseStmt>(s) ? "case" : "default") << what_;
    return true;
  }

 private:
  DiagnosticsEngine& diags_;
  const char* what_;
};

// What a task's statement names from outside it: the variables to capture
// (each with its references), and what cannot be named from the outlined
// function (reported).
class CaptureFinder : public RecursiveASTVisitor<CaptureFinder> {
 public:
  CaptureFinder(ASTContext& ctx, unsigned begin, unsigned end, const VarDecl* loop_var)
      : sm_(ctx.getSourceManager()), diags_(ctx.getDiagnostics()), begin_(begin), end_(end), loop_var_(loop_var) {}

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const ValueDecl* d = e->getDecl();
    if (inside(d->getLocation())) return true;
    if (const auto* v = dyn_cast<VarDecl>(d)) {
      if (v == loop_var_) return true;
      if (v->hasLocalStorage()) {
        auto [it, fresh] = index_.emplace(v, vars.size());
        if (fresh) vars.push_back({v, {}});
        vars[it->second].second.push_back(e);
      } else if (v->isLocalVarDecl()) {  // a static local, or an extern declared in the function
        if (reported_.insert(v).second) report(diags_, e->getLocation(), Diag::TaskCaptureStatic) << v->getName();
      }
      return true;
    }
    if (isa<BindingDecl>(d)) {
      if (reported_.insert(d).second) report(diags_, e->getLocation(), Diag::TaskCaptureBinding) << d->getName();
      return true;
    }
    // A member of a local class (a lambda's call operator): its object is
    // the captured variable, reported (or not) there.
    if (isa<CXXMethodDecl>(d)) return true;
    if (d->getParentFunctionOrMethod() && !isa<ParmVarDecl>(d))  // enumerators, functions declared locally
      if (reported_.insert(d).second) report(diags_, e->getLocation(), Diag::TaskLocalDecl) << spelled_name(d);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr* e) {
    if (!this_reported_) report(diags_, e->getBeginLoc(), Diag::TaskThis);
    this_reported_ = true;
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc tl) { return local_type(tl.getTypedefNameDecl(), tl.getBeginLoc()); }
  bool VisitRecordTypeLoc(RecordTypeLoc tl) { return local_type(tl.getDecl(), tl.getBeginLoc()); }
  bool VisitEnumTypeLoc(EnumTypeLoc tl) { return local_type(tl.getDecl(), tl.getBeginLoc()); }

  // The captured variables in order of first use, with their references.
  std::vector<std::pair<const VarDecl*, std::vector<const DeclRefExpr*>>> vars;

 private:
  bool inside(SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    SourceLocation at = sm_.getExpansionLoc(loc);
    if (!sm_.isInMainFile(at)) return false;
    unsigned off = sm_.getFileOffset(at);
    return off >= begin_ && off < end_;
  }
  bool local_type(const NamedDecl* d, SourceLocation use) {
    if (!d || !d->getParentFunctionOrMethod() || inside(d->getLocation())) return true;
    if (reported_.insert(d).second) report(diags_, use, Diag::TaskLocalDecl) << spelled_name(d);
    return true;
  }
  SourceManager& sm_;
  DiagnosticsEngine& diags_;
  unsigned begin_, end_;
  const VarDecl* loop_var_;
  std::map<const VarDecl*, std::size_t> index_;
  std::set<const Decl*> reported_;
  bool this_reported_ = false;
};

// Every variable and parameter a function declares (for shared(...) names
// that the statement does not use, and for clause texts).
class LocalNames : public RecursiveASTVisitor<LocalNames> {
 public:
  bool VisitVarDecl(VarDecl* v) {
    if (v->getIdentifier()) names.insert(v->getName().str());
    return true;
  }
  std::set<std::string> names;
};

// Function bodies of the main file: taskwait must stand in one.
class FunctionBodies : public RecursiveASTVisitor<FunctionBodies> {
 public:
  explicit FunctionBodies(SourceManager& sm) : sm_(sm) {}
  bool VisitFunctionDecl(FunctionDecl* f) {
    if (!f->doesThisDeclarationHaveABody() || !f->getBody()) return true;
    SourceLocation b = sm_.getExpansionLoc(f->getBody()->getBeginLoc());
    SourceLocation e = sm_.getExpansionLoc(f->getBody()->getEndLoc());
    if (sm_.isInMainFile(b) && sm_.isInMainFile(e)) ranges.push_back({sm_.getFileOffset(b), sm_.getFileOffset(e)});
    return true;
  }
  std::vector<std::pair<unsigned, unsigned>> ranges;

 private:
  SourceManager& sm_;
};

class Analyzer {
 public:
  Analyzer(ASTContext& ctx, const AnnotationList& list)
      : ctx_(ctx), sm_(ctx.getSourceManager()), diags_(ctx.getDiagnostics()), lo_(ctx.getLangOpts()),
        annotations_(list.all()) {}
  TaskPlan run();

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  bool task(const Annotation& a, const Stmt* s, Task& t);
  bool loop_header(const Annotation& a, const ForStmt* f, Task& t);
  bool file_range(const Expr* e, const char* what, unsigned& begin, unsigned& end);
  const Decl* enclosing_decl(const Stmt* s, const char** inside_what) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  DiagnosticsEngine& diags_;
  const LangOptions& lo_;
  const std::vector<Annotation>& annotations_;
};

TaskPlan Analyzer::run() {
  TaskPlan plan;
  StatementIndex index(ctx_);
  FunctionBodies bodies(sm_);
  bodies.TraverseDecl(ctx_.getTranslationUnitDecl());
  std::set<FileID> reported_files;
  std::map<const Stmt*, const Annotation*> taken;  // statements with a task pragma
  int tasks = 0, loops = 0;
  for (const Annotation& a : annotations_) {
    if (!a.is_task()) continue;
    if (!sm_.isInMainFile(a.hash_loc)) {
      FileID file = sm_.getFileID(sm_.getExpansionLoc(a.hash_loc));
      if (!a.broken && !sm_.isInSystemHeader(a.hash_loc) && reported_files.insert(file).second)
        report(diags_, a.hash_loc, Diag::AnnotationInIncludedFile) << a.spelling << a.keyword();
      continue;
    }
    if (a.broken) continue;
    unsigned at = offset(a.hash_loc);
    bool in_body = std::any_of(bodies.ranges.begin(), bodies.ranges.end(),
                               [&](auto& r) { return at > r.first && at < r.second; });
    if (!in_body) {
      report(diags_, a.hash_loc, Diag::TaskOutsideFunction) << a.spelling << a.keyword();
      continue;
    }
    const Stmt* s = index.following(offset(a.end_loc));
    // A statement from a macro (CHECK(...) as do { } while (0)) starts where
    // the statements inside it start: take the outermost one (the pragma
    // comes before the macro's expansion, never inside it).
    for (bool up = s != nullptr; up;) {
      up = false;
      for (const auto& parent : ctx_.getParents(*s))
        if (const Stmt* p = parent.get<Stmt>(); p && offset(p->getBeginLoc()) == offset(s->getBeginLoc())) {
          s = p;
          up = true;
        }
    }
    if (a.kind == AnnotationKind::Taskwait) {
      // As the body of an if or a loop it would replace that statement.
      bool body = false;
      if (s)
        for (const auto& parent : ctx_.getParents(*s)) {
          const Stmt* p = parent.get<Stmt>();
          body = body || (p && (isa<IfStmt>(p) || isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p) ||
                                isa<CXXForRangeStmt>(p)));
        }
      if (body)
        report(diags_, a.hash_loc, Diag::TaskwaitPlacement) << a.spelling;
      else
        plan.taskwaits.push_back(&a);
      continue;
    }
    if (!s) {
      report(diags_, a.hash_loc, Diag::PragmaNotBeforeStatement) << a.spelling << a.keyword();
      continue;
    }
    const Stmt* key = unwrap_attributes(s);
    if (auto [it, fresh] = taken.emplace(key, &a); !fresh) {
      report(diags_, a.hash_loc, Diag::TaskTwoPragmas) << it->second->keyword() << a.keyword();
      continue;
    }
    Task t;
    t.pragma = &a;
    t.loop = a.kind == AnnotationKind::Taskloop;
    t.index = t.loop ? loops++ : tasks++;
    if (task(a, s, t)) plan.tasks.push_back(std::move(t));
  }
  // Nesting: the innermost task whose statement holds each one.
  auto range = [&](const Task& t) {
    return std::make_pair(offset(t.stmt->getBeginLoc()), statement_end_offset(sm_, lo_, t.stmt));
  };
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    auto [b, e] = range(plan.tasks[i]);
    unsigned best = ~0u;
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      if (i == j) continue;
      auto [ob, oe] = range(plan.tasks[j]);
      if (ob <= b && e <= oe && (ob < b || e < oe)) {
        ++plan.tasks[i].depth;
        if (oe - ob < best) best = oe - ob, plan.tasks[i].outer = static_cast<int>(j);
      }
    }
  }
  return plan;
}

// The function that holds `s` (null, with *inside_what set, when it is a
// lambda, a block or an OpenMP region).
const Decl* Analyzer::enclosing_decl(const Stmt* s, const char** inside_what) const {
  DynTypedNode node = DynTypedNode::create(*s);
  for (;;) {
    auto parents = ctx_.getParents(node);
    if (parents.empty()) return nullptr;
    node = parents[0];
    if (const Stmt* st = node.get<Stmt>()) {
      if (isa<LambdaExpr>(st)) return *inside_what = "lambda", nullptr;
      if (isa<BlockExpr>(st)) return *inside_what = "block", nullptr;
      continue;
    }
    if (const Decl* d = node.get<Decl>()) {
      if (const auto* m = dyn_cast<CXXMethodDecl>(d); m && m->getParent()->isLambda()) return *inside_what = "lambda", nullptr;
      if (isa<FunctionDecl>(d)) return d;
      if (isa<CapturedDecl>(d) || isa<BlockDecl>(d)) return *inside_what = "an OpenMP or block region", nullptr;
    }
  }
}

bool Analyzer::file_range(const Expr* e, const char* what, unsigned& begin, unsigned& end) {
  CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm_, lo_);
  if (r.isInvalid() || !sm_.isInMainFile(r.getBegin())) {
    report(diags_, e->getBeginLoc(), Diag::TaskloopHeaderInMacro) << what;
    return false;
  }
  begin = sm_.getFileOffset(r.getBegin());
  end = sm_.getFileOffset(r.getEnd());
  return true;
}

const VarDecl* var_of(const Expr* e) {
  if (const auto* ref = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

bool Analyzer::loop_header(const Annotation& a, const ForStmt* f, Task& t) {
  TaskloopHeader& h = t.header;
  h.body = f->getBody();
  auto bad = [&](SourceLocation loc, const std::string& why) {
    report(diags_, loc.isValid() ? loc : a.keyword_loc, Diag::TaskloopNotCanonical) << why;
    return false;
  };
  CanonicalLoop loop;
  std::string why;
  SourceLocation where;
  if (!parse_canonical_loop(f, ctx_, loop, why, where)) return bad(where.isValid() ? where : f->getLParenLoc(), why);
  h.var = loop.var, h.op = loop.op, h.direction = loop.direction, h.unsigned_compare = loop.unsigned_compare;
  const Expr *start = loop.start, *end = loop.end, *step = loop.step;
  std::string i = h.var->getName().str();
  if (!file_range(start, "initialization", h.start_begin, h.start_end) || !file_range(end, "condition", h.end_begin, h.end_end))
    return false;
  if (step && !file_range(step, "increment", h.step_begin, h.step_end)) return false;
  // The body may not change the loop variable.
  class Writes : public RecursiveASTVisitor<Writes> {
   public:
    explicit Writes(const VarDecl* v) : v_(v) {}
    bool VisitBinaryOperator(BinaryOperator* b) {
      if (b->isAssignmentOp() && var_of(b->getLHS()) == v_ && !at.isValid()) at = b->getOperatorLoc();
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->isIncrementDecrementOp() && var_of(u->getSubExpr()) == v_ && !at.isValid()) at = u->getOperatorLoc();
      return true;
    }
    SourceLocation at;

   private:
    const VarDecl* v_;
  } writes(h.var);
  writes.TraverseStmt(const_cast<Stmt*>(h.body));
  if (writes.at.isValid()) {
    report(diags_, writes.at, Diag::TaskloopVarModified) << i;
    return false;
  }
  return true;
}

bool Analyzer::task(const Annotation& a, const Stmt* s, Task& t) {
  unsigned errors = diags_.getNumErrors();
  const Stmt* stmt = unwrap_attributes(s);
  if (!t.loop) {
    if (const auto* ds = dyn_cast<DeclStmt>(stmt)) {
      std::string name = "it";
      if (const auto* nd = dyn_cast<NamedDecl>(*ds->decl_begin())) name = nd->getNameAsString();
      report(diags_, stmt->getBeginLoc(), Diag::TaskIsDeclaration) << name;
      return false;
    }
  } else if (!isa<ForStmt>(stmt)) {
    report(diags_, a.keyword_loc, Diag::TaskloopNotOnFor) << a.spelling;
    return false;
  }
  t.stmt = stmt;
  // A superblock cannot run in a task (the runtime refuses it,
  // docs/tasks.md): one in the statement is an error here already, and one
  // between the pragma and its statement would leave its glue behind.
  unsigned stmt_begin = offset(stmt->getBeginLoc()), stmt_end = statement_end_offset(sm_, lo_, stmt);
  for (const Annotation& other : annotations_) {
    bool superblock = other.kind == AnnotationKind::Superblock || (other.spelling == "mate" && other.is_region());
    if (!superblock || other.broken || !sm_.isInMainFile(other.hash_loc)) continue;
    unsigned at = offset(other.hash_loc);
    if (at > offset(a.hash_loc) && at < stmt_begin) {
      report(diags_, other.hash_loc, Diag::TaskOnSuperblock) << a.spelling << a.keyword();
      return false;
    }
    if (at > stmt_begin && at < stmt_end) {
      report(diags_, other.hash_loc, Diag::SuperblockInTask) << other.spelling << other.keyword() << a.keyword();
      return false;
    }
  }
  const char* inside_what = nullptr;
  const Decl* fn = enclosing_decl(stmt, &inside_what);
  if (!fn) {
    report(diags_, a.hash_loc, Diag::TaskInLambda) << a.spelling << a.keyword() << (inside_what ? inside_what : "?");
    return false;
  }
  if (fn->isTemplated() || cast<FunctionDecl>(fn)->isTemplateInstantiation()) {
    report(diags_, a.hash_loc, Diag::TaskInTemplate) << a.spelling << a.keyword();
    return false;
  }
  // The outlined function goes before the function's outermost declaration
  // in its namespace (a member function defined in its class: the class).
  const Decl* top = fn;
  while (const auto* dc = top->getLexicalDeclContext()) {
    if (dc->isFileContext() || isa<LinkageSpecDecl>(dc)) break;
    top = cast<Decl>(dc);
  }
  t.insert_at = offset(top->getBeginLoc());
  // A task that names a function or variable first declared at or after
  // that point (the enclosing function itself, when it recurses) is
  // defined after the enclosing function instead, declared before it.
  if (const auto* top_fn = dyn_cast<FunctionDecl>(top); top_fn && top_fn->doesThisDeclarationHaveABody()) {
    class LaterDecls : public RecursiveASTVisitor<LaterDecls> {
     public:
      LaterDecls(SourceManager& sm, unsigned from, unsigned body_begin, unsigned body_end)
          : sm_(sm), from_(from), body_begin_(body_begin), body_end_(body_end) {}
      bool VisitDeclRefExpr(DeclRefExpr* e) {
        const auto* d = dyn_cast<ValueDecl>(e->getDecl());
        if (!d || !(isa<FunctionDecl>(d) || (isa<VarDecl>(d) && cast<VarDecl>(d)->hasGlobalStorage() &&
                                            !cast<VarDecl>(d)->isStaticLocal())))
          return true;
        SourceLocation first = sm_.getExpansionLoc(d->getCanonicalDecl()->getBeginLoc());
        for (const Decl* r : d->redecls()) {
          SourceLocation at = sm_.getExpansionLoc(r->getBeginLoc());
          if (sm_.isBeforeInTranslationUnit(at, first)) first = at;
        }
        // (What the body declares itself, a lambda's call operator, is
        // moved with it.)
        unsigned at = sm_.getFileOffset(first);
        bool inside = at > body_begin_ && at < body_end_;
        if (sm_.isInMainFile(first) && at >= from_ && !inside) found = true;
        return true;
      }
      bool found = false;

     private:
      SourceManager& sm_;
      unsigned from_, body_begin_, body_end_;
    } later(sm_, t.insert_at, offset(top_fn->getBody()->getBeginLoc()), end_offset(sm_, lo_, top_fn->getBody()));
    later.TraverseStmt(const_cast<Stmt*>(stmt));
    if (later.found) t.define_at = end_offset(sm_, lo_, top_fn->getBody());
  }

  const Stmt* region = stmt;  // what moves: the statement, or the loop's body
  if (t.loop && !loop_header(a, cast<ForStmt>(stmt), t)) return false;
  if (t.loop) region = t.header.body;
  unsigned begin = offset(region->getBeginLoc()), end = statement_end_offset(sm_, lo_, region);
  TaskFlow flow(diags_, sm_, begin, end, t.loop ? "a taskloop's body" : "a task's statement", t.loop);
  flow.TraverseStmt(const_cast<Stmt*>(region));
  // A goto from outside to a label inside would jump into the moved code.
  class GotoIn : public RecursiveASTVisitor<GotoIn> {
   public:
    GotoIn(SourceManager& sm, unsigned b, unsigned e) : sm_(sm), b_(b), e_(e) {}
    bool VisitGotoStmt(GotoStmt* g) {
      const LabelStmt* l = g->getLabel()->getStmt();
      if (l && in(l->getBeginLoc()) && !in(g->getBeginLoc()) && !found.isValid()) found = g->getBeginLoc();
      return true;
    }
    SourceLocation found;

   private:
    bool in(SourceLocation loc) const {
      unsigned o = sm_.getFileOffset(sm_.getExpansionLoc(loc));
      return o >= b_ && o < e_;
    }
    SourceManager& sm_;
    unsigned b_, e_;
  } goto_in(sm_, begin, end);
  goto_in.TraverseDecl(const_cast<Decl*>(fn));
  if (goto_in.found.isValid())
    report(diags_, goto_in.found, Diag::TaskJumpInto) << (t.loop ? "a taskloop's body" : "a task's statement");
  // For a taskloop, what the body declares is inside [body begin, end); the
  // loop variable itself is computed, not captured.
  CaptureFinder finder(ctx_, t.loop ? offset(stmt->getBeginLoc()) : begin, end, t.header.var);
  finder.TraverseStmt(const_cast<Stmt*>(region));

  LocalNames locals;
  locals.TraverseDecl(const_cast<Decl*>(fn));
  t.locals.assign(locals.names.begin(), locals.names.end());
  std::set<std::string> shared_names;
  for (const Dependency& n : a.names) {
    bool used = std::any_of(finder.vars.begin(), finder.vars.end(), [&](auto& v) { return v.first->getName() == n.name; });
    bool visible = used || locals.names.count(n.name) || (t.header.var && t.header.var->getName() == n.name);
    if (!visible)  // a global is fine (shared anyway)
      for (const Decl* d : ctx_.getTranslationUnitDecl()->decls())
        if (const auto* v = dyn_cast<VarDecl>(d); v && v->getName() == n.name) visible = true;
    if (!visible) report(diags_, n.loc, Diag::TaskSharedUnknown) << n.name;
    shared_names.insert(n.name);
  }
  bool cxx = lo_.CPlusPlus;
  for (auto& [v, refs] : finder.vars) {
    TaskCapture c;
    c.var = v;
    c.shared = shared_names.count(v->getName().str()) > 0;
    SourceLocation use = refs.front()->getLocation();
    QualType type = v->getType().getNonReferenceType();
    if (type->isVariablyModifiedType()) {
      report(diags_, use, Diag::TaskCaptureVla) << v->getName();
      continue;
    }
    if (const NamedDecl* d = local_decl_in_type(v->getType())) {
      report(diags_, use, Diag::TaskCaptureLocalType) << v->getName() << spelled_name(d);
      continue;
    }
    if (cxx && !c.shared && !type.isTriviallyCopyableType(ctx_)) {
      report(diags_, use, Diag::TaskCaptureNotCopyable) << v->getName() << type.getAsString();
      continue;
    }
    if (c.shared && !cxx) {
      // C has no references: each use becomes (*__tucana_a->v), in the text.
      std::set<unsigned> seen;
      for (const DeclRefExpr* r : refs) {
        SourceLocation loc = r->getLocation();
        if (loc.isMacroID() && !sm_.isMacroArgExpansion(loc)) {
          report(diags_, loc, Diag::TaskSharedInMacro) << v->getName() << Lexer::getImmediateMacroName(loc, sm_, lo_);
          break;
        }
        SourceLocation spelled = sm_.getSpellingLoc(loc);
        if (!sm_.isInMainFile(spelled)) continue;
        unsigned at = sm_.getFileOffset(spelled);
        if (seen.insert(at).second) c.refs.push_back({at, at + Lexer::MeasureTokenLength(spelled, sm_, lo_)});
      }
    }
    t.captures.push_back(std::move(c));
  }
  return diags_.getNumErrors() == errors;
}

// ---------------------------------------------------------------------------
// Emission

class Emitter {
 public:
  Emitter(ASTContext& ctx, const TaskPlan& plan, const PrivatizationPlan& priv, std::string display, EditSet& edits)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), plan_(plan), display_(std::move(display)),
        edits_(edits), buffer_(sm_.getBufferData(sm_.getMainFileID())), policy_(ctx.getPrintingPolicy()) {
    // Privatized globals as they are written in uses, for clause texts.
    for (const PrivateUse& u : priv.uses) {
      if (u.file != sm_.getMainFileID()) continue;
      llvm::StringRef written = buffer_.substr(u.begin, u.end - u.begin);
      if (!written.empty() && written.find_first_not_of(
                                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == llvm::StringRef::npos)
        privatized_[written.str()] = u.replacement;
    }
  }
  bool run();

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  unsigned line_of(unsigned off) const { return sm_.getLineNumber(sm_.getMainFileID(), off); }
  std::string line_directive(unsigned off) const { return translate::line_directive(line_of(off), display_); }
  // Spaces (tabs kept) up to `off` on its line, so moved text keeps its columns.
  std::string indent_to(unsigned off) const {
    unsigned start = off;
    while (start > 0 && buffer_[start - 1] != '\n') --start;
    std::string s = buffer_.substr(start, off - start).str();
    for (char& c : s)
      if (c != '\t') c = ' ';
    return s;
  }
  std::string declare(QualType t, const std::string& name) const {
    if (lo_.CPlusPlus) t = TypeName::getFullyQualifiedType(t, ctx_, false);
    std::string s;
    llvm::raw_string_ostream os(s);
    t.print(os, policy_, name);
    return os.str();
  }
  // `v` as the spawn (in the parent, maybe itself an outlined task) names it.
  std::string access(const Task& t, const VarDecl* v) const {
    if (t.outer >= 0 && !lo_.CPlusPlus)
      for (const TaskCapture& c : plan_.tasks[static_cast<std::size_t>(t.outer)].captures)
        if (c.var == v && c.shared) return "(*__tucana_a->" + v->getName().str() + ")";
    return v->getName().str();
  }
  std::string clause_text(const Task& t, const std::string& text) const;
  bool emit(const Task& t);
  void place_before(unsigned at, int rank, const std::string& text);
  void place_after(unsigned at, int rank, const std::string& text);

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  const TaskPlan& plan_;
  std::string display_;
  EditSet& edits_;
  llvm::StringRef buffer_;
  PrintingPolicy policy_;
  std::map<std::string, std::string> privatized_;
};

// A clause expression as written, with privatized globals rewritten as in
// the program's own uses (the pragma's tokens are not in the AST).
std::string Emitter::clause_text(const Task& t, const std::string& text) const {
  if (privatized_.empty()) return text;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {  // a literal, as is
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      out += text.substr(i, j + 1 - i);
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      std::string word = text.substr(i, j - i);
      std::size_t k = out.find_last_not_of(' ');
      bool member = k != std::string::npos && (out[k] == '.' || (out[k] == '>' && k > 0 && out[k - 1] == '-'));
      auto it = privatized_.find(word);
      bool local = std::binary_search(t.locals.begin(), t.locals.end(), word);
      out += it != privatized_.end() && !member && !local ? it->second : word;
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

bool Emitter::run() {
  // C: references to shared variables first (each belongs to the innermost
  // task holding it; the moves below take them along).
  for (const Task& t : plan_.tasks)
    for (const TaskCapture& c : t.captures)
      for (auto [b, e] : c.refs) {
        bool nested = false;
        for (const Task& inner : plan_.tasks) {
          if (&inner == &t || inner.depth <= t.depth) continue;
          // A taskloop's header runs in the parent: only its body is inner.
          const Stmt* is = inner.loop ? inner.header.body : inner.stmt;
          if (b >= offset(is->getBeginLoc()) && e <= statement_end_offset(sm_, lo_, is)) nested = true;
        }
        if (!nested) edits_.replace(b, e - b, "(*__tucana_a->" + c.var->getName().str() + ")");
      }
  // Before the moves: a taskwait may stand in a task's statement.
  for (const Annotation* a : plan_.taskwaits)
    edits_.replace(offset(a->hash_loc), offset(a->end_loc) - offset(a->hash_loc), "tucana_taskwait();");
  // Innermost first: an outer task's statement takes an inner one's spawn.
  std::vector<const Task*> order;
  for (const Task& t : plan_.tasks) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Task* x, const Task* y) { return x->depth > y->depth; });
  for (const Task* t : order)
    if (!emit(*t)) return false;
  edits_.insert(0, kInclude, "#include <tucana/task.h>\n");
  return true;
}

bool Emitter::emit(const Task& t) {
  const bool cxx = lo_.CPlusPlus;
  const std::string fn = std::string(t.loop ? "__tucana_taskloop_" : "__tucana_task_") + std::to_string(t.index);
  const std::string args = fn + "_args";
  const Annotation& a = *t.pragma;
  const TaskloopHeader& h = t.header;
  bool ok = true;

  // The parent's side: one line in place of the pragma.
  std::string spawn;
  llvm::raw_string_ostream sp(spawn);
  sp << "{ ";
  std::string start, end, step;
  if (t.loop) {
    start = edits_.extract(buffer_, h.start_begin, h.start_end, ok);
    end = ok ? edits_.extract(buffer_, h.end_begin, h.end_end, ok) : "";
    step = h.step_end > h.step_begin && ok ? edits_.extract(buffer_, h.step_begin, h.step_end, ok) : "1";
    if (!ok) return false;
    // START, END and STEP once, before the loop, as OpenMP does.
    sp << "long long __tucana_start = (long long)(" << start << "), __tucana_end = (long long)(" << end
       << "), __tucana_step = " << (h.direction < 0 ? "-" : "") << "(long long)(" << step << "); ";
    CanonicalLoop counted;
    counted.op = h.op, counted.direction = h.direction, counted.unsigned_compare = h.unsigned_compare;
    std::string n = trip_count_expression(counted, "__tucana_start", "__tucana_end", "__tucana_step");
    sp << "long long __tucana_n = " << n << "; ";
    // A loop variable of the parent's is not set (OpenMP's private loop
    // variable): it may now be unused there.
    if (!isa<DeclStmt>(cast<ForStmt>(t.stmt)->getInit())) sp << "(void)" << h.var->getName() << "; ";
  }
  bool has_args = t.loop || !t.captures.empty();
  if (has_args) sp << "struct " << args << " __tucana_args; ";
  if (t.loop) sp << "__tucana_args.__tucana_start = __tucana_start; __tucana_args.__tucana_step = __tucana_step; ";
  for (const TaskCapture& c : t.captures) {
    std::string name = c.var->getName().str(), from = access(t, c.var);
    QualType type = c.var->getType().getNonReferenceType();
    // A byte copy where an assignment may not do: arrays, structs (const
    // members; C++: trivially copyable, checked, maybe not assignable).
    bool bytes = type->isArrayType() || type->isRecordType();
    if (c.shared)
      sp << "__tucana_args." << name << " = &" << from << "; ";
    else if (bytes)
      sp << "__builtin_memcpy((void *)&__tucana_args." << name << ", (const void *)" << (cxx ? "__builtin_addressof(" : "&(")
         << from << "), sizeof __tucana_args." << name << "); ";
    else
      sp << "__tucana_args." << name << " = " << from << "; ";
  }
  if (!a.task_deps.empty()) {
    sp << "tucana_task_dep __tucana_deps[] = {";
    for (std::size_t i = 0; i < a.task_deps.size(); ++i) {
      const TaskDepend& d = a.task_deps[i];
      sp << (i ? ", " : "") << "{(const void *)&(" << clause_text(t, d.expr) << "), "
         << (d.kind == TaskDepend::In ? "TUCANA_DEP_IN" : d.kind == TaskDepend::Out ? "TUCANA_DEP_OUT" : "TUCANA_DEP_INOUT")
         << "}";
    }
    sp << "}; ";
  }
  sp << "tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; ";
  if (!a.task_deps.empty())
    sp << "__tucana_attr.deps = __tucana_deps; __tucana_attr.ndeps = " << a.task_deps.size() << "; ";
  if (!a.priority.empty()) sp << "__tucana_attr.priority = (int)(" << clause_text(t, a.priority) << "); ";
  if (a.boundary) sp << "__tucana_attr.boundary = 1; ";
  if (!a.label.empty()) sp << "__tucana_attr.name = " << a.label << "; ";
  std::string arg = has_args ? "&__tucana_args, sizeof __tucana_args" : "(const void *)0, 0";
  if (t.loop)
    sp << "tucana_taskloop(__tucana_n, "
       << (a.num_tasks.empty() ? "0" : "(long long)(" + clause_text(t, a.num_tasks) + ")") << ", "
       << (a.grainsize.empty() ? "0" : "(long long)(" + clause_text(t, a.grainsize) + ")") << ", " << fn << ", " << arg
       << ", &__tucana_attr); }";
  else
    sp << "tucana_task_spawn(" << fn << ", " << arg << ", &__tucana_attr); }";
  sp.flush();
  edits_.replace(offset(a.hash_loc), offset(a.end_loc) - offset(a.hash_loc), spawn);

  // The task's side: the moved text, with its edits.
  const Stmt* moved = t.loop ? h.body : t.stmt;
  unsigned mb = offset(moved->getBeginLoc()), me = statement_end_offset(sm_, lo_, moved);
  std::string body = edits_.extract(buffer_, mb, me, ok);
  if (!ok) return false;
  // What stays in the parent: the lines of the statement, empty.
  unsigned sb = offset(t.stmt->getBeginLoc());
  std::string blank(static_cast<std::size_t>(std::count(buffer_.begin() + sb, buffer_.begin() + me, '\n')), '\n');
  edits_.replace(sb, me - sb, blank);

  std::string text;
  llvm::raw_string_ostream os(text);
  if (has_args) {
    os << "struct " << args << " {";
    if (t.loop) os << " long long __tucana_start, __tucana_step;";
    for (const TaskCapture& c : t.captures) {
      QualType type = c.var->getType().getNonReferenceType();
      Qualifiers quals;
      QualType field = c.shared ? ctx_.getPointerType(type) : ctx_.getUnqualifiedArrayType(type, quals);
      os << " " << declare(field, c.var->getName().str()) << ";";
    }
    os << " };\n";
  }
  std::string signature = t.loop ? "static void " + fn + "(long long __tucana_lo, long long __tucana_hi, void *__tucana_p)"
                                  : "static void " + fn + "(void *__tucana_p)";
  os.flush();
  const std::size_t struct_length = text.size();  // the arguments' structure comes first
  os << signature << " {\n";
  if (has_args)
    os << "  struct " << args << " *__tucana_a = (struct " << args << " *)__tucana_p;\n";
  else
    os << "  (void)__tucana_p;\n";
  for (const TaskCapture& c : t.captures) {
    std::string name = c.var->getName().str();
    QualType type = c.var->getType().getNonReferenceType();
    if (cxx) {  // references: the captures keep their names
      os << "  " << declare(ctx_.getLValueReferenceType(type), name) << " = " << (c.shared ? "*" : "") << "__tucana_a->"
         << name << ";\n";
    } else if (c.shared) {
      continue;  // rewritten at each use
    } else if (type->isArrayType()) {
      Qualifiers quals;
      os << "  " << declare(ctx_.getUnqualifiedArrayType(type, quals), name) << "; __builtin_memcpy(" << name
         << ", __tucana_a->" << name << ", sizeof " << name << ");\n";
    } else {
      os << "  " << declare(type, name) << " = __tucana_a->" << name << ";\n";
    }
  }
  if (t.loop) {
    Qualifiers quals;
    QualType it = ctx_.getUnqualifiedArrayType(h.var->getType(), quals);
    os << "  for (long long __tucana_k = __tucana_lo; __tucana_k < __tucana_hi; ++__tucana_k) {\n";
    os << "    " << declare(it, h.var->getName().str()) << " = (" << declare(it, "")
       << ")((unsigned long long)__tucana_a->__tucana_start + (unsigned long long)__tucana_k * "
          "(unsigned long long)__tucana_a->__tucana_step); (void)" << h.var->getName()
       << ";\n";
  }
  os << line_directive(mb) << "\n" << indent_to(mb) << body << "\n";
  if (t.loop) os << "  }\n";
  os << "}\n";
  os.flush();

  // Before the enclosing top-level declaration, on lines of its own; then
  // back to that declaration's line. After a function: the structure and
  // the declaration before it, the definition after it.
  int rank = kOutlinedFunction - t.depth;  // an inner task's function first: the outer one spawns it
  if (t.define_at) {
    place_before(t.insert_at, rank, text.substr(0, struct_length) + signature + ";\n");
    place_after(t.define_at, rank, text.substr(struct_length));
  } else {
    place_before(t.insert_at, rank, text);
  }
  return true;
}

void Emitter::place_before(unsigned at, int rank, const std::string& text) {
  unsigned line_start = at;
  while (line_start > 0 && buffer_[line_start - 1] != '\n') --line_start;
  bool alone = buffer_.substr(line_start, at - line_start).trim().empty();
  std::string placed = text + line_directive(at) + "\n";
  if (alone)
    edits_.insert(line_start, rank, placed);
  else
    edits_.insert(at, rank, "\n" + placed + indent_to(at));
}

// After the text ending at `at` (a function's '}'): on the lines after
// that line when the rest of it is blank, else right after `at`; then back
// to the line and column of what follows.
void Emitter::place_after(unsigned at, int rank, const std::string& text) {
  std::size_t eol = buffer_.find('\n', at);
  if (eol == llvm::StringRef::npos) {
    edits_.insert(at, rank, "\n" + text);
    return;
  }
  if (buffer_.substr(at, eol - at).trim().empty()) {
    unsigned next = static_cast<unsigned>(eol + 1);
    edits_.insert(next, rank, text + line_directive(next) + "\n");
  } else {
    edits_.insert(at, rank, "\n" + text + line_directive(at) + "\n" + indent_to(at));
  }
}

}  // namespace

TaskPlan analyze_tasks(ASTContext& ctx, const AnnotationList& annotations) { return Analyzer(ctx, annotations).run(); }

void emit_tasks(ASTContext& ctx, const TaskPlan& plan, const PrivatizationPlan& privatization,
                const std::string& display_name, EditSet& out) {
  if (plan.empty()) return;
  Emitter e(ctx, plan, privatization, display_name, out);
  if (!e.run())
    report(ctx.getDiagnostics(), ctx.getSourceManager().getLocForStartOfFile(ctx.getSourceManager().getMainFileID()),
           Diag::ConflictingEdits)
        << "a task's statement holds an edit that crosses its ends";
}

}  // namespace tucana::translate
