// Tasks, the analysis: each task pragma's statement (a taskloop's canonical
// loop), what it captures, and what cannot move into a function of its own
// (return, break, goto out of it, this, local types, VLAs, statics of the
// function). The emission is TaskEmitter.cpp. See Tasks.h.
#include <algorithm>
#include <map>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/LeavingFlow.h"
#include "tucana/translate/StatementText.h"
#include "tucana/translate/Tasks.h"

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

}  // namespace

TaskPlan analyze_tasks(ASTContext& ctx, const AnnotationList& annotations) { return Analyzer(ctx, annotations).run(); }

}  // namespace tucana::translate
