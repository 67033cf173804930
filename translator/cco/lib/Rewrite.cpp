// `tucana-cco rewrite --mpi`: software pipelining of the safe loops as the
// paper's Fig. 7(d), with the blocking calls turned into their non-blocking
// counterparts, replicas of the buffers the analysis named (copied in at
// the post, out at the wait) and MPI_Test calls in the overlapped loops.
#include <algorithm>
#include <functional>
#include <sstream>

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Core/Replacement.h"
#include "tucana/cco/Cco.h"
#include "tucana/cco/Internal.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/EditSet.h"
#include "tucana/translate/MpiCalls.h"
#include "tucana/translate/SuperblockEmitter.h"

namespace tucana::cco {

namespace {

using namespace clang;

const char* kHelpers = R"(/* tucana-cco: the pending requests of the pipelined loops, tested every
   TUCANA_CCO_TEST_FREQ calls of tucana_cco_progress() (0: never). */
#include <stdlib.h>
#include <string.h>
#ifndef TUCANA_CCO_TEST_FREQ
#define TUCANA_CCO_TEST_FREQ @FREQ@
#endif
#ifndef TUCANA_CCO_UNUSED
#if defined(__GNUC__)
#define TUCANA_CCO_UNUSED __attribute__((unused))
#else
#define TUCANA_CCO_UNUSED
#endif
#endif
static MPI_Request *tucana_cco_reqs;
static MPI_Status *tucana_cco_sts;
static int tucana_cco_nreqs, tucana_cco_done, tucana_cco_tick;
static TUCANA_CCO_UNUSED void tucana_cco_begin(MPI_Request *r, MPI_Status *s, int n) {
  tucana_cco_reqs = r;
  tucana_cco_sts = s;
  tucana_cco_nreqs = n;
  tucana_cco_done = 0;
  tucana_cco_tick = 0;
}
static TUCANA_CCO_UNUSED void tucana_cco_progress(void) {
#if TUCANA_CCO_TEST_FREQ > 0
  if (tucana_cco_reqs && !tucana_cco_done && ++tucana_cco_tick >= TUCANA_CCO_TEST_FREQ) {
    int flag = 0;
    tucana_cco_tick = 0;
    MPI_Testall(tucana_cco_nreqs, tucana_cco_reqs, &flag, tucana_cco_sts);
    tucana_cco_done = flag;
  }
#endif
}
static TUCANA_CCO_UNUSED void tucana_cco_end(MPI_Request *r, MPI_Status *s, int n) {
  /* Requests completed by a test are null now; their statuses are in s. */
  if (!(r == tucana_cco_reqs && tucana_cco_done)) MPI_Waitall(n, r, s);
  if (r == tucana_cco_reqs) tucana_cco_reqs = NULL;
}
static TUCANA_CCO_UNUSED void *tucana_cco_grow(void **buf, size_t *cap, size_t bytes) {
  if (bytes > *cap || !*buf) {
    free(*buf);
    *buf = malloc(bytes ? bytes : 1);
    if (!*buf) MPI_Abort(MPI_COMM_WORLD, 1);
    *cap = bytes;
  }
  return *buf;
}
static TUCANA_CCO_UNUSED size_t tucana_cco_extent(MPI_Datatype t) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(t, &lb, &extent);
  return (size_t)(lb + extent);
}
static TUCANA_CCO_UNUSED size_t tucana_cco_commsize(MPI_Comm c) {
  int n = 0;
  MPI_Comm_size(c, &n);
  return (size_t)n;
}
static TUCANA_CCO_UNUSED size_t tucana_cco_span(const int *counts, const int *displs, size_t n) {
  size_t span = 0, r;
  for (r = 0; r < n; ++r)
    if (counts[r] > 0 && (size_t)(displs[r] + counts[r]) > span) span = (size_t)(displs[r] + counts[r]);
  return span;
}
static TUCANA_CCO_UNUSED void tucana_cco_unpack(void *dst, const void *src, const int *counts, const int *displs,
                                                size_t n, size_t extent) {
  size_t r;
  for (r = 0; r < n; ++r)
    if (counts[r] > 0)
      memcpy((char *)dst + (size_t)displs[r] * extent, (const char *)src + (size_t)displs[r] * extent,
             (size_t)counts[r] * extent);
}
)";

class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
 public:
  bool VisitForStmt(ForStmt* s) { return add(s->getBody()); }
  bool VisitWhileStmt(WhileStmt* s) { return add(s->getBody()); }
  bool VisitDoStmt(DoStmt* s) { return add(s->getBody()); }
  bool VisitCallExpr(CallExpr* c) {
    if (const FunctionDecl* f = c->getDirectCallee()) callees.push_back(f);
    return true;
  }
  bool add(Stmt* body) {
    if (isa_and_nonnull<CompoundStmt>(body) || isa_and_nonnull<Expr>(body)) bodies.push_back(body);
    return true;
  }
  std::vector<const Stmt*> bodies;
  std::vector<const FunctionDecl*> callees;
};

// `buffer` (the main file's) with `edits` applied into `out`; false (and
// ConflictingEdits reported at the file's start, as tucana-translate does)
// when two edits overlap, which is a bug of the code that made them.
bool apply_edits(ASTContext& ctx, const translate::EditSet& edits, llvm::StringRef buffer, const std::string& file,
                 std::string& out) {
  llvm::Expected<std::string> text = edits.rewrite(file, buffer);
  if (!text) {
    const SourceManager& sm = ctx.getSourceManager();
    translate::report(ctx.getDiagnostics(), sm.getLocForStartOfFile(sm.getMainFileID()),
                      translate::Diag::ConflictingEdits)
        << llvm::toString(text.takeError());
    return false;
  }
  out = std::move(*text);
  return true;
}

