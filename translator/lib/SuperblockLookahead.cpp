// The lookahead decision (SuperblockLookahead.h): the loop's header, what
// each region does that another could observe, and the graph's order across
// iterations.
#include "tucana/translate/SuperblockLookahead.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/MemoryEffects.h"
#include "tucana/translate/MpiCalls.h"
#include "tucana/translate/StatementText.h"

namespace tucana::translate {

namespace {

using namespace clang;

// A local the translator can follow: not static, not volatile, not a
// reference (which may name anything).
bool plain_local(const VarDecl* v) {
  return v->hasLocalStorage() && !v->getType().isVolatileQualified() && !v->getType()->isReferenceType();
}

// Whether `e` is pure as the header's parts must be, collecting the locals
// it reads into `reads`.
bool pure_expression(const Expr* e, std::set<const VarDecl*>& reads) {
  e = e->IgnoreParens();
  if (isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e)) return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    if (isa<EnumConstantDecl>(ref->getDecl())) return true;
    const auto* v = dyn_cast<VarDecl>(ref->getDecl());
    if (!v || !plain_local(v)) return false;
    reads.insert(v);
    return true;
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    if (!isa<ImplicitCastExpr>(c) && !isa<CStyleCastExpr>(c) && !isa<CXXStaticCastExpr>(c) &&
        !isa<CXXFunctionalCastExpr>(c))
      return false;
    if (c->getType().isVolatileQualified() || c->getSubExpr()->getType().isVolatileQualified()) return false;
    return c->getType()->isScalarType() && pure_expression(c->getSubExpr(), reads);
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
      case UO_Plus: case UO_Minus: case UO_Not: case UO_LNot: return pure_expression(u->getSubExpr(), reads);
      default: return false;  // ++, --, &, *
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return !b->isAssignmentOp() && b->getOpcode() != BO_Comma && !b->isPtrMemOp() &&
           pure_expression(b->getLHS(), reads) && pure_expression(b->getRHS(), reads);
  if (const auto* c = dyn_cast<ConditionalOperator>(e))
    return pure_expression(c->getCond(), reads) && pure_expression(c->getTrueExpr(), reads) &&
           pure_expression(c->getFalseExpr(), reads);
  if (const auto* s = dyn_cast<UnaryExprOrTypeTraitExpr>(e))  // sizeof, _Alignof: of a type, or unevaluated
    return !s->getTypeOfArgument()->isVariablyModifiedType();
  return false;
}

// Whether a use of a variable only reads its value (an lvalue-to-rvalue
// conversion right above it); anything else may write it (an assignment,
// ++/--, &, an array decaying, a reference bound to it, a member or element
// of it written).
bool only_read(ASTContext& ctx, const DeclRefExpr* ref) {
  DynTypedNode node = DynTypedNode::create(*static_cast<const Stmt*>(ref));
  for (;;) {
    auto parents = ctx.getParents(node);
    if (parents.empty()) return false;
    node = parents[0];
    if (node.get<ParenExpr>()) continue;
    const auto* cast = node.get<ImplicitCastExpr>();
    return cast && cast->getCastKind() == CK_LValueToRValue;
  }
}

bool is_mpi_call(const CallExpr* c) {
  const FunctionDecl* fn = c->getDirectCallee();
  return fn && fn->getIdentifier() && (fn->getName().startswith("MPI_") || fn->getName().startswith("PMPI_"));
}

// A persistent request's set-up (MPI_Send_init, ...): MPI keeps the buffer's
// address past the call and past the region.
bool keeps_address(const CallExpr* c) {
  return c->getDirectCallee()->getName().endswith("_init");
}

// The locals of a function whose address may be held somewhere: taken
// (`&v`, an array decaying, a reference bound to it, a capture by
// reference) other than as a direct argument of an MPI call that keeps it
// only until its request completes (the region that posts it is done only
// then). What the others do to them shows by their names; these are memory.
std::set<const VarDecl*> escaping_locals(ASTContext& ctx, const Stmt* function_body,
                                         const std::set<const VarDecl*>& address_taken) {
  class Uses : public RecursiveASTVisitor<Uses> {
   public:
    Uses(ASTContext& ctx, const std::set<const VarDecl*>& candidates) : ctx_(ctx), candidates_(candidates) {}
    bool VisitDeclRefExpr(DeclRefExpr* e) {
      const auto* v = dyn_cast<VarDecl>(e->getDecl());
      if (v && candidates_.count(v) && !escaped.count(v) && escapes(e)) escaped.insert(v);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr* l) {
      for (const LambdaCapture& c : l->captures())
        if (c.capturesVariable() && c.getCaptureKind() == LCK_ByRef)
          if (const auto* v = dyn_cast<VarDecl>(c.getCapturedVar())) escaped.insert(v);
      return true;
    }
    std::set<const VarDecl*> escaped;

   private:
    // Follows the use up while it is the variable's storage (an lvalue, or
    // an address of it); false when it ends in a read, a write, or an
    // address handed to an MPI call.
    bool escapes(const DeclRefExpr* e) const {
      const Stmt* at = e;
      bool address = false;
      for (;;) {
        auto parents = ctx_.getParents(*at);
        if (parents.empty()) return true;
        const Stmt* p = parents[0].get<Stmt>();
        if (!p) return true;  // a reference bound in a declaration
        if (isa<ParenExpr>(p)) {
        } else if (const auto* c = dyn_cast<CastExpr>(p)) {
          if (c->getCastKind() == CK_LValueToRValue) return false;
          if (c->getCastKind() == CK_ArrayToPointerDecay) address = true;
          else if (!address && c->getCastKind() != CK_NoOp) return true;
        } else if (const auto* u = dyn_cast<UnaryOperator>(p)) {
          if (u->getOpcode() == UO_AddrOf) address = true;
          else if (u->getOpcode() == UO_Deref && address) address = false;
          else return address || !u->isIncrementDecrementOp();
        } else if (const auto* s = dyn_cast<ArraySubscriptExpr>(p)) {
          if (!address || s->getBase()->IgnoreParens() != at) return true;
          address = false;  // an element of the array: storage again
        } else if (const auto* m = dyn_cast<MemberExpr>(p)) {
          if (address != m->isArrow()) return true;
          address = false;
        } else if (const auto* b = dyn_cast<BinaryOperator>(p)) {
          return address || !b->isAssignmentOp() || b->getLHS()->IgnoreParens() != at;
        } else if (const auto* call = dyn_cast<CallExpr>(p)) {
          return !address || !is_mpi_call(call) || keeps_address(call) || call->getCallee() == at;
        } else if (isa<UnaryExprOrTypeTraitExpr>(p)) {
          return false;
        } else {
          return true;
        }
        at = p;
      }
    }
    ASTContext& ctx_;
    const std::set<const VarDecl*>& candidates_;
  } uses(ctx, address_taken);
  uses.TraverseStmt(const_cast<Stmt*>(function_body));
  return std::move(uses.escaped);
}

// What a region's code may do that another region could observe: the
// locals of the function it names and may write (each by its name), and
// whether it may read or write other memory (through pointers, statics,
// references, escaping locals, calls that touch memory, MPI buffers that
// are not such locals).
class RegionUses : public RecursiveASTVisitor<RegionUses> {
 public:
  RegionUses(ASTContext& ctx, const std::set<const VarDecl*>& escaping, MemoryEffects& effects)
      : ctx_(&ctx), escaping_(&escaping), effects_(&effects) {}
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const auto* v = dyn_cast<VarDecl>(e->getDecl());
    if (!v) return true;
    bool write = !only_read(*ctx_, e);
    if (plain_local(v) && !escaping_->count(v)) {
      named.insert(v);
      if (write) written.insert(v);
    } else if (v->hasLocalStorage() || is_writable_static(v)) {
      memory_named = true;
      memory_written = memory_written || write || v->getType()->isReferenceType();
    }
    return true;
  }
  bool VisitStmt(Stmt* s) {
    if (!accesses_through_pointer(s)) return true;
    memory_named = true;
    const auto* e = dyn_cast<Expr>(s);
    if (!e || !is_read(e)) memory_written = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* c) {
    if (!c->getConstructor()->isTrivial() && effects_->touches_memory(c->getConstructor()))
      memory_named = memory_written = true;
    return true;
  }
  bool VisitCallExpr(CallExpr* c) {
    const FunctionDecl* fn = c->getDirectCallee();
    if (fn && is_value_function(fn)) return true;
    if (!fn || !is_mpi_call(c)) {
      if (!fn || effects_->touches_memory(fn)) memory_named = memory_written = true;
      return true;
    }
    // An MPI call: what its pointer arguments reach, unless that is a local
    // of the function seen by its name.
    for (const Expr* arg : c->arguments()) {
      if (!arg->getType()->isPointerType()) continue;
      if (arg->IgnoreParenCasts()->isNullPointerConstant(*ctx_, Expr::NPC_ValueDependentIsNull)) continue;
      const Expr* root = arg->IgnoreParenCasts();
      for (;;) {
        if (const auto* u = dyn_cast<UnaryOperator>(root); u && u->getOpcode() == UO_AddrOf)
          root = u->getSubExpr()->IgnoreParenCasts();
        else if (const auto* sub = dyn_cast<ArraySubscriptExpr>(root); sub && is_local_array(sub->getBase()))
          root = sub->getBase()->IgnoreParenCasts();
        else if (const auto* m = dyn_cast<MemberExpr>(root); m && !m->isArrow())
          root = m->getBase()->IgnoreParenCasts();
        else
          break;
      }
      const auto* ref = dyn_cast<DeclRefExpr>(root);
      const auto* v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      bool by_name = v && plain_local(v) && !escaping_->count(v) && !v->getType()->isPointerType();
      if (!by_name) memory_named = memory_written = true;
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr* l) {  // a capture by reference may write
    for (const LambdaCapture& c : l->captures())
      if (c.capturesVariable() && c.getCaptureKind() == LCK_ByRef)
        if (const auto* v = dyn_cast<VarDecl>(c.getCapturedVar())) named.insert(v), written.insert(v);
    return true;
  }
  std::set<const VarDecl*> named, written;
  bool memory_named = false, memory_written = false;

 private:
  bool is_read(const Expr* e) const {
    auto parents = ctx_->getParents(*e);
    const auto* cast = parents.empty() ? nullptr : parents[0].get<ImplicitCastExpr>();
    return cast && cast->getCastKind() == CK_LValueToRValue;
  }
  ASTContext* ctx_;
  const std::set<const VarDecl*>* escaping_;
  MemoryEffects* effects_;
};

// The locals a statement writes (any use but a read of the value).
class LocalWrites : public RecursiveASTVisitor<LocalWrites> {
 public:
  explicit LocalWrites(ASTContext& ctx) : ctx_(ctx) {}
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = dyn_cast<VarDecl>(e->getDecl()); v && v->hasLocalStorage() && !only_read(ctx_, e))
      written.insert(v);
    return true;
  }
  std::set<const VarDecl*> written;

 private:
  ASTContext& ctx_;
};

