// A Tucana annotation (#pragma tucana|toucan|mate ...) parsed into a typed
// record with its source locations.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"

namespace tucana::translate {

enum class AnnotationKind {
  Superblock,  // superblock
  Receive,     // receive
  Send,        // send
  Compute,     // compute
  Region,      // region(NAME) depends(...)
};

// One name in depends(...): `name` (same iteration) or `name*` (previous).
struct Dependency {
  std::string name;
  bool previous = false;
  clang::SourceLocation loc;
};

struct Annotation {
  AnnotationKind kind;
  std::string spelling;           // "tucana", "toucan" or "mate"
  std::string name;               // region name: given, or receive/send/compute
  std::vector<Dependency> deps;   // explicit form only
  bool has_depends = false;
  clang::SourceLocation hash_loc;    // the '#' of the pragma line
  clang::SourceLocation keyword_loc; // the keyword after the namespace
  clang::SourceLocation end_loc;     // end of the pragma line

  bool is_region() const { return kind != AnnotationKind::Superblock; }
  bool is_three_region_form() const {
    return kind == AnnotationKind::Receive || kind == AnnotationKind::Send || kind == AnnotationKind::Compute;
  }
};

const char* kind_keyword(AnnotationKind kind);

}  // namespace tucana::translate
