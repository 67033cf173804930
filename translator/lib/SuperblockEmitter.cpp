// Emission: small separate edits around code that stays in place. For
//
//   #pragma tucana superblock
//   for (INIT; COND; INC) {
//     #pragma tucana receive
//     R
//     #pragma tucana compute
//     C
//   }
//
// the edits are: the superblock pragma line becomes the region tables and
// tucana_sb_begin (then a #line); after the body's '{' the iteration's
// dispatch loop opens; each region pragma line becomes `case K: {`; after
// each region `tucana_sb_ran(sb, K); break; }`; before the body's '}' the
// dispatch closes; after the loop `tucana_sb_end(sb); }`. The loop header,
// the region bodies, comments and other pragmas are not touched, so every
// line keeps its number. See docs/translator.md.
#include "tucana/translate/SuperblockEmitter.h"

#include <algorithm>
#include <map>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/EditSet.h"
#include "tucana/translate/RegionSplit.h"
#include "tucana/translate/StatementText.h"

namespace tucana::translate {

namespace {

using namespace clang;

// The kind the runtime sees (traces, reports); a named region is OTHER
// whatever its role (the role is for the translator's checks).
const char* kind_constant(const Region& r) {
  switch (r.kind) {
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
  Emitter(ASTContext& ctx, std::string display_name, EditSet& edits)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), display_name_(std::move(display_name)),
        edits_(edits) {}

  void superblock(const Superblock& sb);
  void callee_block(const CalleeBlock& b);
  void reinterpret(const Reinterpretation& r);
  void erase_pragma(const Annotation& a) { edits_.replace(offset(a.hash_loc), pragma_length(a), ""); }
  void include_runtime(const Superblock& first);

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  unsigned statement_end_offset(const Stmt* s) const { return translate::statement_end_offset(sm_, lo_, s); }
  // The pragma line from its '#' to its newline (not included).
  unsigned pragma_length(const Annotation& a) const { return offset(a.end_loc) - offset(a.hash_loc); }
  unsigned line(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getLine(); }
  unsigned column(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getColumn(); }
  std::string line_directive(unsigned n) const { return translate::line_directive(n, display_name_); }
  // An expression of the input as written (a macro's name stays a name).
  std::string text_of(const Expr* e) const {
    return Lexer::getSourceText(sm_.getExpansionRange(e->getSourceRange()), sm_, lo_).str();
  }
  // The lookahead loop variable's type, as C spells it.
  std::string var_type(const Superblock& sb) const {
    return sb.loop.var->getType().getUnqualifiedType().getCanonicalType().getAsString(ctx_.getPrintingPolicy());
  }
  // The loop variable's value in iteration `k` (a long long): START + k *
  // STEP in its own type (unsigned: modulo, as its increment wraps).
  std::string loop_value(const Superblock& sb, const std::string& k) const {
    const std::string t = var_type(sb), n = "tucana_sb" + std::to_string(sb.index);
    if (sb.loop.var->getType()->isUnsignedIntegerType())
      return "(" + t + ")((unsigned long long)" + n + "_start + (unsigned long long)" + k + " * (unsigned long long)" +
             n + "_step)";
    return "(" + t + ")(" + n + "_start + " + k + " * " + n + "_step)";
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  std::string display_name_;  // the input's name as the user wrote it
  EditSet& edits_;
};

void Emitter::superblock(const Superblock& sb) {
  const std::string k = "tucana_sb" + std::to_string(sb.index);
  const std::size_t n = sb.regions.size();
  std::string where = llvm::sys::path::filename(display_name_).str() + ":" + std::to_string(line(sb.begin));

  // The region tables and tucana_sb_begin, in a block that also holds the
  // loop and tucana_sb_end (so that a superblock may be the body of an if).
  std::string s;
  llvm::raw_string_ostream os(s);
  std::string ind(column(sb.begin) - 1, ' ');
  os << "{ /* tucana: superblock " << where << ", regions";
  for (const Region& r : sb.regions) os << " " << r.name;
  os << (sb.lookahead ? ", lookahead" : "") << " (translated by tucana-translate) */\n";
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    if (r.deps.empty()) continue;
    os << ind << "  static const tucana_dependency " << k << "_deps_" << i << "[] = {";
    for (std::size_t d = 0; d < r.deps.size(); ++d)
      os << (d ? ", " : "") << "{" << r.deps[d].region << ", "
         << (split_needs_only_code(sb, r, r.deps[d]) ? "TUCANA_DEP_RAN" : r.deps[d].previous ? "1" : "0") << "}";
    os << "};\n";
  }
  os << ind << "  static const tucana_region_desc " << k << "_regions[] = {\n";
  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    os << ind << "      {" << c_string(r.name) << ", " << kind_constant(r) << ", " << r.deps.size() << ", ";
    if (r.deps.empty())
      os << "(const tucana_dependency *)0";
    else
      os << k << "_deps_" << i;
    os << "},\n";
  }
  os << ind << "  };\n";
  os << ind << "  static const tucana_superblock_desc " << k << "_desc = {" << c_string(where) << ", " << n << ", "
     << k << "_regions};\n";
  if (sb.lookahead) {
    // START, END and STEP once, before the loop, as the taskloop does (they
    // are pure: SuperblockLookahead.h); START as the loop variable holds it.
    const CanonicalLoop& h = sb.loop;
    os << ind << "  long long " << k << "_start = (long long)(" << var_type(sb) << ")(" << text_of(h.start) << "), "
       << k << "_end = (long long)(" << text_of(h.end) << "), " << k << "_step = " << (h.direction < 0 ? "-" : "")
       << "(long long)(" << (h.step ? text_of(h.step) : "1") << ");\n";
    os << ind << "  long long " << k << "_trips = "
       << trip_count_expression(h, k + "_start", k + "_end", k + "_step") << ";\n";
    os << ind << "  tucana_superblock *" << k << " = tucana_sb_begin_ahead(&" << k << "_desc, " << k << "_trips);\n";
  } else {
    os << ind << "  tucana_superblock *" << k << " = tucana_sb_begin(&" << k << "_desc);\n";
  }
  if (std::any_of(sb.regions.begin(), sb.regions.end(), [](const Region& r) { return r.split; }))
    os << ind << "  tucana_sb_track_buffers(" << k << ");\n";
  os.flush();
  bool own_pragma = sb.pragma && !sb.olap_block;
  // A loop pragma written before the superblock pragma (`#pragma GCC
  // unroll 2` then `#pragma tucana superblock`) must stay right before its
  // loop: the tables go before the loop pragma's line instead.
  const AttributedStmt* loop_pragma_first = nullptr;
  if (own_pragma)
    for (const auto& parent : ctx_.getParents(*unwrap_attributes(sb.stmt)))
      if (const auto* attributed = parent.get<AttributedStmt>();
          attributed && offset(attributed->getBeginLoc()) < offset(sb.pragma->hash_loc))
        loop_pragma_first = attributed;
  if (loop_pragma_first) {
    SourceLocation at = loop_pragma_first->getBeginLoc();
    unsigned line_start = offset(at) - (column(at) - 1);
    edits_.insert(line_start, kBeforeStatement, s + line_directive(line(at)) + "\n");
    edits_.replace(offset(sb.pragma->hash_loc), pragma_length(*sb.pragma), "");
  } else if (own_pragma) {
    // The pragma line becomes the tables; the next line keeps its number.
    // A `_Pragma(...)` with code after it on its line: that code goes on a
    // line of its own, at its column and with its line number.
    unsigned end = offset(sb.pragma->end_loc);
    llvm::StringRef rest = sm_.getBufferData(sm_.getMainFileID()).substr(end);
    rest = rest.substr(0, rest.find('\n'));
    std::string after = rest.trim().empty()
                            ? line_directive(line(sb.begin) + 1)
                            : line_directive(line(sb.begin)) + "\n" + std::string(column(sb.pragma->end_loc) - 1, ' ');
    edits_.replace(offset(sb.pragma->hash_loc), pragma_length(*sb.pragma), s + after);
  } else {
    // MATE (no superblock pragma) or a Bamboo olap block: before the loop.
    unsigned col = column(sb.begin);
    edits_.insert(offset(sb.begin), kInPlace, s + line_directive(line(sb.begin)) + "\n" + std::string(col - 1, ' '));
  }
  // After the loop: wait for the superblock's last requests.
  edits_.insert(statement_end_offset(unwrap_attributes(sb.stmt)), kInPlace, " tucana_sb_end(" + k + "); }");

