// The model of one annotated superblock after analysis: its regions, their
// dependency graph, and the rewrites inside it. See docs/translator.md.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "tucana/translate/Annotation.h"

namespace clang {
class Stmt;
class CompoundStmt;
class CallExpr;
}  // namespace clang

namespace tucana::translate {

struct RegionDep {
  int region;
  bool previous;
  clang::SourceLocation loc;  // the name in depends(...), when written
};

struct Region {
  std::string name;
  AnnotationKind kind;            // Receive/Send/Compute, or Region for a named one
  RegionRole role;                // what its MPI calls may do
  const Annotation* annotation;   // null for a Bamboo compute part (no pragma of its own)
  const clang::Stmt* first;       // its statements: first..last of the body
  const clang::Stmt* last;
  std::vector<RegionDep> deps;
  std::string priority;           // priority(EXPR) as written, or ""
};

// A blocking point-to-point call of a receive or send block posted instead
// (the Bamboo reinterpretation): the callee name is replaced.
struct Reinterpretation {
  const clang::CallExpr* call;
  const char* replacement;  // tucana_sb_recv, tucana_sb_send or tucana_sb_sendrecv
};

enum class SuperblockShape { For, While, Do, RangeFor, Block };

struct Superblock {
  int index;                              // order in the file: names tucana_sb<index>
  const Annotation* pragma;               // null for the MATE form (no superblock pragma)
  const clang::Stmt* stmt;                // the loop or block as written (attributes included)
  const clang::CompoundStmt* body;        // its { } body: the regions
  const clang::CompoundStmt* olap_block = nullptr;  // Bamboo olap on a block of the loop body
  SuperblockShape shape;
  clang::SourceLocation begin;            // where the superblock's text starts
  bool three_region_form;                 // receive/send/compute with the default graph
  std::vector<Region> regions;
  std::string priority;                   // the whole superblock's priority, or ""
};

// A receive/send/compute block outside any superblock (in a function called
// from a superblock's region): its calls are checked and reinterpreted; at
// run time its requests belong to the region that is running.
struct CalleeBlock {
  const Annotation* annotation;
  const clang::Stmt* stmt;
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