// Whether calling a function makes an order-sensitive call (any MPI call
// but a wait or a test (MPI_Test*, Local in the call table), a call
// without a body in this file, a call through a pointer, a virtual call),
// over every function it reaches; and whether it reaches longjmp.
class CallEffects {
 public:
  struct Effects {
    bool order_sensitive = false;
    bool jumps = false;
  };

  // The calls of a statement (lambdas' bodies included).
  Effects of_statement(const Stmt* s) {
    std::vector<const FunctionDecl*> callees;
    Effects e;
    collect(s, callees, e);
    for (const FunctionDecl* fn : callees) merge(e, of_function(fn));
    return e;
  }

 private:
  static void merge(Effects& into, const Effects& e) {
    into.order_sensitive = into.order_sensitive || e.order_sensitive;
    into.jumps = into.jumps || e.jumps;
  }

  void collect(const Stmt* s, std::vector<const FunctionDecl*>& callees, Effects& e) {
    class Calls : public RecursiveASTVisitor<Calls> {
     public:
      Calls(std::vector<const FunctionDecl*>& callees, Effects& e) : callees_(callees), e_(e) {}
      bool VisitCallExpr(CallExpr* c) {
        const FunctionDecl* fn = c->getDirectCallee();
        const auto* method = dyn_cast_or_null<CXXMethodDecl>(fn);
        if (!fn || (method && method->isVirtual())) e_.order_sensitive = true;
        else callees_.push_back(fn);
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr* c) {
        if (!c->getConstructor()->isTrivial()) callees_.push_back(c->getConstructor());
        return true;
      }
      bool VisitCXXThrowExpr(CXXThrowExpr*) {
        e_.jumps = true;
        return true;
      }

     private:
      std::vector<const FunctionDecl*>& callees_;
      Effects& e_;
    } calls(callees, e);
    calls.TraverseStmt(const_cast<Stmt*>(s));
  }

