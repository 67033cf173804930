// What code may touch besides its own local variables: shared by the
// superblock analysis (whether a posted call's buffer is reached later in
// its region; SuperblockAnalysis.cpp) and the lookahead decision (which
// regions may observe each other; SuperblockLookahead.cpp).
#pragma once

#include <map>
#include <set>

namespace clang {
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

// A local array named directly (its elements are its own storage, not
// memory reached through a pointer).
bool is_local_array(const clang::Expr* base);

// A node that reads or writes memory other than a named variable: through
// a pointer (`*p`, `p[i]` unless p is a local array, `p->x`, `this`), new
// and delete, inline assembly. (Whether it is in an address context is the
// caller's business.)
bool accesses_through_pointer(const clang::Stmt* s);

// A variable of static storage that may be written (not const, or volatile).
bool is_writable_static(const clang::VarDecl* v);

// A function that only computes on its arguments' values: no memory
// through pointers (libm writes errno, which no buffer is).
bool is_value_function(const clang::FunctionDecl* fn);

// Whether calling a function may read or write memory other than its own
// local variables and by-value parameters: static storage, memory through
// pointers or references (`this` included), or code the translator cannot
// see (MPI calls included). Over every function it calls (an OR over the
// reachable ones, so a cycle needs no special case); cached.
class MemoryEffects {
 public:
  bool touches_memory(const clang::FunctionDecl* fn);

 private:
  bool reach(const clang::FunctionDecl* fn, std::set<const clang::FunctionDecl*>& seen);
  std::map<const clang::FunctionDecl*, bool> cache_;
};

// The locals of a function body whose address is taken (`&v`, an array
// decaying to a pointer other than to index it, a reference bound to it, a
// lambda capturing it by reference): memory a pointer may reach.
std::set<const clang::VarDecl*> address_taken_locals(const clang::Stmt* body);

}  // namespace tucana::translate
