#include "tucana/translate/SuperblockAnalysis.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/LeavingFlow.h"
#include "tucana/translate/MemoryEffects.h"
#include "tucana/translate/MpiCalls.h"
#include "tucana/translate/StatementText.h"
#include "tucana/translate/SuperblockLookahead.h"

namespace tucana::translate {

namespace {

using namespace clang;

// What `step` answers first for the ancestors of s, nearest first (each
// node's first parent): a statement, or nullptr to stop with none; nullopt
// goes on up. nullptr at the top of the tree.
template <class Step>
const Stmt* find_ancestor(ASTContext& ctx, const Stmt* s, Step step) {
  DynTypedNode node = DynTypedNode::create(*s);
  for (;;) {
    auto parents = ctx.getParents(node);
    if (parents.empty()) return nullptr;
    node = parents[0];
    if (std::optional<const Stmt*> found = step(node)) return *found;
  }
}

// Control flow that would leave a region (LeavingFlow).
class ControlFlowVisitor : public LeavingFlow<ControlFlowVisitor> {
 public:
  ControlFlowVisitor(DiagnosticsEngine& diags, SourceManager& sm, unsigned begin, unsigned end)
      : LeavingFlow(sm, begin, end), diags_(diags) {}
  void leaves(SourceLocation at, const char* keyword) { report(diags_, at, Diag::ControlFlowOut) << keyword; }

 private:
  DiagnosticsEngine& diags_;
};

// Collects the variables an expression names.
class VarRefs : public RecursiveASTVisitor<VarRefs> {
 public:
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = dyn_cast<VarDecl>(e->getDecl())) vars.insert(v);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->getOpcode() == UO_AddrOf) address_taken = true;
    return true;
  }
  std::set<const VarDecl*> vars;
  bool address_taken = false;
};

// Finds the uses of some variables in a range of a statement, outside one
// call.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
 public:
  UseFinder(SourceManager& sm, const std::set<const VarDecl*>& vars, unsigned from, unsigned to, const Expr* except)
      : sm_(sm), vars_(vars), from_(from), to_(to), except_(except) {}
  bool TraverseStmt(Stmt* s) {
    if (s == except_) return true;
    return RecursiveASTVisitor::TraverseStmt(s);
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    unsigned at = sm_.getFileOffset(sm_.getExpansionLoc(e->getBeginLoc()));
    if (at >= from_ && at < to_ && vars_.count(dyn_cast<VarDecl>(e->getDecl()))) found = true;
    return true;
  }
  bool found = false;

 private:
  SourceManager& sm_;
  const std::set<const VarDecl*>& vars_;
  unsigned from_, to_;
  const Expr* except_;
};

// What may reach a posted call's buffer after the call, in [from, to) of a
// region: a name of the buffer's variables; memory through a pointer or a
// reference (which may alias the buffer); when the buffer itself is reached
// through a pointer, also static storage and the locals whose address the
// function takes; a call that may touch memory (MemoryEffects). MPI calls
// are looked at by their arguments only (two posts into one buffer are
// erroneous MPI anyway). Addresses computed without an access (&u[k],
// &p->x) are not accesses.
class LaterAccessFinder : public RecursiveASTVisitor<LaterAccessFinder> {
 public:
  struct Buffer {
    std::set<const VarDecl*> vars;
    bool through_pointer = false;             // reached through a pointer or reference
    std::set<const VarDecl*> address_taken;   // locals of the function whose address it takes
  };
  LaterAccessFinder(SourceManager& sm, MemoryEffects& effects, const Buffer& buffer, unsigned from, unsigned to,
                    const Expr* except)
      : sm_(sm), effects_(effects), buffer_(buffer), from_(from), to_(to), except_(except) {}

