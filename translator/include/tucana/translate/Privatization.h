// Privatization of global and static variables: each subrank gets its own
// copy (docs/privatization.md). The analysis finds the mutable variables of
// static storage duration that the main file defines and every use of a
// variable that may be privatized; the emitter turns them into edits:
//
//   int counter = 1;           ->  int counter TUCANA_PRIVATE = 1;
//   counter++;                 ->  TUCANA_PRIV(counter)++;
//   extern int total; total++  ->  TUCANA_PRIV_EXTERN(total)++;  (defined elsewhere:
//                                  privatized when its definition was)
//
// C++ variables with dynamic initialization or a destructor are constructed
// and destroyed once per subrank; static initializers that take the address
// of a privatized variable are recomputed per subrank; uses of libc's
// per-rank state (getopt, rand, strtok) go to per-subrank copies.
#pragma once

#include <string>
#include <vector>

#include "tucana/translate/EditSet.h"
#include "tucana/translate/PragmaParser.h"

namespace clang {
class ASTContext;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

struct PrivateVar {
  const clang::VarDecl* decl = nullptr;  // its definition in the main file
  // C++ dynamic initialization or a non-trivial destructor: the definition
  // becomes raw storage, constructed and destroyed once per subrank.
  bool dynamic = false;
  // Its static initializer names privatized variables (their addresses):
  // recomputed per subrank, which then sees its own copies.
  bool reinit = false;
  std::string type_text;  // dynamic: the type as printed
  std::string symbol;     // dynamic, at namespace scope: the linker's name
  // dynamic: what follows `new (p) T` (`(args)`, `{list}` or nothing);
  // reinit: the initializer. Uses of privatized variables in it rewritten.
  std::string init_text;
  // A static local of an inline function (C++): GCC cannot put it in the
  // section (it is in a COMDAT group), so it becomes a file-scope variable
  // `hoisted_name`, defined at offset `hoist_at` (before the function's
  // outermost declaration), and its declaration in the function disappears.
  std::string hoisted_name;
  unsigned hoist_at = 0;
  unsigned declarator_end = 0;  // offset just past the declarator (attributes go there)
  // declarator_end of each definition in the main file (C: tentative ones too).
  std::vector<unsigned> definition_ends;
  unsigned semicolon = 0;       // offset of the ';' ending the declaration (0: unknown)
};

// A use to rewrite: the text [begin, end) of the main file (the name, or a
// qualified name) becomes `replacement`.
struct PrivateUse {
  unsigned begin = 0, end = 0;
  std::string replacement;
};

// A compound literal at file scope (C): an object of static storage
// duration with no name. It becomes a privatized variable `name`, defined at
// `hoist_at` (before the declaration that holds it) with the literal's type
// and initializer; the literal's text [begin, end) becomes the name.
struct PrivateLiteral {
  unsigned begin = 0, end = 0, hoist_at = 0;
  std::string name;
  std::string literal_text;  // (T){...} as written
  std::string init_text;     // {...} as written
};

struct PrivatizationPlan {
  std::vector<PrivateVar> vars;
  std::vector<PrivateLiteral> literals;
  std::vector<PrivateUse> uses;  // sorted by offset, no two overlapping
  // thread_local / __thread / _Thread_local keywords to remove: [begin, end).
  std::vector<std::pair<unsigned, unsigned>> tls_keywords;
  // '#pragma tucana shared' lines [begin, end): they become comments.
  std::vector<std::pair<unsigned, unsigned>> shared_pragmas;
  // Variables marked '#pragma tucana shared': their names go into the
  // object's section tucana_shared_names, so that tucanacc does not list
  // them at the link as shared by mistake.
  std::vector<std::string> shared_names;
  bool empty() const { return vars.empty() && literals.empty() && uses.empty() && shared_pragmas.empty(); }
};

// Finds what to privatize in the main file of `ctx`. Variables that cannot be
// privatized exactly get a warning naming them (never a silent change);
// `#pragma tucana shared` in `annotations` keeps variables shared.
PrivatizationPlan analyze_privatization(clang::ASTContext& ctx, const AnnotationList& annotations);

// Adds the edits of `plan` to `out`.
void emit_privatization(clang::ASTContext& ctx, const PrivatizationPlan& plan, EditSet& out);

}  // namespace tucana::translate
