// Emission of a split compute region (RegionSplit.h). Around the region as
// written, whose lines keep their numbers:
//
//   #pragma tucana compute         ->  case K: { /* region compute */ PROLOGUE
//                                      if (split) { INTERIOR: a copy of the nest over box 0 }
//                                      tucana_sb_await_deps(sb);      (then #line back)
//   {
//     MPI_Waitall(...); unpack ...     (as written)
//     for (i = LO; i <= HI; i++) ...   for (b ...) { box b: for (i = box[0]; i < box[1]; i++) ... }
//     ...
//   }
//
// PROLOGUE computes the nest's box from its bounds, its interior and
// boundary boxes (tucana_split_boxes), and asks the runtime whether the
// interior may run now (tucana_sb_split_clear). The copy and the bounds are
// rendered with the other stages' edits inside them (privatized globals).
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/RegionSplit.h"
#include "tucana/translate/StatementText.h"
#include "tucana/translate/SuperblockEmitter.h"

namespace tucana::translate {

namespace {

using namespace clang;

class SplitEmitter {
 public:
  SplitEmitter(ASTContext& ctx, const std::string& display_name, EditSet& edits)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), display_name_(display_name), edits_(edits),
        buffer_(sm_.getBufferData(sm_.getMainFileID())) {}

  void region(const Superblock& sb, const SplitPlan& p);

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  // [begin, end) of an expression's text in the file.
  std::pair<unsigned, unsigned> range(const Expr* e) const {
    SourceLocation b = sm_.getExpansionRange(e->getBeginLoc()).getBegin();
    SourceLocation last = sm_.getExpansionRange(e->getEndLoc()).getEnd();
    return {offset(b), offset(Lexer::getLocForEndOfToken(last, 0, sm_, lo_))};
  }
  std::string rendered(unsigned begin, unsigned end) {
    bool ok = true;
    std::string text = edits_.rendered(buffer_, begin, end, ok);
    ok_ = ok_ && ok;
    return text;
  }
  std::string rendered(const Expr* e) {
    auto [b, en] = range(e);
    return rendered(b, en);
  }
  unsigned line(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getLine(); }
  unsigned column(SourceLocation loc) const { return sm_.getPresumedLoc(sm_.getExpansionLoc(loc)).getColumn(); }
  // The element of `a` at the low (or high) corner of the box `box`.
  std::string corner(const SplitArray& a, const std::string& box, bool high);

