// The safety analysis of `tucana-cco check` (docs/advise-check-rewrite.md):
// read/write sets per top-level statement of a loop body, through calls
// whose bodies are visible, and the three dependence tests of the paper's
// Sec. III between Comm(i), After(i-1) and Before(i+1).
#include <algorithm>
#include <optional>

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "tucana/cco/Cco.h"
#include "tucana/cco/Internal.h"
#include "tucana/translate/MpiCalls.h"

namespace tucana::cco {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Safe: return "safe";
    case Verdict::Unsafe: return "unsafe";
    case Verdict::Unsupported: return "unsupported";
  }
  return "?";
}

unsigned presumed_line(const clang::SourceManager& sm, clang::SourceLocation loc) {
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  return p.isValid() ? p.getLine() : sm.getExpansionLineNumber(loc);
}

namespace {

using namespace clang;

// Pseudo objects: the standard streams (I/O functions) and the C library's
// random number state.
const Obj kIo{nullptr, 2};
const Obj kRand{nullptr, 3};
// The order of point-to-point messages (their matching): written by every
// point-to-point call, and by a site that is point-to-point or a barrier.
const Obj kMessages{nullptr, 4};

bool point_to_point(llvm::StringRef name) {
  bool known = false;
  translate::MpiCallInfo info = translate::classify_mpi_call(name, &known);
  using R = translate::MpiRole;
  return known && (info.role == R::BlockingRecv || info.role == R::PostRecv || info.role == R::BlockingSend ||
                   info.role == R::PostSend || info.role == R::SendRecv || info.role == R::Start || info.role == R::Wait);
}

bool is_global(const Decl* d) {
  if (!d) return true;
  auto* v = dyn_cast_or_null<VarDecl>(d);
  return v && v->hasGlobalStorage();
}

// ---------------------------------------------------------------- libraries
enum class Lib { Pure, Io, WriteFirst, Free, Rand, ReadAll };

std::optional<Lib> library_function(llvm::StringRef name) {
  static const llvm::StringMap<Lib> table = [] {
    llvm::StringMap<Lib> t;
    for (const char* f : {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2",
                          "log", "log2", "log10", "pow", "sqrt", "cbrt", "fabs", "floor", "ceil", "round", "trunc", "fmod",
                          "fmin", "fmax", "hypot", "ldexp", "creal", "cimag", "cabs", "cexp", "conj"}) {
      t[f] = Lib::Pure;
      t[std::string(f) + "f"] = Lib::Pure;
      t[std::string(f) + "l"] = Lib::Pure;
    }
    for (const char* f : {"abs", "labs", "llabs", "MPI_Wtime", "MPI_Wtick", "omp_get_wtime", "malloc", "calloc",
                          "aligned_alloc", "exit", "abort", "__assert_fail", "__builtin_expect", "toupper", "tolower"})
      t[f] = Lib::Pure;
    for (const char* f : {"printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fflush", "perror", "vprintf",
                          "vfprintf", "fwrite"})
      t[f] = Lib::Io;
    for (const char* f : {"sprintf", "snprintf", "memcpy", "memmove", "memset", "strcpy", "strncpy", "strcat", "strncat",
                          "qsort", "realloc", "__builtin_memcpy", "__builtin_memset", "__builtin___memcpy_chk",
                          "__builtin___memset_chk", "__builtin___memmove_chk", "__builtin_memmove",
                          "gettimeofday", "clock_gettime", "time", "fgets", "fread"})
      t[f] = Lib::WriteFirst;
    for (const char* f : {"strlen", "strcmp", "strncmp", "memcmp", "atoi", "atof", "atol", "strtol", "strtoul",
                          "strtoll", "strtod", "strtof", "strchr", "strrchr", "strstr", "getenv", "__builtin_strlen",
                          "__builtin_memcmp"})
      t[f] = Lib::ReadAll;
    for (const char* f : {"clock", "isnan", "isinf", "isfinite", "__builtin_isnan", "__builtin_isinf", "__builtin_fabs",
                          "__builtin_sqrt", "__builtin_unreachable", "__builtin_trap", "__builtin_abs"})
      t[f] = Lib::Pure;
    t["free"] = Lib::Free;
    for (const char* f : {"rand", "srand", "random", "srandom", "drand48", "srand48"}) t[f] = Lib::Rand;
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

// ---------------------------------------------------------------- objects
std::optional<Obj> location(const Expr* e);

std::optional<Obj> pointee(const Expr* e) {
  e = e->IgnoreParens();
  if (auto* c = dyn_cast<ImplicitCastExpr>(e)) {
    if (c->getCastKind() == CK_ArrayToPointerDecay) return location(c->getSubExpr());
    if (c->getCastKind() == CK_LValueToRValue) {
      if (auto l = location(c->getSubExpr())) return Obj{l->d, 1};
      return std::nullopt;
    }
    return pointee(c->getSubExpr());
  }
  if (auto* c = dyn_cast<ExplicitCastExpr>(e)) return pointee(c->getSubExpr());
  if (auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_AddrOf) return location(u->getSubExpr());
    if (u->isIncrementDecrementOp()) return pointee(u->getSubExpr());
    return std::nullopt;
  }
  if (auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Comma) return pointee(b->getRHS());
    if (b->isAdditiveOp() || b->isAssignmentOp()) {
      if (b->getLHS()->getType()->isPointerType() || b->getLHS()->getType()->isArrayType()) return pointee(b->getLHS());
      if (b->getRHS()->getType()->isPointerType() || b->getRHS()->getType()->isArrayType()) return pointee(b->getRHS());
    }
    return std::nullopt;
  }
  if (auto* c = dyn_cast<ConditionalOperator>(e)) {
    if (auto t = pointee(c->getTrueExpr())) return t;
    return pointee(c->getFalseExpr());
  }
  if (isa<DeclRefExpr>(e) || isa<MemberExpr>(e) || isa<ArraySubscriptExpr>(e)) {
    // An lvalue of array type used as a pointer (C++ may not show the decay).
    if (e->getType()->isArrayType()) return location(e);
    if (auto l = location(e)) return Obj{l->d, 1};
  }
  return std::nullopt;
}

std::optional<Obj> location(const Expr* e) {
  e = e->IgnoreParens();
  if (auto* c = dyn_cast<ImplicitCastExpr>(e)) {
    if (c->getCastKind() == CK_NoOp || c->getCastKind() == CK_LValueBitCast) return location(c->getSubExpr());
    return std::nullopt;
  }
  if (auto* r = dyn_cast<DeclRefExpr>(e)) {
    if (isa<VarDecl>(r->getDecl())) return Obj{r->getDecl(), 0};
    return std::nullopt;
  }
  if (auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
    const Expr* base = a->getBase()->IgnoreParens();
    if (auto* c = dyn_cast<ImplicitCastExpr>(base); c && c->getCastKind() == CK_ArrayToPointerDecay)
      return location(c->getSubExpr());
    return pointee(base);
  }
  if (auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Deref) return pointee(u->getSubExpr());
    return std::nullopt;
  }
  if (auto* m = dyn_cast<MemberExpr>(e)) {
    // A member of the object of a C++ member function: the member itself
    // (one object for every instance of the class).
    if (isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts())) {
      if (isa<FieldDecl>(m->getMemberDecl()) || isa<VarDecl>(m->getMemberDecl())) return Obj{m->getMemberDecl(), 0};
      return std::nullopt;
    }
    if (isa<VarDecl>(m->getMemberDecl())) return Obj{m->getMemberDecl(), 0};  // a static data member
    if (m->isArrow()) return pointee(m->getBase());
    return location(m->getBase());
  }
  return std::nullopt;
}

}  // namespace

