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

#include <map>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"

#include "tucana/translate/EditSet.h"
#include "tucana/translate/PragmaParser.h"

namespace clang {
class ASTContext;
class SourceManager;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

// Every offset below is within `file`: the main file, or one of the
// program's own headers when they are rewritten too (PrivatizationOptions).

struct PrivateVar {
  const clang::VarDecl* decl = nullptr;  // its definition in the main file or an own header
  clang::FileID file;                    // where that definition is
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
  bool hoisted_weak = false;  // a weak definition (an inline function of a header), not a static one
  unsigned hoist_at = 0;
  // A member function defined in its class: the variable is defined at
  // `hoist_after` (after the class), and reached through the function
  // `accessor` (declared at hoist_at, defined after the variable).
  std::string accessor;
  unsigned hoist_after = 0;
  unsigned declarator_end = 0;  // offset just past the declarator (attributes go there)
  bool weak = false;  // -fcommon and only tentative definitions: a weak definition
  // declarator_end of each definition in the files rewritten (C: tentative ones too).
  std::vector<std::pair<clang::FileID, unsigned>> definition_ends;
  unsigned semicolon = 0;       // offset of the ';' ending the declaration (0: unknown)
};

// A use to rewrite: the text [begin, end) of the main file (the name, or a
// qualified name) becomes `replacement`.
struct PrivateUse {
  clang::FileID file;
  unsigned begin = 0, end = 0;
  std::string replacement;
};

// A compound literal at file scope (C): an object of static storage
// duration with no name. It becomes a privatized variable `name`, defined at
// `hoist_at` (before the declaration that holds it) with the literal's type
// and initializer; the literal's text [begin, end) becomes the name.
struct PrivateLiteral {
  clang::FileID file;
  unsigned begin = 0, end = 0, hoist_at = 0;
  std::string name;
  std::string literal_text;  // (T){...} as written
  std::string init_text;     // {...} as written
};

struct PrivatizationPlan {
  std::vector<PrivateVar> vars;
  std::vector<PrivateLiteral> literals;
  std::vector<PrivateUse> uses;  // sorted by file and offset, no two overlapping
  struct Range {
    clang::FileID file;
    unsigned begin, end;
  };
  // thread_local / __thread / _Thread_local keywords to remove.
  std::vector<Range> tls_keywords;
  // '#pragma tucana shared' lines: they become comments.
  std::vector<Range> shared_pragmas;
  // Variables marked '#pragma tucana shared': their names go into the
  // object's section tucana_shared_names, so that tucanacc does not list
  // them at the link as shared by mistake.
  std::vector<std::string> shared_names;
  // OpenMP threadprivate variables defined here, as the end of the main
  // file names them: left as they are (a copy per thread) and registered
  // with the runtime, which keeps their values per subrank and per thread.
  std::vector<std::string> threadprivate;
  // A threadprivate static local (which the registration cannot name): it
  // becomes the threadprivate variable `name` at file scope, defined at
  // `hoist_at` (before the function's outermost declaration) with
  // `definition`; its declaration [decl_begin, decl_end) and its directive's
  // line [pragma_begin, pragma_end) become comments. Its uses are renamed.
  struct ThreadPrivateLocal {
    clang::FileID file;
    unsigned hoist_at = 0, hoist_line = 0;
    std::string name, definition, original;
    unsigned decl_begin = 0, decl_end = 0, pragma_begin = 0, pragma_end = 0;
  };
  std::vector<ThreadPrivateLocal> threadprivate_locals;
  bool empty() const {
    return vars.empty() && literals.empty() && uses.empty() && shared_pragmas.empty() && threadprivate.empty() &&
           threadprivate_locals.empty();
  }
};

struct PrivatizationOptions {
  // Rewrite the program's own headers too (those that are neither system
  // headers nor under `foreign_dirs`): their definitions and uses are
  // privatized like the main file's. Otherwise a definition in a header is
  // warned about and left shared.
  bool headers = false;
  std::vector<std::string> foreign_dirs;  // Tucana's own include directories
  // C with -fcommon: tentative definitions in several files are one
  // variable; privatized ones become weak definitions to link the same way.
  bool common = false;
};

// The edits of the main file and of each own header (by FileID: a header
// included twice has two, whose texts must come out the same).
struct FileEdits {
  clang::FileID main;
  EditSet& main_edits;
  std::map<clang::FileID, EditSet> headers;
  EditSet& of(clang::FileID f) { return f == main ? main_edits : headers[f]; }
};

// The absolute path of `f` when it is one of the program's own headers (a
// file, not the main one, neither a system header nor under `foreign_dirs`);
// empty otherwise.
std::string own_header_path(const clang::SourceManager& sm, clang::FileID f,
                            const std::vector<std::string>& foreign_dirs);

// Finds what to privatize in the main file of `ctx` (and its own headers,
// per `options`). Variables that cannot be privatized exactly get a warning
// naming them (never a silent change); `#pragma tucana shared` in
// `annotations` keeps variables shared.
PrivatizationPlan analyze_privatization(clang::ASTContext& ctx, const AnnotationList& annotations,
                                        const PrivatizationOptions& options);

// Adds the edits of `plan` to `out`.
void emit_privatization(clang::ASTContext& ctx, const PrivatizationPlan& plan, FileEdits& out);

}  // namespace tucana::translate