  const ASTContext& ctx_;
  const SourceManager& sm_;
  const LangOptions& lo_;
  std::string display_name_;
  EditSet& edits_;
  llvm::StringRef buffer_;
  bool ok_ = true;
};

std::string SplitEmitter::corner(const SplitArray& a, const std::string& box, bool high) {
  std::string s = "&(" + rendered(a.name) + ")";
  for (const SplitArray::Dim& d : a.dims) {
    if (d.level < 0) {
      s += "[" + rendered(d.invariant_expr) + "]";
      continue;
    }
    std::string b = box + "[" + std::to_string(2 * d.level + (high ? 1 : 0)) + "]";
    long long off = high ? d.max_offset - 1 : d.min_offset;
    s += "[" + b + (off < 0 ? " - " + std::to_string(-off) : off > 0 ? " + " + std::to_string(off) : "") + "]";
  }
  return high ? "(const void *)(" + s + " + 1)" : "(const void *)" + s;
}

void SplitEmitter::region(const Superblock& sb, const SplitPlan& p) {
  const Region& r = sb.regions[static_cast<std::size_t>(p.region)];
  const std::string k = "tucana_sb" + std::to_string(sb.index);
  const std::string n = k + "_r" + std::to_string(p.region) + "_";
  const std::size_t D = p.loops.size();
  const std::string d2 = std::to_string(2 * D);

  // The box, the boxes, and whether the interior may run now.
  std::string pro;
  llvm::raw_string_ostream os(pro);
  os << " long long " << n << "box[" << d2 << "] = {";
  for (std::size_t i = 0; i < D; ++i) {
    const SplitLoop& l = p.loops[i];
    os << (i ? ", " : "") << "(" << rendered(l.start) << "), (" << rendered(l.end) << ")"
       << (l.inclusive ? " + 1" : "");
  }
  os << "}; static const int " << n << "halo[" << d2 << "] = {";
  for (std::size_t i = 0; i < D; ++i)
    os << (i ? ", " : "") << p.loops[i].halo_lo << ", " << p.loops[i].halo_hi;
  os << "}; long long " << n << "boxes[" << std::to_string((2 * D + 2) * 2 * D) << "]; int " << n
     << "n = tucana_split_boxes(" << D << ", " << n << "box, " << n << "halo, " << n << "boxes); int " << n
     << "split = 0; if (" << n << "n > 0) { tucana_span " << n << "spans[] = {";
  for (std::size_t i = 0; i < p.arrays.size(); ++i)
    os << (i ? ", " : "") << "{" << corner(p.arrays[i], n + "box", false) << ", "
       << corner(p.arrays[i], n + "box", true) << ", " << (p.arrays[i].written ? 1 : 0) << "}";
  os << "}; " << n << "split = tucana_sb_split_clear(" << k << ", " << p.arrays.size() << ", " << n
     << "spans); } if (" << n << "split) { const long long *tucana_box = " << n << "boxes;\n";

  // The interior: the nest's text, its headers over tucana_box.
  unsigned nest_begin = offset(p.nest->getBeginLoc());
  unsigned nest_end = statement_end_offset(sm_, lo_, p.nest);
  os << line_directive(line(p.nest->getBeginLoc()), display_name_) << "\n"
     << std::string(column(p.nest->getBeginLoc()) - 1, ' ');
  unsigned at = nest_begin;
  for (std::size_t i = 0; i < D; ++i) {
    const SplitLoop& l = p.loops[i];
    auto [sb0, se0] = range(l.start);
    auto [cb, ce] = range(l.loop->getCond());
    std::string v = l.var->getNameAsString();
    // In the loop variable's type: no conversion or sign-compare warnings.
    std::string type = "(" + l.var->getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy()) + ")";
    std::string lo = type + "tucana_box[" + std::to_string(2 * i) + "]",
                hi = type + "tucana_box[" + std::to_string(2 * i + 1) + "]";
    os << rendered(at, sb0) << lo << rendered(se0, cb) << v << " < " << hi;
    at = ce;
    // In place: the same headers, over the box of the current pass.
    bool ok = true;
    edits_.extract(buffer_, sb0, se0, ok);
    edits_.extract(buffer_, cb, ce, ok);
    ok_ = ok_ && ok;
    edits_.replace(sb0, se0 - sb0, lo);
    edits_.replace(cb, ce - cb, v + " < " + hi);
  }
  os << rendered(at, nest_end) << "\n } tucana_sb_await_deps(" << k << ");\n"
     << line_directive(line(r.annotation->hash_loc) + 1, display_name_);
  os.flush();
  edits_.insert(offset(r.annotation->end_loc), kInPlace, pro);

  // The nest in place: the boundary boxes after a split, else the whole box.
  edits_.insert(nest_begin, kBeforeStatement,
                "for (int " + n + "b = " + n + "split ? 1 : " + n + "n; " + n + "b < (" + n + "split ? " + n +
                    "n : " + n + "n + 1); ++" + n + "b) { const long long *tucana_box = " + n + "boxes + " + d2 +
                    " * " + n + "b; ");
  edits_.insert(nest_end, kInPlace, " }");
  if (!ok_) {
    // An edit of another stage straddles the nest's headers: leave the
    // region as it is (the analysis cannot see such edits; none exists today).
    llvm::report_fatal_error("tucana-translate: an edit straddles a split loop header");
  }
}

}  // namespace

void emit_splits(ASTContext& ctx, const TranslationPlan& plan, const std::vector<SplitPlan>& splits,
                 const std::string& display_name, EditSet& edits) {
  SplitEmitter e(ctx, display_name, edits);
  for (const SplitPlan& p : splits)
    for (const Superblock& sb : plan.superblocks)
      if (sb.index == p.superblock) e.region(sb, p);
}

}  // namespace tucana::translate
