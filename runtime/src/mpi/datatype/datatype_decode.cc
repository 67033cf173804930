// Datatype decoding (MPI_Type_get_envelope, MPI_Type_get_contents; MPI 3.1
// section 4.1.13), distributed arrays (MPI_Type_create_darray, section
// 4.1.4) and the Fortran-kind types (MPI_Type_create_f90_*, section
// 17.1.9). Every constructor records its combiner and arguments
// (record_contents in typemap.cc); decoding hands them back.
#include <tucana/tmpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "mpi/errors.h"
#include "mpi/datatype/typemap.h"
#include "sync/mutex.h"

using namespace tucana::mpi;

namespace {

// Frees a datatype made here on the way (never fails: it was just made).
void drop(TMPI_Datatype* type) {
  int err = TMPI_Type_free(type);
  (void)err;
}

// The Fortran-kind types: one handle per combiner and (p, r) as given, made
// once and never freed, as MPI 3.1 section 17.1.9 asks.
TMPI_Datatype f90_type(int combiner, int p, int r, TMPI_Datatype base) {
  // Held while the datatype table is looked into (an inner level).
  static tucana::sync::Mutex lock(tucana::sync::LockLevel::kOuterTable, "Fortran-kind datatypes");
  static auto* made TUCANA_PT_GUARDED_BY(lock) =
      new std::map<std::tuple<int, int, int>, TMPI_Datatype>;  // never destroyed
  tucana::sync::MutexLock hold(lock);
  auto key = std::make_tuple(combiner, p, r);
  auto it = made->find(key);
  if (it != made->end()) return it->second;
  TMPI_Datatype h = add_predefined_alias(base);
  record_contents(h, combiner, combiner == TMPI_COMBINER_F90_INTEGER ? std::vector<int>{r} : std::vector<int>{p, r},
                  {}, {});
  (*made)[key] = h;
  return h;
}

// The decimal precision and exponent range of a C floating type, as
// Fortran's PRECISION and RANGE give them.
struct RealKind {
  int precision, range;
  TMPI_Datatype real, complex;
};
template <typename T>
RealKind real_kind(TMPI_Datatype real, TMPI_Datatype complex) {
  using L = std::numeric_limits<T>;
  return RealKind{L::digits10, std::min(L::max_exponent10, -L::min_exponent10), real, complex};
}

// MPI_Type_create_f90_real/complex: the smallest kind with precision >= p
// and range >= r (MPI_UNDEFINED: either, not both, unspecified).
int f90_real(const char* call, int combiner, int p, int r, TMPI_Datatype* newtype) {
  Entered me = enter(call);
  if (p == TMPI_UNDEFINED && r == TMPI_UNDEFINED)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "p and r are both MPI_UNDEFINED");
  const RealKind kinds[] = {real_kind<float>(TMPI_DT_REAL4, TMPI_DT_COMPLEX8),
                            real_kind<double>(TMPI_DT_REAL8, TMPI_DT_COMPLEX16),
                            real_kind<long double>(TMPI_DT_REAL16, TMPI_DT_COMPLEX32)};
  int want_p = p == TMPI_UNDEFINED ? 0 : p, want_r = r == TMPI_UNDEFINED ? 0 : r;
  for (const RealKind& k : kinds)
    if (want_p <= k.precision && want_r <= k.range) {
      *newtype = f90_type(combiner, p, r, combiner == TMPI_COMBINER_F90_REAL ? k.real : k.complex);
      return TMPI_SUCCESS;
    }
  return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call,
                   "no floating type has precision %d and range %d (the largest: %d and %d)", p, r,
                   kinds[2].precision, kinds[2].range);
}

