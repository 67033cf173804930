// The frontend action that translates one source file: registers the pragma
// handlers, parses, analyzes the superblocks and emits the translated text.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "tucana/translate/PragmaParser.h"

namespace tucana::translate {

struct TranslationResult {
  std::string display_name;  // in: the input's name as written on the command line
  bool privatize = true;     // in: privatize globals and statics (Privatization.h)
  // in: rewrite the program's own headers too (privatization); `foreign_dirs`
  // are include directories whose headers are not the program's (Tucana's).
  bool rewrite_headers = false;
  std::vector<std::string> foreign_dirs;
  bool split_remarks = false;  // in: a remark for every compute region, split or not (-Rtucana-split)
  // The program's own headers that the source includes, each as its
  // absolute path and its text (rewritten, or as it is): with
  // rewrite_headers, they go into a directory searched before the originals.
  std::vector<std::pair<std::string, std::string>> headers;
  bool ok = false;           // translated without errors
  std::string text;          // the translated source
  int superblocks = 0;       // how many were translated
  int privatized = 0;        // how many variables were privatized
  int tasks = 0;             // how many task and taskloop pragmas were translated
};

class TranslateAction : public clang::ASTFrontendAction {
 public:
  explicit TranslateAction(TranslationResult& result) : result_(result) {}

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override;
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef file) override;

 private:
  TranslationResult& result_;
  AnnotationList annotations_;
  std::vector<clang::FileID> entered_;  // every file entered, in order
};

// A factory for ClangTool::run that records into `result`.
std::unique_ptr<clang::tooling::FrontendActionFactory> translate_action_factory(TranslationResult& result);

}  // namespace tucana::translate
