// Control flow that would leave a statement: a return anywhere in it, a
// break or continue outside the loops and switches nested in it, a goto to
// a label outside it. Lambdas, blocks and local classes are functions of
// their own and are not looked into. Shared by the superblock regions'
// checks and the tasks' (a region or a task statement must be left only by
// its end).
#pragma once

#include <vector>

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace tucana::translate {

// A visitor base (CRTP): Derived provides
//   void leaves(clang::SourceLocation at, const char* keyword)
// which reports one exit ("return", "break", "continue", "goto",
// "co_return"), and may add Visit functions of its own (switch_depth()
// tells whether a node is inside a switch nested in the statement).
// [begin, end) are the statement's file offsets (goto targets are compared
// with them); `continue_allowed`: a continue of the statement's own loop is
// fine (a loop body).
template <typename Derived>
class LeavingFlow : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

 public:
  LeavingFlow(clang::SourceManager& sm, unsigned begin, unsigned end, bool continue_allowed = false)
      : sm_(sm), begin_(begin), end_(end), continue_allowed_(continue_allowed) {}

  bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
  bool TraverseBlockExpr(clang::BlockExpr*) { return true; }
  bool TraverseCXXRecordDecl(clang::CXXRecordDecl*) { return true; }
  bool TraverseRecordDecl(clang::RecordDecl*) { return true; }
  bool TraverseForStmt(clang::ForStmt* s) { return in_loop([&] { return Base::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(clang::WhileStmt* s) { return in_loop([&] { return Base::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(clang::DoStmt* s) { return in_loop([&] { return Base::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt* s) {
    return in_loop([&] { return Base::TraverseCXXForRangeStmt(s); });
  }
  bool TraverseSwitchStmt(clang::SwitchStmt* s) {
    ++switch_depth_;
    bool r = Base::TraverseSwitchStmt(s);
    --switch_depth_;
    return r;
  }
  bool VisitReturnStmt(clang::ReturnStmt* s) { return leave(s->getBeginLoc(), "return"); }
  bool VisitCoreturnStmt(clang::CoreturnStmt* s) { return leave(s->getBeginLoc(), "co_return"); }
  // A computed goto (`goto *p`) may go to any label whose address the
  // function takes (`&&label`): it stays inside when all those labels do.
  // Without the function's body (set_function_body), it leaves.
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt* s) {
    if (!function_body_) return leave(s->getBeginLoc(), "goto");
    class Targets : public clang::RecursiveASTVisitor<Targets> {
     public:
      bool VisitAddrLabelExpr(clang::AddrLabelExpr* e) {
        labels.push_back(e->getLabel()->getStmt());
        return true;
      }
      std::vector<const clang::LabelStmt*> labels;
    } targets;
    targets.TraverseStmt(const_cast<clang::Stmt*>(function_body_));
    for (const clang::LabelStmt* l : targets.labels) {
      unsigned at = l ? sm_.getFileOffset(sm_.getExpansionLoc(l->getBeginLoc())) : 0;
      if (!l || at < begin_ || at >= end_) return leave(s->getBeginLoc(), "goto");
    }
    return true;
  }
  void set_function_body(const clang::Stmt* body) { function_body_ = body; }
  bool VisitGotoStmt(clang::GotoStmt* s) {
    const clang::LabelStmt* target = s->getLabel()->getStmt();
    unsigned at = target ? sm_.getFileOffset(sm_.getExpansionLoc(target->getBeginLoc())) : 0;
    if (!target || at < begin_ || at >= end_) leave(s->getBeginLoc(), "goto");
    return true;
  }
  bool VisitBreakStmt(clang::BreakStmt* s) {
    return loop_depth_ + switch_depth_ == 0 ? leave(s->getBeginLoc(), "break") : true;
  }
  bool VisitContinueStmt(clang::ContinueStmt* s) {
    return loop_depth_ == 0 && !continue_allowed_ ? leave(s->getBeginLoc(), "continue") : true;
  }

 protected:
  int switch_depth() const { return switch_depth_; }

 private:
  template <typename F>
  bool in_loop(F f) {
    ++loop_depth_;
    bool r = f();
    --loop_depth_;
    return r;
  }
  bool leave(clang::SourceLocation at, const char* keyword) {
    static_cast<Derived*>(this)->leaves(at, keyword);
    return true;
  }

  clang::SourceManager& sm_;
  unsigned begin_, end_;
  bool continue_allowed_;
  int loop_depth_ = 0;
  int switch_depth_ = 0;
  const clang::Stmt* function_body_ = nullptr;
};

}  // namespace tucana::translate
