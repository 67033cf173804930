// The edits of one file, from every stage of the translation (superblocks,
// privatization, tasks) and of tucana-cco. Insertions at one offset are
// joined in the order of their rank, an InsertRank (so that, say, the end of
// the last region comes before the end of the dispatch loop when no space
// separates them); apply() puts every edit into one tooling::Replacements,
// which reports overlaps.
#pragma once

#include <algorithm>
#include <cassert>
#include <map>
#include <string>
#include <vector>

#include "clang/Tooling/Core/Replacement.h"

namespace tucana::translate {

// What goes before what among the insertions at one offset (lower first;
// insertions of equal rank keep the order they were made in). Only the order
// matters: the values are spaced for kOutlinedFunction's depth offsets.
enum InsertRank : int {
  // An #include the translated code needs: first of all at the file's start.
  kInclude = -3,
  // What opens the file after its includes: the #line back to line 1 (and
  // tucana-cco's macros).
  kFilePreamble = -2,
  // Whole lines (ending in a #line back) put before the statement or
  // declaration that starts at this offset, ahead of that statement's own
  // edits.
  kBeforeStatement = -1,
  // Text in place: a statement's opening or closing text, a rename.
  kInPlace = 0,
  // Text that must follow the kInPlace text at the same offset: the close of
  // a dispatch loop after the end of its last region, a region's head after
  // the loop's opening, declarations after a call put at a block's start.
  kAfterInPlace = 1,
  // Definitions appended at the end of the file.
  kEndOfFile = 10,
  // After those: what registers them (it names them).
  kEndOfFileLast = 11,
  // A task's outlined function, after every other insertion at its offset;
  // the rank is kOutlinedFunction minus the task's nesting depth, so that an
  // inner task's function comes first (the outer one spawns it).
  kOutlinedFunction = 100,
};

class EditSet {
 public:
  // Contract: `text` is not empty (an empty insertion is a stage's bug);
  // `rank` is an InsertRank (kOutlinedFunction less a depth included).
  void insert(unsigned offset, int rank, std::string text) {
    assert(!text.empty() && "an empty insertion");
    inserts_[offset].emplace(rank, std::move(text));
  }
  // Contract: the range does not wrap around. (It may be empty: a pragma
  // that a macro expands to has no text of its own to erase.)
  void replace(unsigned offset, unsigned length, std::string text) {
    assert(offset + length >= offset && "a replaced range wraps around");
    replaces_.push_back({offset, length, std::move(text)});
  }
  bool empty() const { return inserts_.empty() && replaces_.empty(); }
  // Removes the edits inside [begin, end) of `buffer` (insertions strictly
  // after `begin`, replacements wholly inside) and returns the range's text
  // with them applied: for text that moves elsewhere with its edits (a
  // task's statement into its outlined function). `ok` is false when an edit
  // straddles an end of the range or two edits overlap (then the result must
  // not be used).
  std::string extract(llvm::StringRef buffer, unsigned begin, unsigned end, bool& ok) {
    ok = true;
    std::map<unsigned, std::string> inserted;
    for (auto it = inserts_.lower_bound(begin + 1); it != inserts_.end() && it->first < end;) {
      for (auto& [rank, text] : it->second) inserted[it->first] += text;
      it = inserts_.erase(it);
    }
    std::vector<Replace> inside;
    for (auto it = replaces_.begin(); it != replaces_.end();) {
      unsigned b = it->offset, e = it->offset + it->length;
      if (b >= begin && e <= end && !(it->length == 0 && b == begin)) {
        inside.push_back(*it);
        it = replaces_.erase(it);
        continue;
      }
      if ((b < begin && e > begin) || (b < end && e > end)) ok = false;
      ++it;
    }
    std::sort(inside.begin(), inside.end(), [](const Replace& x, const Replace& y) { return x.offset < y.offset; });
    std::string out;
    unsigned at = begin;
    auto ins = inserted.begin();
    for (const Replace& r : inside) {
      for (; ins != inserted.end() && ins->first <= r.offset; ++ins) {
        out += buffer.substr(at, ins->first - at).str() + ins->second;
        at = ins->first;
      }
      if (r.offset < at || (ins != inserted.end() && ins->first < r.offset + r.length)) ok = false;
      if (!ok) return "";
      out += buffer.substr(at, r.offset - at).str() + r.text;
      at = r.offset + r.length;
    }
    for (; ins != inserted.end(); ++ins) {
      if (ins->first < at) return ok = false, "";
      out += buffer.substr(at, ins->first - at).str() + ins->second;
      at = ins->first;
    }
    return out + buffer.substr(at, end - at).str();
  }
  // The text of [begin, end) of `buffer` with the edits inside applied, the
  // edits kept (extract() without removing them); `ok` as there.
  std::string rendered(llvm::StringRef buffer, unsigned begin, unsigned end, bool& ok) const {
    EditSet copy = *this;
    return copy.extract(buffer, begin, end, ok);
  }
  llvm::Error apply(llvm::StringRef file, clang::tooling::Replacements& out) const {
    for (auto& [offset, texts] : inserts_) {
      std::string joined;
      for (auto& [rank, text] : texts) joined += text;
      if (llvm::Error e = out.add(clang::tooling::Replacement(file, offset, 0, joined))) return e;
    }
    for (const Replace& r : replaces_)
      if (llvm::Error e = out.add(clang::tooling::Replacement(file, r.offset, r.length, r.text))) return e;
    return llvm::Error::success();
  }
  // `buffer` (the text of `file`) with every edit applied; an error when two
  // edits overlap, which is a bug of the stages that made them.
  llvm::Expected<std::string> rewrite(llvm::StringRef file, llvm::StringRef buffer) const {
    clang::tooling::Replacements replacements;
    if (llvm::Error e = apply(file, replacements)) return llvm::Expected<std::string>(std::move(e));
    return clang::tooling::applyAllReplacements(buffer, replacements);
  }

 private:
  struct Replace {
    unsigned offset, length;
    std::string text;
  };
  std::map<unsigned, std::multimap<int, std::string>> inserts_;
  std::vector<Replace> replaces_;
};

}  // namespace tucana::translate