std::optional<Obj> pointee_of(const Expr* e) { return pointee(e); }
std::optional<Obj> location_of(const Expr* e) { return location(e); }

std::string obj_name(const Obj& o) {
  if (o == kIo) return "<standard I/O>";
  if (o == kRand) return "<rand() state>";
  if (o == kMessages) return "<point-to-point message order>";
  auto* n = dyn_cast_or_null<NamedDecl>(o.d);
  std::string name = n ? n->getNameAsString() : "?";
  if (o.level == 0) {
    if (auto* v = dyn_cast_or_null<ValueDecl>(o.d); v && v->getType()->isPointerType()) return "pointer " + name;
    return name;
  }
  return name;
}

namespace {

bool allocation(const Expr* e) {
  e = e->IgnoreParenCasts();
  if (isa<CXXNewExpr>(e)) return true;
  auto* c = dyn_cast<CallExpr>(e);
  const FunctionDecl* f = c ? c->getDirectCallee() : nullptr;
  if (!f || !f->getIdentifier()) return false;
  llvm::StringRef n = f->getName();
  return n == "malloc" || n == "calloc" || n == "realloc" || n == "aligned_alloc" || n == "__builtin_alloca" ||
         n == "alloca";
}

// Which variables' pointees may be one object: pointer assignments anywhere
// in the function (p = q, p = &x, p = a + k, T *p = q).
class AliasClasses {
 public:
  // `ctx`: also note the pointers assigned something not nameable (see tainted()).
  void build(const Stmt* body, ASTContext* ctx = nullptr) {
    ctx_ = ctx;
    if (body) visit(body);
  }
  // Whether a pointer of `o`'s class was assigned something the analysis
  // cannot name (a call's result other than an allocation, a struct member...).
  bool tainted(const Obj& o) const {
    for (const Obj& m : members(o))
      if (tainted_.count(m)) return true;
    return false;
  }
  Obj root(const Obj& o) const {
    auto it = classes_.findValue(o);
    return it == classes_.end() ? o : classes_.getLeaderValue(o);
  }
  void unite(const Obj& a, const Obj& b) { classes_.unionSets(a, b); }
  std::vector<Obj> members(const Obj& o) const {
    std::vector<Obj> out;
    auto it = classes_.findValue(o);
    if (it == classes_.end()) return {o};
    // (member_begin() iterates only from a class's leader: from another member it is empty.)
    for (auto m = classes_.findLeader(it); m != classes_.member_end(); ++m) out.push_back(*m);
    return out;
  }