  bool TraverseStmt(Stmt* s) {
    if (!s || s == except_ || found) return true;
    return RecursiveASTVisitor::TraverseStmt(s);
  }
  // &E: the address of E's storage; only the indices and the pointers E
  // goes through are read.
  bool TraverseUnaryOperator(UnaryOperator* u) {
    if (u->getOpcode() != UO_AddrOf) return RecursiveASTVisitor::TraverseUnaryOperator(u);
    const Expr* e = u->getSubExpr();
    for (;;) {
      e = e->IgnoreParens();
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {
        TraverseStmt(const_cast<Expr*>(sub->getIdx()));
        e = sub->getBase()->IgnoreParenImpCasts();
      } else if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) {
        e = m->getBase();
      } else if (const auto* d = dyn_cast<UnaryOperator>(e); d && d->getOpcode() == UO_Deref) {
        e = d->getSubExpr();
        break;
      } else {
        break;
      }
    }
    if (const auto* m = dyn_cast<MemberExpr>(e); m && m->isArrow()) e = m->getBase();
    // The address of a named object is no access to it (a later use of
    // the pointer is); the buffer's own names still count.
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      if (buffer_.vars.count(dyn_cast<VarDecl>(ref->getDecl())) && in_range(ref)) found = true;
      return true;
    }
    return TraverseStmt(const_cast<Expr*>(e));
  }

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const auto* v = dyn_cast<VarDecl>(e->getDecl());
    if (!v || !in_range(e)) return true;
    if (buffer_.vars.count(v) || v->getType()->isReferenceType()) found = true;
    if (buffer_.through_pointer && (is_writable_static(v) || buffer_.address_taken.count(v))) found = true;
    return true;
  }
  bool VisitStmt(Stmt* s) {
    if (accesses_through_pointer(s) && in_range(s)) found = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    if (in_range(e) && !e->getConstructor()->isTrivial() && effects_.touches_memory(e->getConstructor())) found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr* c) {
    if (!in_range(c)) return true;
    const FunctionDecl* fn = c->getDirectCallee();
    if (!fn) return found = true, true;
    if (fn->getIdentifier() && fn->getName().startswith("MPI_")) return true;  // its arguments are visited
    if (is_value_function(fn)) return true;
    if (effects_.touches_memory(fn)) found = true;
    return true;
  }
  bool found = false;

 private:
  bool in_range(const Stmt* s) const {
    unsigned at = sm_.getFileOffset(sm_.getExpansionLoc(s->getBeginLoc()));
    return at >= from_ && at < to_;
  }
  SourceManager& sm_;
  MemoryEffects& effects_;
  const Buffer& buffer_;
  unsigned from_, to_;
  const Expr* except_;
};

// The statements of a superblock's body in order, a Bamboo olap block of
// the loop body opened in place.
std::vector<const Stmt*> body_statements(const Superblock& sb) {
  std::vector<const Stmt*> all;
  for (const Stmt* child : sb.body->body()) {
    if (child == sb.olap_block)
      for (const Stmt* inner : sb.olap_block->body()) all.push_back(inner);
    else
      all.push_back(child);
  }
  return all;
}

// The statements of one region (a Bamboo compute part has several).
std::vector<const Stmt*> region_statements(const Superblock& sb, const Region& r) {
  std::vector<const Stmt*> parts;
  bool inside = false;
  for (const Stmt* s : body_statements(sb)) {
    if (s == r.first) inside = true;
    if (inside) parts.push_back(s);
    if (s == r.last) break;
  }
  return parts;
}

// The role of a region for the MPI checks.
RegionRole role_of(const Annotation* a, AnnotationKind kind, llvm::StringRef name) {
  switch (kind) {
    case AnnotationKind::Receive: return RegionRole::Receive;
    case AnnotationKind::Send: return RegionRole::Send;
    case AnnotationKind::Compute: return RegionRole::Compute;
    default: break;
  }
  if (a && a->has_role) return a->role;
  // Without role(...), a named region's role comes from its name
  // (receive_east and recv_east receive, send_east sends); docs/annotations.md.
  if (name.startswith("receive") || name.startswith("recv")) return RegionRole::Receive;
  if (name.startswith("send")) return RegionRole::Send;
  return RegionRole::Any;
}

class Analyzer {
 public:
  Analyzer(ASTContext& ctx, const AnnotationList& list)
      : ctx_(ctx), sm_(ctx.getSourceManager()), diags_(ctx.getDiagnostics()), annotations_(list.all()) {}

  TranslationPlan run();

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  unsigned end_offset(const Stmt* s) const { return translate::end_offset(sm_, ctx_.getLangOpts(), s); }
  unsigned line(SourceLocation loc) const { return sm_.getExpansionLineNumber(loc); }
  const Annotation* region_annotation_of(const Stmt* s) const;
  void find_superblocks(std::vector<Superblock>& out);
  bool build(Superblock& sb);
  bool build_regions(Superblock& sb);
  bool build_bamboo_regions(Superblock& sb);
  bool build_graph(Superblock& sb);
  void check_region(Superblock& sb, const Region& r, std::vector<Reinterpretation>& out);
  void check_calls(const Stmt* stmt, RegionRole role, const std::string& name, bool bamboo, const Stmt* region,
                   std::vector<Reinterpretation>* out);
  bool outlives_region(const Expr* arg, unsigned begin, unsigned end, const CallExpr* call, const Stmt* region);
  void check_cross_part_declarations(const Superblock& sb);
  void consume_regions_of(const Stmt* body);
  void consume_annotations_in(const Stmt* s);
  bool has_cycle(const Superblock& sb);
  const Stmt* enclosing_loop(const Stmt* s) const;
  const Stmt* enclosing_function_body(const Stmt* s) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  DiagnosticsEngine& diags_;
  const std::vector<Annotation>& annotations_;
  // (statement, annotation) pairs in the annotations' source order.
  std::vector<std::pair<const Stmt*, const Annotation*>> attached_;
  std::multimap<const Stmt*, const Annotation*> by_stmt_;
  std::set<const Annotation*> used_;
  std::set<const Stmt*> conflicted_;  // statements with two region pragmas (reported)
  TranslationPlan plan_;
  std::vector<std::pair<unsigned, unsigned>> candidates_;  // every superblock found, built or not
  std::vector<const Stmt*> candidate_stmts_;
  MemoryEffects effects_;
};