class LoopRewriter {
 public:
  LoopRewriter(ASTContext& ctx, translate::EditSet& edits, const Options& opts, std::set<const Stmt*>& progress,
               std::set<const FunctionDecl*>& visited)
      : ctx_(ctx), sm_(ctx.getSourceManager()), edits_(edits),
        buffer_(ctx.getSourceManager().getBufferData(ctx.getSourceManager().getMainFileID())), opts_(opts),
        progress_(progress), visited_(visited) {}

  // Returns an empty string when the loop was pipelined, else why not.
  std::string run(const LoopReport& lr, const Site& site) {
    auto* loop = cast<ForStmt>(lr.loop);
    auto* body = cast<CompoundStmt>(loop->getBody());
    std::vector<const Stmt*> stmts(body->body_begin(), body->body_end());
    const VarDecl* var = lr.var_decl;
    if (!var->getType()->isScalarType()) return "the loop variable is not of a scalar type";
    // Variables declared in Before(i) are those of iteration i+1 when After(i) runs.
    std::set<const Decl*> before_locals;
    for (unsigned k = 0; k < site.first; ++k)
      if (auto* d = dyn_cast<DeclStmt>(stmts[k]))
        for (const Decl* x : d->decls()) before_locals.insert(x);
    std::string used = uses(before_locals, stmts, site.last + 1, stmts.size());
    if (used.empty()) used = uses(before_locals, stmts, site.first, site.last + 1, /*waits_only=*/true);
    if (!used.empty())
      return "'" + used + "' is declared in Before(i) and used after the communication (declare it before the loop)";
    for (unsigned k = site.first; k <= site.last; ++k)
      for (const Expr* a : top_level_call(stmts[k])->arguments())
        if (a->HasSideEffects(ctx_)) return "an argument of the communication has side effects";
    if (opts_.test_freq >= 0) add_progress(stmts, site);

    std::string sfx = std::to_string(site.line);
    std::string req = "tucana_cco_req_" + sfx, st = "tucana_cco_st_" + sfx;
    std::ostringstream decl, icomm, wait, cleanup;
    int nreq = 0, nrep = 0;
    std::string begin_call, end_call;
    bool posts = false;
    std::vector<std::string> status_copies;
    for (unsigned k = site.first; k <= site.last; ++k) {
      const CallExpr* call = top_level_call(stmts[k]);
      const CommSpec* spec = find_comm(plain_name(call->getDirectCallee()));
      std::vector<std::string> args;
      for (const Expr* a : call->arguments()) args.push_back(text(a->getSourceRange()));
      std::vector<std::string> out_args = args;
      auto size_of = [&](const BufferArg& b) -> std::string {
        std::string ext = "tucana_cco_extent(" + args[b.type] + ")";
        switch (b.size) {
          case SizeKind::One: return "(size_t)(" + args[b.count] + ") * " + ext;
          case SizeKind::TimesSize:
            return "(size_t)(" + args[b.count] + ") * " + ext + " * tucana_cco_commsize(" + args[spec->comm] + ")";
          case SizeKind::V:
            return "tucana_cco_span(" + args[b.count] + ", " + args[b.displs] + ", tucana_cco_commsize(" +
                   args[spec->comm] + ")) * " + ext;
          case SizeKind::None: break;
        }
        return "0";
      };
      for (const BufferArg& b : spec->buffers) {
        if (!site.replicate_args.count(k << 8 | static_cast<unsigned>(b.buf))) continue;
        std::string n = std::to_string(nrep++) + "_" + sfx;
        std::string rep = "tucana_cco_rep" + n, cap = "tucana_cco_cap" + n, len = "tucana_cco_len" + n;
        decl << "  void *" << rep << " = NULL;\n  size_t " << cap << " = 0, " << len << " = 0;\n";
        cleanup << "  free(" << rep << ");\n";
        out_args[b.buf] = rep;
        if (b.read && !b.written) {
          icomm << "    " << len << " = " << size_of(b) << ";\n    memcpy(tucana_cco_grow(&" << rep << ", &" << cap << ", "
                << len << "), " << args[b.buf] << ", " << len << ");\n";
          continue;
        }
        std::string dst = "tucana_cco_dst" + n;
        decl << "  void *" << dst << " = NULL;\n";
        icomm << "    " << dst << " = (void *)(" << args[b.buf] << ");\n";
        if (b.size == SizeKind::V) {
          // The blocks are copied out with the counts and displacements of the post.
          std::string cnt = "tucana_cco_cnt" + n, dsp = "tucana_cco_dsp" + n, np = "tucana_cco_np" + n,
                      ext = "tucana_cco_ext" + n;
          decl << "  void *" << cnt << " = NULL, *" << dsp << " = NULL;\n  size_t " << cnt << "_cap = 0, " << dsp
               << "_cap = 0, " << np << " = 0, " << ext << " = 0;\n";
          cleanup << "  free(" << cnt << ");\n  free(" << dsp << ");\n";
          icomm << "    " << np << " = tucana_cco_commsize(" << args[spec->comm] << ");\n    " << ext
                << " = tucana_cco_extent(" << args[b.type] << ");\n    memcpy(tucana_cco_grow(&" << cnt << ", &" << cnt
                << "_cap, " << np << " * sizeof(int)), " << args[b.count] << ", " << np
                << " * sizeof(int));\n    memcpy(tucana_cco_grow(&" << dsp << ", &" << dsp << "_cap, " << np
                << " * sizeof(int)), " << args[b.displs] << ", " << np << " * sizeof(int));\n    " << len
                << " = tucana_cco_span((const int *)" << cnt << ", (const int *)" << dsp << ", " << np << ") * " << ext
                << ";\n";
          wait << "    tucana_cco_unpack(" << dst << ", " << rep << ", (const int *)" << cnt << ", (const int *)" << dsp
               << ", " << np << ", " << ext << ");\n";
        } else {
          icomm << "    " << len << " = " << size_of(b) << ";\n";
          wait << "    if (" << len << ") memcpy(" << dst << ", " << rep << ", " << len << ");\n";
        }
        icomm << "    tucana_cco_grow(&" << rep << ", &" << cap << ", " << len << ");\n";
      }
      for (int i : spec->read_arrays) {
        if (!site.replicate_args.count(k << 8 | static_cast<unsigned>(i))) continue;
        std::string n = std::to_string(nrep++) + "_" + sfx;
        std::string rep = "tucana_cco_rep" + n, cap = "tucana_cco_cap" + n;
        decl << "  void *" << rep << " = NULL;\n  size_t " << cap << " = 0;\n";
        cleanup << "  free(" << rep << ");\n";
        std::string bytes = "tucana_cco_commsize(" + args[spec->comm] + ") * sizeof(int)";
        icomm << "    memcpy(tucana_cco_grow(&" << rep << ", &" << cap << ", " << bytes << "), " << args[i] << ", "
              << bytes << ");\n";
        out_args[i] = "(const int *)" + rep;
      }
      std::string name = call->getDirectCallee()->getNameAsString();
      if (spec->wait) {
        if (site.first < k && name == "MPI_Waitall" && site.last == k && !posts_waited_) {
          begin_call = "tucana_cco_begin(" + args[1] + ", " + args[2] + ", " + args[0] + ");";
          end_call = "tucana_cco_end(" + args[1] + ", " + args[2] + ", " + args[0] + ");";
        } else {
          end_call += name + "(" + join(args) + ");\n    ";
          posts_waited_ = true;
        }
        continue;
      }
      if (spec->post) {
        posts = true;
        icomm << "    " << name << "(" << join(out_args) << ");\n";
        continue;
      }
      auto request = [&]() { return "&" + req + "[" + std::to_string(nreq++) + "]"; };
      if (name == "MPI_Sendrecv") {
        icomm << "    MPI_Isend(" << out_args[0] << ", " << args[1] << ", " << args[2] << ", " << args[3] << ", "
              << args[4] << ", " << args[10] << ", " << request() << ");\n";
        icomm << "    MPI_Irecv(" << out_args[5] << ", " << args[6] << ", " << args[7] << ", " << args[8] << ", "
              << args[9] << ", " << args[10] << ", " << request() << ");\n";
        if (args[11] != "MPI_STATUS_IGNORE")
          status_copies.push_back("*(" + args[11] + ") = " + st + "[" + std::to_string(nreq - 1) + "];");
        continue;
      }
      if (spec->status >= 0) {
        std::string s = args[spec->status];
        out_args.erase(out_args.begin() + spec->status);
        if (s != "MPI_STATUS_IGNORE") status_copies.push_back("*(" + s + ") = " + st + "[" + std::to_string(nreq) + "];");
      }
      icomm << "    " << spec->nonblocking << "(" << join(out_args) << (out_args.empty() ? "" : ", ") << request()
            << ");\n";
    }
    if (!posts) {
      begin_call = "tucana_cco_begin(" + req + ", " + st + ", " + std::to_string(nreq) + ");";
      end_call = "tucana_cco_end(" + req + ", " + st + ", " + std::to_string(nreq) + ");";
    }
    // Variables carried for After: a copy per iteration parity, taken at the post.
    std::string count = "tucana_cco_n_" + sfx;
    std::ostringstream keep_in, keep_out, keep_last, swap_top;
    for (size_t c = 0; c < site.carry.size(); ++c) {
      std::string v = site.carry[c].var->getNameAsString();
      std::string keep = "tucana_cco_keep" + std::to_string(c) + "_" + sfx;
      std::string size = "sizeof(" + v + ")", addr = "&" + v;
      if (site.carry[c].swap) {
        // A section swapped: no copies. Iteration k (from 0) of `trips` uses
        // the pointer's own storage when trips - 1 - k is even, else a second
        // buffer (kept across executions of the loop), so the last iteration
        // uses its own; each part runs with the pointer at its iteration's.
        const Carried& k = site.carry[c];
        std::string ptype = k.var->getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
        std::string base = "tucana_cco_base" + std::to_string(c) + "_" + sfx,
                    alt = "tucana_cco_alt" + std::to_string(c) + "_" + sfx,
                    cap = "tucana_cco_altcap" + std::to_string(c) + "_" + sfx,
                    trips = "tucana_cco_trips" + std::to_string(c) + "_" + sfx,
                    bytes = "(size_t)(" + k.len + ") * sizeof(*" + v + ")";
        auto buf = [&](const std::string& iter) {
          return "((" + trips + " - 1 - (long)(" + iter + ")) % 2 == 0 ? " + base + " : (" + ptype + ")" + alt + ")";
        };
        decl << "  " << ptype << " " << base << " = " << v << ";\n  long " << trips << " = " << k.trips
             << ";\n  static void *" << alt << " = NULL;\n  static size_t " << cap << " = 0;\n  if (" << trips
             << " > 1) {\n    if (" << bytes << " > " << cap << ") {\n      free(" << alt << ");\n      " << alt
             << " = malloc(" << bytes << ");\n      " << cap << " = " << bytes << ";\n      if (!" << alt
             << ") MPI_Abort(MPI_COMM_WORLD, 1);\n    }\n    memcpy(" << alt << ", " << base << ", " << bytes
             << ");\n  }\n";
        swap_top << "    " << v << " = " << buf(count) << ";\n";
        keep_in << "      " << v << " = " << buf(count + " - 1") << ";\n";
        keep_out << "      " << v << " = " << buf(count) << ";\n";
        keep_last << "    " << v << " = " << buf(count + " - 1") << ";\n";
        continue;
      }
      if (site.carry[c].is_private) {
        // A private item: one copy per parity, with its address and size
        // taken at the post (a section's bounds are evaluated there); After
        // runs on its iteration's copy, and what it writes is not put back.
        const Carried& k = site.carry[c];
        std::string sz = "tucana_cco_ksz" + std::to_string(c) + "_" + sfx,
                    cap = "tucana_cco_kcap" + std::to_string(c) + "_" + sfx,
                    at = "tucana_cco_kat" + std::to_string(c) + "_" + sfx, n = "[" + count + " % 2]",
                    prev = "[(" + count + " + 1) % 2]";
        decl << "  char *" << keep << "[2] = {NULL, NULL};\n  size_t " << sz << "[2] = {0, 0}, " << cap
             << "[2] = {0, 0};\n  void *" << at << "[2] = {NULL, NULL};\n";
        cleanup << "  free(" << keep << "[0]);\n  free(" << keep << "[1]);\n";
        if (k.section)
          icomm << "    " << at << n << " = (void *)(" << v << " + (" << k.lo << "));\n    " << sz << n
                << " = (size_t)(" << k.len << ") * sizeof(*" << v << ");\n";
        else
          icomm << "    " << at << n << " = (void *)&" << v << ";\n    " << sz << n << " = sizeof(" << v << ");\n";
        icomm << "    if (" << sz << n << " > " << cap << n << ") {\n      free(" << keep << n << ");\n      " << keep
              << n << " = (char *)malloc(" << sz << n << ");\n      " << cap << n << " = " << sz << n
              << ";\n      if (!" << keep << n << ") MPI_Abort(MPI_COMM_WORLD, 1);\n    }\n";
        icomm << "    memcpy(" << keep << n << ", " << at << n << ", " << sz << n << ");\n";
        std::string in = "memcpy(" + at + prev + ", " + keep + prev + ", " + sz + prev + ");\n";
        keep_in << "      " << in;
        keep_last << "    " << in;
        continue;
      }
      if (site.carry[c].comm) {
        // comm-size elements of what `v` points to (one size per loop: the
        // communicator is the same each iteration, as the post needs).
        size = "tucana_cco_ksz" + std::to_string(c) + "_" + sfx;
        addr = v;
        decl << "  size_t " << size << " = 0;\n  char *" << keep << " = NULL;\n";
        icomm << "    if (!" << keep << ") {\n      " << size << " = (size_t)tucana_cco_commsize("
              << text(site.carry[c].comm->getSourceRange()) << ") * sizeof(*" << v << ");\n      " << keep
              << " = (char *)malloc(2 * " << size << " + 1);\n    }\n";
      } else {
        decl << "  char *" << keep << " = (char *)malloc(2 * sizeof(" << v << "));\n";
      }
      cleanup << "  free(" << keep << ");\n";
      icomm << "    memcpy(" << keep << " + (" << count << " % 2) * " << size << ", " << addr << ", " << size << ");\n";
      keep_in << "      memcpy(" << addr << ", " << keep << " + ((" << count << " + 1) % 2) * " << size << ", " << size
              << ");\n";
      keep_out << "      memcpy(" << addr << ", " << keep << " + (" << count << " % 2) * " << size << ", " << size
               << ");\n";
    }
    if (!site.carry.empty()) decl << "  unsigned long " << count << " = 0;\n";
    std::string waits = "    " + end_call + "\n";
    for (const std::string& c : status_copies) waits += "    " + c + "\n";
    waits += wait.str();

    // The parts as written (with the edits made inside them: progress calls, inner loops).
    SourceLocation comm_begin = loc(stmts[site.first]->getBeginLoc());
    SourceLocation after_begin = site.last + 1 < stmts.size() ? loc(stmts[site.last + 1]->getBeginLoc()) : loc(body->getRBracLoc());
    SourceLocation body_begin = site.first > 0 ? loc(stmts[0]->getBeginLoc()) : comm_begin;
    std::string before_text = part(body_begin, comm_begin);
    std::string after_text = part(after_begin, loc(body->getRBracLoc()));
    std::string file = opts_.display_name;
    std::string v = var->getNameAsString();
    std::string type = var->getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    bool var_in_init = isa_and_nonnull<DeclStmt>(loop->getInit());
    unsigned loop_line = lr.line;
    auto at = [&](SourceLocation l) {
      return translate::line_directive(presumed_line(sm_, l), file) + "\n" +
             std::string(sm_.getExpansionColumnNumber(l) - 1, ' ');
    };
    std::string gen = translate::line_directive(loop_line, file) + "\n";
    std::ostringstream o;
    o << "{ /* tucana-cco: " << site.call << " (line " << site.line
      << ") pipelined: Comm(i) overlaps After(i-1) and Before(i+1) */\n";
    if (nreq > 0) o << "  MPI_Request " << req << "[" << nreq << "];\n  MPI_Status " << st << "[" << nreq << "];\n";
    o << decl.str() << "  int tucana_cco_pending_" << sfx << " = 0;\n  " << type << " tucana_cco_prev_" << sfx
      << " = 0;\n";
    std::string pending = "tucana_cco_pending_" + sfx, prev = "tucana_cco_prev_" + sfx, cur = "tucana_cco_cur_" + sfx;
    o << "  for (" << text(SourceRange(loop->getLParenLoc().getLocWithOffset(1), loop->getRParenLoc()), false) << ") {\n";
    o << swap_top.str();
    if (!before_text.empty()) o << at(body_begin) << before_text << "\n" << gen;
    std::string inner_waits;  // indented one level more inside the if
    for (size_t i = 0; i < waits.size(); ++i) {
      if (i == 0 || waits[i - 1] == '\n') inner_waits += "  ";
      inner_waits += waits[i];
    }
    o << "    if (" << pending << ") {\n" << inner_waits << "    }\n" << icomm.str();
    o << "    " << begin_call << "\n";
    o << "    if (" << pending << ") {\n      " << type << " " << cur << " = " << v << ";\n      " << v << " = " << prev
      << ";\n" << keep_in.str();
    if (!after_text.empty()) o << at(after_begin) << after_text << "\n" << gen;
    o << keep_out.str() << "      " << v << " = " << cur << ";\n    }\n    " << prev << " = " << v << ";\n    " << pending
      << " = 1;\n";
    if (!site.carry.empty()) o << "    ++" << count << ";\n";
    o << "  }\n";
    o << "  if (" << pending << ") {\n" << waits << keep_last.str();
    if (var_in_init)
      o << "    " << type << " " << v << " = " << prev << ";\n";
    else
      o << "    " << type << " " << cur << " = " << v << ";\n    " << v << " = " << prev << ";\n";
    if (!after_text.empty()) o << at(after_begin) << after_text << "\n" << gen;
    if (var_in_init) o << "    (void)" << v << ";\n";
    if (!var_in_init) o << "    " << v << " = " << cur << ";\n";
    o << "  }\n" << cleanup.str();
    o << translate::line_directive(presumed_line(sm_, loop->getEndLoc()), file) << "\n}";
    // The loop's text goes, with the edits inside it (they are in `o`).
    unsigned b = offset(loop->getBeginLoc()), e = end_offset(loop->getEndLoc());
    bool ok = true;
    edits_.extract(buffer_, b, e, ok);
    if (!ok) return "edits of the loop overlap others (a bug of tucana-cco: please report it)";
    edits_.replace(b, e - b, o.str());
    return "";
  }