 private:
  void visit(const Stmt* s) {
    if (auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign && b->getType()->isPointerType()) {
      auto l = location(b->getLHS());
      auto r = pointee(b->getRHS());
      if (l && r) classes_.unionSets(Obj{l->d, 1}, *r);
      if (l && !r) taint(Obj{l->d, 1}, b->getRHS());
    }
    if (auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls())
        if (auto* v = dyn_cast<VarDecl>(decl); v && v->getInit() && v->getType()->isPointerType()) {
          if (auto r = pointee(v->getInit())) classes_.unionSets(Obj{v, 1}, *r);
          else taint(Obj{v, 1}, v->getInit());
        }
    }
    for (const Stmt* c : s->children())
      if (c) visit(c);
  }
  void taint(const Obj& o, const Expr* rhs) {
    if (ctx_ && !rhs->isNullPointerConstant(*ctx_, Expr::NPC_ValueDependentIsNotNull) && !allocation(rhs))
      tainted_.insert(o);
  }
  llvm::EquivalenceClasses<Obj> classes_;
  std::set<Obj> tainted_;
  ASTContext* ctx_ = nullptr;
};


// A pointer to `pointee` may point to an object of type `object`.
bool compatible(QualType pointee, QualType object, ASTContext& ctx) {
  pointee = pointee.getCanonicalType().getUnqualifiedType();
  if (pointee->isVoidType() || pointee->isCharType()) return true;
  while (const ArrayType* a = ctx.getAsArrayType(object)) object = a->getElementType();
  object = object.getCanonicalType().getUnqualifiedType();
  while (const ArrayType* a = ctx.getAsArrayType(pointee)) pointee = a->getElementType();
  return pointee == object;
}

