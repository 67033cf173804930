// tucana-cco: is the blocking communication in a loop safe to overlap with
// the computation around it, and the loop pipelined when it is.
//
//   tucana-cco check [--json] FILE -- COMPILER FLAGS
//   tucana-cco rewrite --mpi|--tucana FILE -o OUT [--line N]... [--test-freq N] -- COMPILER FLAGS
//
// See docs/advise-check-rewrite.md. Exit status: 0 when the analysis ran
// (unsafe loops included), 1 on errors (bad pragma, the file does not
// compile, bad usage). OUT is written whole and is never the input.
#include <string>
#include <vector>

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/cco/Cco.h"
#include "tucana/translate/ToolFiles.h"
#include "tucana_cco_config.h"

namespace {

const char* kUsage =
    "usage: tucana-cco check [--json] FILE -- COMPILER FLAGS\n"
    "       tucana-cco rewrite --mpi|--tucana FILE -o OUT [--line N]... [--test-freq N] -- COMPILER FLAGS\n";

int fail(const std::string& message) {
  llvm::errs() << "tucana-cco: error: " << message << "\n";
  return 1;
}

int usage(const std::string& message) {
  llvm::errs() << "tucana-cco: error: " << message << "\n" << kUsage;
  return 1;
}

bool parse_uint(const std::string& s, int& out) {
  return !llvm::StringRef(s).getAsInteger(10, out) && out >= 0;
}

}  // namespace

int main(int argc, const char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc), flags;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--") {
      flags.assign(args.begin() + i + 1, args.end());
      args.resize(i);
      break;
    }
  if (args.empty()) return usage("expected a command: check or rewrite");
  if (args[0] == "--help" || args[0] == "-h") {
    llvm::outs() << kUsage;
    return 0;
  }
  if (args[0] == "--version") {
    llvm::outs() << "tucana-cco (Tucana) " << TUCANA_VERSION << "\n";
    return 0;
  }
  tucana::cco::Options opts;
  std::string input, output;
  bool json = false, mode_set = false;
  if (args[0] != "check" && args[0] != "rewrite") return usage("unknown command '" + args[0] + "'");
  bool check = args[0] == "check";
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    std::string v;
    if (check && a == "--json") {
      json = true;
    } else if (!check && (a == "--mpi" || a == "--tucana")) {
      if (mode_set) return usage("give one of --mpi and --tucana");
      mode_set = true;
      opts.mode = a == "--mpi" ? tucana::cco::Options::Mode::RewriteMpi : tucana::cco::Options::Mode::RewriteTucana;
    } else if (!check && a == "-o") {
      if (!value(output)) return usage("-o needs a file name");
    } else if (!check && a == "--line") {
      int n = 0;
      if (!value(v) || !parse_uint(v, n) || n == 0) return usage("--line needs a line number");
      opts.lines.push_back(static_cast<unsigned>(n));
    } else if (!check && a == "--test-freq") {
      if (!value(v) || !parse_uint(v, opts.test_freq)) return usage("--test-freq needs a number (0: no tests)");
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "' for '" + args[0] + "'");
    } else {
      if (!input.empty()) return usage("expected exactly one source file");
      input = a;
    }
  }
  if (input.empty()) return usage("expected a source file");
  if (!llvm::sys::fs::exists(input)) return fail("no such file: '" + input + "'");
  if (!check) {
    if (!mode_set) return usage("rewrite needs --mpi or --tucana");
    if (output.empty()) return usage("rewrite needs -o OUT");
    if (llvm::sys::fs::equivalent(input, output) ||
        llvm::sys::path::remove_leading_dotslash(input) == llvm::sys::path::remove_leading_dotslash(output))
      return fail("refusing to write the output over the input file '" + input + "'");
  }
  opts.mode = check ? tucana::cco::Options::Mode::Check : opts.mode;
  opts.display_name = input;

  clang::tooling::FixedCompilationDatabase db(".", flags);
  clang::tooling::ClangTool tool(db, {input});
  std::vector<std::string> extra;
  for (const std::string& d : tucana::translate::tucana_include_dirs(
           argv[0], reinterpret_cast<void*>(&fail), TUCANA_CCO_INCLUDE_DIRS))
    extra.push_back("-I" + d);
  extra.push_back("-resource-dir=" TUCANA_CCO_CLANG_RESOURCE_DIR);
  // Unknown pragmas of other tools are not this tool's business.
  extra.push_back("-Wno-unknown-pragmas");
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END));
  tucana::cco::RunResult result;
  int rc = tool.run(tucana::cco::action_factory(opts, result).get());
  if (rc != 0 || !result.ok) return 1;
  if (check) {
    llvm::outs() << (json ? tucana::cco::format_json(result.check, input) : tucana::cco::format_text(result.check, input));
    return 0;
  }
  // A loop whose communication is inside a called function: the file with
  // the call inlined is analyzed and rewritten in its place (a few rounds for
  // calls inside callees). Where that pipelines nothing more, the output stays
  // the first one and only its notes come from the inlined file.
  std::string text = result.rewrite.text;
  int best = result.rewrite.done;
  llvm::SmallString<256> path(input);
  llvm::sys::fs::make_absolute(path);
  for (int round = 0; round < 3 && !result.rewrite.inlined.empty(); ++round) {
    clang::tooling::ClangTool again(db, {std::string(path)});
    again.appendArgumentsAdjuster(
        clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END));
    again.mapVirtualFile(path, result.rewrite.inlined);
    tucana::cco::RunResult next;
    if (again.run(tucana::cco::action_factory(opts, next).get()) != 0 || !next.ok)
      return fail("the file with the callees inlined does not compile (a bug of tucana-cco: please report it)");
    if (next.rewrite.done > best) text = next.rewrite.text, best = next.rewrite.done;
    result = std::move(next);
  }
  for (const std::string& n : result.rewrite.notes) llvm::outs() << n << "\n";
  std::string error = tucana::translate::write_whole_file(output, text);
  return error.empty() ? 0 : fail(error);
}
