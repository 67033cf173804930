// Datatype calls built on the others: the large-count _x variants, names,
// MPI_Type_create_hindexed_block, MPI_Type_match_size, and the MPI-1 calls
// removed in MPI 3.0 that old codes still make (MPI_Address, MPI_Type_extent,
// MPI_Type_lb/ub, MPI_Type_hvector/hindexed/struct, which MPI_Type_get_envelope
// reports as the calls that replaced them: MPI_COMBINER_HVECTOR, _HINDEXED
// and _STRUCT).
#include <tucana/tmpi.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/datatype/typemap.h"
#include "sync/mutex.h"

using namespace tucana::mpi;

namespace {

struct Names {
  tucana::sync::Mutex lock{tucana::sync::LockLevel::kLeaf, "datatype names"};
  std::map<TMPI_Datatype, std::string> of TUCANA_GUARDED_BY(lock);
};
Names& names() {
  static Names* n = new Names;  // never destroyed
  return *n;
}

}  // namespace

void tucana::mpi::forget_type_name(TMPI_Datatype type) {
  tucana::sync::MutexLock hold(names().lock);
  names().of.erase(type);
}

extern "C" {

int TMPI_Type_size_x(TMPI_Datatype type, TMPI_Count* size) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_size_x", "invalid datatype %d", type);
  *size = static_cast<TMPI_Count>(m->size);
  return TMPI_SUCCESS;
}

int TMPI_Type_get_extent_x(TMPI_Datatype type, TMPI_Count* lb, TMPI_Count* extent) {
  TMPI_Aint l = 0, e = 0;
  int err = TMPI_Type_get_extent(type, &l, &e);
  if (!err) *lb = l, *extent = e;
  return err;
}

int TMPI_Type_get_true_extent_x(TMPI_Datatype type, TMPI_Count* lb, TMPI_Count* extent) {
  TMPI_Aint l = 0, e = 0;
  int err = TMPI_Type_get_true_extent(type, &l, &e);
  if (!err) *lb = l, *extent = e;
  return err;
}

// The _x forms count in 64 bits, as the status does (its byte count is a
// long long).
int TMPI_Get_elements_x(const TMPI_Status* status, TMPI_Datatype type, TMPI_Count* count) {
  long long elements;
  if (int err = received_elements("MPI_Get_elements_x", status, type, &elements)) return err;
  *count = elements < 0 ? TMPI_UNDEFINED : elements;
  return TMPI_SUCCESS;
}

int TMPI_Status_set_elements_x(TMPI_Status* status, TMPI_Datatype type, TMPI_Count count) {
  const char* call = "MPI_Status_set_elements_x";
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (count < 0) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_COUNT, call, "negative count %lld", count);
  status->tmpi_bytes = bytes_of_elements(*m, count);
  return TMPI_SUCCESS;
}

// Names: the predefined types are named after themselves until renamed.
int TMPI_Type_set_name(TMPI_Datatype type, const char* name) {
  Entered me = enter("MPI_Type_set_name");
  int size;
  if (TMPI_Type_size(type, &size) != TMPI_SUCCESS)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_set_name", "invalid datatype %d", type);
  tucana::sync::MutexLock hold(names().lock);
  names().of[type].assign(name, strnlen(name, TMPI_MAX_OBJECT_NAME - 1));
  return TMPI_SUCCESS;
}

int TMPI_Type_get_name(TMPI_Datatype type, char* name, int* resultlen) {
  Entered me = enter("MPI_Type_get_name");
  int size;
  if (TMPI_Type_size(type, &size) != TMPI_SUCCESS)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_get_name", "invalid datatype %d", type);
  std::string n;
  {
    tucana::sync::MutexLock hold(names().lock);
    auto it = names().of.find(type);
    if (it != names().of.end()) n = it->second;
    else if (const TypeInfo* info = type_info(type)) n = info->name;
  }
  std::memcpy(name, n.c_str(), n.size() + 1);
  *resultlen = static_cast<int>(n.size());
  return TMPI_SUCCESS;
}

int TMPI_Type_create_hindexed_block(int count, int blocklength, const TMPI_Aint displacements[], TMPI_Datatype old,
                                    TMPI_Datatype* newtype) {
  std::vector<int> lengths(static_cast<std::size_t>(count > 0 ? count : 0), blocklength);
  int err = TMPI_Type_create_hindexed(count, lengths.data(), displacements, old, newtype);
  if (err) return err;
  record_contents(*newtype, TMPI_COMBINER_HINDEXED_BLOCK, {count, blocklength},
                  std::vector<TMPI_Aint>(displacements, displacements + count), {old});
  return TMPI_SUCCESS;
}

// The predefined type of a class with `size` bytes (MPI_Type_match_size).
int TMPI_Type_match_size(int typeclass, int size, TMPI_Datatype* datatype) {
  Entered me = enter("MPI_Type_match_size");
  static const TMPI_Datatype reals[] = {TMPI_DT_REAL4, TMPI_DT_REAL8, TMPI_DT_REAL16};
  static const TMPI_Datatype integers[] = {TMPI_DT_INTEGER1, TMPI_DT_INTEGER2, TMPI_DT_INTEGER4, TMPI_DT_INTEGER8};
  static const TMPI_Datatype complexes[] = {TMPI_DT_COMPLEX8, TMPI_DT_COMPLEX16, TMPI_DT_COMPLEX32};
  const TMPI_Datatype* list = nullptr;
  std::size_t n = 0;
  switch (typeclass) {
    case TMPI_TYPECLASS_REAL: list = reals, n = 3; break;
    case TMPI_TYPECLASS_INTEGER: list = integers, n = 4; break;
    case TMPI_TYPECLASS_COMPLEX: list = complexes, n = 3; break;
    default:
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Type_match_size", "invalid type class %d", typeclass);
  }
  for (std::size_t i = 0; i < n; ++i) {
    int s = 0;
    TMPI_Type_size(list[i], &s);
    if (s == size) {
      *datatype = list[i];
      return TMPI_SUCCESS;
    }
  }
  return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Type_match_size", "no type of that class has %d bytes",
                   size);
}

// The MPI-1 names, removed in MPI 3.0.
int TMPI_Address(void* location, TMPI_Aint* address) { return TMPI_Get_address(location, address); }
int TMPI_Type_extent(TMPI_Datatype type, TMPI_Aint* extent) {
  TMPI_Aint lb;
  return TMPI_Type_get_extent(type, &lb, extent);
}
int TMPI_Type_lb(TMPI_Datatype type, TMPI_Aint* lb) {
  TMPI_Aint extent;
  return TMPI_Type_get_extent(type, lb, &extent);
}
int TMPI_Type_ub(TMPI_Datatype type, TMPI_Aint* ub) {
  TMPI_Aint lb, extent;
  int err = TMPI_Type_get_extent(type, &lb, &extent);
  if (!err) *ub = lb + extent;
  return err;
}
int TMPI_Type_hvector(int count, int blocklength, TMPI_Aint stride, TMPI_Datatype old, TMPI_Datatype* newtype) {
  return TMPI_Type_create_hvector(count, blocklength, stride, old, newtype);
}
int TMPI_Type_hindexed(int count, int* blocklengths, TMPI_Aint* displacements, TMPI_Datatype old,
                       TMPI_Datatype* newtype) {
  return TMPI_Type_create_hindexed(count, blocklengths, displacements, old, newtype);
}
int TMPI_Type_struct(int count, int* blocklengths, TMPI_Aint* displacements, TMPI_Datatype* types,
                     TMPI_Datatype* newtype) {
  return TMPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
}

}  // extern "C"