// What the pointers of global storage may point to, over the whole
// translation unit: their initializers and every assignment to them, in any
// function (`static double *cur = acc;`, `cur = &x;`, `cur = other_global`).
// A global pointer assigned something the analysis cannot name (a
// parameter, a local pointer, a call's result, a struct member) or declared
// `extern` without a definition here may point to any object whose address
// is taken (`&x`, an array used as a pointer) and whose type fits.
class GlobalAliases : public RecursiveASTVisitor<GlobalAliases> {
 public:
  explicit GlobalAliases(ASTContext& ctx) : ctx_(ctx) {}
  // `wild`: for each global pointer of unknown target, the objects it may
  // point to (kept apart from the classes: they need not alias each other).
  void build(AliasClasses& out, std::map<Obj, std::vector<Obj>>& wild) {
    TraverseDecl(ctx_.getTranslationUnitDecl());
    for (const auto& [g, redecls] : pointers_) {
      for (const VarDecl* r : redecls) out.unite(Obj{g, 1}, Obj{r, 1});
      if (!unknown_.count(g)) {
        bool defined = false;
        for (const VarDecl* r : redecls) defined |= !r->hasExternalStorage();
        if (defined) continue;
      }
      QualType p = g->getType()->getPointeeType();
      std::vector<Obj>& targets = wild[Obj{g, 1}];
      for (const auto& [o, t] : taken_)
        if (compatible(p, t, ctx_) && std::find(targets.begin(), targets.end(), o) == targets.end())
          targets.push_back(o);
    }
    for (const auto& [a, b] : unions_) out.unite(a, b);
  }

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl* d) {
    auto* f = dyn_cast_or_null<FunctionDecl>(d);
    if (!f || !f->hasBody()) return RecursiveASTVisitor::TraverseDecl(d);
    const FunctionDecl* outer = function_;
    function_ = f;
    bool ok = RecursiveASTVisitor::TraverseDecl(d);
    function_ = outer;
    return ok;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (!v->hasGlobalStorage() || !v->getType()->isPointerType()) return true;
    const VarDecl* g = v->getCanonicalDecl();
    pointers_[g].insert(v);
    if (v->getInit()) target(g, v->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->getOpcode() != BO_Assign || !b->getType()->isPointerType()) return true;
    auto l = location(b->getLHS());
    auto* v = l ? dyn_cast_or_null<VarDecl>(l->d) : nullptr;
    if (v && v->hasGlobalStorage() && l->level == 0) target(v->getCanonicalDecl(), b->getRHS());
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr* a) {
    subscripted_.insert(a->getBase()->IgnoreParens());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
    if (c->getCastKind() == CK_ArrayToPointerDecay && !subscripted_.count(c)) taken(c->getSubExpr());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->getOpcode() == UO_AddrOf) taken(u->getSubExpr());
    return true;
  }

 private:
  void taken(const Expr* e) {
    if (auto o = location(e); o && o->level == 0 && isa_and_nonnull<VarDecl>(o->d)) taken_.insert({*o, e->getType()});
  }
  void target(const VarDecl* g, const Expr* rhs) {
    pointers_[g];
    if (rhs->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull) || allocation(rhs)) return;
    auto r = pointee(rhs);
    auto* v = r ? dyn_cast_or_null<VarDecl>(r->d) : nullptr;
    // Another global pointer's objects, or a variable's own storage: known.
    if (v && (r->level == 0 || v->hasGlobalStorage())) {
      unions_.push_back({Obj{g, 1}, r->level == 0 ? *r : Obj{v->getCanonicalDecl(), 1}});
      if (r->level == 1) unions_.push_back({Obj{v->getCanonicalDecl(), 1}, *r});
      return;
    }
    // A local pointer (`key_buff_ptr_global = key_buff_ptr;`): what it may
    // point to in its function, when that is known there (no parameter's
    // objects, nothing unnameable assigned to it).
    auto* fn = function_;
    if (v && r->level == 1 && !isa<ParmVarDecl>(v) && fn && fn->getBody()) {
      AliasClasses local;
      local.build(fn->getBody(), &ctx_);
      bool known = !local.tainted(*r);
      std::vector<Obj> targets;
      for (const Obj& m : local.members(*r)) {
        auto* mv = dyn_cast_or_null<VarDecl>(m.d);
        if (!mv || (m.level == 1 && isa<ParmVarDecl>(mv))) known = false;
        else if (m.level == 0 || mv->hasGlobalStorage()) targets.push_back(m.level == 0 ? m : Obj{mv->getCanonicalDecl(), 1});
      }
      if (known) {
        unions_.push_back({Obj{g, 1}, *r});
        for (const Obj& t : targets) unions_.push_back({Obj{g, 1}, t});
        return;
      }
    }
    if (r) unions_.push_back({Obj{g, 1}, *r});
    unknown_.insert(g);
  }
  const FunctionDecl* function_ = nullptr;
  ASTContext& ctx_;
  std::map<const VarDecl*, std::set<const VarDecl*>> pointers_;  // by canonical declaration
  std::set<const VarDecl*> unknown_;
  std::set<const Expr*> subscripted_;
  std::set<std::pair<Obj, QualType>, bool (*)(const std::pair<Obj, QualType>&, const std::pair<Obj, QualType>&)>
      taken_{[](const std::pair<Obj, QualType>& a, const std::pair<Obj, QualType>& b) {
        if (!(a.first == b.first)) return a.first < b.first;
        return a.second.getAsOpaquePtr() < b.second.getAsOpaquePtr();
      }};
  std::vector<std::pair<Obj, Obj>> unions_;
};

// A function's side effects in its caller's terms: on globals, and on what
// its pointer parameters point to.
constexpr int kGlobal = -1, kMember = -2;
struct SummaryEffect {
  // Pointee of parameter `param`; kGlobal: the global `global`; kMember:
  // `global` is a member of the object of a member function (level 0: the
  // member, 1: what it points to).
  int param = kGlobal;
  Obj global{nullptr, 0};
  bool write = false;
};
struct Summary {
  std::vector<SummaryEffect> effects;
  std::vector<std::string> unknown;
};

}  // namespace

