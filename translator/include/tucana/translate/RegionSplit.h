// Interior/boundary splitting of a compute region (docs/translator.md,
// "Splitting a compute region"): which iterations of the region's loop nest
// read data that this iteration's receives bring in, and whether running the
// others first, while the messages travel, leaves every result as it was.
//
// The shape it splits (the stencil shape), inside one compute region:
//
//   PRE:  MPI_Wait / MPI_Waitall ...; unpack: writes of received data into
//         the ghost cells of the arrays the nest reads (A[0][j] = buf[j])
//   NEST: for (i = LO0; i < HI0; i++) for (j = LO1; j < HI1; j++) ...
//           W[i][j] = f(A[i + a][j + b], ...)   (constant offsets a, b)
//   POST: anything
//
// The interior is the box of iterations whose reads of the arrays PRE
// writes stay inside the nest's own box: its halo in each dimension is the
// largest offset of those reads. PRE's writes into those arrays are proven
// to lie outside the box, so the interior reads nothing PRE or the receives
// produce. What cannot be proven here (pointers that may alias, buffers of
// requests in flight) is checked at run time before the interior runs.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "tucana/translate/EditSet.h"
#include "tucana/translate/Superblock.h"

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
class VarDecl;
}  // namespace clang

namespace tucana::translate {

// One loop of the nest, outermost first: iterations [lo, hi) of `var`.
struct SplitLoop {
  const clang::ForStmt* loop = nullptr;
  const clang::VarDecl* var = nullptr;
  std::string lo, hi;       // C expressions as written (hi: END or (END) + 1), for remarks
  const clang::Expr* start = nullptr;  // the bounds in the source (emission renders them)
  const clang::Expr* end = nullptr;
  bool inclusive = false;   // the condition is 'var <= END'
  int halo_lo = 0, halo_hi = 0;  // iterations at each end that may read received data
};

// An array the nest reads or writes, for the run-time checks: the span of
// its elements that the whole nest touches.
struct SplitArray {
  const clang::VarDecl* base = nullptr;
  bool written = false;    // written by the nest (else read)
  bool pointer = false;    // a pointer (may alias another), not an array object
  // Per subscript: the nest level whose variable it follows (-1: invariant),
  // and the smallest and largest offset; `invariant` is the text of an
  // invariant subscript.
  struct Dim {
    int level = -1;
    long long min_offset = 0, max_offset = 0;
    std::string invariant;
    const clang::Expr* invariant_expr = nullptr;
  };
  std::vector<Dim> dims;
  const clang::Expr* name = nullptr;  // one reference to it in the nest (emission renders it)
};

struct SplitPlan {
  int superblock = -1;                        // Superblock::index
  int region = -1;                            // index in Superblock::regions
  std::vector<const clang::Stmt*> pre;        // the region's statements before the nest
  const clang::ForStmt* nest = nullptr;       // the outermost loop of the nest
  std::vector<SplitLoop> loops;
  std::vector<SplitArray> arrays;
  std::vector<std::string> ghosts;            // the arrays PRE writes and the nest reads
};

// Why a region is not split, at a location.
struct SplitRefusal {
  clang::SourceLocation loc;
  std::string why;
};

// Plans the split of region `region` of `sb`. Returns true with `plan`, or
// false with `refusal` (a sentence for a remark). Contract: `sb` passed the
// superblock analysis without errors.
bool plan_region_split(clang::ASTContext& ctx, const Superblock& sb, int region, SplitPlan& plan,
                       SplitRefusal& refusal);

// The regions of `plan` that may be split: every compute region (kind
// compute, or role compute) that depends on a receive region of the same
// iteration. With `remarks`, says for each whether it splits, and why not.
// Marks them (Region::split).
std::vector<SplitPlan> plan_splits(clang::ASTContext& ctx, TranslationPlan& plan, bool remarks);

// Whether the split region `r` needs only the code of dependency `d` to
// have run (TUCANA_DEP_RAN): a same-iteration dependency on a region that
// receives or sends, whose messages the interior overlaps.
bool split_needs_only_code(const Superblock& sb, const Region& r, const RegionDep& d);

// The edits of the split regions, after the other stages' edits inside
// them are made (the interior's copy of the nest renders them).
void emit_splits(clang::ASTContext& ctx, const TranslationPlan& plan, const std::vector<SplitPlan>& splits,
                 const std::string& display_name, EditSet& edits);

}  // namespace tucana::translate
