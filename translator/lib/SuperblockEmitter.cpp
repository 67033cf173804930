// Emission of one superblock. The loop
//
//   #pragma tucana superblock
//   for (INIT; COND; INC) { R0 R1 ... }
//
// becomes a block that describes the region graph in static tables and runs
// a dispatch loop: the runtime hands out the next region whose dependencies
// are met (tucana_sb_next), the region runs with its own copy of the loop
// variable (each region is at its own iteration), tests COND, runs its code,
// applies INC, and reports that it ran. See docs/translator.md.
#include "tucana/translate/SuperblockEmitter.h"

#include <algorithm>
#include <optional>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/Diagnostics.h"

namespace tucana::translate {

namespace {

using namespace clang;

const char* kind_constant(AnnotationKind kind) {
  switch (kind) {
    case AnnotationKind::Receive: return "TUCANA_REGION_RECEIVE";
    case AnnotationKind::Send: return "TUCANA_REGION_SEND";
    case AnnotationKind::Compute: return "TUCANA_REGION_COMPUTE";
    default: return "TUCANA_REGION_OTHER";
  }
}

std::string c_string(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class Emitter {
 public:
  explicit Emitter(ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()) {}

  bool emit(const Superblock& sb, tooling::Replacements& out);
  bool emit_include(tooling::Replacements& out);

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  // Offset just past the last token of `s` as written (a macro call at the
  // end counts whole: the end of its expansion range, not its name).
  unsigned end_offset(const Stmt* s) const {
    SourceLocation last = sm_.getExpansionRange(s->getEndLoc()).getEnd();
    return sm_.getFileOffset(Lexer::getLocForEndOfToken(last, 0, sm_, lo_));
  }
  // The same, extended over the ';' that ends a statement when there is one
  // (an expression statement's range stops before it).
  unsigned statement_end_offset(const Stmt* s) const {
    SourceLocation last = sm_.getExpansionRange(s->getEndLoc()).getEnd();
    std::optional<Token> next = Lexer::findNextToken(last, sm_, lo_);
    if (next && next->is(tok::semi)) return sm_.getFileOffset(next->getEndLoc());
    return end_offset(s);
  }
  std::string text(unsigned begin, unsigned end) const {
    return sm_.getBufferData(sm_.getMainFileID()).substr(begin, end - begin).str();
  }
  std::string expr_text(const Expr* e) const {
    return text(offset(e->getBeginLoc()), end_offset(e));
  }
  std::string file_name(SourceLocation loc) const { return sm_.getPresumedLoc(loc).getFilename(); }
  unsigned line(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getLine(); }
  unsigned column(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getColumn(); }
  std::string region_text(const Superblock& sb, const Region& r) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
};

// The region's statement as written, with its waits rewritten.
std::string Emitter::region_text(const Superblock& sb, const Region& r) const {
  unsigned begin = offset(r.body->getBeginLoc()), end = statement_end_offset(r.body);
  struct Edit {
    unsigned begin, end;
    std::string text;
  };
  std::vector<Edit> edits;
  std::string handle = "tucana_sb" + std::to_string(sb.index);
  for (const WaitCall& w : sb.waits) {
    unsigned call = offset(w.call->getBeginLoc());
    if (call < begin || call >= end) continue;
    // MPI_Waitall(n, reqs, st)  ->  tucana_sb_waitall(tucana_sbK, n, reqs, st)
    edits.push_back({call, offset(w.call->getArg(0)->getBeginLoc()), w.replacement + "(" + handle + ", "});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string body = text(begin, end);
  for (const Edit& e : edits) body.replace(e.begin - begin, e.end - e.begin, e.text);
  return body;
}

bool Emitter::emit(const Superblock& sb, tooling::Replacements& out) {
  const std::string k = "tucana_sb" + std::to_string(sb.index);
  const std::string ind(column(sb.begin) - 1, ' ');
  const std::string file = file_name(sb.begin);
  std::string where = llvm::sys::path::filename(file).str() + ":" + std::to_string(line(sb.begin));
  const LoopVariable& v = sb.var;
  const std::size_t n = sb.regions.size();
  const ForStmt* loop = sb.loop;
  std::string cond = loop->getCond() ? expr_text(loop->getCond()) : "1";
  std::string inc = loop->getInc() ? expr_text(loop->getInc()) : "";

  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/* tucana: superblock " << where << ", regions";
  for (const Region& r : sb.regions) os << " " << r.name;
  os << " (translated by tucana-translate) */\n";
  os << ind << "{\n";
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    if (r.deps.empty()) continue;
    os << ind << "  static const tucana_dependency " << k << "_deps_" << i << "[] = {";
    for (std::size_t d = 0; d < r.deps.size(); ++d)
      os << (d ? ", " : "") << "{" << r.deps[d].region << ", " << (r.deps[d].previous ? 1 : 0) << "}";
    os << "};\n";
  }
  os << ind << "  static const tucana_region_desc " << k << "_regions[] = {\n";
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    os << ind << "      {" << c_string(r.name) << ", " << kind_constant(r.kind) << ", " << r.deps.size() << ", ";
    if (r.deps.empty())
      os << "(const tucana_dependency *)0";
    else
      os << k << "_deps_" << i;
    os << "},\n";
  }
  os << ind << "  };\n";
  os << ind << "  static const tucana_superblock_desc " << k << "_desc = {" << c_string(where) << ", " << n << ", "
     << k << "_regions};\n";
  os << ind << "  " << v.type << " " << k << "_it[" << n << "];\n";
  os << ind << "  tucana_superblock *" << k << ";\n";
  // The loop's first clause runs once; every region starts from its value.
  os << ind << "  {\n";
  if (v.declared_in_init) {
    const auto* vd = cast<VarDecl>(cast<DeclStmt>(loop->getInit())->getSingleDecl());
    os << ind << "    " << v.type << " " << v.name << " = " << expr_text(vd->getInit()) << ";\n";
  } else {
    os << ind << "    " << expr_text(cast<Expr>(loop->getInit())) << ";\n";
  }
  for (std::size_t i = 0; i < n; ++i) os << ind << "    " << k << "_it[" << i << "] = " << v.name << ";\n";
  os << ind << "  }\n";
  os << ind << "  " << k << " = tucana_sb_begin(&" << k << "_desc);\n";
  os << ind << "  for (int " << k << "_r; (" << k << "_r = tucana_sb_next(" << k << ")) >= 0;) {\n";
  os << ind << "    switch (" << k << "_r) {\n";
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    os << ind << "    case " << i << ": { /* region " << r.name << " */\n";
    os << ind << "      " << v.type << " " << v.name << " = " << k << "_it[" << i << "];\n";
    os << ind << "      if (!(" << cond << ")) {\n";
    os << ind << "        tucana_sb_finish(" << k << ", " << i << ");\n";
    os << ind << "        break;\n";
    os << ind << "      }\n";
    os << "#line " << line(r.body->getBeginLoc()) << " " << c_string(file) << "\n";
    os << std::string(column(r.body->getBeginLoc()) - 1, ' ') << region_text(sb, r) << "\n";
    if (!inc.empty()) os << ind << "      " << inc << ";\n";
    os << ind << "      " << k << "_it[" << i << "] = " << v.name << ";\n";
    os << ind << "      tucana_sb_ran(" << k << ", " << i << ");\n";
    os << ind << "      break;\n";
    os << ind << "    }\n";
  }
  os << ind << "    }\n";
  os << ind << "  }\n";
  os << ind << "  tucana_sb_end(" << k << ");\n";
  if (!v.declared_in_init) os << ind << "  " << v.name << " = " << k << "_it[" << n - 1 << "];\n";
  os << ind << "}\n";
  os << "#line " << line(loop->getEndLoc()) << " " << c_string(file) << "\n";
  os.flush();

