// A Tucana annotation (#pragma tucana|toucan|mate|bamboo ...) parsed into a
// typed record with its source locations.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"

namespace tucana::translate {

enum class AnnotationKind {
  Superblock,  // tucana/toucan superblock; bamboo olap
  Receive,     // receive (a bamboo receive block)
  Send,        // send (a bamboo send block)
  Compute,     // compute
  Region,      // region(NAME) depends(...)
  Priority,    // bamboo priority(n): the priority of the enclosing olap region
  Shared,      // tucana shared[(NAMES)]: variables that stay shared by the subranks
  Task,        // tucana task [depend(...)] [shared(...)] [priority(E)] [boundary] [name("L")]
  Taskwait,    // tucana taskwait
  Taskloop,    // tucana taskloop [num_tasks(E) | grainsize(E)] [shared(...)] [priority(E)] [boundary] [name("L")]
};

// One item of a task's depend(in|out|inout: ITEM, ...) clause: an lvalue
// expression as written, keyed by its address at the spawn.
struct TaskDepend {
  enum Kind { In = 1, Out = 2, InOut = 3 } kind = In;  // the values of enum tucana_dep_kind
  std::string expr;
  clang::SourceLocation loc;
};

// One name in depends(...): `name` (same iteration) or `name*` (previous).
struct Dependency {
  std::string name;
  bool previous = false;
  clang::SourceLocation loc;
};

// The role a region plays for the MPI checks: what its calls may do.
enum class RegionRole { Receive, Send, Compute, Any };

struct Annotation {
  AnnotationKind kind;
  std::string spelling;           // "tucana", "toucan", "mate" or "bamboo"
  std::string name;               // region name: given, or receive/send/compute
  std::vector<Dependency> deps;   // explicit form only
  std::vector<Dependency> names;  // shared(NAMES): the variables named (empty: the next declaration's)
  bool has_depends = false;
  bool has_role = false;          // role(...) given on a named region
  RegionRole role = RegionRole::Any;
  std::string priority;           // priority(EXPR) as written ("" when absent)
  // split(off) or split(N) on a compute region (RegionSplit.h): no split,
  // or the halo width the user asserts (-1: neither given, the analysis decides)
  bool has_split = false;
  bool split_off = false;
  int split_halo = -1;
  clang::SourceLocation split_loc;
  clang::SourceLocation priority_loc;
  // task and taskloop clauses (names: the variables of shared(...))
  std::vector<TaskDepend> task_deps;
  bool has_shared = false;
  bool boundary = false;
  std::string label;                // name("...") as written, quotes included ("" when absent)
  std::string num_tasks, grainsize; // taskloop: EXPR as written ("" when absent)
  clang::SourceLocation hash_loc;    // the '#' of the pragma line
  clang::SourceLocation keyword_loc; // the keyword after the namespace
  clang::SourceLocation end_loc;     // end of the pragma line (its newline)
  // Malformed (already reported): still attached to its statement, so that
  // one mistake gives one error and no follow-on ones about its statement.
  bool broken = false;

  bool is_region() const {
    return kind == AnnotationKind::Receive || kind == AnnotationKind::Send || kind == AnnotationKind::Compute ||
           kind == AnnotationKind::Region;
  }
  bool is_three_region_form() const {
    return kind == AnnotationKind::Receive || kind == AnnotationKind::Send || kind == AnnotationKind::Compute;
  }
  bool is_bamboo() const { return spelling == "bamboo"; }
  bool is_task() const {
    return kind == AnnotationKind::Task || kind == AnnotationKind::Taskwait || kind == AnnotationKind::Taskloop;
  }
  // The keyword as this spelling writes it ("olap" for a Bamboo superblock).
  const char* keyword() const;
};

const char* kind_keyword(AnnotationKind kind);

}  // namespace tucana::translate