// One dimension of a distributed array: the runs of global indices that
// process coordinate `coord` owns, in increasing order, or false.
bool owned_runs(int distrib, int gsize, int darg, int psize, int coord, std::vector<std::pair<long, long>>* runs,
                const char** why) {
  switch (distrib) {
    case TMPI_DISTRIBUTE_NONE:
      if (psize != 1) return *why = "MPI_DISTRIBUTE_NONE needs a process grid dimension of 1", false;
      runs->emplace_back(0, gsize);
      return true;
    case TMPI_DISTRIBUTE_BLOCK: {
      if (darg != TMPI_DISTRIBUTE_DFLT_DARG && (darg < 1 || static_cast<long>(darg) * psize < gsize))
        return *why = "an MPI_DISTRIBUTE_BLOCK argument must be >= 1 and cover the dimension", false;
      long block = darg == TMPI_DISTRIBUTE_DFLT_DARG ? (static_cast<long>(gsize) + psize - 1) / psize : darg;
      long start = coord * block;
      if (start < gsize) runs->emplace_back(start, std::min(block, gsize - start));
      return true;
    }
    case TMPI_DISTRIBUTE_CYCLIC: {
      if (darg != TMPI_DISTRIBUTE_DFLT_DARG && darg < 1)
        return *why = "an MPI_DISTRIBUTE_CYCLIC argument must be >= 1", false;
      long k = darg == TMPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
      for (long start = coord * k; start < gsize; start += k * psize)
        runs->emplace_back(start, std::min(k, gsize - start));
      return true;
    }
    default:
      return *why = "unknown distribution", false;
  }
}

}  // namespace

extern "C" {

int TMPI_Type_get_envelope(TMPI_Datatype type, int* num_integers, int* num_addresses, int* num_datatypes,
                           int* combiner) {
  Entered me = enter("MPI_Type_get_envelope");
  if (!type_map(type))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_get_envelope", "invalid datatype %d", type);
  ContentsPtr c = type_contents(type);
  if (!c) {  // a named type
    *num_integers = *num_addresses = *num_datatypes = 0;
    *combiner = TMPI_COMBINER_NAMED;
    return TMPI_SUCCESS;
  }
  *num_integers = static_cast<int>(c->integers.size());
  *num_addresses = static_cast<int>(c->addresses.size());
  *num_datatypes = static_cast<int>(c->types.size());
  *combiner = c->combiner;
  return TMPI_SUCCESS;
}

int TMPI_Type_get_contents(TMPI_Datatype type, int max_integers, int max_addresses, int max_datatypes,
                           int integers[], TMPI_Aint addresses[], TMPI_Datatype datatypes[]) {
  const char* call = "MPI_Type_get_contents";
  Entered me = enter(call);
  if (!type_map(type)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  ContentsPtr c = type_contents(type);
  if (!c)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call,
                     "datatype %d is a named (predefined) datatype: it has no contents", type);
  if (static_cast<std::size_t>(std::max(max_integers, 0)) < c->integers.size() ||
      static_cast<std::size_t>(std::max(max_addresses, 0)) < c->addresses.size() ||
      static_cast<std::size_t>(std::max(max_datatypes, 0)) < c->types.size())
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call,
                     "room for %d integers, %d addresses, %d datatypes; MPI_Type_get_envelope gives %zu, %zu, %zu",
                     max_integers, max_addresses, max_datatypes, c->integers.size(), c->addresses.size(),
                     c->types.size());
  std::copy(c->integers.begin(), c->integers.end(), integers);
  std::copy(c->addresses.begin(), c->addresses.end(), addresses);
  for (std::size_t i = 0; i < c->types.size(); ++i) datatypes[i] = decoded_type(c->types[i]);
  return TMPI_SUCCESS;
}