 private:
  SourceLocation loc(SourceLocation l) { return sm_.getExpansionLoc(l); }
  unsigned offset(SourceLocation l) { return sm_.getFileOffset(loc(l)); }
  // The offset just past the token at `l`.
  unsigned end_offset(SourceLocation l) {
    return offset(l) + Lexer::MeasureTokenLength(loc(l), sm_, ctx_.getLangOpts());
  }
  // The text of a range with the edits made inside it so far.
  std::string rendered(unsigned begin, unsigned end) {
    bool ok = true;
    std::string t = edits_.rendered(buffer_, begin, end, ok);
    return ok ? t : buffer_.substr(begin, end - begin).str();
  }
  std::string text(SourceRange r, bool token = true) {
    return rendered(offset(r.getBegin()), token ? end_offset(r.getEnd()) : offset(r.getEnd()));
  }
  // The text between two locations, as rewritten so far.
  std::string part(SourceLocation from, SourceLocation to) {
    std::string t = rendered(offset(from), offset(to));
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\t')) t.pop_back();
    return t;
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out;
  }
  // The first of `decls` named in statements [from, to) (only in Wait calls when `waits_only`).
  std::string uses(const std::set<const Decl*>& decls, const std::vector<const Stmt*>& stmts, size_t from, size_t to,
                   bool waits_only = false) {
    std::string found;
    std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
      if (!s || !found.empty()) return;
      if (auto* r = dyn_cast<DeclRefExpr>(s); r && decls.count(r->getDecl())) found = r->getDecl()->getNameAsString();
      for (const Stmt* c : s->children()) walk(c);
    };
    for (size_t k = from; k < to; ++k) {
      if (waits_only) {
        const CallExpr* c = top_level_call(stmts[k]);
        const CommSpec* spec = c ? find_comm(plain_name(c->getDirectCallee())) : nullptr;
        if (spec && !spec->wait) {
          if (spec->status >= 0 && static_cast<unsigned>(spec->status) < c->getNumArgs()) walk(c->getArg(spec->status));
          for (const BufferArg& b : spec->buffers)
            if (b.written && static_cast<unsigned>(b.buf) < c->getNumArgs()) walk(c->getArg(b.buf));
          continue;
        }
      }
      walk(stmts[k]);
    }
    return found;
  }

  // tucana_cco_progress() at the start of every loop body in Before and
  // After and in the functions of this file they call.
  void add_progress(const std::vector<const Stmt*>& stmts, const Site& site) {
    LoopFinder lf;
    for (unsigned k = 0; k < stmts.size(); ++k)
      if (k < site.first || k > site.last) lf.TraverseStmt(const_cast<Stmt*>(stmts[k]));
    std::vector<const FunctionDecl*> work = lf.callees;
    while (!work.empty()) {
      const FunctionDecl* f = work.back();
      work.pop_back();
      const FunctionDecl* def = nullptr;
      if (!f->hasBody(def) || !def || visited_.count(def)) continue;
      if (!sm_.isInMainFile(loc(def->getBeginLoc()))) continue;
      visited_.insert(def);
      LoopFinder inner;
      inner.TraverseStmt(def->getBody());
      lf.bodies.insert(lf.bodies.end(), inner.bodies.begin(), inner.bodies.end());
      work.insert(work.end(), inner.callees.begin(), inner.callees.end());
    }
    for (const Stmt* b : lf.bodies) {
      if (progress_.count(b) || !sm_.isInMainFile(loc(b->getBeginLoc()))) continue;
      progress_.insert(b);
      if (auto* c = dyn_cast<CompoundStmt>(b)) {
        if (c->getLBracLoc().isMacroID()) continue;  // a loop inside a macro (do { } while (0))
        edits_.insert(offset(c->getLBracLoc()) + 1, translate::kInPlace, " tucana_cco_progress();");
        continue;
      }
      // A body without braces gets them.
      if (b->getBeginLoc().isMacroID() || b->getEndLoc().isMacroID()) continue;
      SourceLocation semi = Lexer::findLocationAfterToken(b->getEndLoc(), tok::semi, sm_, ctx_.getLangOpts(), false);
      if (semi.isInvalid()) continue;
      edits_.insert(offset(b->getBeginLoc()), translate::kInPlace, "{ tucana_cco_progress(); ");
      edits_.insert(offset(semi), translate::kInPlace, " }");
    }
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  translate::EditSet& edits_;
  llvm::StringRef buffer_;
  const Options& opts_;
  std::set<const Stmt*>& progress_;
  std::set<const FunctionDecl*>& visited_;
  bool posts_waited_ = false;
};

