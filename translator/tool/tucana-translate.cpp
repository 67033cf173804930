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
llvm::cl::extrahelp more_help(
    "\nThe annotations are described in docs/annotations.md; the translation in docs/translator.md.\n"
    "Compiler flags go after '--' (e.g. -- -I include -DN=64), or come from a\n"
    "compile_commands.json found with -p. Tucana's <mpi.h> is always on the include path.\n");

// Tucana's headers: next to an installed tool (PREFIX/bin/../include/tucana/mpi
// and PREFIX/include, so that a moved prefix works), else the build tree's.
std::vector<std::string> tucana_include_dirs(const char* argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void*>(&tucana_include_dirs));
  llvm::SmallString<256> prefix(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::SmallString<256> mpi_dir(prefix);
  llvm::sys::path::append(mpi_dir, "include", "tucana", "mpi");
  if (llvm::sys::fs::exists(llvm::Twine(mpi_dir) + "/mpi.h")) {
    llvm::SmallString<256> include_dir(prefix);
    llvm::sys::path::append(include_dir, "include");
    return {std::string(mpi_dir), std::string(include_dir)};
  }
  std::vector<std::string> dirs;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(TUCANA_TRANSLATE_INCLUDE_DIRS).split(parts, ';', -1, false);
  for (llvm::StringRef d : parts) dirs.push_back(d.str());
  return dirs;
}

int fail(const std::string& message) {
  llvm::errs() << "tucana-translate: error: " << message << "\n";
  return 1;
}

// Writes `text` to `path` through a temporary file in the same directory,
// so that `path` is either untouched or complete.
int write_output(const std::string& path, const std::string& text) {
  llvm::SmallString<256> temp;
  int fd = -1;
  std::string model = path + ".tmp-%%%%%%";
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return fail("cannot write '" + path + "': " + ec.message());
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << text;
    out.close();
    if (out.has_error()) {
      llvm::sys::fs::remove(temp);
      return fail("cannot write '" + path + "': " + out.error().message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fail("cannot write '" + path + "': " + ec.message());
  }
  return 0;
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
  for (const std::string& d : tucana_include_dirs(argv[0])) extra.push_back("-I" + d);
  extra.push_back("-resource-dir=" TUCANA_CLANG_RESOURCE_DIR);
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END));

  tucana::translate::TranslationResult result;
  result.display_name = input;  // #line names the file as the user did
  result.privatize = !no_privatize;
  int rc = tool.run(tucana::translate::translate_action_factory(result).get());
  if (rc != 0 || !result.ok) return 1;
  if (output_file.empty()) {
    llvm::outs() << result.text;
    return 0;
  }
  return write_output(output_file, result.text);
}
