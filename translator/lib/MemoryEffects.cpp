// What code may touch besides its own locals (MemoryEffects.h).
#include "tucana/translate/MemoryEffects.h"

#include <string>
#include <vector>

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

namespace tucana::translate {

using namespace clang;

bool is_local_array(const Expr* base) {
  const auto* ref = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
  const auto* v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return v && !v->hasGlobalStorage() && v->getType()->isArrayType();
}

bool accesses_through_pointer(const Stmt* s) {
  if (const auto* u = dyn_cast<UnaryOperator>(s)) return u->getOpcode() == UO_Deref;
  if (const auto* e = dyn_cast<ArraySubscriptExpr>(s)) return !is_local_array(e->getBase());
  if (const auto* m = dyn_cast<MemberExpr>(s)) return m->isArrow();
  return isa<CXXThisExpr>(s) || isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s) || isa<GCCAsmStmt>(s);
}

bool is_writable_static(const VarDecl* v) {
  bool constant = v->getType().isConstQualified() && !v->getType().isVolatileQualified();
  return v->hasGlobalStorage() && !constant;
}

bool is_value_function(const FunctionDecl* fn) {
  for (const ParmVarDecl* p : fn->parameters())
    if (p->getType()->isPointerType() || p->getType()->isReferenceType()) return false;
  if (fn->hasAttr<ConstAttr>()) return true;
  static const std::set<std::string> libm = {
      "sin",   "cos",   "tan",   "asin",  "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",   "exp",
      "exp2",  "expm1", "log",   "log2",  "log10", "log1p", "pow",   "sqrt",  "cbrt",  "hypot",  "fabs",
      "floor", "ceil",  "round", "trunc", "fmod",  "fmin",  "fmax",  "fma",   "abs",   "labs",   "llabs",
      "sinf",  "cosf",  "expf",  "logf",  "powf",  "sqrtf", "fabsf", "floorf", "ceilf", "fminf", "fmaxf"};
  return fn->getDeclContext()->isTranslationUnit() || fn->getDeclContext()->isExternCContext()
             ? libm.count(fn->getNameAsString()) > 0
             : false;
}

namespace {

// A function body's own memory accesses, and the functions it calls.
class Body : public RecursiveASTVisitor<Body> {
 public:
  explicit Body(std::vector<const FunctionDecl*>& callees) : callees_(callees) {}
  bool VisitStmt(Stmt* s) {
    if (accesses_through_pointer(s)) found = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = dyn_cast<VarDecl>(e->getDecl()))
      if (v->getType()->isReferenceType() || is_writable_static(v)) found = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    if (!e->getConstructor()->isTrivial()) callees_.push_back(e->getConstructor());
    return true;
  }
  bool VisitCallExpr(CallExpr* c) {
    const FunctionDecl* fn = c->getDirectCallee();
    if (!fn) found = true;  // a call through a pointer
    else if (!is_value_function(fn)) callees_.push_back(fn);
    return true;
  }
  bool found = false;

 private:
  std::vector<const FunctionDecl*>& callees_;
};

}  // namespace

bool MemoryEffects::touches_memory(const FunctionDecl* fn) {
  auto cached = cache_.find(fn);
  if (cached != cache_.end()) return cached->second;
  std::set<const FunctionDecl*> seen;
  bool r = reach(fn, seen);
  cache_[fn] = r;  // complete: the whole reachable set was looked at
  return r;
}

bool MemoryEffects::reach(const FunctionDecl* fn, std::set<const FunctionDecl*>& seen) {
  if (!seen.insert(fn).second) return false;
  const FunctionDecl* def = nullptr;
  if (!fn->hasBody(def) || !def->getBody()) return true;  // not in this file
  if (fn->getIdentifier() && (fn->getName().startswith("MPI_") || fn->getName().startswith("PMPI_"))) return true;
  std::vector<const FunctionDecl*> callees;
  Body body(callees);
  body.TraverseStmt(def->getBody());
  if (body.found) return true;
  for (const FunctionDecl* c : callees)
    if (reach(c, seen)) return true;
  return false;
}

std::set<const VarDecl*> address_taken_locals(const Stmt* body) {
  class Finder : public RecursiveASTVisitor<Finder> {
   public:
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->getOpcode() == UO_AddrOf) mark(u->getSubExpr());
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
      if (c->getCastKind() == CK_ArrayToPointerDecay && !indexed_.count(c)) mark(c->getSubExpr());
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
      indexed_.insert(e->getBase()->IgnoreParens());
      return true;
    }
    bool VisitVarDecl(VarDecl* v) {
      if (v->getType()->isReferenceType() && v->getInit()) mark(v->getInit());
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr* l) {
      for (const LambdaCapture& c : l->captures())
        if (c.capturesVariable() && c.getCaptureKind() == LCK_ByRef)
          if (const auto* v = dyn_cast<VarDecl>(c.getCapturedVar())) taken.insert(v);
      return true;
    }
    void mark(const Expr* e) {
      for (;;) {
        e = e->IgnoreParenImpCasts();
        if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) e = m->getBase();
        else if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) e = s->getBase();
        else break;
      }
      if (const auto* r = dyn_cast<DeclRefExpr>(e))
        if (const auto* v = dyn_cast<VarDecl>(r->getDecl())) taken.insert(v);
    }
    std::set<const VarDecl*> taken;

   private:
    std::set<const Expr*> indexed_;
  } finder;
  finder.TraverseStmt(const_cast<Stmt*>(body));
  return std::move(finder.taken);
}

}  // namespace tucana::translate