  Effects of_function(const FunctionDecl* fn) {
    fn = fn->getCanonicalDecl();
    if (auto it = cache_.find(fn); it != cache_.end()) return it->second;
    cache_[fn] = Effects();  // a cycle adds nothing to what its members find
    Effects e;
    llvm::StringRef name = fn->getIdentifier() ? fn->getName() : "";
    const FunctionDecl* def = nullptr;
    if (name.contains("longjmp")) {
      e.jumps = e.order_sensitive = true;
    } else if (name.startswith("MPI_") || name.startswith("PMPI_")) {
      llvm::StringRef mpi = name.startswith("P") ? name.drop_front() : name;
      e.order_sensitive = classify_mpi_call(mpi).role != MpiRole::Wait && !mpi.startswith("MPI_Test");
    } else if (!fn->hasBody(def) || !def->getBody()) {
      const FunctionDecl* latest = fn->getMostRecentDecl();
      e.order_sensitive = !latest->hasAttr<ConstAttr>() && !latest->hasAttr<PureAttr>();
    } else {
      std::vector<const FunctionDecl*> callees;
      collect(def->getBody(), callees, e);
      cache_[fn] = e;
      for (const FunctionDecl* c : callees) merge(e, of_function(c));
    }
    cache_[fn] = e;
    return e;
  }

