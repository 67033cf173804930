// tucana-translate: translates an annotated C or C++ MPI source file into the
// data-driven form that runs on the Tucana runtime.
//
//   tucana-translate [-o OUT] FILE [-- COMPILER FLAGS]   (or -p BUILD_DIR)
//
// Writes the translation to OUT (default: standard output). Diagnostics are
// compiler-style; on any error nothing is written and the exit status is 1.
// OUT is written whole (through a temporary file) and is never the input.
#include <string>
#include <vector>

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/ToolFiles.h"
#include "tucana/translate/TranslateAction.h"
#include "tucana_translate_config.h"

namespace {

llvm::cl::OptionCategory category("tucana-translate options");
llvm::cl::opt<std::string> output_file("o", llvm::cl::desc("Write the translated source to <file> (default: standard output)"),
                                       llvm::cl::value_desc("file"), llvm::cl::cat(category));
llvm::cl::opt<bool> no_privatize(
    "no-privatize",
    llvm::cl::desc("Leave global and static variables shared by the subranks (default: one copy per subrank)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> headers_dir(
    "headers-dir",
    llvm::cl::desc("Rewrite the program's own headers too (privatization), writing each one the source includes "
                   "to <dir>/<its absolute path>, to be searched before the originals (tucanacc does)"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(category));
llvm::cl::opt<bool> split_remarks(
    "Rtucana-split",
    llvm::cl::desc("Say for every compute region that receives data whether it is split into interior and "
                   "boundary, and why not"),
    llvm::cl::cat(category));
llvm::cl::extrahelp more_help(
    "\nThe annotations are described in docs/annotations.md; the translation in docs/translator.md.\n"
    "Compiler flags go after '--' (e.g. -- -I include -DN=64), or come from a\n"
    "compile_commands.json found with -p. Tucana's <mpi.h> is always on the include path.\n");

int fail(const std::string& message) {
  llvm::errs() << "tucana-translate: error: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, const char** argv) {
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream& out) {
    out << "tucana-translate (Tucana) " << TUCANA_VERSION << "\n"
        << "  on Clang " << TUCANA_CLANG_VERSION << " (LibTooling)\n";
  });
  auto parser = clang::tooling::CommonOptionsParser::create(argc, argv, category, llvm::cl::Required);
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());
    return 1;
  }
  const std::vector<std::string>& sources = parser->getSourcePathList();
  if (sources.size() != 1) return fail("expected exactly one source file, got " + std::to_string(sources.size()));
  const std::string& input = sources.front();
  if (!output_file.empty()) {
    bool same = llvm::sys::fs::equivalent(input, output_file);
    if (same || llvm::sys::path::remove_leading_dotslash(input) == llvm::sys::path::remove_leading_dotslash(output_file))
      return fail("refusing to write the output over the input file '" + input + "'");
  }

  clang::tooling::ClangTool tool(parser->getCompilations(), sources);
  // Tucana's <mpi.h> and the compiler's own headers (this tool does not live
  // next to clang, so the resource directory is given explicitly).
  std::vector<std::string> extra;
  tucana::translate::TranslationResult result;
  for (const std::string& d : tucana::translate::tucana_include_dirs(
           argv[0], reinterpret_cast<void*>(&fail), TUCANA_TRANSLATE_INCLUDE_DIRS)) {
    extra.push_back("-I" + d);
    llvm::SmallString<256> real;
    result.foreign_dirs.push_back(llvm::sys::fs::real_path(d, real) ? d : std::string(real));
  }
  extra.push_back("-resource-dir=" TUCANA_CLANG_RESOURCE_DIR);
  // What GCC 12 only warns about, Clang 16 must not refuse: a file it
  // refused would not be translated (and its globals not privatized).
  for (const char* w : {"implicit-function-declaration", "implicit-int", "int-conversion",
                        "incompatible-function-pointer-types", "incompatible-pointer-types", "return-type"})
    extra.push_back(std::string("-Wno-error=") + w);
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END));

  result.display_name = input;  // #line names the file as the user did
  result.privatize = !no_privatize;
  result.split_remarks = split_remarks;
  result.rewrite_headers = !headers_dir.empty() && !no_privatize;
  int rc = tool.run(tucana::translate::translate_action_factory(result).get());
  if (rc != 0 || !result.ok) return 1;
  for (const auto& [path, text] : result.headers) {
    // <dir>/<absolute path>: the directories of the originals, mirrored.
    llvm::SmallString<256> copy(headers_dir.getValue());
    llvm::sys::path::append(copy, llvm::sys::path::relative_path(path));
    if (std::error_code ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(copy)))
      return fail("cannot create the directory of '" + std::string(copy) + "': " + ec.message());
    std::string error = tucana::translate::write_whole_file(std::string(copy), text);
    if (!error.empty()) return fail(error);
  }
  if (output_file.empty()) {
    llvm::outs() << result.text;
    return 0;
  }
  std::string error = tucana::translate::write_whole_file(output_file, result.text);
  return error.empty() ? 0 : fail(error);
}
