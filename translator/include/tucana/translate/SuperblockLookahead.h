// Whether a superblock runs in the lookahead form (docs/translator.md, "The
// lookahead form"): each region running its iterations as far ahead of the
// other regions as the graph allows, which is exact only for a canonical
// counted loop whose regions cannot observe the new interleaving.
#pragma once

#include <set>

#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
class Stmt;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

// Sets sb.lookahead (and sb.loop) when every condition holds:
// * the superblock is a `for` loop in the canonical form (CanonicalLoop.h)
//   with its loop body as the regions' block (not a Bamboo olap block), and
//   no priority clause (a priority may read the loop variable per iteration);
// * START, END and STEP are pure (literals, enumerators, operators, casts,
//   sizeof, and locals that are neither volatile nor references: no calls,
//   assignments, ++/--, memory through pointers, globals), END and STEP do
//   not read the loop variable, and neither the loop variable nor what END
//   and STEP read is written in the body or has its address taken in the
//   function (`address_taken`: address_taken_locals of its body);
// * the body has no `throw` and reaches no longjmp (the regions' own checks
//   already reject break, continue, return and goto out of a region);
// * every pair of regions that could observe each other is ordered by the
//   graph across iterations both ways (B of i+1 after A of i and A of i+1
//   after B of i), so that what they do stays in an order iteration at a
//   time allows. Such a pair: both make order-sensitive calls (MPI calls
//   other than waits and tests, calls without a body in this file, through
//   pointers or virtual, and calls reaching either); or one writes a local
//   of the function that the other names (a local whose address is held
//   anywhere but in an MPI call's argument counts as memory); or one may
//   write memory (through pointers, statics, references, MPI buffers,
//   calls that touch memory) that the other may read or write;
// * some region may in fact run ahead (otherwise the form gains nothing).
// `function_body` is the enclosing function's; `address_taken` its
// address_taken_locals (MemoryEffects.h).
void plan_lookahead(clang::ASTContext& ctx, Superblock& sb, const clang::Stmt* function_body,
                    const std::set<const clang::VarDecl*>& address_taken);

}  // namespace tucana::translate