// Built as ROMIO and MPICH build it: per dimension, fastest first, an
// hindexed type of the runs of indices this process owns over the type of
// the faster dimensions (resized to one row of them), and at the end the
// extent of the whole global array (lb 0). The type map lists the local
// elements in the array's order (C: the last dimension fastest).
int TMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, TMPI_Datatype old,
                            TMPI_Datatype* newtype) {
  const char* call = "MPI_Type_create_darray";
  Entered me = enter(call);
  TypeMapPtr m = type_map(old);
  if (!m) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", old);
  if (size < 1 || rank < 0 || rank >= size)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "rank %d of %d processes", rank, size);
  if (ndims < 1) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_DIMS, call, "ndims %d < 1", ndims);
  if (order != TMPI_ORDER_C && order != TMPI_ORDER_FORTRAN)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "order %d is neither MPI_ORDER_C nor _FORTRAN", order);
  long long procs = 1;
  for (int d = 0; d < ndims; ++d) {
    if (gsizes[d] < 1 || psizes[d] < 1)
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "dimension %d: global size %d, process grid size %d",
                       d, gsizes[d], psizes[d]);
    procs *= psizes[d];
  }
  if (procs != size)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "the process grid has %lld processes, not %d", procs,
                     size);
  // The process grid is in row-major order whatever `order` is.
  std::vector<int> coord(static_cast<std::size_t>(ndims));
  for (int d = ndims - 1, r = rank; d >= 0; --d) {
    coord[static_cast<std::size_t>(d)] = r % psizes[d];
    r /= psizes[d];
  }
  std::vector<std::vector<std::pair<long, long>>> runs(static_cast<std::size_t>(ndims));
  for (int d = 0; d < ndims; ++d) {
    const char* why = nullptr;
    if (!owned_runs(distribs[d], gsizes[d], dargs[d], psizes[d], coord[static_cast<std::size_t>(d)],
                    &runs[static_cast<std::size_t>(d)], &why))
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "dimension %d (distribution %d, argument %d): %s", d,
                       distribs[d], dargs[d], why);
  }
  TMPI_Datatype t = old;
  TMPI_Aint stride = m->extent();  // bytes between neighbours in this dimension
  for (int k = 0; k < ndims; ++k) {
    int d = order == TMPI_ORDER_C ? ndims - 1 - k : k;
    TMPI_Datatype element = t;
    if (k > 0) {
      TMPI_Type_create_resized(t, 0, stride, &element);
      drop(&t);
    }
    const auto& r = runs[static_cast<std::size_t>(d)];
    std::vector<int> lengths;
    std::vector<TMPI_Aint> displacements;
    for (const auto& run : r) {
      lengths.push_back(static_cast<int>(run.second));
      displacements.push_back(static_cast<TMPI_Aint>(run.first) * stride);
    }
    TMPI_Type_create_hindexed(static_cast<int>(r.size()), lengths.data(), displacements.data(), element, &t);
    if (k > 0) drop(&element);
    stride *= gsizes[d];
  }
  TMPI_Type_create_resized(t, 0, stride, newtype);
  drop(&t);
  std::vector<int> integers{size, rank, ndims};
  for (const int* a : {gsizes, distribs, dargs, psizes}) integers.insert(integers.end(), a, a + ndims);
  integers.push_back(order);
  record_contents(*newtype, TMPI_COMBINER_DARRAY, std::move(integers), {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_create_f90_real(int p, int r, TMPI_Datatype* newtype) {
  return f90_real("MPI_Type_create_f90_real", TMPI_COMBINER_F90_REAL, p, r, newtype);
}

int TMPI_Type_create_f90_complex(int p, int r, TMPI_Datatype* newtype) {
  return f90_real("MPI_Type_create_f90_complex", TMPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

// The smallest integer kind with range >= r (decimal digits; MPI_UNDEFINED:
// any).
int TMPI_Type_create_f90_integer(int r, TMPI_Datatype* newtype) {
  Entered me = enter("MPI_Type_create_f90_integer");
  const std::pair<int, TMPI_Datatype> kinds[] = {
      {std::numeric_limits<std::int8_t>::digits10, TMPI_DT_INTEGER1},
      {std::numeric_limits<std::int16_t>::digits10, TMPI_DT_INTEGER2},
      {std::numeric_limits<std::int32_t>::digits10, TMPI_DT_INTEGER4},
      {std::numeric_limits<std::int64_t>::digits10, TMPI_DT_INTEGER8}};
  int want = r == TMPI_UNDEFINED ? 0 : r;
  for (const auto& k : kinds)
    if (want <= k.first) {
      *newtype = f90_type(TMPI_COMBINER_F90_INTEGER, 0, r, k.second);
      return TMPI_SUCCESS;
    }
  return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Type_create_f90_integer",
                   "no integer type has range %d (the largest: %d)", r, kinds[3].first);
}

}  // extern "C"
