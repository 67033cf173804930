// The model of one annotated superblock after analysis: its regions, their
// dependency graph, and the rewrites inside it. See docs/translator.md.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "tucana/translate/Annotation.h"
#include "tucana/translate/CanonicalLoop.h"

namespace clang {
class Stmt;
class CompoundStmt;
class CallExpr;
}  // namespace clang

namespace tucana::translate {

struct RegionDep {
  int region = -1;
  bool previous = false;
  clang::SourceLocation loc;  // the name in depends(...), when written
};

struct Region {
  std::string name;
  AnnotationKind kind;            // Receive/Send/Compute, or Region for a named one
  RegionRole role;                // what its MPI calls may do
  const Annotation* annotation = nullptr;  // null for a Bamboo compute part (no pragma of its own)
  const clang::Stmt* first = nullptr;      // its statements: first..last of the body
  const clang::Stmt* last = nullptr;
  std::vector<RegionDep> deps;
  std::string priority;           // priority(EXPR) as written, or ""
  bool split = false;             // split into interior and boundary (RegionSplit.h)
};

// A blocking point-to-point call of a receive or send block posted instead
// (the Bamboo reinterpretation): the callee name is replaced.
struct Reinterpretation {
  const clang::CallExpr* call = nullptr;
  const char* replacement = nullptr;  // tucana_sb_recv, tucana_sb_send or tucana_sb_sendrecv
};

enum class SuperblockShape { For, While, Do, RangeFor, Block };

struct Superblock {
  int index = 0;                          // order in the file: names tucana_sb<index>
  const Annotation* pragma = nullptr;     // null for the MATE form (no superblock pragma)
  const clang::Stmt* stmt = nullptr;      // the loop or block as written (attributes included)
  const clang::CompoundStmt* body = nullptr;  // its { } body: the regions
  const clang::CompoundStmt* olap_block = nullptr;  // Bamboo olap on a block of the loop body
  SuperblockShape shape = SuperblockShape::Block;
  clang::SourceLocation begin;            // where the superblock's text starts
  // receive/send/compute with the default graph (copied with the rest before
  // the analysis decides it: initialized, as copying an indeterminate bool
  // is undefined, which UndefinedBehaviorSanitizer caught)
  bool three_region_form = false;
  std::vector<Region> regions;
  std::string priority;                   // the whole superblock's priority, or ""
  // The lookahead form (SuperblockLookahead.h, docs/translator.md): the
  // trip count computed before the loop, each region running ahead as far
  // as the graph allows; `loop` is the canonical header's parts then.
  // false: iteration at a time.
  bool lookahead = false;
  CanonicalLoop loop;
};

// A receive/send/compute block outside any superblock (in a function called
// from a superblock's region): its calls are checked against its role (its
// blocking calls stay blocking: the function may read the buffer after the
// block); at run time its requests belong to the region that is running.
struct CalleeBlock {
  const Annotation* annotation = nullptr;
  const clang::Stmt* stmt = nullptr;
};

// Everything the emitter needs for one file.
struct TranslationPlan {
  std::vector<Superblock> superblocks;
  std::vector<CalleeBlock> callee_blocks;
  std::vector<Reinterpretation> reinterpretations;
  std::vector<const Annotation*> erased;  // pragma lines that only disappear (bamboo priority)
  bool empty() const { return superblocks.empty() && callee_blocks.empty(); }
};

}  // namespace tucana::translate