// Whether `s`, or a function of this file it calls, calls an MPI collective.
bool calls_collective(const Stmt* s, std::set<const FunctionDecl*>& seen) {
  if (!s) return false;
  if (auto* c = dyn_cast<CallExpr>(s))
    if (const FunctionDecl* f = c->getDirectCallee()) {
      bool known = false;
      if (translate::classify_mpi_call(plain_name(f), &known).collective() && known) return true;
      const FunctionDecl* def = nullptr;
      if (f->hasBody(def) && def && seen.insert(def).second && calls_collective(def->getBody(), seen)) return true;
    }
  for (const Stmt* c : s->children())
    if (calls_collective(c, seen)) return true;
  return false;
}

// `rewrite --tucana`: one Tucana region per statement of the body, with the
// dependences of the analysis as the graph: each part is a chain; Before(i+1)
// does not wait for Comm(i) or After(i), Comm(i) does not wait for After(i-1),
// except where a buffer would need a replica (then it waits).
std::string annotate(ASTContext& ctx, translate::EditSet& edits, const LoopReport& lr, const Site& site,
                     const std::string& file) {
  SourceManager& sm = ctx.getSourceManager();
  auto* loop = cast<ForStmt>(lr.loop);
  auto* body = cast<CompoundStmt>(loop->getBody());
  std::vector<const Stmt*> stmts(body->body_begin(), body->body_end());
  for (unsigned k = 0; k < stmts.size(); ++k) {
    if (auto* d = dyn_cast<DeclStmt>(stmts[k])) {
      auto* v = dyn_cast<VarDecl>(*d->decl_begin());
      return "declarations in the loop body: a Tucana region cannot be a declaration (declare '" +
             (v ? v->getNameAsString() : std::string("it")) + "' before the loop)";
    }
    if (sm.getExpansionLoc(stmts[k]->getBeginLoc()) != stmts[k]->getBeginLoc())
      return "a statement of the loop body starts in a macro";
    std::set<const FunctionDecl*> seen;
    if ((k < site.first || k > site.last) && calls_collective(stmts[k], seen))
      return "Before or After calls an MPI collective: its order against Comm's across ranks would depend on timing";
  }
  bool send_rep = false, recv_rep = false;
  for (unsigned x : site.replicate_args) {
    unsigned k = x >> 8, arg = x & 0xff;
    const CallExpr* c = top_level_call(stmts[k]);
    const CommSpec* spec = find_comm(plain_name(c->getDirectCallee()));
    for (const BufferArg& b : spec->buffers)
      if (static_cast<unsigned>(b.buf) == arg) (b.written ? recv_rep : send_rep) = true;
    for (int i : spec->read_arrays)
      if (static_cast<unsigned>(i) == arg) send_rep = true;
  }
  unsigned nb = site.first, na = static_cast<unsigned>(stmts.size()) - site.last - 1;
  auto name = [&](unsigned k) {
    if (k < site.first) return "cco_before" + std::to_string(k + 1);
    if (k <= site.last) return "cco_comm" + std::to_string(k - site.first + 1);
    return "cco_after" + std::to_string(k - site.last);
  };
  auto is_post = [&](unsigned k) {
    const CallExpr* c = top_level_call(stmts[k]);
    const CommSpec* spec = c && c->getDirectCallee() ? find_comm(plain_name(c->getDirectCallee())) : nullptr;
    return spec && spec->post;
  };
  std::string last_b = nb ? name(nb - 1) : "", last_c = name(site.last), last_a = na ? name(site.last + na) : "";
  for (unsigned k = 0; k < stmts.size(); ++k) {
    std::vector<std::string> deps;
    if (k == 0 && nb > 0) {
      if (nb > 1) deps.push_back(last_b + "*");
      if (send_rep) deps.push_back(last_c + "*");  // the send buffers are free again
      if (!site.carry.empty() && na) deps.push_back(last_a + "*");  // After read what Before rewrites
    } else if (k == site.first || (k <= site.last && is_post(k))) {
      // Posts do not wait for each other: a region is done when its requests are.
      if (nb) deps.push_back(last_b);
      if (recv_rep && na) deps.push_back(last_a + "*");  // the receive buffers were read
    } else if (k <= site.last && is_post(k - 1)) {
      // The wait after the posts: on all of them.
      for (unsigned j = site.first; j < k; ++j) deps.push_back(name(j));
    } else if (k == site.last + 1) {
      deps.push_back(last_c);
      if (na > 1) deps.push_back(last_a + "*");
    } else {
      deps.push_back(name(k - 1));
    }
    std::string text = "#pragma tucana region(" + name(k) + ") depends(";
    for (size_t i = 0; i < deps.size(); ++i) text += (i ? ", " : "") + deps[i];
    text += ")\n";
    // A statement that shares its line with the one before (`a += y; b += 2 * y;`)
    // starts a new line, after a #line directive that keeps its line number.
    SourceLocation begin = stmts[k]->getBeginLoc();
    llvm::StringRef buf = sm.getBufferData(sm.getFileID(begin));
    unsigned off = sm.getFileOffset(begin), start = off;
    while (start > 0 && buf[start - 1] != '\n') --start;
    if (!llvm::StringRef(buf.data() + start, off - start).trim().empty())
      text = "\n" + text + translate::line_directive(presumed_line(sm, begin), file) + "\n";
    text += std::string(sm.getExpansionColumnNumber(begin) - 1, ' ');
    edits.insert(sm.getFileOffset(stmts[k]->getBeginLoc()), translate::kInPlace, text);
  }
  edits.insert(sm.getFileOffset(sm.getExpansionLoc(loop->getBeginLoc())), translate::kInPlace,
               "#pragma tucana superblock\n" +
                   std::string(sm.getExpansionColumnNumber(loop->getBeginLoc()) - 1, ' '));
  return "";
}

}  // namespace

