#include "tucana/translate/SuperblockAnalysis.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/MpiCalls.h"

namespace tucana::translate {

namespace {

using namespace clang;

// Step 1: which statement each annotation applies to. An annotation applies
// to the next statement of the { } block it stands in.
class AttachVisitor : public RecursiveASTVisitor<AttachVisitor> {
 public:
  AttachVisitor(SourceManager& sm, const std::vector<Annotation>& annotations)
      : sm_(sm), annotations_(annotations), attached_(annotations.size(), nullptr) {}

  bool VisitCompoundStmt(CompoundStmt* block) {
    SourceLocation prev = sm_.getExpansionLoc(block->getLBracLoc());
    for (Stmt* child : block->body()) {
      SourceLocation begin = sm_.getExpansionLoc(child->getBeginLoc());
      for (std::size_t i = 0; i < annotations_.size(); ++i) {
        SourceLocation at = annotations_[i].hash_loc;
        if (!attached_[i] && sm_.isBeforeInTranslationUnit(prev, at) && sm_.isBeforeInTranslationUnit(at, begin))
          attached_[i] = child;
      }
      prev = sm_.getExpansionLoc(child->getEndLoc());
    }
    return true;
  }

  const std::vector<const Stmt*>& attached() const { return attached_; }

 private:
  SourceManager& sm_;
  const std::vector<Annotation>& annotations_;
  std::vector<const Stmt*> attached_;
};

// Finds control flow that would leave a region: return and goto anywhere,
// break/continue outside loops and switches nested in the region.
class ControlFlowVisitor : public RecursiveASTVisitor<ControlFlowVisitor> {
 public:
  explicit ControlFlowVisitor(DiagnosticsEngine& diags) : diags_(diags) {}
  bool TraverseLambdaExpr(LambdaExpr*) { return true; }  // a lambda's return is its own
  bool TraverseForStmt(ForStmt* s) { return nested([&] { return RecursiveASTVisitor::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) { return nested([&] { return RecursiveASTVisitor::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(DoStmt* s) { return nested([&] { return RecursiveASTVisitor::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    return nested([&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(s); });
  }
  bool TraverseSwitchStmt(SwitchStmt* s) {
    ++switch_depth_;
    bool r = RecursiveASTVisitor::TraverseSwitchStmt(s);
    --switch_depth_;
    return r;
  }
  bool VisitReturnStmt(ReturnStmt* s) { return flag(s->getBeginLoc(), "return"); }
  bool VisitGotoStmt(GotoStmt* s) { return flag(s->getBeginLoc(), "goto"); }
  bool VisitBreakStmt(BreakStmt* s) { return loop_depth_ + switch_depth_ == 0 ? flag(s->getBeginLoc(), "break") : true; }
  bool VisitContinueStmt(ContinueStmt* s) { return loop_depth_ == 0 ? flag(s->getBeginLoc(), "continue") : true; }

 private:
  template <typename F>
  bool nested(F f) {
    ++loop_depth_;
    bool r = f();
    --loop_depth_;
    return r;
  }
  bool flag(SourceLocation loc, const char* what) {
    report(diags_, loc, Diag::ControlFlowOut) << what;
    return true;
  }
  DiagnosticsEngine& diags_;
  int loop_depth_ = 0;
  int switch_depth_ = 0;
};

// The role of a region for the MPI checks: named regions take it from their
// name (receive_east and recv_east receive, send_east sends).
AnnotationKind role_of(const Region& r) {
  if (r.kind != AnnotationKind::Region) return r.kind;
  llvm::StringRef n(r.name);
  if (n.startswith("receive") || n.startswith("recv")) return AnnotationKind::Receive;
  if (n.startswith("send")) return AnnotationKind::Send;
  return AnnotationKind::Region;
}

// Checks the MPI calls of one region and collects its waits.
class MpiCallVisitor : public RecursiveASTVisitor<MpiCallVisitor> {
 public:
  MpiCallVisitor(DiagnosticsEngine& diags, SourceManager& sm, const Region& region, Superblock& sb)
      : diags_(diags), sm_(sm), region_(region), role_(role_of(region)), sb_(sb) {}

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* fn = call->getDirectCallee();
    if (!fn || !fn->getIdentifier()) return true;
    llvm::StringRef name = fn->getName();
    if (!name.startswith("MPI_")) return true;
    MpiCallInfo info = classify_mpi_call(name);
    SourceLocation loc = call->getBeginLoc();
    bool receive_role = role_ == AnnotationKind::Receive, send_role = role_ == AnnotationKind::Send;
    switch (info.cls) {
      case MpiCallClass::Allowed: break;
      case MpiCallClass::Forbidden:
        report(diags_, loc, Diag::ForbiddenInRegion) << name << info.note;
        break;
      case MpiCallClass::Send:
      case MpiCallClass::SendRecv:
        if (receive_role) report(diags_, loc, Diag::SendInReceiveRegion) << name << region_.name;
        if (info.cls == MpiCallClass::SendRecv && send_role)
          report(diags_, loc, Diag::ReceiveInSendRegion) << name << region_.name;
        break;
      case MpiCallClass::Recv:
        if (send_role) report(diags_, loc, Diag::ReceiveInSendRegion) << name << region_.name;
        break;
      case MpiCallClass::Collective:
        if (receive_role || send_role)
          report(diags_, loc, Diag::CollectiveInCommRegion) << name << (receive_role ? "receive" : "send") << region_.name;
        break;
      case MpiCallClass::Wait:
        // The call itself must be written out; its arguments may use macros.
        if (loc.isMacroID() || call->getNumArgs() == 0) {
          report(diags_, sm_.getExpansionLoc(loc), Diag::WaitInMacro) << name;
          break;
        }
        sb_.waits.push_back(WaitCall{call, name == "MPI_Wait" ? "tucana_sb_wait" : "tucana_sb_waitall"});
        break;
    }
    return true;
  }

 private:
  DiagnosticsEngine& diags_;
  SourceManager& sm_;
  const Region& region_;
  AnnotationKind role_;
  Superblock& sb_;
};

class Analyzer {
 public:
  Analyzer(ASTContext& ctx, const AnnotationList& list)
      : ctx_(ctx), sm_(ctx.getSourceManager()), diags_(ctx.getDiagnostics()), annotations_(list.all()) {}

  std::vector<Superblock> run();

 private:
  const Annotation* region_annotation_of(const Stmt* s) const;
  bool build(const ForStmt* loop, const Annotation* pragma, Superblock& sb);
  bool build_regions(const CompoundStmt* body, Superblock& sb);
  bool build_graph(Superblock& sb);
  bool find_loop_variable(const ForStmt* loop, LoopVariable& var);
  std::string loop_variable_type(const VarDecl* vd, const PrintingPolicy& policy) const;
  // Marks the region pragmas of the statements of `body` as handled (after
  // an error about the loop itself, so that they do not cause more errors).
  void consume_regions_of(const Stmt* body);
  bool has_cycle(const Superblock& sb, std::string& path) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  DiagnosticsEngine& diags_;
  const std::vector<Annotation>& annotations_;
  // (statement, annotation) pairs in the annotations' source order.
  std::vector<std::pair<const Stmt*, const Annotation*>> attached_;
  std::multimap<const Stmt*, const Annotation*> by_stmt_;
  std::set<const Annotation*> used_;
  std::set<const Stmt*> conflicted_;  // statements with two region pragmas (reported)
};

const Annotation* Analyzer::region_annotation_of(const Stmt* s) const {
  auto range = by_stmt_.equal_range(s);
  for (auto it = range.first; it != range.second; ++it)
    if (it->second->is_region()) return it->second;
  return nullptr;
}

std::vector<Superblock> Analyzer::run() {
  AttachVisitor attach(sm_, annotations_);
  attach.TraverseDecl(ctx_.getTranslationUnitDecl());
  for (std::size_t i = 0; i < annotations_.size(); ++i) {
    const Annotation& a = annotations_[i];
    if (!sm_.isInMainFile(a.hash_loc)) continue;
    if (!attach.attached()[i]) {
      report(diags_, a.hash_loc, Diag::PragmaNotBeforeStatement) << a.spelling << kind_keyword(a.kind);
      continue;
    }
    attached_.push_back({attach.attached()[i], &a});
    by_stmt_.emplace(attach.attached()[i], &a);
  }
  // Two region pragmas on one statement.
  for (std::size_t i = 1; i < attached_.size(); ++i) {
    auto& [stmt, a] = attached_[i];
    auto& [prev_stmt, prev] = attached_[i - 1];
    if (stmt == prev_stmt && a->is_region() && prev->is_region()) {
      report(diags_, a->hash_loc, Diag::TwoAnnotationsOneStatement) << prev->name << a->name;
      conflicted_.insert(stmt);
    }
  }

  // The superblocks: loops with a superblock pragma, and plain loops whose
  // body holds MATE region pragmas.
  std::vector<std::pair<const ForStmt*, const Annotation*>> loops;
  for (auto& [stmt, a] : attached_) {
    if (a->kind != AnnotationKind::Superblock) continue;
    const auto* loop = dyn_cast<ForStmt>(stmt);
    if (!loop) {
      report(diags_, a->hash_loc, Diag::SuperblockNotOnFor) << a->spelling;
      used_.insert(a);
      if (const auto* w = dyn_cast<WhileStmt>(stmt)) consume_regions_of(w->getBody());
      if (const auto* d = dyn_cast<DoStmt>(stmt)) consume_regions_of(d->getBody());
      if (const auto* r = dyn_cast<CXXForRangeStmt>(stmt)) consume_regions_of(r->getBody());
      continue;
    }
    loops.push_back({loop, a});
  }
  for (auto& [stmt, a] : attached_) {
    if (a->spelling != "mate" || !a->is_region()) continue;
    // stmt is a child of a { } block; is that block the body of a plain for?
    for (const auto& parent : ctx_.getParents(*stmt)) {
      const auto* body = parent.get<CompoundStmt>();
      if (!body) continue;
      for (const auto& grand : ctx_.getParents(*body)) {
        const auto* loop = grand.get<ForStmt>();
        if (!loop || loop->getBody() != body) continue;
        bool known = std::any_of(loops.begin(), loops.end(), [&](auto& l) { return l.first == loop; });
        if (!known) loops.push_back({loop, nullptr});
      }
    }
  }
  std::sort(loops.begin(), loops.end(), [&](auto& x, auto& y) {
    return sm_.isBeforeInTranslationUnit(x.first->getBeginLoc(), y.first->getBeginLoc());
  });

  std::vector<Superblock> result;
  for (auto& [loop, pragma] : loops) {
    // A superblock lexically inside another one is not supported.
    const Superblock* outer = nullptr;
    for (const Superblock& s : result)
      if (sm_.isBeforeInTranslationUnit(s.loop->getBeginLoc(), loop->getBeginLoc()) &&
          sm_.isBeforeInTranslationUnit(loop->getEndLoc(), s.loop->getEndLoc()))
        outer = &s;
    if (outer) {
      report(diags_, pragma ? pragma->hash_loc : loop->getBeginLoc(), Diag::NestedSuperblock)
          << sm_.getExpansionLineNumber(outer->begin);
      if (pragma) used_.insert(pragma);
      consume_regions_of(loop->getBody());
      continue;
    }
    Superblock sb;
    sb.index = static_cast<int>(result.size());
    if (build(loop, pragma, sb)) result.push_back(std::move(sb));
  }
  for (auto& [stmt, a] : attached_)
    if (a->is_region() && !used_.count(a)) report(diags_, a->hash_loc, Diag::RegionOutsideSuperblock) << a->name;
  return result;
}

bool Analyzer::build(const ForStmt* loop, const Annotation* pragma, Superblock& sb) {
  sb.pragma = pragma;
  sb.loop = loop;
  sb.begin = pragma ? pragma->hash_loc : sm_.getExpansionLoc(loop->getBeginLoc());
  if (pragma) used_.insert(pragma);
  const auto* body = dyn_cast<CompoundStmt>(loop->getBody());
  if (!body) {
    report(diags_, loop->getBody()->getBeginLoc(), Diag::BodyNotCompound);
    return false;
  }
  bool ok = build_regions(body, sb);
  ok = find_loop_variable(loop, sb.var) && ok;
  if (!ok) return false;
  if (!build_graph(sb)) return false;
  unsigned errors_before = diags_.getNumErrors();
  ControlFlowVisitor flow(diags_);
  flow.TraverseStmt(const_cast<CompoundStmt*>(body));
  for (const Region& r : sb.regions) {
    MpiCallVisitor calls(diags_, sm_, r, sb);
    calls.TraverseStmt(const_cast<Stmt*>(r.body));
  }
  return diags_.getNumErrors() == errors_before;
}

void Analyzer::consume_regions_of(const Stmt* body) {
  const auto* block = dyn_cast_or_null<CompoundStmt>(body);
  if (!block) return;
  for (const Stmt* child : block->body()) {
    auto range = by_stmt_.equal_range(child);
    for (auto it = range.first; it != range.second; ++it) used_.insert(it->second);
  }
}

bool Analyzer::build_regions(const CompoundStmt* body, Superblock& sb) {
  bool ok = true;
  for (const Stmt* child : body->body()) {
    const Annotation* a = region_annotation_of(child);
    if (!a) {
      report(diags_, child->getBeginLoc(), Diag::StatementOutsideRegion);
      ok = false;
      continue;
    }
    used_.insert(a);
    if (conflicted_.count(child)) {  // already reported; its other pragma is handled too
      auto range = by_stmt_.equal_range(child);
      for (auto it = range.first; it != range.second; ++it) used_.insert(it->second);
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
    sb.regions.push_back(Region{a->name, a->kind, a, child, {}});
  }
  if (sb.regions.empty() && ok) {
    report(diags_, sb.begin, Diag::EmptySuperblock);
    return false;
  }
  return ok;
}

bool Analyzer::build_graph(Superblock& sb) {
  bool three = false, named = false;
  for (const Region& r : sb.regions) (r.kind == AnnotationKind::Region ? named : three) = true;
  if (three && named) {
    report(diags_, sb.begin, Diag::MixedForms);
    return false;
  }
  sb.three_region_form = three;
  // Names are unique.
  std::map<std::string, int> index;
  bool ok = true;
  for (std::size_t i = 0; i < sb.regions.size(); ++i) {
    const Region& r = sb.regions[i];
    auto [it, fresh] = index.emplace(r.name, static_cast<int>(i));
    if (!fresh) {
      report(diags_, r.annotation->keyword_loc, Diag::DuplicateRegion) << r.name;
      report(diags_, sb.regions[static_cast<std::size_t>(it->second)].annotation->keyword_loc, Diag::PreviousRegion) << r.name;
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
    // The default graph (SPEC.md): receive(i) after compute(i-1); send(i)
    // after compute(i-1) and send(i-1); compute(i) after receive(i) and
    // send(i), i.e. once its messages arrived and its send buffers are free.
    int rcv = index["receive"], snd = index["send"], cmp = index["compute"];
    sb.regions[static_cast<std::size_t>(rcv)].deps = {{cmp, true}};
    sb.regions[static_cast<std::size_t>(snd)].deps = {{cmp, true}, {snd, true}};
    sb.regions[static_cast<std::size_t>(cmp)].deps = {{rcv, false}, {snd, false}};
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
      r.deps.push_back(RegionDep{it->second, d.previous});
    }
  }
  if (!ok) return false;
  std::string path;
  if (has_cycle(sb, path)) {
    report(diags_, sb.begin, Diag::DependencyCycle) << path;
    return false;
  }
  return true;
}

// Depth-first search over the same-iteration edges.
bool Analyzer::has_cycle(const Superblock& sb, std::string& path) const {
  std::size_t n = sb.regions.size();
  std::vector<int> state(n, 0), stack;
  std::function<bool(int)> visit = [&](int u) {
    state[static_cast<std::size_t>(u)] = 1;
    stack.push_back(u);
    for (const RegionDep& d : sb.regions[static_cast<std::size_t>(u)].deps) {
      if (d.previous) continue;
      if (state[static_cast<std::size_t>(d.region)] == 1) {
        auto from = std::find(stack.begin(), stack.end(), d.region);
        for (auto it = from; it != stack.end(); ++it) path += sb.regions[static_cast<std::size_t>(*it)].name + " -> ";
        path += sb.regions[static_cast<std::size_t>(d.region)].name;
        return true;
      }
      if (state[static_cast<std::size_t>(d.region)] == 0 && visit(d.region)) return true;
    }
    stack.pop_back();
    state[static_cast<std::size_t>(u)] = 2;
    return false;
  };
  for (std::size_t i = 0; i < n; ++i)
    if (state[i] == 0 && visit(static_cast<int>(i))) return true;
  return false;
}

// The type to declare copies of the loop variable with. A deduced C++ type
// (auto) may have no name that can be written (or only a long internal one):
// it is spelled as what `auto` deduces from the initializer.
std::string Analyzer::loop_variable_type(const VarDecl* vd, const PrintingPolicy& policy) const {
  if (vd->getType()->getContainedDeducedType() && vd->hasInit()) {
    SourceManager& sm = sm_;
    CharSourceRange range = sm.getExpansionRange(vd->getInit()->getSourceRange());
    std::string init = Lexer::getSourceText(range, sm, ctx_.getLangOpts()).str();
    return "std::decay<decltype(" + init + ")>::type";
  }
  return vd->getType().getUnqualifiedType().getAsString(policy);
}

bool Analyzer::find_loop_variable(const ForStmt* loop, LoopVariable& var) {
  const Stmt* init = loop->getInit();
  PrintingPolicy policy = ctx_.getPrintingPolicy();
  if (const auto* decl = dyn_cast_or_null<DeclStmt>(init)) {
    if (!decl->isSingleDecl()) {
      report(diags_, init->getBeginLoc(), Diag::SeveralLoopVariables);
      return false;
    }
    if (const auto* vd = dyn_cast<VarDecl>(decl->getSingleDecl()); vd && vd->hasInit()) {
      var = LoopVariable{vd->getNameAsString(), loop_variable_type(vd, policy), true};
      return true;
    }
  } else if (const auto* assign = dyn_cast_or_null<BinaryOperator>(init); assign && assign->isAssignmentOp()) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts())) {
      if (const auto* vd = dyn_cast<VarDecl>(ref->getDecl())) {
        var = LoopVariable{vd->getNameAsString(), vd->getType().getUnqualifiedType().getAsString(policy), false};
        return true;
      }
    }
  }
  report(diags_, init ? init->getBeginLoc() : loop->getBeginLoc(), Diag::NoLoopVariable);
  return false;
}

}  // namespace

std::vector<Superblock> analyze_superblocks(ASTContext& ctx, const AnnotationList& annotations) {
  return Analyzer(ctx, annotations).run();
}

}  // namespace tucana::translate
