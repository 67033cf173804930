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
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/cco/Cco.h"
#include "tucana/translate/ToolFiles.h"
#include "tucana_cco_config.h"

namespace {

namespace cl = llvm::cl;

const char* kUsage =
    "usage: tucana-cco check [--json] FILE -- COMPILER FLAGS\n"
    "       tucana-cco rewrite --mpi|--tucana FILE -o OUT [--line N]... [--test-freq N] -- COMPILER FLAGS\n";

// The two commands are llvm::cl subcommands; the compiler flags after "--"
// are split off before parsing (they are the compiler's, not options of
// this tool). --line and --test-freq are read as text and checked here, so
// that a bad value gets this tool's message rather than llvm::cl's.
cl::OptionCategory category("tucana-cco options");
cl::SubCommand check_command("check", "whether each loop's blocking communication may overlap the code around it");
cl::SubCommand rewrite_command("rewrite", "pipeline the loops found safe (--mpi) or annotate them for Tucana (--tucana)");
cl::list<std::string> sources(cl::Positional, cl::desc("<source file>"), cl::sub(check_command),
                              cl::sub(rewrite_command), cl::cat(category));
cl::opt<bool> json("json", cl::desc("Print the report as JSON (docs/advise-check-rewrite.md)"), cl::sub(check_command),
                   cl::cat(category));
cl::opt<bool> pipeline_mpi("mpi", cl::desc("Pipeline the loops in plain MPI (non-blocking calls, MPI_Test progress)"),
                           cl::sub(rewrite_command), cl::cat(category));
cl::opt<bool> annotate_tucana("tucana", cl::desc("Annotate the loops with Tucana's superblock pragmas"),
                              cl::sub(rewrite_command), cl::cat(category));
cl::opt<std::string> output_file("o", cl::desc("Write the rewritten source to <file> (required)"),
                                 cl::value_desc("file"), cl::sub(rewrite_command), cl::cat(category));
cl::list<std::string> lines("line", cl::desc("Rewrite only the loops with a communication site at line <n> (repeatable)"),
                            cl::value_desc("n"), cl::sub(rewrite_command), cl::cat(category));
cl::opt<std::string> test_freq("test-freq", cl::desc("One MPI_Testall per <n> progress calls (0: none; default 1024)"),
                               cl::value_desc("n"), cl::sub(rewrite_command), cl::cat(category));
cl::extrahelp more_help(
    "\nCompiler flags go after '--' (e.g. -- -I include -DN=64). Tucana's <mpi.h> is always on the include path.\n"
    "See docs/advise-check-rewrite.md.\n");

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
  if (args[0] == "-h") args[0] = "--help";
  if (args[0][0] != '-' && args[0] != "check" && args[0] != "rewrite")
    return usage("unknown command '" + args[0] + "'");
  cl::SetVersionPrinter([](llvm::raw_ostream& out) { out << "tucana-cco (Tucana) " << TUCANA_VERSION << "\n"; });
  for (cl::SubCommand* sub : {&*cl::TopLevelSubCommand, &check_command, &rewrite_command})
    cl::HideUnrelatedOptions(category, *sub);
  std::vector<const char*> cl_argv{argv[0]};
  for (const std::string& a : args) cl_argv.push_back(a.c_str());
  if (!cl::ParseCommandLineOptions(static_cast<int>(cl_argv.size()), cl_argv.data(),
                                   "tucana-cco: blocking MPI communication in loops, checked and pipelined\n",
                                   &llvm::errs()))
    return usage("bad command line");
  if (!check_command && !rewrite_command) return usage("expected a command: check or rewrite");
  bool check = static_cast<bool>(check_command);
  tucana::cco::Options opts;
  for (const std::string& v : lines) {
    int n = 0;
    if (!parse_uint(v, n) || n == 0) return usage("--line needs a line number");
    opts.lines.push_back(static_cast<unsigned>(n));
  }
  if (test_freq.getNumOccurrences() && !parse_uint(test_freq, opts.test_freq))
    return usage("--test-freq needs a number (0: no tests)");
  if (!check && pipeline_mpi && annotate_tucana) return usage("give one of --mpi and --tucana");
  if (sources.size() > 1) return usage("expected exactly one source file");
  if (sources.empty()) return usage("expected a source file");
  const std::string input = sources.front();
  const std::string output = output_file;
  if (!llvm::sys::fs::exists(input)) return fail("no such file: '" + input + "'");
  if (!check) {
    if (!pipeline_mpi && !annotate_tucana) return usage("rewrite needs --mpi or --tucana");
    opts.mode = pipeline_mpi ? tucana::cco::Options::Mode::RewriteMpi : tucana::cco::Options::Mode::RewriteTucana;
    if (output.empty()) return usage("rewrite needs -o OUT");
    if (llvm::sys::fs::equivalent(input, output) ||
        llvm::sys::path::remove_leading_dotslash(input) == llvm::sys::path::remove_leading_dotslash(output))
      return fail("refusing to write the output over the input file '" + input + "'");
  }
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