  unsigned begin = offset(sb.begin), end = statement_end_offset(loop);
  tooling::Replacement rep(sm_.getFilename(sm_.getLocForStartOfFile(sm_.getMainFileID())), begin, end - begin, s);
  if (llvm::Error err = out.add(rep)) {
    report(ctx_.getDiagnostics(), sb.begin, Diag::ConflictingEdits) << llvm::toString(std::move(err));
    return false;
  }
  return true;
}

bool Emitter::emit_include(tooling::Replacements& out) {
  SourceLocation start = sm_.getLocForStartOfFile(sm_.getMainFileID());
  std::string text = "#include <tucana/superblock.h>\n#line 1 " + c_string(file_name(start)) + "\n";
  tooling::Replacement rep(sm_.getFilename(start), 0, 0, text);
  if (llvm::Error err = out.add(rep)) {
    report(ctx_.getDiagnostics(), start, Diag::ConflictingEdits) << llvm::toString(std::move(err));
    return false;
  }
  return true;
}

}  // namespace

bool emit_superblocks(ASTContext& ctx, const std::vector<Superblock>& superblocks, tooling::Replacements& out) {
  if (superblocks.empty()) return true;
  Emitter e(ctx);
  bool ok = e.emit_include(out);
  for (const Superblock& sb : superblocks) ok = e.emit(sb, out) && ok;
  return ok;
}

}  // namespace tucana::translate
