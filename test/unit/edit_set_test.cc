// EditSet (translator/include/tucana/translate/EditSet.h): extract() takes
// the edits inside a range out with the range's text, the edits outside
// stay; insertions at one offset join in the order of their InsertRank.
#include <string>

#include <gtest/gtest.h>

#include "tucana/translate/EditSet.h"

namespace {

using tucana::translate::EditSet;
namespace translate = tucana::translate;

// What `edits` makes of `buffer`, or "<overlap>" when they overlap.
std::string applied(const EditSet& edits, llvm::StringRef buffer) {
  llvm::Expected<std::string> text = edits.rewrite("f.c", buffer);
  if (!text) {
    llvm::consumeError(text.takeError());
    return "<overlap>";
  }
  return *text;
}

// offsets:                    0         1         2
//                             01234567890123456789012345
const llvm::StringRef kText = "a = 1; { b = 2; c = 3; } d";

// Extracts [7, 23) of kText from `edits`: `inside` is what comes out, and
// `rest` what the edits left behind make of kText.
void expect_split(EditSet& edits, const std::string& inside, const std::string& rest) {
  bool ok = false;
  EXPECT_EQ(edits.extract(kText, 7, 23, ok), inside);
  EXPECT_TRUE(ok);
  EXPECT_EQ(applied(edits, kText), rest);
}

TEST(EditSetExtract, TakesTheEditsInsideAndLeavesTheOthers) {
  EditSet edits;
  edits.insert(0, translate::kInPlace, "/*0*/");      // before the range
  edits.insert(9, translate::kInPlace, "/*9*/");      // inside
  edits.replace(9, 1, "bb");                          // inside, after the insertion at 9
  edits.replace(16, 1, "cc");                         // inside
  edits.insert(25, translate::kInPlace, "/*25*/");    // after the range
  // What stays applies to the rest; the range itself is back to its text.
  expect_split(edits, "{ /*9*/bb = 2; cc = 3; ", "/*0*/a = 1; { b = 2; c = 3; } /*25*/d");
}

TEST(EditSetExtract, AnInsertionAtTheBeginStaysOutside) {
  EditSet edits;
  edits.insert(7, translate::kInPlace, "<");
  edits.insert(23, translate::kInPlace, ">");  // at the end: inside is [begin, end), so it stays too
  expect_split(edits, "{ b = 2; c = 3; ", "a = 1; <{ b = 2; c = 3; >} d");
}

TEST(EditSetExtract, InsertionsAtOneOffsetJoinInRankOrder) {
  EditSet edits;
  edits.insert(9, translate::kAfterInPlace, "[after]");
  edits.insert(9, translate::kInPlace, "[in place]");
  edits.insert(9, translate::kBeforeStatement, "[before]");
  bool ok = false;
  EXPECT_EQ(edits.extract(kText, 7, 23, ok), "{ [before][in place][after]b = 2; c = 3; ");
  EXPECT_TRUE(ok);
  EXPECT_TRUE(edits.empty());
}

TEST(EditSetExtract, AReplacementAcrossAnEndIsNotOk) {
  EditSet edits;
  edits.replace(5, 4, "x");  // "; { " straddles the range's start
  bool ok = true;
  edits.extract(kText, 7, 23, ok);
  EXPECT_FALSE(ok);
  EditSet at_end;
  at_end.replace(22, 4, "x");  // "; } " straddles the range's end
  ok = true;
  at_end.extract(kText, 7, 23, ok);
  EXPECT_FALSE(ok);
}

TEST(EditSetExtract, AnInsertionInsideAReplacementIsNotOk) {
  EditSet edits;
  edits.replace(9, 5, "b=2");
  edits.insert(11, translate::kInPlace, "x");
  bool ok = true;
  edits.extract(kText, 7, 23, ok);
  EXPECT_FALSE(ok);
}

TEST(EditSetExtract, RenderedKeepsTheEdits) {
  EditSet edits;
  edits.replace(9, 1, "bb");
  bool ok = false;
  EXPECT_EQ(edits.rendered(kText, 7, 23, ok), "{ bb = 2; c = 3; ");
  EXPECT_TRUE(ok);
  EXPECT_EQ(applied(edits, kText), "a = 1; { bb = 2; c = 3; } d");
}

}  // namespace