// ---------------------------------------------------------------- the walker
struct Analyzer::Impl {
  ASTContext& ctx;
  PragmaList& pragmas;
  std::map<const Stmt*, const CcoPragma*> ignored;
  std::map<std::string, CcoPragma*> overrides;
  std::map<const FunctionDecl*, Summary> summaries;
  // The functions being summarized, outermost first. A summary is cached
  // only when it is complete: no call in it was cut for depth
  // (`depth_cuts` unchanged), and no recursion was cut at a function below
  // it in `active` (`cut_floor`, the lowest index a cut reached): with
  // f -> g -> f, g's summary lacks f's effects and holds only inside f's.
  std::vector<const FunctionDecl*> active;
  size_t cut_floor = SIZE_MAX;
  unsigned depth_cuts = 0;
  std::map<const FunctionDecl*, AliasClasses> aliases;
  std::optional<AliasClasses> global_aliases;
  std::map<Obj, std::vector<Obj>> wild;  // global pointers of unknown target: what they may point to

  Impl(ASTContext& c, PragmaList& p) : ctx(c), pragmas(p) {}

  const AliasClasses& alias(const FunctionDecl* f) {
    auto it = aliases.find(f);
    if (it != aliases.end()) return it->second;
    if (!global_aliases) {
      global_aliases.emplace();
      GlobalAliases(ctx).build(*global_aliases, wild);
    }
    AliasClasses& a = aliases[f];
    a = *global_aliases;
    a.build(f->getBody());
    return a;
  }

  Summary summarize(const FunctionDecl* f, int depth);
};

namespace {

class Walker {
 public:
  Walker(Analyzer::Impl& an, Effects& out, unsigned line, int depth, bool comm = false)
      : an_(an), out_(out), line_(line), depth_(depth), comm_(comm) {}

  void visit(const Stmt* s) {
    if (!s) return;
    if (an_.ignored.count(s)) return;
    if (auto* c = dyn_cast<ImplicitCastExpr>(s); c && c->getCastKind() == CK_LValueToRValue) {
      if (auto l = location(c->getSubExpr())) read(*l);
      return visit(c->getSubExpr());
    }
    if (auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) {
      if (auto l = location(b->getLHS())) {
        write(*l);
        if (b->isCompoundAssignmentOp()) read(*l);
      }
      visit(b->getLHS());
      return visit(b->getRHS());
    }
    if (auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
      if (auto l = location(u->getSubExpr())) read(*l), write(*l);
      return visit(u->getSubExpr());
    }
    if (auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls())
        if (auto* v = dyn_cast<VarDecl>(decl); v && v->hasInit()) {
          write(Obj{v, 0});
          visit(v->getInit());
        }
      return;
    }
    if (auto* call = dyn_cast<CallExpr>(s)) return visit_call(call);
    if (isa<LambdaExpr>(s)) return;
    for (const Stmt* c : s->children()) visit(c);
  }

 private:
  void read(const Obj& o, bool async = false) { record(async ? out_.async_reads : out_.reads, o); }
  void write(const Obj& o, bool async = false) { record(async ? out_.async_writes : out_.writes, o); }
  void record(std::map<Obj, Access>& m, const Obj& o) {
    if (!m.count(o)) m[o] = Access{o, line_};
  }
  void pointee_access(const Expr* arg, bool r, bool w, bool async = false) {
    if (auto p = pointee(arg)) {
      if (r) read(*p, async);
      if (w) write(*p, async);
    }
  }

