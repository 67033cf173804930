#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "tucana/cco/Cco.h"

namespace tucana::cco {

namespace {

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const Options& opts, RunResult& out, PragmaList& pragmas) : opts_(opts), out_(out), pragmas_(pragmas) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    // Each malformed pragma reported one error; any other is the program's own.
    if (ctx.getDiagnostics().getNumErrors() > pragmas_.errors) return;
    out_.check = analyze(ctx, pragmas_);
    if (!out_.check.ok || ctx.getDiagnostics().hasErrorOccurred()) return;
    if (opts_.mode != Options::Mode::Check) {
      out_.rewrite = rewrite(ctx, out_.check, opts_, pragmas_);
      if (!out_.rewrite.ok) return;
    }
    out_.ok = true;
  }

 private:
  const Options& opts_;
  RunResult& out_;
  PragmaList& pragmas_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(const Options& opts, RunResult& out) : opts_(opts), out_(out) {}
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    register_cco_pragmas(ci.getPreprocessor(), pragmas_);
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<Consumer>(opts_, out_, pragmas_);
  }

 private:
  const Options& opts_;
  RunResult& out_;
  PragmaList pragmas_;
};

class Factory : public clang::tooling::FrontendActionFactory {
 public:
  Factory(const Options& opts, RunResult& out) : opts_(opts), out_(out) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<Action>(opts_, out_); }

 private:
  const Options& opts_;
  RunResult& out_;
};

}  // namespace

std::unique_ptr<clang::tooling::FrontendActionFactory> action_factory(const Options& opts, RunResult& out) {
  return std::make_unique<Factory>(opts, out);
}

}  // namespace tucana::cco