RewriteResult rewrite(ASTContext& ctx, const CheckResult& check, const Options& opts, const PragmaList& pragmas) {
  RewriteResult result;
  result.file_name = check.file;
  SourceManager& sm = ctx.getSourceManager();
  translate::EditSet edits;
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  std::string file = opts.display_name;
  // The cco pragmas go (their lines stay, empty): compilers warn about unknown pragmas.
  for (const CcoPragma& p : pragmas.all) {
    if (!p.in_main_file) continue;
    FileID id = sm.getMainFileID();
    unsigned line = sm.getLineNumber(id, p.offset);
    SourceLocation b = sm.translateLineCol(id, line, 1);
    llvm::StringRef buf = sm.getBufferData(id);
    unsigned start = sm.getFileOffset(b), end = start;
    while (end < buf.size() && buf[end] != '\n') ++end;
    // A pragma continued with backslashes spans several lines.
    while (end > start && buf[end - 1] == '\\' && end < buf.size()) {
      ++end;
      while (end < buf.size() && buf[end] != '\n') ++end;
    }
    std::string blank;
    for (unsigned i = start; i < end; ++i)
      if (buf[i] == '\n') blank += '\n';
    edits.replace(start, end - start, blank);
  }
  // Innermost loops first: an outer loop's parts then carry their edits.
  std::vector<const LoopReport*> loops;
  for (const LoopReport& l : check.loops)
    if (l.loop) loops.push_back(&l);
  std::sort(loops.begin(), loops.end(), [&](const LoopReport* a, const LoopReport* b) {
    return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(b->loop->getBeginLoc()), sm.getExpansionLoc(a->loop->getBeginLoc()));
  });
  std::set<const Stmt*> progress;
  std::set<const FunctionDecl*> visited;
  int done = 0, inlined = 0;
  translate::EditSet inl;  // the inlined file, pragmas kept
  std::set<std::string> inlined_names;
  std::vector<std::pair<unsigned, std::string>> notes;
  for (const LoopReport* l : loops) {
    std::string prefix = file + ":" + std::to_string(l->line) + ":" + std::to_string(l->col) + ": note: " +
                         (l->var.empty() ? std::string("loop: ") : "loop over '" + l->var + "': ");
    const Site* chosen = nullptr;
    std::string why;
    for (const Site& s : l->sites) {
      bool wanted = opts.lines.empty();
      for (unsigned n : opts.lines) wanted |= n >= s.line && n <= std::max(s.line, s.last_line);
      if (!wanted) continue;
      if (s.verdict == Verdict::Safe && !chosen) {
        chosen = &s;
      } else if (s.verdict != Verdict::Safe) {
        std::string r;
        for (const std::string& x : s.reasons) r += (r.empty() ? "" : "; ") + x;
        why += (why.empty() ? "" : "; ") + s.call + " at line " + std::to_string(s.line) + " is " +
               verdict_name(s.verdict) + ": " + r;
      }
    }
    // A loop not rewritten because of communication inside a called function
    // of its body is inlined for the next pass (the tool runs it).
    auto try_inline = [&]() {
      std::string r;
      std::set<const CallExpr*> calls;
      for (const Site& s : l->sites)
        if (s.callee_call && l->function && calls.insert(s.callee_call).second && opts.inline_calls) {
          // Statements of a braced loop body need no braces of their own.
          bool block = true;
          if (auto* cs = dyn_cast<CompoundStmt>(loop_body(l->loop)))
            for (const Stmt* x : cs->body()) block &= top_level_call(x) != s.callee_call;
          std::string no = inline_call(ctx, inl, l->function, s.callee_call, block, file, inlined_names);
          if (no.empty()) ++inlined;
          else r += "; " + no;
        }
      return r;
    };
    if (!chosen) {
      if (why.empty()) why = "no site at the lines given with --line";
      notes.push_back({l->line, prefix + "not rewritten: " + why + try_inline()});
      continue;
    }
    std::string refused = chosen->no_rewrite;
    if (refused.empty() && opts.mode == Options::Mode::RewriteTucana) {
      refused = annotate(ctx, edits, *l, *chosen, file);
    } else if (refused.empty()) {
      LoopRewriter lrw(ctx, edits, opts, progress, visited);
      refused = lrw.run(*l, *chosen);
    }
    if (!refused.empty()) {
      notes.push_back({l->line, prefix + "not rewritten: " + chosen->call + " at line " + std::to_string(chosen->line) +
                                    ": " + refused + try_inline()});
      continue;
    }
    ++done;
    // What is replicated: copied at the post (buffers, carried variables) or,
    // for swapped private sections, a second buffer for every other iteration.
    std::string rep, swapped;
    for (const std::string& x : chosen->replicate) {
      bool swap = false;
      for (const Carried& c : chosen->carry) swap |= c.swap && c.var->getNameAsString() == x;
      std::string& into = swap && opts.mode == Options::Mode::RewriteMpi ? swapped : rep;
      into += (into.empty() ? "" : ", ") + ("'" + x + "'");
    }
    if (!swapped.empty()) rep += (rep.empty() ? "" : "; ") + std::string("a buffer per iteration parity for ") + swapped;
    const char* done_what = opts.mode == Options::Mode::RewriteTucana ? "annotated for Tucana: " : "pipelined ";
    notes.push_back({l->line, prefix + done_what + chosen->call + " at line " + std::to_string(chosen->line) +
                                  (rep.empty() ? ""
                                   : opts.mode == Options::Mode::RewriteTucana ? " (regions wait instead of replicating " + rep + ")"
                                                                                : " (replicates " + rep + ")")});
  }
  std::sort(notes.begin(), notes.end());
  for (auto& n : notes) result.notes.push_back(n.second);
  if (done > 0 && opts.mode == Options::Mode::RewriteMpi) {
    // The helpers before the first function of the file.
    SourceLocation first;
    // (C++: or the first class, namespace or template, which may define member functions.)
    auto cxx = [](const Decl* d) { return dyn_cast<CXXRecordDecl>(d); };
    for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
      if ((isa<FunctionDecl>(d) || isa<FunctionTemplateDecl>(d) || isa<NamespaceDecl>(d) || isa<ClassTemplateDecl>(d) ||
           (cxx(d) && cxx(d)->isThisDeclarationADefinition())) &&
          sm.isInMainFile(sm.getExpansionLoc(d->getBeginLoc()))) {
        first = sm.getExpansionLoc(d->getSourceRange().getBegin());
        break;
      }
    std::string helpers = kHelpers;
    helpers.replace(helpers.find("@FREQ@"), 6, std::to_string(opts.test_freq < 0 ? 16 : opts.test_freq));
    SourceLocation line_start = sm.translateLineCol(sm.getMainFileID(), sm.getExpansionLineNumber(first), 1);
    edits.insert(sm.getFileOffset(line_start), translate::kInPlace,
                 helpers + translate::line_directive(presumed_line(sm, first), file) + "\n");
    edits.insert(0, translate::kFilePreamble, translate::line_directive(1, file) + "\n");
  }
  if (inlined > 0) {
    // A static callee inlined at its only call would be unused.
    inl.insert(0, translate::kFilePreamble,
               "#ifndef TUCANA_CCO_UNUSED\n#if defined(__GNUC__)\n#define TUCANA_CCO_UNUSED "
               "__attribute__((unused))\n#else\n#define TUCANA_CCO_UNUSED\n#endif\n#endif\n" +
                   translate::line_directive(1, file) + "\n");
    if (!apply_edits(ctx, inl, buffer, result.file_name, result.inlined)) return result;
  }
  result.done = done;
  if (!apply_edits(ctx, edits, buffer, result.file_name, result.text)) return result;
  result.ok = true;
  return result;
}

}  // namespace tucana::cco