const Annotation* Analyzer::region_annotation_of(const Stmt* s) const {
  auto range = by_stmt_.equal_range(s);
  for (auto it = range.first; it != range.second; ++it)
    if (it->second->is_region()) return it->second;
  return nullptr;
}

const Stmt* Analyzer::enclosing_loop(const Stmt* s) const {
  return find_ancestor(ctx_, s, [](const DynTypedNode& node) -> std::optional<const Stmt*> {
    if (node.get<Decl>()) return nullptr;  // the function (or lambda) ends the search
    if (const auto* st = node.get<Stmt>(); st && is_loop(st)) return st;
    return std::nullopt;
  });
}

TranslationPlan Analyzer::run() {
  StatementIndex index(ctx_);
  std::set<FileID> reported_files;
  for (const Annotation& a : annotations_) {
    if (a.kind == AnnotationKind::Shared) continue;  // privatization's (Privatization.h)
    if (a.is_task()) continue;                       // TaskTranslation.h's
    if (!sm_.isInMainFile(a.hash_loc)) {
      // A header's annotations are not translated (only the file given is
      // rewritten): say so instead of ignoring them.
      // Once per file: its other annotations would only repeat it.
      FileID file = sm_.getFileID(sm_.getExpansionLoc(a.hash_loc));
      if (!a.broken && !sm_.isInSystemHeader(a.hash_loc) && reported_files.insert(file).second)
        report(diags_, a.hash_loc, Diag::AnnotationInIncludedFile) << a.spelling << a.keyword();
      continue;
    }
    const Stmt* s = index.following(offset(a.end_loc));
    if (!s) {
      if (!a.broken) report(diags_, a.hash_loc, Diag::PragmaNotBeforeStatement) << a.spelling << a.keyword();
      continue;
    }
    attached_.push_back({s, &a});
    by_stmt_.emplace(s, &a);
  }
  // Two region pragmas on one statement.
  for (std::size_t i = 1; i < attached_.size(); ++i) {
    auto& [stmt, a] = attached_[i];
    auto& [prev_stmt, prev] = attached_[i - 1];
    if (stmt == prev_stmt && a->is_region() && prev->is_region() && !a->broken && !prev->broken) {
      report(diags_, a->hash_loc, Diag::TwoAnnotationsOneStatement) << prev->name << a->name;
      conflicted_.insert(stmt);
    }
  }

  std::vector<Superblock> found;
  find_superblocks(found);
  for (const Superblock& sb : found) {
    candidates_.push_back({offset(sb.begin), end_offset(sb.stmt)});
    candidate_stmts_.push_back(sb.stmt);
    if (sb.olap_block) candidate_stmts_.push_back(sb.olap_block);
  }
  std::sort(found.begin(), found.end(),
            [&](const Superblock& x, const Superblock& y) { return offset(x.begin) < offset(y.begin); });
  for (Superblock& sb : found) {
    // A superblock lexically inside another one is not supported.
    const Superblock* outer = nullptr;
    for (const Superblock& s : plan_.superblocks)
      if (offset(s.stmt->getBeginLoc()) <= offset(sb.stmt->getBeginLoc()) && end_offset(sb.stmt) <= end_offset(s.stmt))
        outer = &s;
    if (outer) {
      report(diags_, sb.pragma ? sb.pragma->hash_loc : sb.begin, Diag::NestedSuperblock) << line(outer->begin);
      consume_regions_of(sb.body);
      continue;
    }
    sb.index = static_cast<int>(plan_.superblocks.size());
    if (build(sb)) plan_.superblocks.push_back(std::move(sb));
  }

  // Bamboo priority(n): the priority of the olap region it stands in or
  // right before.
  for (auto& [stmt, a] : attached_) {
    if (a->kind != AnnotationKind::Priority || a->broken) continue;
    used_.insert(a);
    Superblock* target = nullptr;
    unsigned at = offset(a->hash_loc);
    for (Superblock& sb : plan_.superblocks) {
      bool inside = at >= offset(sb.begin) && at < end_offset(sb.stmt);
      bool before = unwrap_attributes(stmt) == unwrap_attributes(sb.stmt) || stmt == sb.olap_block;
      if (inside || before) target = &sb;
    }
    bool failed = false;  // its superblock had errors, reported already
    for (const auto& [begin, end] : candidates_) failed = failed || (at >= begin && at < end);
    for (const Stmt* c : candidate_stmts_) failed = failed || unwrap_attributes(c) == unwrap_attributes(stmt);
    if (!target) {
      if (!failed) report(diags_, a->hash_loc, Diag::PriorityOutsideOlap);
      continue;
    }
    target->priority = a->priority;
    plan_.erased.push_back(a);
  }

  // Receive, send and compute blocks outside any superblock: blocks in
  // called functions. Named regions need a superblock.
  for (auto& [stmt, a] : attached_) {
    if (!a->is_region() || used_.count(a)) continue;
    used_.insert(a);
    if (a->broken) continue;
    if (a->is_three_region_form()) {
      plan_.callee_blocks.push_back({a, stmt});
      check_calls(stmt, role_of(a, a->kind, a->name), a->name, a->is_bamboo(), stmt, nullptr);
      continue;
    }
    if (const Stmt* loop = enclosing_loop(stmt))
      report(diags_, a->hash_loc, Diag::RegionOutsideSuperblock)
          << a->name << (" put '#pragma tucana superblock' before the loop at line " + std::to_string(line(loop->getBeginLoc())));
    else
      report(diags_, a->hash_loc, Diag::RegionOutsideSuperblock)
          << a->name << " a named region is a part of a superblock's graph; put the superblock pragma before the loop or { } block that holds its regions";
  }
  return std::move(plan_);
}

