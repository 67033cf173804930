#include "tucana/translate/TranslateAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Core/Replacement.h"
#include "tucana/translate/Privatization.h"
#include "tucana/translate/SuperblockAnalysis.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/SuperblockEmitter.h"
#include "tucana/translate/Tasks.h"

namespace tucana::translate {

namespace {

class TranslateConsumer : public clang::ASTConsumer {
 public:
  TranslateConsumer(TranslationResult& result, const AnnotationList& annotations)
      : result_(result), annotations_(annotations) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    clang::DiagnosticsEngine& diags = ctx.getDiagnostics();
    // Each malformed annotation reported one error; any other error is the
    // program's own (then it does not compile, and there is nothing to do).
    unsigned annotation_errors = 0;
    for (const Annotation& a : annotations_.all()) annotation_errors += a.broken ? 1 : 0;
    if (diags.getNumErrors() > annotation_errors) return;
    // Analysis runs even after a malformed pragma, so that every annotation
    // error of the file is reported in one run.
    TranslationPlan plan = analyze_superblocks(ctx, annotations_);
    TaskPlan tasks = analyze_tasks(ctx, annotations_);
    PrivatizationPlan privatization;
    if (result_.privatize) privatization = analyze_privatization(ctx, annotations_);
    if (diags.hasErrorOccurred()) return;
    EditSet edits;
    emit_translation(ctx, plan, result_.display_name, edits);
    emit_privatization(ctx, privatization, edits);
    // Last: a task's statement moves with the other stages' edits inside it.
    emit_tasks(ctx, tasks, privatization, result_.display_name, edits);
    if (diags.hasErrorOccurred()) return;
    // Compiler messages about the code before the first edit name the file
    // as the user did, not the translated copy.
    if (!edits.empty()) edits.insert(0, -2, line_directive(1, result_.display_name) + "\n");
    clang::SourceManager& sm = ctx.getSourceManager();
    llvm::StringRef file = sm.getFileEntryRefForID(sm.getMainFileID())->getName();
    clang::tooling::Replacements replacements;
    if (llvm::Error err = edits.apply(file, replacements)) {
      report(diags, sm.getLocForStartOfFile(sm.getMainFileID()), Diag::ConflictingEdits)
          << llvm::toString(std::move(err));
      return;
    }
    llvm::Expected<std::string> text =
        clang::tooling::applyAllReplacements(sm.getBufferData(sm.getMainFileID()), replacements);
    if (!text) {
      llvm::errs() << "tucana-translate: internal error: " << llvm::toString(text.takeError()) << "\n";
      return;
    }
    result_.text = std::move(*text);
    result_.superblocks = static_cast<int>(plan.superblocks.size());
    result_.privatized = static_cast<int>(privatization.vars.size());
    result_.tasks = static_cast<int>(tasks.tasks.size());
    result_.ok = true;
  }

 private:
  TranslationResult& result_;
  const AnnotationList& annotations_;
};

class Factory : public clang::tooling::FrontendActionFactory {
 public:
  explicit Factory(TranslationResult& result) : result_(result) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<TranslateAction>(result_); }

 private:
  TranslationResult& result_;
};

}  // namespace

bool TranslateAction::BeginSourceFileAction(clang::CompilerInstance& ci) {
  register_annotation_pragmas(ci.getPreprocessor(), annotations_);
  return true;
}

std::unique_ptr<clang::ASTConsumer> TranslateAction::CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) {
  return std::make_unique<TranslateConsumer>(result_, annotations_);
}

std::unique_ptr<clang::tooling::FrontendActionFactory> translate_action_factory(TranslationResult& result) {
  return std::make_unique<Factory>(result);
}

}  // namespace tucana::translate