  // The body: one dispatch loop per iteration, priorities first.
  std::string open;
  if (!sb.priority.empty()) open += " tucana_sb_priority(" + k + ", -1, (" + sb.priority + "));";
  for (std::size_t i = 0; i < n; ++i)
    if (!sb.regions[i].priority.empty())
      open += " tucana_sb_priority(" + k + ", " + std::to_string(i) + ", (" + sb.regions[i].priority + "));";
  if (sb.lookahead) {
    // Every iteration in one pass of the loop's body: each dispatch gives
    // the region and its iteration, the loop variable is set for it; after
    // the last, a variable of the enclosing scope gets its final value, and
    // the loop ends without running its increment again.
    const std::string v = sb.loop.var->getName().str();
    open += " long long " + k + "_k; for (int " + k + "_r; (" + k + "_r = tucana_sb_next_ahead(" + k + ", &" + k +
            "_k)) >= 0;) { " + v + " = " + loop_value(sb, k + "_k") + "; switch (" + k + "_r) {";
    std::string close = "} } ";
    if (!isa<DeclStmt>(cast<ForStmt>(unwrap_attributes(sb.stmt))->getInit()))
      close += v + " = " + loop_value(sb, k + "_trips") + "; ";
    edits_.insert(offset(sb.body->getRBracLoc()), kAfterInPlace, close + "break; ");
  } else {
    open += " for (int " + k + "_r; (" + k + "_r = tucana_sb_next(" + k + ")) >= 0;) switch (" + k + "_r) {";
    edits_.insert(offset(sb.body->getRBracLoc()), kAfterInPlace, "} ");
  }
  edits_.insert(offset(sb.body->getLBracLoc()) + 1, kInPlace, open);