// The superblocks: statements with a superblock (olap) pragma, and plain
// loops whose body holds MATE region pragmas.
void Analyzer::find_superblocks(std::vector<Superblock>& out) {
  std::set<const Stmt*> taken;
  for (auto& [stmt, a] : attached_) {
    bool broken_on_loop = a->broken && is_loop(unwrap_attributes(stmt));  // e.g. a misspelt superblock keyword
    if (a->kind != AnnotationKind::Superblock && !broken_on_loop) continue;
    used_.insert(a);
    const Stmt* s = unwrap_attributes(stmt);
    if (a->broken) {  // reported: its regions are not errors of their own
      consume_regions_of(loop_body(s));
      continue;
    }
    Superblock sb;
    sb.pragma = a;
    sb.stmt = stmt;
    sb.begin = a->hash_loc;
    sb.priority = a->priority;
    if (a->is_bamboo() && isa<CompoundStmt>(s)) {
      // olap on a block: inside a loop body, the loop is the superblock;
      // elsewhere the block runs once.
      const Stmt* loop = nullptr;
      for (const auto& parent : ctx_.getParents(*stmt))
        if (const auto* body = parent.get<CompoundStmt>())
          for (const auto& grand : ctx_.getParents(*body))
            if (const Stmt* g = grand.get<Stmt>(); g && is_loop(unwrap_attributes(g)) && loop_body(unwrap_attributes(g)) == body)
              loop = g;
      if (loop) {
        sb.stmt = loop;
        sb.begin = sm_.getExpansionLoc(loop->getBeginLoc());
        sb.olap_block = cast<CompoundStmt>(s);
        plan_.erased.push_back(a);
      }
    }
    const Stmt* shape_stmt = unwrap_attributes(sb.stmt);
    if (isa<ForStmt>(shape_stmt)) sb.shape = SuperblockShape::For;
    else if (isa<WhileStmt>(shape_stmt)) sb.shape = SuperblockShape::While;
    else if (isa<DoStmt>(shape_stmt)) sb.shape = SuperblockShape::Do;
    else if (isa<CXXForRangeStmt>(shape_stmt)) sb.shape = SuperblockShape::RangeFor;
    else if (isa<CompoundStmt>(shape_stmt)) sb.shape = SuperblockShape::Block;
    else {
      report(diags_, a->keyword_loc, Diag::SuperblockNotOnLoop) << a->spelling << a->keyword();
      consume_annotations_in(shape_stmt);
      continue;
    }
    const Stmt* body = sb.shape == SuperblockShape::Block ? shape_stmt : loop_body(shape_stmt);
    sb.body = dyn_cast<CompoundStmt>(body);
    if (!sb.body) {
      report(diags_, body->getBeginLoc(), Diag::BodyNotCompound);
      continue;
    }
    taken.insert(unwrap_attributes(sb.stmt));
    out.push_back(std::move(sb));
  }
  for (auto& [stmt, a] : attached_) {
    if (a->spelling != "mate" || !a->is_region()) continue;
    // stmt is a child of a { } block; is that block the body of a plain loop?
    for (const auto& parent : ctx_.getParents(*stmt)) {
      const auto* body = parent.get<CompoundStmt>();
      if (!body) continue;
      for (const auto& grand : ctx_.getParents(*body)) {
        const Stmt* loop = grand.get<Stmt>();
        if (!loop || !is_loop(loop) || loop_body(loop) != body || taken.count(loop)) continue;
        taken.insert(loop);
        Superblock sb;
        sb.pragma = nullptr;
        sb.stmt = loop;
        for (const auto& outer : ctx_.getParents(*loop))  // `#pragma GCC unroll` wraps the loop
          if (const auto* attr = outer.get<AttributedStmt>()) sb.stmt = attr;
        sb.begin = sm_.getExpansionLoc(sb.stmt->getBeginLoc());
        sb.shape = isa<ForStmt>(loop)      ? SuperblockShape::For
                   : isa<WhileStmt>(loop)  ? SuperblockShape::While
                   : isa<DoStmt>(loop)     ? SuperblockShape::Do
                                           : SuperblockShape::RangeFor;
        sb.body = body;
        out.push_back(std::move(sb));
      }
    }
  }
}