  void visit_call(const CallExpr* call) {
    for (const Expr* a : call->arguments()) visit(a);
    const FunctionDecl* f = call->getDirectCallee();
    if (!f) {
      visit(call->getCallee());
      out_.unknown.push_back({"(call through a function pointer)", line_});
      return;
    }
    std::string name = f->getNameAsString();
    auto arg = [&](unsigned i) -> const Expr* { return i < call->getNumArgs() ? call->getArg(i) : nullptr; };
    if (point_to_point(name) || name == "MPI_Barrier") write(kMessages, comm_);
    if (const CommSpec* spec = find_comm(name)) {
      bool in_place = false;
      for (const BufferArg& b : spec->buffers)
        if (const Expr* e = arg(b.buf); e && b.read && !b.written) in_place |= is_in_place(e, an_.ctx);
      for (const BufferArg& b : spec->buffers)
        if (const Expr* e = arg(b.buf)) {
          pointee_access(e, b.read || in_place, b.written, comm_);
          if (comm_) {
            if (auto p = pointee(e)) (b.written ? out_.recv_bufs : out_.send_bufs)[*p] = Access{*p, line_};
          }
        }
      for (int i : spec->read_arrays)
        if (const Expr* e = arg(i)) {
          pointee_access(e, true, false, comm_);
          if (comm_)
            if (auto p = pointee(e)) out_.count_arrays[*p] = Access{*p, line_};
        }
      if (spec->status >= 0)
        if (const Expr* e = arg(spec->status)) pointee_access(e, false, true, comm_);
      if (spec->request >= 0)
        if (const Expr* e = arg(spec->request)) pointee_access(e, true, true, false);
      return;
    }
    if (auto it = an_.overrides.find(name); it != an_.overrides.end()) {
      apply_override(*it->second, f, call);
      return;
    }
    if (standard_library(f)) return std_call(call, f);
    const FunctionDecl* def = nullptr;
    if (auto* m = dyn_cast<CXXMethodDecl>(f); m && m->getParent()->isLambda() && f->hasBody(def) && def) {
      // A lambda's body names the caller's variables (its captures): walk it here.
      if (depth_ >= kMaxDepth) {
        ++an_.depth_cuts;
        out_.unknown.push_back({name + "' (calls nested deeper than " + std::to_string(kMaxDepth) + ")", line_});
        return;
      }
      Walker inner(an_, out_, line_, depth_ + 1, comm_);
      inner.visit(def->getBody());
      return;
    }
    if (f->hasBody(def) && def) {
      if (depth_ >= kMaxDepth) {
        ++an_.depth_cuts;
        out_.unknown.push_back({name + "' (calls nested deeper than " + std::to_string(kMaxDepth) + ")", line_});
        return;
      }
      Summary s = an_.summarize(def, depth_ + 1);
      const Expr* object = object_of(call, f);
      for (const SummaryEffect& e : s.effects) {
        if (e.param == kGlobal) {
          // Inside Comm(i) a callee's accesses last as long as Comm(i) does.
          e.write ? write(e.global, comm_) : read(e.global, comm_);
        } else if (e.param == kMember) {
          // In the caller's terms: the object the member function is called on.
          std::optional<Obj> o = e.global;
          if (object && !isa<CXXThisExpr>(object->IgnoreParenImpCasts())) {
            o = object->getType()->isPointerType() ? pointee(object) : location(object);
            if (o && e.global.level == 1) o = Obj{o->d, 1};
          }
          if (o) e.write ? write(*o, comm_) : read(*o, comm_);
        } else if (const Expr* a = arg(e.param + shift(call, f))) {
          pointee_access(a, !e.write, e.write, comm_);
        }
      }
      for (const std::string& u : s.unknown) out_.unknown.push_back({u, line_});
      return;
    }
    if (auto lib = library_function(name)) {
      switch (*lib) {
        case Lib::Pure: return;
        case Lib::Io:
          read(kIo), write(kIo);
          for (const Expr* a : call->arguments()) pointee_access(a, true, false);
          return;
        case Lib::WriteFirst:
          for (unsigned i = 0; i < call->getNumArgs(); ++i) pointee_access(call->getArg(i), i > 0, i == 0);
          return;
        case Lib::ReadAll:
          for (const Expr* a : call->arguments()) pointee_access(a, true, false);
          return;
        case Lib::Free:
          for (const Expr* a : call->arguments()) pointee_access(a, false, true);
          return;
        case Lib::Rand:
          read(kRand), write(kRand);
          return;
      }
    }
    if (llvm::StringRef(name).startswith("MPI_") || llvm::StringRef(name).startswith("PMPI_")) {
      // Other MPI functions (local ones): what const pointer parameters point
      // to is read, what the others point to is read and written.
      for (unsigned i = 0; i < call->getNumArgs() && i < f->getNumParams(); ++i) {
        QualType t = f->getParamDecl(i)->getType();
        if (!t->isPointerType()) continue;
        pointee_access(call->getArg(i), true, !t->getPointeeType().isConstQualified());
      }
      return;
    }
    out_.unknown.push_back({name, line_});
  }

