// The edits of one file, from every stage of the translation (superblocks,
// privatization). Insertions at one offset are joined in the order of their
// rank (so that, say, the end of the last region comes before the end of the
// dispatch loop when no space separates them); apply() puts every edit into
// one tooling::Replacements, which reports overlaps.
#pragma once

#include <cassert>
#include <map>
#include <string>
#include <vector>

#include "clang/Tooling/Core/Replacement.h"

namespace tucana::translate {

class EditSet {
 public:
  // Contract: `text` is not empty (an empty insertion is a stage's bug).
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

 private:
  struct Replace {
    unsigned offset, length;
    std::string text;
  };
  std::map<unsigned, std::multimap<int, std::string>> inserts_;
  std::vector<Replace> replaces_;
};

}  // namespace tucana::translate