bool Analyzer::build(Superblock& sb) {
  unsigned errors_before = diags_.getNumErrors();
  bool ok = sb.pragma && sb.pragma->is_bamboo() ? build_bamboo_regions(sb) : build_regions(sb);
  ok = ok && build_graph(sb);
  // The regions' own checks run in any case: every error in one run.
  std::vector<Reinterpretation> reinterpretations;
  for (const Region& r : sb.regions) check_region(sb, r, reinterpretations);
  if (ok) check_cross_part_declarations(sb);
  if (!ok || diags_.getNumErrors() != errors_before) return false;
  if (const Stmt* function_body = enclosing_function_body(sb.stmt))
    plan_lookahead(ctx_, sb, function_body, address_taken_locals(function_body));
  plan_.reinterpretations.insert(plan_.reinterpretations.end(), reinterpretations.begin(), reinterpretations.end());
  return true;
}

void Analyzer::consume_annotations_in(const Stmt* s) {
  unsigned begin = offset(s->getBeginLoc()), end = end_offset(s);
  for (auto& [stmt, a] : attached_) {
    unsigned at = offset(a->hash_loc);
    if (at >= begin && at < end) used_.insert(a);
  }
}

void Analyzer::consume_regions_of(const Stmt* body) {
  const auto* block = dyn_cast_or_null<CompoundStmt>(body);
  if (!block) return;
  for (const Stmt* child : block->body()) {
    auto range = by_stmt_.equal_range(child);
    for (auto it = range.first; it != range.second; ++it) used_.insert(it->second);
  }
}

// Tucana, Toucan and MATE: every statement of the body is one region.
bool Analyzer::build_regions(Superblock& sb) {
  bool ok = true, broken = false;
  for (const Stmt* child : sb.body->body()) {
    const Annotation* a = region_annotation_of(child);
    if (!a) {
      if (isa<NullStmt>(child)) continue;  // a stray ';'
      report(diags_, child->getBeginLoc(), Diag::StatementOutsideRegion);
      ok = false;
      continue;
    }
    auto range = by_stmt_.equal_range(child);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second->is_region()) used_.insert(it->second);
    if (a->broken) {
      broken = true;
      continue;
    }
    if (conflicted_.count(child)) {  // already reported
      ok = false;
      continue;
    }
    if (const auto* decl = dyn_cast<DeclStmt>(child)) {
      std::string name = "it";
      if (const auto* vd = dyn_cast<VarDecl>(*decl->decl_begin())) name = vd->getNameAsString();
      report(diags_, child->getBeginLoc(), Diag::RegionIsDeclaration) << name;
      ok = false;
      continue;
    }
    Region r{a->name, a->kind, role_of(a, a->kind, a->name), a, child, child, {}, a->priority};
    sb.regions.push_back(r);
  }
  if (broken) return false;  // its error is reported; the graph would only add noise
  if (sb.regions.empty() && ok) {
    report(diags_, sb.begin, Diag::EmptySuperblock);
    return false;
  }
  return ok;
}

// Bamboo: receive and send blocks, and the statements between them as
// compute parts, in source order; an olap block inside the loop body is
// opened in place.
bool Analyzer::build_bamboo_regions(Superblock& sb) {
  std::vector<const Stmt*> stmts = body_statements(sb);
  bool ok = true;
  int receives = 0, sends = 0, computes = 0;
  for (const Stmt* s : stmts) {
    const Annotation* a = region_annotation_of(s);
    if (a) {
      used_.insert(a);
      if (a->broken) {
        ok = false;
        continue;
      }
      if (!a->is_bamboo() || a->kind == AnnotationKind::Compute || a->kind == AnnotationKind::Region) {
        report(diags_, a->hash_loc, Diag::MixedSpellings) << a->spelling;
        ok = false;
        continue;
      }
      Region r{a->kind == AnnotationKind::Receive ? "receive" : "send", a->kind,
               a->kind == AnnotationKind::Receive ? RegionRole::Receive : RegionRole::Send, a, s, s, {}, ""};
      ++(a->kind == AnnotationKind::Receive ? receives : sends);
      sb.regions.push_back(r);
      continue;
    }
    if (isa<NullStmt>(s)) continue;
    if (!sb.regions.empty() && !sb.regions.back().annotation) {  // extends the compute part
      sb.regions.back().last = s;
      continue;
    }
    ++computes;
    sb.regions.push_back(Region{"compute", AnnotationKind::Compute, RegionRole::Compute, nullptr, s, s, {}, ""});
  }
  if (!ok) return false;
  if (receives + sends == 0) {
    report(diags_, sb.begin, Diag::OlapWithoutBlocks);
    return false;
  }
  // Names: receive, send, compute, or receive1, receive2, ... when several.
  int nth[3] = {0, 0, 0};
  for (Region& r : sb.regions) {
    int k = r.kind == AnnotationKind::Receive ? 0 : r.kind == AnnotationKind::Send ? 1 : 2;
    int count = k == 0 ? receives : k == 1 ? sends : computes;
    if (count > 1) r.name += std::to_string(++nth[k]);
  }
  return true;
}