  for (std::size_t i = 0; i < n; ++i) {
    const Region& r = sb.regions[i];
    std::string head = "case " + std::to_string(i) + ": { /* region " + r.name + " */";
    if (r.annotation)
      edits_.replace(offset(r.annotation->hash_loc), pragma_length(*r.annotation), head);
    else  // a Bamboo compute part has no pragma of its own
      edits_.insert(offset(r.first->getBeginLoc()), kAfterInPlace, head + " ");
    edits_.insert(statement_end_offset(r.last), kInPlace,
                  " tucana_sb_ran(" + k + ", " + std::to_string(i) + "); break; }");
  }
}

void Emitter::callee_block(const CalleeBlock& b) {
  edits_.replace(offset(b.annotation->hash_loc), pragma_length(*b.annotation),
                 std::string("/* tucana: ") + b.annotation->keyword() +
                     " block: its requests belong to the running region (translated by tucana-translate) */");
}

void Emitter::reinterpret(const Reinterpretation& r) {
  SourceLocation callee = r.call->getCallee()->getBeginLoc();
  unsigned length = Lexer::MeasureTokenLength(callee, sm_, lo_);
  edits_.replace(offset(callee), length, r.replacement);
}

// `#include <tucana/superblock.h>` at file scope right before the
// declaration that holds the first superblock: after the program's own
// includes and feature-test macros (_POSIX_C_SOURCE must come first), and
// outside any namespace or extern "C" block.
void Emitter::include_runtime(const Superblock& first) {
  DynTypedNode node = DynTypedNode::create(*first.stmt);
  const Decl* top = nullptr;
  for (;;) {
    auto parents = ctx_.getParents(node);
    if (parents.empty()) break;
    if (parents[0].get<TranslationUnitDecl>()) {
      top = node.get<Decl>();
      break;
    }
    node = parents[0];
  }
  SourceLocation at = top ? sm_.getExpansionLoc(top->getBeginLoc()) : sm_.getLocForStartOfFile(sm_.getMainFileID());
  unsigned begin = offset(at), line_start = begin - (column(at) - 1);
  llvm::StringRef before = sm_.getBufferData(sm_.getMainFileID()).substr(line_start, begin - line_start);
  std::string text = "#include <tucana/superblock.h>\n" + line_directive(line(at)) + "\n";
  if (before.trim().empty())
    edits_.insert(line_start, kBeforeStatement, text);
  else
    edits_.insert(begin, kBeforeStatement, "\n" + text + std::string(column(at) - 1, ' '));
}

}  // namespace

void emit_translation(ASTContext& ctx, const TranslationPlan& plan, const std::string& display_name,
                      EditSet& out) {
  if (plan.empty() && plan.erased.empty()) return;
  Emitter e(ctx, display_name, out);
  if (!plan.superblocks.empty()) e.include_runtime(plan.superblocks.front());
  for (const Superblock& sb : plan.superblocks) e.superblock(sb);
  for (const CalleeBlock& b : plan.callee_blocks) e.callee_block(b);
  for (const Reinterpretation& r : plan.reinterpretations) e.reinterpret(r);
  for (const Annotation* a : plan.erased) e.erase_pragma(*a);
}

std::string line_directive(unsigned line, llvm::StringRef display_name) {
  return "#line " + std::to_string(line) + " " + c_string(display_name);
}

}  // namespace tucana::translate