  std::map<const FunctionDecl*, Effects> cache_;
};

constexpr int kFar = 1 << 20;  // no order across any number of iterations

}  // namespace

void plan_lookahead(ASTContext& ctx, Superblock& sb, const Stmt* function_body,
                    const std::set<const VarDecl*>& address_taken) {
  sb.lookahead = false;
  if (sb.shape != SuperblockShape::For || sb.olap_block || !sb.priority.empty()) return;
  for (const Region& r : sb.regions)
    if (!r.priority.empty()) return;
  const auto* loop = cast<ForStmt>(unwrap_attributes(sb.stmt));
  CanonicalLoop header;
  std::string why;
  SourceLocation where;
  if (!parse_canonical_loop(loop, ctx, header, why, where)) return;
  const VarDecl* var = header.var;
  if (!plain_local(var) || address_taken.count(var)) return;
  // The trip count as C computes it must be the number of iterations the
  // original runs: the condition compares in the variable's own type (no
  // promotion of a char or short, no conversion to the bound's type); a
  // STEP is a positive constant (a zero or wrongly signed one loops for
  // ever); an unsigned variable, which wraps where a signed one may not
  // overflow, only counts by one towards a strict bound or with !=.
  QualType type = var->getType().getCanonicalType().getUnqualifiedType();
  const auto* cond = cast<BinaryOperator>(loop->getCond()->IgnoreParenImpCasts());
  if (ctx.isPromotableIntegerType(type) ||
      cond->getLHS()->getType().getCanonicalType().getUnqualifiedType() != type ||
      cond->getRHS()->getType().getCanonicalType().getUnqualifiedType() != type)
    return;
  if (header.step) {
    std::optional<llvm::APSInt> step = header.step->getIntegerConstantExpr(ctx);
    if (!step || step->isNegative() || step->isZero()) return;
  }
  if (type->isUnsignedIntegerType() &&
      (header.step || !(header.op == "!=" || (header.op == "<" && header.direction > 0) ||
                        (header.op == ">" && header.direction < 0))))
    return;

  // The header: pure, and END and STEP invariant.
  std::set<const VarDecl*> start_reads, invariant_reads;
  if (!pure_expression(header.start, start_reads) || !pure_expression(header.end, invariant_reads)) return;
  if (header.step && !pure_expression(header.step, invariant_reads)) return;
  if (invariant_reads.count(var)) return;
  LocalWrites body(ctx);
  body.TraverseStmt(const_cast<Stmt*>(loop->getBody()));
  if (body.written.count(var)) return;
  for (const VarDecl* v : invariant_reads)
    if (body.written.count(v) || address_taken.count(v)) return;

  // What each region does that another could observe.
  const std::size_t n = sb.regions.size();
  CallEffects effects;
  MemoryEffects memory;
  std::set<const VarDecl*> escaping = escaping_locals(ctx, function_body, address_taken);
  std::vector<bool> sensitive(n);
  std::vector<RegionUses> uses(n, RegionUses(ctx, escaping, memory));
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    bool inside = false;
    for (const Stmt* s : sb.body->body()) {
      inside = inside || s == r.first;
      if (!inside) continue;
      CallEffects::Effects e = effects.of_statement(s);
      if (e.jumps) return;
      sensitive[i] = sensitive[i] || e.order_sensitive;
      uses[i].TraverseStmt(const_cast<Stmt*>(s));
      if (s == r.last) break;
    }
    uses[i].named.erase(var), uses[i].written.erase(var);  // each region has its own value
  }

  // order[a][b]: the least d such that b's instance of iteration j+d runs
  // after a's of iteration j (through the graph; a region's instances run
  // in order, so every larger d holds too); kFar when none does.
  std::vector<std::vector<int>> order(n, std::vector<int>(n, kFar));
  for (std::size_t r = 0; r < n; ++r) {
    order[r][r] = 0;
    for (const RegionDep& d : sb.regions[r].deps)
      order[static_cast<std::size_t>(d.region)][r] =
          std::min(order[static_cast<std::size_t>(d.region)][r], d.previous ? 1 : 0);
  }
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) order[a][b] = std::min(order[a][b], order[a][k] + order[k][b]);

  // Iteration at a time runs every region of iteration j before any of j+1;
  // lookahead only adds the orders where some b of j+1 runs before some a of
  // j (order[a][b] > 1). A pair that could observe that must not have it.
  bool gains = false;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (order[a][b] <= 1) continue;
      gains = true;
      if (sensitive[a] && sensitive[b]) return;
      for (const VarDecl* v : uses[a].written)
        if (uses[b].named.count(v)) return;
      for (const VarDecl* v : uses[b].written)
        if (uses[a].named.count(v)) return;
      if ((uses[a].memory_written && uses[b].memory_named) || (uses[b].memory_written && uses[a].memory_named)) return;
    }
  if (!gains) return;
  sb.lookahead = true;
  sb.loop = header;
}

}  // namespace tucana::translate