  // The object a member function is called on (null for other calls).
  static const Expr* object_of(const CallExpr* call, const FunctionDecl* f) {
    if (auto* m = dyn_cast<CXXMemberCallExpr>(call)) return m->getImplicitObjectArgument();
    if (auto* m = dyn_cast<CXXMethodDecl>(f); m && m->isInstance() && isa<CXXOperatorCallExpr>(call) &&
                                              call->getNumArgs() > 0)
      return call->getArg(0);
    return nullptr;
  }
  // A member operator's call has its object as argument 0.
  static unsigned shift(const CallExpr* call, const FunctionDecl* f) {
    auto* m = dyn_cast<CXXMethodDecl>(f);
    return m && m->isInstance() && isa<CXXOperatorCallExpr>(call) ? 1 : 0;
  }
  // A function of the C++ standard library (namespace std or __gnu_cxx,
  // declared in a system header): summarized by its signature, its
  // internals are not followed.
  bool standard_library(const FunctionDecl* f) {
    const SourceManager& sm = an_.ctx.getSourceManager();
    if (!sm.isInSystemHeader(sm.getExpansionLoc(f->getLocation()))) return false;
    for (const DeclContext* dc = f->getDeclContext(); dc; dc = dc->getParent())
      if (auto* ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getParent()->getRedeclContext()->isTranslationUnit() &&
                                                  (ns->getName() == "std" || ns->getName() == "__gnu_cxx"))
        return true;
    return false;
  }
  // A standard library call acts on its object (a const member function
  // reads it, another reads and writes it: push_back, clear, resize, and
  // also operator[], data, begin and end, whose result may be written
  // through) and on its arguments: what a reference or pointer parameter
  // refers to is read, and written unless it is const.
  void std_call(const CallExpr* call, const FunctionDecl* f) {
    if (const Expr* object = object_of(call, f)) {
      auto* m = cast<CXXMethodDecl>(f);
      std::optional<Obj> o;
      if (!isa<CXXThisExpr>(object->IgnoreParenImpCasts()))
        o = object->getType()->isPointerType() ? pointee(object) : location(object);
      if (o) {
        read(*o, comm_);
        if (!m->isConst()) write(*o, comm_);
      } else if (!isa<CXXThisExpr>(object->IgnoreParenImpCasts())) {
        out_.unknown.push_back({"the object of '" + f->getQualifiedNameAsString() + "'", line_});
      }
    }
    unsigned s = shift(call, f);
    for (unsigned i = s; i < call->getNumArgs(); ++i) {
      const Expr* a = call->getArg(i);
      QualType t = i - s < f->getNumParams() ? f->getParamDecl(i - s)->getType() : QualType();
      if (!t.isNull() && t->isReferenceType()) {
        bool w = !t.getNonReferenceType().isConstQualified() && !t->isRValueReferenceType();
        if (auto o = location(a)) {
          read(*o, comm_);
          if (w) write(*o, comm_);
        }
      } else if (a->getType()->isPointerType() || a->getType()->isArrayType()) {
        bool w = t.isNull() || !t->isPointerType() || !t->getPointeeType().isConstQualified();
        pointee_access(a, true, w, comm_);
      } else if (a->getType()->isRecordType()) {
        if (auto o = location(a)) read(*o, comm_);
      }
    }
  }

  void apply_override(const CcoPragma& p, const FunctionDecl* f, const CallExpr* call) {
    auto one = [&](const OverrideItem& item, bool w) {
      int index = item.position - 1;
      if (!item.name.empty()) {
        index = -1;
        for (unsigned i = 0; i < f->getNumParams(); ++i)
          if (f->getParamDecl(i)->getName() == item.name) index = static_cast<int>(i);
        if (index < 0) {
          // A global (checked to exist when the pragma was matched).
          if (const VarDecl* g = find_global(item.name)) {
            Obj o{g, 0};
            w ? write(o) : read(o);
            if (g->getType()->isPointerType()) w ? write(Obj{g, 1}) : read(Obj{g, 1});
          }
          return;
        }
      }
      if (index >= 0 && static_cast<unsigned>(index) < call->getNumArgs()) pointee_access(call->getArg(index), !w, w);
    };
    for (const OverrideItem& i : p.reads) one(i, false);
    for (const OverrideItem& i : p.writes) one(i, true);
  }

  const VarDecl* find_global(const std::string& name) {
    for (const Decl* d : an_.ctx.getTranslationUnitDecl()->decls())
      if (auto* v = dyn_cast<VarDecl>(d); v && v->getName() == name) return v;
    return nullptr;
  }