bool Analyzer::build_graph(Superblock& sb) {
  bool bamboo = sb.pragma && sb.pragma->is_bamboo();
  bool three = false, named = false;
  for (const Region& r : sb.regions) (r.kind == AnnotationKind::Region ? named : three) = true;
  if (three && named) {
    report(diags_, sb.begin, Diag::MixedForms);
    return false;
  }
  sb.three_region_form = three && !bamboo;
  if (bamboo) {
    // Bamboo's partial order: receive blocks in order, send blocks in
    // order, each independent of the other kind; a compute part after
    // every part before it (so after the messages it may read arrived and
    // the buffers it may overwrite were sent); a receive or send block
    // after its own previous iteration and a compute part after the last
    // send block of the previous iteration (buffers are reused).
    int last[3] = {-1, -1, -1};
    int last_send = -1;
    for (const Region& r : sb.regions)
      if (r.kind == AnnotationKind::Send) last_send = static_cast<int>(&r - sb.regions.data());
    for (std::size_t i = 0; i < sb.regions.size(); ++i) {
      Region& r = sb.regions[i];
      int k = r.kind == AnnotationKind::Receive ? 0 : r.kind == AnnotationKind::Send ? 1 : 2;
      auto dep = [&](int region, bool previous) {
        if (region < 0) return;
        r.deps.push_back({region, previous, {}});
      };
      if (k == 0) dep(last[0], false), dep(last[2], false), dep(static_cast<int>(i), true);
      if (k == 1) dep(last[1], false), dep(last[2], false), dep(static_cast<int>(i), true);
      if (k == 2) dep(last[0], false), dep(last[1], false), dep(last[2], false), dep(last_send, true);
      last[k] = static_cast<int>(i);
    }
    return true;
  }
  // Names are unique.
  std::map<std::string, int> index;
  bool ok = true;
  for (std::size_t i = 0; i < sb.regions.size(); ++i) {
    const Region& r = sb.regions[i];
    auto [it, fresh] = index.emplace(r.name, static_cast<int>(i));
    if (!fresh) {
      report(diags_, r.annotation->keyword_loc, Diag::DuplicateRegion) << r.name;
      report(diags_, sb.regions[static_cast<std::size_t>(it->second)].annotation->keyword_loc, Diag::PreviousRegion)
          << r.name;
      ok = false;
    }
  }
  if (!ok) return false;
  if (three) {
    for (const char* needed : {"receive", "send", "compute"})
      if (!index.count(needed)) {
        report(diags_, sb.begin, Diag::MissingRegion) << needed;
        ok = false;
      }
    if (!ok) return false;
    // The default graph: receive(i) after compute(i-1); send(i) after
    // compute(i-1) and send(i-1); compute(i) after receive(i) and send(i),
    // i.e. once its messages arrived and its send buffers are free.
    int rcv = index["receive"], snd = index["send"], cmp = index["compute"];
    sb.regions[static_cast<std::size_t>(rcv)].deps = {{cmp, true, {}}};
    sb.regions[static_cast<std::size_t>(snd)].deps = {{cmp, true, {}}, {snd, true, {}}};
    sb.regions[static_cast<std::size_t>(cmp)].deps = {{rcv, false, {}}, {snd, false, {}}};
    return true;
  }
  for (Region& r : sb.regions) {
    for (const Dependency& d : r.annotation->deps) {
      auto it = index.find(d.name);
      if (it == index.end()) {
        report(diags_, d.loc, Diag::UnknownDependency) << d.name;
        ok = false;
        continue;
      }
      r.deps.push_back(RegionDep{it->second, d.previous, d.loc});
    }
  }
  if (!ok) return false;
  return !has_cycle(sb);
}

