#include "tucana/translate/TranslateAction.h"

#include <algorithm>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Core/Replacement.h"
#include "tucana/translate/Privatization.h"
#include "tucana/translate/RegionSplit.h"
#include "tucana/translate/SuperblockAnalysis.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/SuperblockEmitter.h"
#include "tucana/translate/Tasks.h"

namespace tucana::translate {

namespace {

// Every file the preprocessor enters (each inclusion of a header is a
// FileID of its own).
class EnteredFiles : public clang::PPCallbacks {
 public:
  EnteredFiles(clang::SourceManager& sm, std::vector<clang::FileID>& out) : sm_(sm), out_(out) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason == EnterFile) out_.push_back(sm_.getFileID(loc));
  }

 private:
  clang::SourceManager& sm_;
  std::vector<clang::FileID>& out_;
};

class TranslateConsumer : public clang::ASTConsumer {
 public:
  TranslateConsumer(TranslationResult& result, const AnnotationList& annotations,
                    const std::vector<clang::FileID>& entered, bool common)
      : result_(result), annotations_(annotations), entered_(entered), common_(common) {}

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
    std::vector<SplitPlan> splits;
    if (!diags.hasErrorOccurred()) splits = plan_splits(ctx, plan, result_.split_remarks);
    PrivatizationPlan privatization;
    PrivatizationOptions options;
    options.headers = result_.rewrite_headers;
    options.foreign_dirs = result_.foreign_dirs;
    options.common = common_;
    if (result_.privatize) privatization = analyze_privatization(ctx, annotations_, options);
    if (diags.hasErrorOccurred()) return;
    EditSet edits;
    emit_translation(ctx, plan, result_.display_name, edits);
    FileEdits file_edits{ctx.getSourceManager().getMainFileID(), edits, {}};
    emit_privatization(ctx, privatization, file_edits);
    // After privatization: a split copies its loop nest with the edits inside.
    emit_splits(ctx, plan, splits, result_.display_name, edits);
    // Last: a task's statement moves with the other stages' edits inside it.
    emit_tasks(ctx, tasks, privatization, result_.display_name, edits);
    if (diags.hasErrorOccurred()) return;
    // Compiler messages about the code before the first edit name the file
    // as the user did, not the translated copy.
    if (!edits.empty()) edits.insert(0, kFilePreamble, line_directive(1, result_.display_name) + "\n");
    clang::SourceManager& sm = ctx.getSourceManager();
    llvm::StringRef file = sm.getFileEntryRefForID(sm.getMainFileID())->getName();
    llvm::Expected<std::string> text = edits.rewrite(file, sm.getBufferData(sm.getMainFileID()));
    if (!text) {
      report(diags, sm.getLocForStartOfFile(sm.getMainFileID()), Diag::ConflictingEdits)
          << llvm::toString(text.takeError());
      return;
    }
    if (result_.rewrite_headers && !headers(ctx, file_edits)) return;
    result_.text = std::move(*text);
    result_.superblocks = static_cast<int>(plan.superblocks.size());
    result_.privatized = static_cast<int>(privatization.vars.size());
    result_.tasks = static_cast<int>(tasks.tasks.size());
    result_.ok = true;
  }

 private:
  // The own headers, rewritten or as they are, into result_.headers; false
  // after an error (reported).
  bool headers(clang::ASTContext& ctx, FileEdits& file_edits) {
    clang::SourceManager& sm = ctx.getSourceManager();
    struct Written {
      std::string body;     // the header's text, rewritten or not
      bool rewritten;       // (then it is written after a #line directive)
      std::string name;     // as the program names it
      clang::FileID first;  // the inclusion that wrote it
    };
    std::map<std::string, Written> texts;  // by absolute path
    for (clang::FileID f : entered_) {
      std::string path = own_header_path(sm, f, result_.foreign_dirs);
      if (path.empty()) continue;
      llvm::StringRef name = sm.getFileEntryRefForID(f)->getName();
      std::string text = sm.getBufferData(f).str();
      auto it = file_edits.headers.find(f);
      if (it != file_edits.headers.end() && !it->second.empty()) {
        llvm::Expected<std::string> rewritten = it->second.rewrite(name, text);
        if (!rewritten) {
          report(ctx.getDiagnostics(), sm.getLocForStartOfFile(f), Diag::ConflictingEdits)
              << llvm::toString(rewritten.takeError());
          return false;
        }
        text = std::move(*rewritten);
      }
      const bool rewritten = text != sm.getBufferData(f);
      auto [at, fresh] = texts.emplace(path, Written{text, rewritten, name.str(), f});
      if (!fresh && at->second.body != text) {
        // Included twice, with different meanings: point at the first line
        // whose rewrites differ (privatization adds no lines).
        const std::string& other = at->second.body;
        std::size_t i = 0;
        while (i < text.size() && i < other.size() && text[i] == other[i]) ++i;
        unsigned line = 1 + static_cast<unsigned>(std::count(text.begin(), text.begin() + static_cast<long>(i), '\n'));
        clang::SourceLocation here = sm.translateLineCol(f, line, 1);
        report(ctx.getDiagnostics(), here.isValid() ? here : sm.getLocForStartOfFile(f), Diag::HeaderRewrittenTwoWays)
            << name.str();
        report(ctx.getDiagnostics(), sm.getIncludeLoc(at->second.first), Diag::OtherInclusion);
        return false;
      }
    }
    // Messages and debug information name a rewritten header as the user knows it.
    for (auto& [path, written] : texts)
      result_.headers.emplace_back(path, written.rewritten ? line_directive(1, written.name) + "\n" + written.body
                                                           : std::move(written.body));
    return true;
  }

  TranslationResult& result_;
  const AnnotationList& annotations_;
  const std::vector<clang::FileID>& entered_;
  bool common_;  // -fcommon
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
  ci.getPreprocessor().addPPCallbacks(std::make_unique<EnteredFiles>(ci.getSourceManager(), entered_));
  return true;
}

std::unique_ptr<clang::ASTConsumer> TranslateAction::CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) {
  return std::make_unique<TranslateConsumer>(result_, annotations_, entered_, !ci.getCodeGenOpts().NoCommon);
}

std::unique_ptr<clang::tooling::FrontendActionFactory> translate_action_factory(TranslationResult& result) {
  return std::make_unique<Factory>(result);
}

}  // namespace tucana::translate
