// Tasks inside a rank: #pragma tucana task, taskwait and taskloop, translated
// into calls of runtime/include/tucana/task.h (see docs/annotations.md,
// "Tasks"). A task's statement (a taskloop's body) moves into a static
// function placed before the enclosing function, with a struct of the
// variables it captures:
//
//   #pragma tucana task depend(in: a[0])    ->  { struct __tucana_task_0_args __tucana_args; ...;
//   use(a, n);                                    tucana_task_spawn(__tucana_task_0, &__tucana_args, ...); }
//
// Locals and parameters it names are captured by value (a copy at the
// spawn), those of shared(...) by address. The analysis checks what cannot
// move (return, break, goto out of it, this, local types, VLAs, statics of
// the function); the emitter moves the text with every edit of the other
// stages inside it (EditSet::extract), so privatized globals stay rewritten.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tucana/translate/EditSet.h"
#include "tucana/translate/PragmaParser.h"
#include "tucana/translate/Privatization.h"

namespace clang {
class ASTContext;
class Decl;
class Stmt;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

struct TaskCapture {
  const clang::VarDecl* var = nullptr;
  bool shared = false;  // by address (shared(...)); else a copy made at the spawn
  // C, shared: the references to rewrite as (*__tucana_a->NAME), [begin, end)
  // offsets of the name in the main file.
  std::vector<std::pair<unsigned, unsigned>> refs;
};

// A taskloop's canonical loop: for (T i = START; i OP END; STEP-FORM) BODY.
struct TaskloopHeader {
  const clang::VarDecl* var = nullptr;
  std::string op;            // <, <=, >, >= or !=, with i on the left
  unsigned start_begin = 0, start_end = 0, end_begin = 0, end_end = 0;
  unsigned step_begin = 0, step_end = 0;  // S of i += S (empty for ++ and --)
  int direction = 1;         // +1: i grows (++, +=, = i + S); -1: it shrinks
  // The type the condition compares in (C's usual arithmetic conversions)
  // when it is unsigned, as written in C ("unsigned int", ...): the trip
  // count is then computed in it (wrap-around, and a negative start
  // converted as C converts it); empty for a signed comparison.
  std::string unsigned_compare;
  const clang::Stmt* body = nullptr;
};

struct Task {
  const Annotation* pragma = nullptr;
  const clang::Stmt* stmt = nullptr;  // the task's statement, or the taskloop's for
  bool loop = false;
  int index = 0;       // names __tucana_task_<index> / __tucana_taskloop_<index>
  int outer = -1;      // the innermost task whose statement holds this one
  int depth = 0;       // how many tasks' statements hold this one
  unsigned insert_at = 0;  // offset of the enclosing top-level declaration
  // Offset just past the enclosing top-level function's '}' (0: not a
  // function, e.g. a class whose member holds the task). The outlined
  // function is declared before that function and defined after it, so
  // that its body sees the function itself (recursion) and every
  // declaration before it.
  unsigned define_at = 0;
  std::vector<TaskCapture> captures;
  std::vector<std::string> locals;  // names of the enclosing function's variables (clause texts)
  TaskloopHeader header;
};

struct TaskPlan {
  std::vector<Task> tasks;
  std::vector<const Annotation*> taskwaits;
  bool empty() const { return tasks.empty() && taskwaits.empty(); }
};

// The tasks of the main file; errors go to the DiagnosticsEngine (then the
// plan must not be used).
TaskPlan analyze_tasks(clang::ASTContext& ctx, const AnnotationList& annotations);

// Adds the edits of `plan` to `out`, after every other stage's edits (the
// moved statements take theirs along). `privatization` rewrites privatized
// globals named in clause expressions; `display_name` is the input's name
// as written (for #line). A conflict between edits is reported as
// ConflictingEdits.
void emit_tasks(clang::ASTContext& ctx, const TaskPlan& plan, const PrivatizationPlan& privatization,
                const std::string& display_name, EditSet& out);

}  // namespace tucana::translate
