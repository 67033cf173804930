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
                          "__builtin___memset_chk", "__builtin___memmove_chk"})
      t[f] = Lib::WriteFirst;
    for (const char* f : {"strlen", "strcmp", "strncmp", "memcmp", "atoi", "atof", "strtol", "strtod"}) t[f] = Lib::ReadAll;
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
    if (auto* v = dyn_cast_or_null<VarDecl>(o.d); v && v->getType()->isPointerType()) return "pointer " + name;
    return name;
  }
  return name;
}

namespace {

// Which variables' pointees may be one object: pointer assignments anywhere
// in the function (p = q, p = &x, p = a + k, T *p = q).
class AliasClasses {
 public:
  void build(const Stmt* body) {
    if (body) visit(body);
  }
  Obj root(const Obj& o) const {
    auto it = classes_.findValue(o);
    return it == classes_.end() ? o : classes_.getLeaderValue(o);
  }
  std::vector<Obj> members(const Obj& o) const {
    std::vector<Obj> out;
    auto it = classes_.findValue(o);
    if (it == classes_.end()) return {o};
    for (auto m = classes_.member_begin(it); m != classes_.member_end(); ++m) out.push_back(*m);
    return out;
  }

 private:
  void visit(const Stmt* s) {
    if (auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign && b->getType()->isPointerType()) {
      auto l = location(b->getLHS());
      auto r = pointee(b->getRHS());
      if (l && r) classes_.unionSets(Obj{l->d, 1}, *r);
    }
    if (auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls())
        if (auto* v = dyn_cast<VarDecl>(decl); v && v->getInit() && v->getType()->isPointerType())
          if (auto r = pointee(v->getInit())) classes_.unionSets(Obj{v, 1}, *r);
    }
    for (const Stmt* c : s->children())
      if (c) visit(c);
  }
  llvm::EquivalenceClasses<Obj> classes_;
};

// A function's side effects in its caller's terms: on globals, and on what
// its pointer parameters point to.
struct SummaryEffect {
  int param = -1;  // pointee of parameter `param`, or the global `global`
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

  Impl(ASTContext& c, PragmaList& p) : ctx(c), pragmas(p) {}

  const AliasClasses& alias(const FunctionDecl* f) {
    auto it = aliases.find(f);
    if (it != aliases.end()) return it->second;
    AliasClasses& a = aliases[f];
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
      for (const SummaryEffect& e : s.effects) {
        if (e.param < 0) {
          // Inside Comm(i) a callee's accesses last as long as Comm(i) does.
          e.write ? write(e.global, comm_) : read(e.global, comm_);
        } else if (const Expr* a = arg(e.param)) {
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
        if (is_global(member.d)) {
          s.effects.push_back(SummaryEffect{-1, member, write});
        } else if (auto* p = dyn_cast_or_null<ParmVarDecl>(member.d); p && member.level == 1) {
          s.effects.push_back(SummaryEffect{static_cast<int>(p->getFunctionScopeIndex()), Obj{nullptr, 0}, write});
        }
      }
    }
  };
  convert(e.reads, false);
  convert(e.writes, true);
  for (auto& [name, line] : e.unknown) s.unknown.push_back(name);
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
