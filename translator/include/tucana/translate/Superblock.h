// The model of one annotated loop after analysis: its regions, their
// dependency graph, the loop variable, and the rewrites inside it.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "tucana/translate/Annotation.h"

namespace clang {
class ForStmt;
class Stmt;
class CallExpr;
}  // namespace clang

namespace tucana::translate {

struct RegionDep {
  int region;
  bool previous;
};

struct Region {
  std::string name;
  AnnotationKind kind;            // Receive/Send/Compute, or Region for a named one
  const Annotation* annotation;
  const clang::Stmt* body;        // the statement the pragma applies to
  std::vector<RegionDep> deps;
};

// A wait call inside the superblock to be replaced by tucana_sb_wait*.
struct WaitCall {
  const clang::CallExpr* call;
  std::string replacement;  // "tucana_sb_wait" or "tucana_sb_waitall"
};

struct LoopVariable {
  std::string name;
  std::string type;            // as written for a declaration of a copy
  bool declared_in_init;       // for (int i = ...) rather than for (i = ...)
};

struct Superblock {
  int index;                              // order in the file: names tucana_sb<index>
  const Annotation* pragma;               // null for the MATE form (no superblock pragma)
  const clang::ForStmt* loop;
  clang::SourceLocation begin;            // start of the text that is replaced
  bool three_region_form;                 // receive/send/compute with the default graph
  std::vector<Region> regions;
  LoopVariable var;
  std::vector<WaitCall> waits;
};

}  // namespace tucana::translate