// Depth-first search over the same-iteration edges; a cycle is reported at
// the depends clause that closes it, with a note at each other edge.
bool Analyzer::has_cycle(const Superblock& sb) {
  std::size_t n = sb.regions.size();
  std::vector<int> state(n, 0);
  std::vector<std::pair<int, const RegionDep*>> stack;  // region, the edge taken from it
  std::function<bool(int)> visit = [&](int u) {
    state[static_cast<std::size_t>(u)] = 1;
    for (const RegionDep& d : sb.regions[static_cast<std::size_t>(u)].deps) {
      if (d.previous) continue;
      stack.push_back({u, &d});
      if (state[static_cast<std::size_t>(d.region)] == 1) {
        auto from = std::find_if(stack.begin(), stack.end(), [&](auto& e) { return e.first == d.region; });
        std::string path;
        for (auto it = from; it != stack.end(); ++it) path += sb.regions[static_cast<std::size_t>(it->first)].name + " -> ";
        path += sb.regions[static_cast<std::size_t>(d.region)].name;
        report(diags_, d.loc, Diag::DependencyCycle) << path;
        for (auto it = from; it + 1 != stack.end(); ++it)
          report(diags_, it->second->loc, Diag::CycleEdge)
              << sb.regions[static_cast<std::size_t>(it->first)].name
              << sb.regions[static_cast<std::size_t>(it->second->region)].name;
        return true;
      }
      if (state[static_cast<std::size_t>(d.region)] == 0 && visit(d.region)) return true;
      stack.pop_back();
    }
    state[static_cast<std::size_t>(u)] = 2;
    return false;
  };
  for (std::size_t i = 0; i < n; ++i)
    if (state[i] == 0 && visit(static_cast<int>(i))) return true;
  return false;
}

void Analyzer::check_region(Superblock& sb, const Region& r, std::vector<Reinterpretation>& out) {
  unsigned begin = offset(r.first->getBeginLoc()), end = end_offset(r.last);
  bool bamboo = sb.pragma && sb.pragma->is_bamboo();
  std::vector<const Stmt*> parts = region_statements(sb, r);
  const Stmt* function_body = enclosing_function_body(sb.stmt);
  for (const Stmt* s : parts) {
    ControlFlowVisitor flow(diags_, sm_, begin, end);
    flow.set_function_body(function_body);
    flow.TraverseStmt(const_cast<Stmt*>(s));
    check_calls(s, r.role, r.name, bamboo, r.first == r.last ? r.first : nullptr, &out);
  }
}

// Checks the MPI calls of a region or block against its role and collects
// the blocking calls that become posts (`out` null: none do).
void Analyzer::check_calls(const Stmt* stmt, RegionRole role, const std::string& name, bool bamboo,
                           const Stmt* region, std::vector<Reinterpretation>* out) {
  class Calls : public RecursiveASTVisitor<Calls> {
   public:
    bool TraverseLambdaExpr(LambdaExpr* e) { return RecursiveASTVisitor::TraverseLambdaExpr(e); }
    bool VisitCallExpr(CallExpr* c) {
      calls.push_back(c);
      return true;
    }
    std::vector<const CallExpr*> calls;
  } finder;
  finder.TraverseStmt(const_cast<Stmt*>(stmt));
  bool receive = role == RegionRole::Receive, send = role == RegionRole::Send;
  for (const CallExpr* call : finder.calls) {
    const FunctionDecl* fn = call->getDirectCallee();
    if (!fn || !fn->getIdentifier()) continue;
    llvm::StringRef callee = fn->getName();
    if (!callee.startswith("MPI_")) continue;
    MpiCallInfo info = classify_mpi_call(callee);
    SourceLocation loc = call->getBeginLoc();
    if (info.role == MpiRole::Forbidden) {
      report(diags_, loc, Diag::ForbiddenInRegion) << callee << info.note;
      continue;
    }
    if (info.collective() && (receive || send)) {
      report(diags_, loc, Diag::CollectiveInCommRegion) << callee << (receive ? "receive" : "send") << name;
      continue;
    }
    // Bamboo: a send that forwards received data belongs in a receive block.
    // MPI_Sendrecv is an exchange: it receives, so a receive region takes it.
    if (info.sends() && receive && !bamboo && info.role != MpiRole::SendRecv) {
      report(diags_, loc, Diag::SendInReceiveRegion) << callee << name;
      continue;
    }
    if (info.receives() && send) {
      report(diags_, loc, Diag::ReceiveInSendRegion) << callee << name;
      continue;
    }
    if (!out || !region || !(receive || send)) continue;
    // The blocking calls of receive and send regions become posts when what
    // they write or read outlives the region and nothing later in the
    // region touches it (docs/annotations.md, "Blocking calls").
    // The call table names the posting form (TMPI_ARGS's SB_POST column); a
    // call that receives is posted in receive regions, a send in send regions.
    const MpiCallArgs* args = mpi_call_args(callee);
    if (!args || !args->sb_post || !(info.receives() ? receive : send)) continue;
    if (loc.isMacroID() || call->getCallee()->getBeginLoc().isMacroID()) continue;
    // What the posted call writes or reads later: its buffers and its status.
    std::vector<int> outliving;
    for (const MpiBufferArg& b : args->buffers) outliving.push_back(b.buf);
    if (args->status >= 0) outliving.push_back(args->status);
    unsigned begin = offset(region->getBeginLoc()), end = end_offset(region);
    bool ok = true;
    for (int b : outliving)
      if (unsigned(b) < call->getNumArgs()) ok = ok && outlives_region(call->getArg(b), begin, end, call, region);
    if (ok) out->push_back({call, args->sb_post});
  }
}

