// Parsing of the annotation pragmas with real clang::PragmaHandlers: one per
// accepted namespace (tucana, toucan, mate). Each pragma becomes a typed
// Annotation; malformed ones are reported through the DiagnosticsEngine.
#pragma once

#include <memory>
#include <vector>

#include "tucana/translate/Annotation.h"

namespace clang {
class Preprocessor;
}

namespace tucana::translate {

// Collects the annotations of one translation unit in source order.
class AnnotationList {
 public:
  void add(Annotation a) { annotations_.push_back(std::move(a)); }
  const std::vector<Annotation>& all() const { return annotations_; }

 private:
  std::vector<Annotation> annotations_;
};

// Registers the pragma handlers on `pp`; parsed annotations go to `out`,
// which must outlive the preprocessor's use of the handlers.
void register_annotation_pragmas(clang::Preprocessor& pp, AnnotationList& out);

}  // namespace tucana::translate