  static constexpr int kMaxDepth = 8;
  Analyzer::Impl& an_;
  Effects& out_;
  unsigned line_;
  int depth_;
  bool comm_;
};

}  // namespace

Summary Analyzer::Impl::summarize(const FunctionDecl* f, int depth) {
  if (auto it = summaries.find(f); it != summaries.end()) return it->second;
  if (auto at = std::find(active.begin(), active.end(), f); at != active.end()) {
    // Recursion: the effects of the outer activation of f cover this call.
    cut_floor = std::min(cut_floor, static_cast<size_t>(at - active.begin()));
    return {};
  }
  const size_t level = active.size();
  const size_t outer_floor = cut_floor;
  const unsigned outer_depth_cuts = depth_cuts;
  cut_floor = SIZE_MAX;
  active.push_back(f);
  Effects e;
  Walker w(*this, e, 0, depth);
  w.visit(f->getBody());
  const AliasClasses& a = alias(f);
  Summary s;
  auto convert = [&](const std::map<Obj, Access>& m, bool write) {
    for (const auto& [o, acc] : m) {
      for (const Obj& member : a.members(o)) {
        if (isa_and_nonnull<FieldDecl>(member.d)) {
          s.effects.push_back(SummaryEffect{kMember, member, write});
        } else if (is_global(member.d)) {
          s.effects.push_back(SummaryEffect{kGlobal, member, write});
        } else if (auto* p = dyn_cast_or_null<ParmVarDecl>(member.d); p && member.level == 1) {
          s.effects.push_back(SummaryEffect{static_cast<int>(p->getFunctionScopeIndex()), Obj{nullptr, 0}, write});
        }
      }
    }
  };
  convert(e.reads, false);
  convert(e.writes, true);
  for (auto& [name, line] : e.unknown)
    if (std::find(s.unknown.begin(), s.unknown.end(), name) == s.unknown.end()) s.unknown.push_back(name);
  active.pop_back();
  if (cut_floor >= level && depth_cuts == outer_depth_cuts) summaries[f] = s;
  cut_floor = std::min(outer_floor, cut_floor);
  return s;
}

Analyzer::Analyzer(ASTContext& ctx, PragmaList& pragmas) : impl_(std::make_unique<Impl>(ctx, pragmas)) {}
Analyzer::~Analyzer() = default;

void Analyzer::set_ignored(const Stmt* s, const CcoPragma* p) { impl_->ignored[s] = p; }
void Analyzer::set_override(const std::string& name, CcoPragma* p) { impl_->overrides[name] = p; }

Effects Analyzer::effects(const Stmt* s, unsigned line, bool comm) {
  Effects e;
  Walker w(*impl_, e, line, 0, comm);
  w.visit(s);
  return e;
}

Obj Analyzer::root(const FunctionDecl* f, const Obj& o) { return impl_->alias(f).root(o); }
std::vector<Obj> Analyzer::roots(const FunctionDecl* f, const Obj& o) {
  const AliasClasses& a = impl_->alias(f);
  std::vector<Obj> out{a.root(o)};
  for (const Obj& m : a.members(o))
    if (auto it = impl_->wild.find(m); it != impl_->wild.end())
      for (const Obj& t : it->second)
        if (std::find(out.begin(), out.end(), a.root(t)) == out.end()) out.push_back(a.root(t));
  return out;
}
std::vector<Obj> Analyzer::members(const FunctionDecl* f, const Obj& o) { return impl_->alias(f).members(o); }

bool is_in_place(const Expr* e, ASTContext& ctx) {
  SourceLocation loc = e->getBeginLoc();
  const SourceManager& sm = ctx.getSourceManager();
  while (loc.isMacroID()) {
    if (clang::Lexer::getImmediateMacroName(loc, sm, ctx.getLangOpts()) == "MPI_IN_PLACE") return true;
    loc = sm.getImmediateMacroCallerLoc(loc);
  }
  return false;
}

bool is_message_order(const Obj& o) { return o == kMessages; }

const CallExpr* top_level_call(const Stmt* s) {
  const Expr* e = dyn_cast_or_null<Expr>(s);
  if (!e) return nullptr;
  e = e->IgnoreParenImpCasts();
  if (auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Assign) e = b->getRHS()->IgnoreParenImpCasts();
  if (auto* c = dyn_cast<CStyleCastExpr>(e)) e = c->getSubExpr()->IgnoreParenImpCasts();
  return dyn_cast<CallExpr>(e);
}

}  // namespace tucana::cco