// True when the memory `arg` designates lives past the region [begin, end)
// and the region does not name it again after `call` (or anywhere in a loop
// around the call inside the region).
bool Analyzer::outlives_region(const Expr* arg, unsigned begin, unsigned end, const CallExpr* call,
                               const Stmt* region) {
  // MPI_STATUS_IGNORE: ((MPI_Status *)0), a null pointer (in C not a null
  // pointer constant, because of the cast).
  if (arg->IgnoreParenCasts()->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) return true;
  VarRefs refs;
  refs.TraverseStmt(const_cast<Expr*>(arg));
  if (refs.vars.empty()) return false;
  for (const VarDecl* v : refs.vars) {
    if (v->hasGlobalStorage()) continue;
    unsigned at = offset(v->getLocation());
    bool local_to_region = at >= begin && at < end;
    // A pointer held in a region-local variable still points to memory that
    // outlives it; an array or scalar of the region does not.
    if (local_to_region && !(v->getType()->isPointerType() && !refs.address_taken)) return false;
  }
  // Later uses in the region: from the call (or from the start of the
  // outermost loop around it inside the region) to the region's end.
  unsigned from = offset(call->getBeginLoc());
  DynTypedNode node = DynTypedNode::create(*static_cast<const Stmt*>(call));
  for (;;) {
    auto parents = ctx_.getParents(node);
    if (parents.empty()) break;
    node = parents[0];
    const Stmt* s = node.get<Stmt>();
    if (!s) break;
    if (is_loop(s)) from = std::min(from, offset(s->getBeginLoc()));
    if (s == region) break;
  }
  LaterAccessFinder::Buffer buffer;
  buffer.vars = refs.vars;
  for (const VarDecl* v : refs.vars)
    if (v->getType()->isPointerType() || v->getType()->isReferenceType()) buffer.through_pointer = true;
  if (buffer.through_pointer)
    if (const Stmt* body = enclosing_function_body(region)) buffer.address_taken = address_taken_locals(body);
  LaterAccessFinder later(sm_, effects_, buffer, from, end, call);
  later.TraverseStmt(const_cast<Stmt*>(region));
  return !later.found;
}

const Stmt* Analyzer::enclosing_function_body(const Stmt* s) const {
  return find_ancestor(ctx_, s, [](const DynTypedNode& node) -> std::optional<const Stmt*> {
    if (const auto* fn = node.get<FunctionDecl>()) return fn->getBody();
    if (const auto* lambda = node.get<LambdaExpr>()) return lambda->getBody();
    if (node.get<Decl>() && !node.get<VarDecl>() && !node.get<DeclStmt>()) return nullptr;
    return std::nullopt;
  });
}

// A variable declared in one part of a Bamboo olap region and used in a
// later part would be out of scope there.
void Analyzer::check_cross_part_declarations(const Superblock& sb) {
  if (!sb.pragma || !sb.pragma->is_bamboo()) return;
  for (std::size_t i = 0; i < sb.regions.size(); ++i) {
    const Region& r = sb.regions[i];
    std::set<const VarDecl*> declared;
    for (const Stmt* s : region_statements(sb, r)) {
      if (const auto* ds = dyn_cast<DeclStmt>(s))
        for (const Decl* d : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(d)) declared.insert(v);
    }
    if (declared.empty()) continue;
    for (std::size_t j = i + 1; j < sb.regions.size(); ++j) {
      const Region& later = sb.regions[j];
      unsigned lb = offset(later.first->getBeginLoc()), le = end_offset(later.last);
      UseFinder uses(sm_, declared, lb, le, nullptr);
      uses.TraverseStmt(const_cast<CompoundStmt*>(sb.body));
      if (uses.found) {
        const VarDecl* v = *declared.begin();
        report(diags_, v->getLocation(), Diag::DeclarationUsedInLaterPart) << v->getName() << r.name << later.name;
        break;
      }
    }
  }
}

}  // namespace

TranslationPlan analyze_superblocks(ASTContext& ctx, const AnnotationList& annotations) {
  return Analyzer(ctx, annotations).run();
}

}  // namespace tucana::translate
