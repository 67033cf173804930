// MPI 4.0's big-count calls, MPI_X_c: counts as MPI_Count, displacements as
// MPI_Aint. Each forwards to MPI_X when its values fit the int form (arrays
// are copied into int arrays). A value that does not fit is never truncated:
//  - a count of elements travels for real as ONE element of a derived
//    datatype that holds them (carry() below): point-to-point, the
//    collectives that move data without combining it, one-sided
//    communication, MPI-IO, MPI_Pack_external_c/Unpack_external_c,
//    MPI_Type_contiguous_c;
//  - sizes, extents and counts that Tucana keeps in 64 bits come back whole:
//    MPI_Type_size_c, MPI_Type_get_(true_)extent_c, MPI_Get_count_c,
//    MPI_Get_elements_c, MPI_Status_set_elements_c, MPI_Pack_size_c,
//    MPI_Pack_c/Unpack_c (which pack here, with 64-bit positions);
//  - everything else reports MPI_ERR_COUNT through the error handler, naming
//    the call and the value: count and displacement arrays (v and w
//    collectives, datatype constructors), counts of reductions (a derived
//    datatype would change what a user operation sees), counts of persistent
//    requests (the request keeps the datatype handle), block lengths and
//    strides of the constructors, window displacement units, buffer sizes.
#include <tucana/tmpi.h>

#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/datatype/typemap.h"

using namespace tucana::mpi;

namespace {

bool fits_int(long long v) { return v >= INT_MIN && v <= INT_MAX; }

// Where an error goes: a communicator's, a window's or a file's handler.
struct Where {
  enum Kind { Comm, Win, File } kind;
  int handle;
};
Where on_comm(TMPI_Comm c) { return {Where::Comm, c}; }
Where on_win(TMPI_Win w) { return {Where::Win, w}; }
Where on_file(TMPI_File f) { return {Where::File, f}; }

int report(const char* call, Where where, int code, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
int report(const char* call, Where where, int code, const char* fmt, ...) {
  Entered me = enter(call);
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  TMPI_Errhandler handler = TMPI_ERRORS_ARE_FATAL;
  switch (where.kind) {
    case Where::Comm:
      return mpi_error(me, where.handle, code, call, "%s", msg);
    case Where::Win:
      if (TMPI_Win_get_errhandler(where.handle, &handler) != TMPI_SUCCESS) handler = TMPI_ERRORS_ARE_FATAL;
      break;
    case Where::File:
      if (TMPI_File_get_errhandler(where.handle, &handler) != TMPI_SUCCESS) handler = TMPI_ERRORS_ARE_FATAL;
      break;
  }
  return report_error(me, handler, where.handle, code, call, "%s", msg);
}

// MPI_ERR_COUNT for `what` = `v`, which the int form cannot take.
int beyond(const char* call, Where where, const char* what, long long v, const char* hint) {
  return report(call, where, TMPI_ERR_COUNT, "%s = %lld is beyond what Tucana carries (%s); %s", what, v,
                v < 0 ? "INT_MIN" : "INT_MAX", hint);
}
const char* const kArrayHint = "count and displacement arrays are int arrays inside Tucana (split the call, or "
                               "describe the blocks with a derived datatype)";
const char* const kReduceHint = "counts of reductions are int inside Tucana (reduce in parts)";
const char* const kPersistentHint = "a persistent request keeps an int count inside Tucana (use the non-persistent call)";
const char* const kTypeHint = "the datatype constructors keep int counts, block lengths and displacements (nest "
                              "them, or use the h- form with byte displacements)";

// A scalar that must fit an int: *out, or MPI_ERR_COUNT.
int to_int(const char* call, Where where, const char* what, long long v, const char* hint, int* out) {
  if (!fits_int(v)) return beyond(call, where, what, v, hint);
  *out = static_cast<int>(v);
  return TMPI_SUCCESS;
}

// `n` entries of `in` as ints (none when `in` is null: the int form gets
// null, as the program passed it).
template <typename T>
int to_ints(const char* call, Where where, const char* name, const T* in, int n, const char* hint,
            std::vector<int>* out) {
  if (!in || n <= 0) return TMPI_SUCCESS;
  out->resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (!fits_int(static_cast<long long>(in[i]))) {
      char what[64];
      std::snprintf(what, sizeof what, "%s[%d]", name, i);
      return beyond(call, where, what, static_cast<long long>(in[i]), hint);
    }
    (*out)[static_cast<std::size_t>(i)] = static_cast<int>(in[i]);
  }
  return TMPI_SUCCESS;
}
template <typename T>
const int* ptr(const std::vector<int>& v, const T* in) {
  return in ? v.data() : nullptr;
}

// MPI_Count arrays as MPI_Aint arrays (both 64 bits here; the types differ).
std::vector<TMPI_Aint> to_aints(const TMPI_Count* in, long long n) {
  if (!in || n <= 0) return {};
  return std::vector<TMPI_Aint>(in, in + n);
}
static_assert(sizeof(TMPI_Aint) == sizeof(TMPI_Count), "MPI_Aint and MPI_Count are both 64 bits");

// `count` elements of `type` (count beyond INT_MAX) as one element of a
// new committed datatype: power-of-two contiguous pieces (2 copies of the
// piece below each: cheap to build) joined by a struct at their byte
// displacements, resized to count x extent, as MPI_Type_contiguous would
// make it. MPI error code; ERR_TYPE for an invalid `type`.
int big_contiguous(const char* call, Where where, long long count, TMPI_Datatype type, TMPI_Datatype* out) {
  TypeMapPtr m = type_map(type);
  if (!m) return report(call, where, TMPI_ERR_TYPE, "invalid datatype %d", type);
  long long ext = m->extent(), total = 0;
  if (__builtin_mul_overflow(count, ext, &total))
    return report(call, where, TMPI_ERR_COUNT, "%lld elements of extent %lld do not fit in an MPI_Aint", count, ext);
  std::vector<int> lengths;
  std::vector<TMPI_Aint> displs;
  std::vector<TMPI_Datatype> pieces;
  TMPI_Datatype piece = type;  // 2^bit elements
  long long done = 0;          // elements placed so far, from the top bit down
  int top = 62;
  while (top > 0 && !(count >> top & 1)) --top;
  std::vector<TMPI_Datatype> powers{type};
  for (int bit = 1; bit <= top; ++bit) {
    TMPI_Datatype twice;
    if (int e = TMPI_Type_contiguous(2, piece, &twice)) return e;
    powers.push_back(twice);
    piece = twice;
  }
  for (int bit = top; bit >= 0; --bit) {
    if (!(count >> bit & 1)) continue;
    lengths.push_back(1);
    displs.push_back(static_cast<TMPI_Aint>(done * ext));
    pieces.push_back(powers[static_cast<std::size_t>(bit)]);
    done += 1LL << bit;
  }
  TMPI_Datatype joined, resized;
  int e = TMPI_Type_create_struct(static_cast<int>(pieces.size()), lengths.data(), displs.data(), pieces.data(),
                                  &joined);
  if (!e) {
    e = TMPI_Type_create_resized(joined, m->lb, static_cast<TMPI_Aint>(total), &resized);
    TMPI_Type_free(&joined);
  }
  for (std::size_t i = 1; i < powers.size(); ++i) TMPI_Type_free(&powers[i]);
  if (e) return e;
  if ((e = TMPI_Type_commit(&resized))) return e;
  *out = resized;
  return TMPI_SUCCESS;
}

// A (count, datatype) pair as the int form takes it: itself when the count
// fits, else 1 of a derived datatype (freed with this; the calls it is
// passed to keep what they need of it, as after MPI_Type_free).
struct Carried {
  int count = 0;
  TMPI_Datatype type = TMPI_DATATYPE_NULL;
  TMPI_Datatype made = TMPI_DATATYPE_NULL;
  Carried() = default;
  Carried(const Carried&) = delete;
  Carried& operator=(const Carried&) = delete;
  ~Carried() {
    if (made != TMPI_DATATYPE_NULL) TMPI_Type_free(&made);
  }
};
int carry(const char* call, Where where, const char* what, TMPI_Count count, TMPI_Datatype type, Carried* out) {
  if (fits_int(count)) {
    out->count = static_cast<int>(count);
    out->type = type;
    return TMPI_SUCCESS;
  }
  if (count < 0) return report(call, where, TMPI_ERR_COUNT, "%s = %lld is negative", what, count);
  if (int e = big_contiguous(call, where, count, type, &out->made)) return e;
  out->count = 1;
  out->type = out->made;
  return TMPI_SUCCESS;
}

// The group sizes the count arrays of collectives follow; 0 when `comm` is
// not a communicator here (the int form then reports it before reading them).
int local_size(TMPI_Comm comm) {
  CommInfo info;
  return comm_info(current_subrank(), comm, &info) ? info.size : 0;
}
int peer_count(TMPI_Comm comm) {  // the remote group's on an intercommunicator
  Subrank* me = current_subrank();
  CommInfo info;
  if (!comm_info(me, comm, &info)) return 0;
  if (!is_inter(me, comm)) return info.size;
  int n = 0;
  return TMPI_Comm_remote_size(comm, &n) == TMPI_SUCCESS ? n : 0;
}
// Whether the root's arguments are significant here (Gatherv's receive and
// Scatterv's send arrays).
bool root_side(TMPI_Comm comm, int root) {
  Subrank* me = current_subrank();
  CommInfo info;
  if (!comm_info(me, comm, &info)) return false;
  if (is_inter(me, comm)) return root == TMPI_ROOT;
  return info.rank == root;
}
void degrees(TMPI_Comm comm, int* in, int* out) {
  *in = *out = 0;
  CommInfo info;
  if (!comm_info(current_subrank(), comm, &info) || !info.comm) return;
  Neighbors nb;
  if (!topology_neighbors(*info.comm, &nb)) return;
  *in = static_cast<int>(nb.sources.size());
  *out = static_cast<int>(nb.destinations.size());
}

int in_degree(TMPI_Comm comm) {
  int in, out;
  degrees(comm, &in, &out);
  return in;
}
int out_degree(TMPI_Comm comm) {
  int in, out;
  degrees(comm, &in, &out);
  return out;
}

}  // namespace

#define CARRY(VAR, WHAT, COUNT, TYPE) \
  Carried VAR;                        \
  if (int e_ = carry(call, where, WHAT, COUNT, TYPE, &VAR)) return e_
#define TO_INT(VAR, WHAT, VALUE, HINT) \
  int VAR = 0;                         \
  if (int e_ = to_int(call, where, WHAT, VALUE, HINT, &VAR)) return e_
#define TO_INTS(VAR, NAME, ARRAY, N, HINT) \
  std::vector<int> VAR;                    \
  if (int e_ = to_ints(call, where, NAME, ARRAY, N, HINT, &VAR)) return e_
#define BEGIN(NAME, WHERE)      \
  const char* const call = NAME; \
  const Where where = WHERE;     \
  (void)call, (void)where

extern "C" {

// ---------------------------------------------------------------- point-to-point

#define P2P_SEND(X)                                                                                       \
  int TMPI_##X##_c(const void* buf, TMPI_Count count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) { \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                 \
    CARRY(c, "count", count, type);                                                                       \
    return TMPI_##X(buf, c.count, c.type, dest, tag, comm);                                               \
  }
P2P_SEND(Send)
P2P_SEND(Ssend)
P2P_SEND(Rsend)
P2P_SEND(Bsend)
#undef P2P_SEND

#define P2P_ISEND(X)                                                                                        \
  int TMPI_##X##_c(const void* buf, TMPI_Count count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm,  \
                   TMPI_Request* request) {                                                                 \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                   \
    CARRY(c, "count", count, type);                                                                         \
    return TMPI_##X(buf, c.count, c.type, dest, tag, comm, request);                                        \
  }
P2P_ISEND(Isend)
P2P_ISEND(Issend)
P2P_ISEND(Irsend)
P2P_ISEND(Ibsend)
#undef P2P_ISEND

// Persistent requests keep the datatype handle until MPI_Request_free: no
// derived datatype of ours may stand in for the count.
#define P2P_INIT(X, CONST)                                                                                  \
  int TMPI_##X##_c(CONST void* buf, TMPI_Count count, TMPI_Datatype type, int peer, int tag, TMPI_Comm comm, \
                   TMPI_Request* request) {                                                                 \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                   \
    TO_INT(n, "count", count, kPersistentHint);                                                             \
    return TMPI_##X(buf, n, type, peer, tag, comm, request);                                                \
  }
P2P_INIT(Send_init, const)
P2P_INIT(Ssend_init, const)
P2P_INIT(Rsend_init, const)
P2P_INIT(Bsend_init, const)
P2P_INIT(Recv_init, )
#undef P2P_INIT

int TMPI_Recv_c(void* buf, TMPI_Count count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
                TMPI_Status* status) {
  BEGIN("MPI_Recv_c", on_comm(comm));
  CARRY(c, "count", count, type);
  return TMPI_Recv(buf, c.count, c.type, source, tag, comm, status);
}

int TMPI_Irecv_c(void* buf, TMPI_Count count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
                 TMPI_Request* request) {
  BEGIN("MPI_Irecv_c", on_comm(comm));
  CARRY(c, "count", count, type);
  return TMPI_Irecv(buf, c.count, c.type, source, tag, comm, request);
}

int TMPI_Sendrecv_c(const void* sendbuf, TMPI_Count sendcount, TMPI_Datatype sendtype, int dest, int sendtag,
                    void* recvbuf, TMPI_Count recvcount, TMPI_Datatype recvtype, int source, int recvtag,
                    TMPI_Comm comm, TMPI_Status* status) {
  BEGIN("MPI_Sendrecv_c", on_comm(comm));
  CARRY(s, "sendcount", sendcount, sendtype);
  CARRY(r, "recvcount", recvcount, recvtype);
  return TMPI_Sendrecv(sendbuf, s.count, s.type, dest, sendtag, recvbuf, r.count, r.type, source, recvtag, comm,
                       status);
}

int TMPI_Sendrecv_replace_c(void* buf, TMPI_Count count, TMPI_Datatype type, int dest, int sendtag, int source,
                            int recvtag, TMPI_Comm comm, TMPI_Status* status) {
  BEGIN("MPI_Sendrecv_replace_c", on_comm(comm));
  CARRY(c, "count", count, type);
  return TMPI_Sendrecv_replace(buf, c.count, c.type, dest, sendtag, source, recvtag, comm, status);
}

int TMPI_Mrecv_c(void* buf, TMPI_Count count, TMPI_Datatype type, TMPI_Message* message, TMPI_Status* status) {
  BEGIN("MPI_Mrecv_c", on_comm(TMPI_COMM_WORLD));
  CARRY(c, "count", count, type);
  return TMPI_Mrecv(buf, c.count, c.type, message, status);
}

int TMPI_Imrecv_c(void* buf, TMPI_Count count, TMPI_Datatype type, TMPI_Message* message, TMPI_Request* request) {
  BEGIN("MPI_Imrecv_c", on_comm(TMPI_COMM_WORLD));
  CARRY(c, "count", count, type);
  return TMPI_Imrecv(buf, c.count, c.type, message, request);
}

int TMPI_Buffer_attach_c(void* buffer, TMPI_Count size) {
  BEGIN("MPI_Buffer_attach_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "size", size, "the buffer of buffered sends is at most INT_MAX bytes here");
  return TMPI_Buffer_attach(buffer, n);
}

int TMPI_Buffer_detach_c(void* buffer_addr, TMPI_Count* size) {
  int n = 0;
  int e = TMPI_Buffer_detach(buffer_addr, &n);
  if (!e) *size = n;
  return e;
}

// The status holds the byte count as a long long: whole elements of 64 bits.
int TMPI_Get_count_c(const TMPI_Status* status, TMPI_Datatype type, TMPI_Count* count) {
  TypeMapPtr m = type_map(type);
  if (!m)
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Get_count_c", "invalid datatype %d", type);
  long long bytes = status->tmpi_bytes, size = static_cast<long long>(m->size);
  *count = size == 0 ? 0 : bytes % size ? TMPI_UNDEFINED : bytes / size;
  return TMPI_SUCCESS;
}

int TMPI_Get_elements_c(const TMPI_Status* status, TMPI_Datatype type, TMPI_Count* count) {
  return TMPI_Get_elements_x(status, type, count);
}

int TMPI_Status_set_elements_c(TMPI_Status* status, TMPI_Datatype type, TMPI_Count count) {
  return TMPI_Status_set_elements_x(status, type, count);
}

// ---------------------------------------------------------------- datatypes

int TMPI_Type_contiguous_c(TMPI_Count count, TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_contiguous_c", on_comm(TMPI_COMM_WORLD));
  if (fits_int(count)) return TMPI_Type_contiguous(static_cast<int>(count), old, newtype);
  if (count < 0) return report(call, where, TMPI_ERR_COUNT, "count = %lld is negative", count);
  // Not committed, as MPI_Type_contiguous's: the commit of big_contiguous
  // stays on the handle, which is harmless (a second commit does nothing).
  return big_contiguous(call, where, count, old, newtype);
}

int TMPI_Type_vector_c(TMPI_Count count, TMPI_Count blocklength, TMPI_Count stride, TMPI_Datatype old,
                       TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_vector_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INT(b, "blocklength", blocklength, kTypeHint);
  TO_INT(s, "stride", stride, kTypeHint);
  return TMPI_Type_vector(n, b, s, old, newtype);
}

int TMPI_Type_create_hvector_c(TMPI_Count count, TMPI_Count blocklength, TMPI_Count stride, TMPI_Datatype old,
                               TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_hvector_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INT(b, "blocklength", blocklength, kTypeHint);
  return TMPI_Type_create_hvector(n, b, static_cast<TMPI_Aint>(stride), old, newtype);
}

int TMPI_Type_indexed_c(TMPI_Count count, const TMPI_Count blocklengths[], const TMPI_Count displacements[],
                        TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_indexed_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INTS(b, "array_of_blocklengths", blocklengths, n, kTypeHint);
  TO_INTS(d, "array_of_displacements", displacements, n, kTypeHint);
  return TMPI_Type_indexed(n, ptr(b, blocklengths), ptr(d, displacements), old, newtype);
}

int TMPI_Type_create_hindexed_c(TMPI_Count count, const TMPI_Count blocklengths[], const TMPI_Count displacements[],
                                TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_hindexed_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INTS(b, "array_of_blocklengths", blocklengths, n, kTypeHint);
  std::vector<TMPI_Aint> d = to_aints(displacements, n);
  return TMPI_Type_create_hindexed(n, ptr(b, blocklengths), displacements ? d.data() : nullptr, old, newtype);
}

int TMPI_Type_create_indexed_block_c(TMPI_Count count, TMPI_Count blocklength, const TMPI_Count displacements[],
                                     TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_indexed_block_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INT(b, "blocklength", blocklength, kTypeHint);
  TO_INTS(d, "array_of_displacements", displacements, n, kTypeHint);
  return TMPI_Type_create_indexed_block(n, b, ptr(d, displacements), old, newtype);
}

int TMPI_Type_create_hindexed_block_c(TMPI_Count count, TMPI_Count blocklength, const TMPI_Count displacements[],
                                      TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_hindexed_block_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INT(b, "blocklength", blocklength, kTypeHint);
  std::vector<TMPI_Aint> d = to_aints(displacements, n);
  return TMPI_Type_create_hindexed_block(n, b, displacements ? d.data() : nullptr, old, newtype);
}

int TMPI_Type_create_struct_c(TMPI_Count count, const TMPI_Count blocklengths[], const TMPI_Count displacements[],
                              const TMPI_Datatype types[], TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_struct_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kTypeHint);
  TO_INTS(b, "array_of_blocklengths", blocklengths, n, kTypeHint);
  std::vector<TMPI_Aint> d = to_aints(displacements, n);
  return TMPI_Type_create_struct(n, ptr(b, blocklengths), displacements ? d.data() : nullptr, types, newtype);
}

int TMPI_Type_create_subarray_c(int ndims, const TMPI_Count sizes[], const TMPI_Count subsizes[],
                                const TMPI_Count starts[], int order, TMPI_Datatype old, TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_subarray_c", on_comm(TMPI_COMM_WORLD));
  TO_INTS(sz, "array_of_sizes", sizes, ndims, kTypeHint);
  TO_INTS(sub, "array_of_subsizes", subsizes, ndims, kTypeHint);
  TO_INTS(st, "array_of_starts", starts, ndims, kTypeHint);
  return TMPI_Type_create_subarray(ndims, ptr(sz, sizes), ptr(sub, subsizes), ptr(st, starts), order, old, newtype);
}

int TMPI_Type_create_darray_c(int size, int rank, int ndims, const TMPI_Count gsizes[], const int distribs[],
                              const int dargs[], const int psizes[], int order, TMPI_Datatype old,
                              TMPI_Datatype* newtype) {
  BEGIN("MPI_Type_create_darray_c", on_comm(TMPI_COMM_WORLD));
  TO_INTS(g, "array_of_gsizes", gsizes, ndims, kTypeHint);
  return TMPI_Type_create_darray(size, rank, ndims, ptr(g, gsizes), distribs, dargs, psizes, order, old, newtype);
}

int TMPI_Type_create_resized_c(TMPI_Datatype old, TMPI_Count lb, TMPI_Count extent, TMPI_Datatype* newtype) {
  return TMPI_Type_create_resized(old, static_cast<TMPI_Aint>(lb), static_cast<TMPI_Aint>(extent), newtype);
}

int TMPI_Type_size_c(TMPI_Datatype type, TMPI_Count* size) { return TMPI_Type_size_x(type, size); }

int TMPI_Type_get_extent_c(TMPI_Datatype type, TMPI_Count* lb, TMPI_Count* extent) {
  return TMPI_Type_get_extent_x(type, lb, extent);
}

int TMPI_Type_get_true_extent_c(TMPI_Datatype type, TMPI_Count* lb, TMPI_Count* extent) {
  return TMPI_Type_get_true_extent_x(type, lb, extent);
}

int TMPI_Type_get_envelope_c(TMPI_Datatype type, TMPI_Count* num_integers, TMPI_Count* num_addresses,
                             TMPI_Count* num_large_counts, TMPI_Count* num_datatypes, int* combiner) {
  int ni = 0, na = 0, nd = 0;
  int e = TMPI_Type_get_envelope(type, &ni, &na, &nd, combiner);
  if (e) return e;
  *num_integers = ni, *num_addresses = na, *num_large_counts = 0, *num_datatypes = nd;
  return TMPI_SUCCESS;
}

int TMPI_Type_get_contents_c(TMPI_Datatype type, TMPI_Count max_integers, TMPI_Count max_addresses,
                             TMPI_Count max_large_counts, TMPI_Count max_datatypes, int integers[],
                             TMPI_Aint addresses[], TMPI_Count large_counts[], TMPI_Datatype datatypes[]) {
  (void)max_large_counts, (void)large_counts;  // always none (MPI_Type_get_envelope_c)
  auto clamp = [](TMPI_Count v) { return static_cast<int>(v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : v); };
  return TMPI_Type_get_contents(type, clamp(max_integers), clamp(max_addresses), clamp(max_datatypes), integers,
                                addresses, datatypes);
}

// Packing in 64 bits: the same copies as MPI_Pack/MPI_Unpack (typemap.cc).
int TMPI_Pack_c(const void* inbuf, TMPI_Count incount, TMPI_Datatype type, void* outbuf, TMPI_Count outsize,
                TMPI_Count* position, TMPI_Comm comm) {
  const char* call = "MPI_Pack_c";
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (incount < 0) return mpi_error(current_subrank(), comm, TMPI_ERR_COUNT, call, "negative count %lld", incount);
  long long bytes = incount * static_cast<long long>(m->size);
  if (*position < 0 || *position + bytes > outsize)
    return mpi_error(current_subrank(), comm, TMPI_ERR_TRUNCATE, call,
                     "%lld bytes do not fit at position %lld of a %lld-byte buffer", bytes, *position, outsize);
  pack(inbuf, static_cast<std::size_t>(incount), *m, static_cast<char*>(outbuf) + *position);
  *position += bytes;
  return TMPI_SUCCESS;
}

int TMPI_Unpack_c(const void* inbuf, TMPI_Count insize, TMPI_Count* position, void* outbuf, TMPI_Count outcount,
                  TMPI_Datatype type, TMPI_Comm comm) {
  const char* call = "MPI_Unpack_c";
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (outcount < 0) return mpi_error(current_subrank(), comm, TMPI_ERR_COUNT, call, "negative count %lld", outcount);
  long long bytes = outcount * static_cast<long long>(m->size);
  if (*position < 0 || *position + bytes > insize)
    return mpi_error(current_subrank(), comm, TMPI_ERR_TRUNCATE, call,
                     "%lld bytes are not left at position %lld of a %lld-byte buffer", bytes, *position, insize);
  unpack(static_cast<const char*>(inbuf) + *position, static_cast<std::size_t>(outcount), *m, outbuf);
  *position += bytes;
  return TMPI_SUCCESS;
}

int TMPI_Pack_size_c(TMPI_Count incount, TMPI_Datatype type, TMPI_Comm comm, TMPI_Count* size) {
  const char* call = "MPI_Pack_size_c";
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (incount < 0) return mpi_error(current_subrank(), comm, TMPI_ERR_COUNT, call, "negative count %lld", incount);
  *size = incount * static_cast<long long>(m->size);
  return TMPI_SUCCESS;
}

int TMPI_Pack_external_c(const char* datarep, const void* inbuf, TMPI_Count incount, TMPI_Datatype type,
                         void* outbuf, TMPI_Count outsize, TMPI_Count* position) {
  BEGIN("MPI_Pack_external_c", on_comm(TMPI_COMM_WORLD));
  CARRY(c, "incount", incount, type);
  TMPI_Aint pos = static_cast<TMPI_Aint>(*position);
  int e = TMPI_Pack_external(datarep, inbuf, c.count, c.type, outbuf, static_cast<TMPI_Aint>(outsize), &pos);
  if (!e) *position = pos;
  return e;
}

int TMPI_Unpack_external_c(const char datarep[], const void* inbuf, TMPI_Count insize, TMPI_Count* position,
                           void* outbuf, TMPI_Count outcount, TMPI_Datatype type) {
  BEGIN("MPI_Unpack_external_c", on_comm(TMPI_COMM_WORLD));
  CARRY(c, "outcount", outcount, type);
  TMPI_Aint pos = static_cast<TMPI_Aint>(*position);
  int e = TMPI_Unpack_external(datarep, inbuf, static_cast<TMPI_Aint>(insize), &pos, outbuf, c.count, c.type);
  if (!e) *position = pos;
  return e;
}

int TMPI_Pack_external_size_c(const char* datarep, TMPI_Count incount, TMPI_Datatype type, TMPI_Count* size) {
  BEGIN("MPI_Pack_external_size_c", on_comm(TMPI_COMM_WORLD));
  CARRY(c, "incount", incount, type);
  TMPI_Aint s = 0;
  int e = TMPI_Pack_external_size(datarep, c.count, c.type, &s);
  if (!e) *size = s;
  return e;
}

// ---------------------------------------------------------------- collectives

int TMPI_Op_create_c(TMPI_User_function_c* function, int commute, TMPI_Op* op) {
  enter("MPI_Op_create_c");
  // Kept as the int form's function type; Reduction::call_user calls it
  // back as what it is (coll/framework.cc).
  *op = create_user_op(reinterpret_cast<TMPI_User_function*>(function), commute != 0, true);
  return TMPI_SUCCESS;
}

int TMPI_Reduce_local_c(const void* inbuf, void* inoutbuf, TMPI_Count count, TMPI_Datatype type, TMPI_Op op) {
  BEGIN("MPI_Reduce_local_c", on_comm(TMPI_COMM_WORLD));
  TO_INT(n, "count", count, kReduceHint);
  return TMPI_Reduce_local(inbuf, inoutbuf, n, type, op);
}

// The collectives come in pairs, blocking and non-blocking: NB_PARAM and
// NB_ARG add the request to the non-blocking one's parameters and call.
#define NB_PARAM , TMPI_Request* request
#define NB_ARG , request

#define BCAST(X, P, A)                                                                               \
  int TMPI_##X##_c(void* buffer, TMPI_Count count, TMPI_Datatype type, int root, TMPI_Comm comm P) { \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                            \
    CARRY(c, "count", count, type);                                                                  \
    return TMPI_##X(buffer, c.count, c.type, root, comm A);                                          \
  }
BCAST(Bcast, , )
BCAST(Ibcast, NB_PARAM, NB_ARG)
#undef BCAST

// Gather, Scatter: a count beyond int travels as one element of a derived
// datatype on either side (the root's i-th block is then at i x its extent,
// as MPI places it).
#define ROOTED(X, P, A)                                                                                          \
  int TMPI_##X##_c(const void* sendbuf, TMPI_Count sendcount, TMPI_Datatype sendtype, void* recvbuf,             \
                   TMPI_Count recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm P) {                  \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                        \
    CARRY(s, "sendcount", sendcount, sendtype);                                                                  \
    CARRY(r, "recvcount", recvcount, recvtype);                                                                  \
    return TMPI_##X(sendbuf, s.count, s.type, recvbuf, r.count, r.type, root, comm A);                          \
  }
ROOTED(Gather, , )
ROOTED(Igather, NB_PARAM, NB_ARG)
ROOTED(Scatter, , )
ROOTED(Iscatter, NB_PARAM, NB_ARG)
#undef ROOTED

#define ALL(X, P, A)                                                                                 \
  int TMPI_##X##_c(const void* sendbuf, TMPI_Count sendcount, TMPI_Datatype sendtype, void* recvbuf, \
                   TMPI_Count recvcount, TMPI_Datatype recvtype, TMPI_Comm comm P) {                \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                            \
    CARRY(s, "sendcount", sendcount, sendtype);                                                      \
    CARRY(r, "recvcount", recvcount, recvtype);                                                      \
    return TMPI_##X(sendbuf, s.count, s.type, recvbuf, r.count, r.type, comm A);                    \
  }
ALL(Allgather, , )
ALL(Iallgather, NB_PARAM, NB_ARG)
ALL(Alltoall, , )
ALL(Ialltoall, NB_PARAM, NB_ARG)
ALL(Neighbor_allgather, , )
ALL(Ineighbor_allgather, NB_PARAM, NB_ARG)
ALL(Neighbor_alltoall, , )
ALL(Ineighbor_alltoall, NB_PARAM, NB_ARG)
#undef ALL

// Reductions: the count must fit (a derived datatype in its place would
// change the datatype and count a user operation is called with).
#define REDUCE(X, P, A)                                                                                       \
  int TMPI_##X##_c(const void* sendbuf, void* recvbuf, TMPI_Count count, TMPI_Datatype type, TMPI_Op op,     \
                   int root, TMPI_Comm comm P) {                                                              \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                     \
    TO_INT(n, "count", count, kReduceHint);                                                                   \
    return TMPI_##X(sendbuf, recvbuf, n, type, op, root, comm A);                                             \
  }
REDUCE(Reduce, , )
REDUCE(Ireduce, NB_PARAM, NB_ARG)
#undef REDUCE
#define ALLREDUCE(X, COUNT, P, A)                                                                         \
  int TMPI_##X##_c(const void* sendbuf, void* recvbuf, TMPI_Count count, TMPI_Datatype type, TMPI_Op op, \
                   TMPI_Comm comm P) {                                                                    \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                 \
    TO_INT(n, COUNT, count, kReduceHint);                                                                 \
    return TMPI_##X(sendbuf, recvbuf, n, type, op, comm A);                                               \
  }
ALLREDUCE(Allreduce, "count", , )
ALLREDUCE(Iallreduce, "count", NB_PARAM, NB_ARG)
ALLREDUCE(Scan, "count", , )
ALLREDUCE(Iscan, "count", NB_PARAM, NB_ARG)
ALLREDUCE(Exscan, "count", , )
ALLREDUCE(Iexscan, "count", NB_PARAM, NB_ARG)
ALLREDUCE(Reduce_scatter_block, "recvcount", , )
ALLREDUCE(Ireduce_scatter_block, "recvcount", NB_PARAM, NB_ARG)
#undef ALLREDUCE

#define REDUCE_SCATTER(X, P, A)                                                                                \
  int TMPI_##X##_c(const void* sendbuf, void* recvbuf, const TMPI_Count recvcounts[], TMPI_Datatype type,    \
                   TMPI_Op op, TMPI_Comm comm P) {                                                           \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                      \
    TO_INTS(rc, "recvcounts", recvcounts, local_size(comm), kArrayHint);                                       \
    return TMPI_##X(sendbuf, recvbuf, ptr(rc, recvcounts), type, op, comm A);                                  \
  }
REDUCE_SCATTER(Reduce_scatter, , )
REDUCE_SCATTER(Ireduce_scatter, NB_PARAM, NB_ARG)
#undef REDUCE_SCATTER

// The v and w forms: count and displacement arrays become int arrays (the
// runtime's collectives take those), each entry checked; the arrays of the
// root only where they are significant.
#define GATHERV(X, P, A)                                                                                        \
  int TMPI_##X##_c(const void* sendbuf, TMPI_Count sendcount, TMPI_Datatype sendtype, void* recvbuf,            \
                   const TMPI_Count recvcounts[], const TMPI_Aint displs[], TMPI_Datatype recvtype, int root,   \
                   TMPI_Comm comm P) {                                                                         \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                       \
    CARRY(s, "sendcount", sendcount, sendtype);                                                                 \
    int n = root_side(comm, root) ? peer_count(comm) : 0;                                                       \
    TO_INTS(rc, "recvcounts", recvcounts, n, kArrayHint);                                                       \
    TO_INTS(rd, "displs", displs, n, kArrayHint);                                                               \
    return TMPI_##X(sendbuf, s.count, s.type, recvbuf, n ? ptr(rc, recvcounts) : nullptr,                    \
                    n ? ptr(rd, displs) : nullptr, recvtype, root, comm A);                                     \
  }
GATHERV(Gatherv, , )
GATHERV(Igatherv, NB_PARAM, NB_ARG)
#undef GATHERV

#define SCATTERV(X, P, A)                                                                                          \
  int TMPI_##X##_c(const void* sendbuf, const TMPI_Count sendcounts[], const TMPI_Aint displs[],                   \
                   TMPI_Datatype sendtype, void* recvbuf, TMPI_Count recvcount, TMPI_Datatype recvtype, int root, \
                   TMPI_Comm comm P) {                                                                            \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                          \
    CARRY(r, "recvcount", recvcount, recvtype);                                                                    \
    int n = root_side(comm, root) ? peer_count(comm) : 0;                                                          \
    TO_INTS(sc, "sendcounts", sendcounts, n, kArrayHint);                                                          \
    TO_INTS(sd, "displs", displs, n, kArrayHint);                                                                  \
    return TMPI_##X(sendbuf, n ? ptr(sc, sendcounts) : nullptr, n ? ptr(sd, displs) : nullptr, sendtype, recvbuf, \
                    r.count, r.type, root, comm A);                                                               \
  }
SCATTERV(Scatterv, , )
SCATTERV(Iscatterv, NB_PARAM, NB_ARG)
#undef SCATTERV

#define ALLGATHERV(X, PEERS, P, A)                                                                            \
  int TMPI_##X##_c(const void* sendbuf, TMPI_Count sendcount, TMPI_Datatype sendtype, void* recvbuf,          \
                   const TMPI_Count recvcounts[], const TMPI_Aint displs[], TMPI_Datatype recvtype,           \
                   TMPI_Comm comm P) {                                                                       \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                     \
    CARRY(s, "sendcount", sendcount, sendtype);                                                               \
    int n = PEERS;                                                                                            \
    TO_INTS(rc, "recvcounts", recvcounts, n, kArrayHint);                                                     \
    TO_INTS(rd, "displs", displs, n, kArrayHint);                                                             \
    return TMPI_##X(sendbuf, s.count, s.type, recvbuf, ptr(rc, recvcounts), ptr(rd, displs), recvtype, comm A); \
  }
ALLGATHERV(Allgatherv, peer_count(comm), , )
ALLGATHERV(Iallgatherv, peer_count(comm), NB_PARAM, NB_ARG)
ALLGATHERV(Neighbor_allgatherv, in_degree(comm), , )
ALLGATHERV(Ineighbor_allgatherv, in_degree(comm), NB_PARAM, NB_ARG)
#undef ALLGATHERV

// Alltoallv: NS and NR are the entries of the send and receive arrays (the
// send ones are not read with MPI_IN_PLACE).
#define ALLTOALLV(X, NS, NR, P, A)                                                                               \
  int TMPI_##X##_c(const void* sendbuf, const TMPI_Count sendcounts[], const TMPI_Aint sdispls[],                \
                   TMPI_Datatype sendtype, void* recvbuf, const TMPI_Count recvcounts[], const TMPI_Aint rdispls[], \
                   TMPI_Datatype recvtype, TMPI_Comm comm P) {                                                   \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                        \
    int ns = sendbuf == TMPI_IN_PLACE ? 0 : (NS), nr = (NR);                                                     \
    TO_INTS(sc, "sendcounts", sendcounts, ns, kArrayHint);                                                       \
    TO_INTS(sd, "sdispls", sdispls, ns, kArrayHint);                                                             \
    TO_INTS(rc, "recvcounts", recvcounts, nr, kArrayHint);                                                       \
    TO_INTS(rd, "rdispls", rdispls, nr, kArrayHint);                                                             \
    return TMPI_##X(sendbuf, ns ? ptr(sc, sendcounts) : nullptr, ns ? ptr(sd, sdispls) : nullptr, sendtype,     \
                    recvbuf, ptr(rc, recvcounts), ptr(rd, rdispls), recvtype, comm A);                           \
  }
ALLTOALLV(Alltoallv, peer_count(comm), peer_count(comm), , )
ALLTOALLV(Ialltoallv, peer_count(comm), peer_count(comm), NB_PARAM, NB_ARG)
ALLTOALLV(Neighbor_alltoallv, out_degree(comm), in_degree(comm), , )
ALLTOALLV(Ineighbor_alltoallv, out_degree(comm), in_degree(comm), NB_PARAM, NB_ARG)
#undef ALLTOALLV

#define ALLTOALLW(X, P, A)                                                                                        \
  int TMPI_##X##_c(const void* sendbuf, const TMPI_Count sendcounts[], const TMPI_Aint sdispls[],                 \
                   const TMPI_Datatype sendtypes[], void* recvbuf, const TMPI_Count recvcounts[],                 \
                   const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm P) {                \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                         \
    int nr = peer_count(comm), ns = sendbuf == TMPI_IN_PLACE ? 0 : nr;                                            \
    TO_INTS(sc, "sendcounts", sendcounts, ns, kArrayHint);                                                        \
    TO_INTS(sd, "sdispls", sdispls, ns, kArrayHint);                                                              \
    TO_INTS(rc, "recvcounts", recvcounts, nr, kArrayHint);                                                        \
    TO_INTS(rd, "rdispls", rdispls, nr, kArrayHint);                                                              \
    return TMPI_##X(sendbuf, ns ? ptr(sc, sendcounts) : nullptr, ns ? ptr(sd, sdispls) : nullptr,                \
                    ns ? sendtypes : nullptr, recvbuf, ptr(rc, recvcounts), ptr(rd, rdispls), recvtypes, comm A); \
  }
ALLTOALLW(Alltoallw, , )
ALLTOALLW(Ialltoallw, NB_PARAM, NB_ARG)
#undef ALLTOALLW

// Neighbor_alltoallw: its displacements are MPI_Aint in both forms.
#define NEIGHBOR_ALLTOALLW(X, P, A)                                                                              \
  int TMPI_##X##_c(const void* sendbuf, const TMPI_Count sendcounts[], const TMPI_Aint sdispls[],                \
                   const TMPI_Datatype sendtypes[], void* recvbuf, const TMPI_Count recvcounts[],                \
                   const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm P) {               \
    BEGIN("MPI_" #X "_c", on_comm(comm));                                                                        \
    TO_INTS(sc, "sendcounts", sendcounts, out_degree(comm), kArrayHint);                                         \
    TO_INTS(rc, "recvcounts", recvcounts, in_degree(comm), kArrayHint);                                          \
    return TMPI_##X(sendbuf, ptr(sc, sendcounts), sdispls, sendtypes, recvbuf, ptr(rc, recvcounts), rdispls,     \
                    recvtypes, comm A);                                                                          \
  }
NEIGHBOR_ALLTOALLW(Neighbor_alltoallw, , )
NEIGHBOR_ALLTOALLW(Ineighbor_alltoallw, NB_PARAM, NB_ARG)
#undef NEIGHBOR_ALLTOALLW

// ---------------------------------------------------------------- one-sided communication

#define PUT_GET(X, CONST, P, A)                                                                              \
  int TMPI_##X##_c(CONST void* origin, TMPI_Count ocount, TMPI_Datatype otype, int target, TMPI_Aint disp,   \
                   TMPI_Count tcount, TMPI_Datatype ttype, TMPI_Win win P) {                                 \
    BEGIN("MPI_" #X "_c", on_win(win));                                                                      \
    CARRY(o, "origin_count", ocount, otype);                                                                 \
    CARRY(t, "target_count", tcount, ttype);                                                                 \
    return TMPI_##X(origin, o.count, o.type, target, disp, t.count, t.type, win A);                          \
  }
PUT_GET(Put, const, , )
PUT_GET(Rput, const, NB_PARAM, NB_ARG)
PUT_GET(Get, , , )
PUT_GET(Rget, , NB_PARAM, NB_ARG)
#undef PUT_GET

#define ACCUMULATE(X, P, A)                                                                                       \
  int TMPI_##X##_c(const void* origin, TMPI_Count ocount, TMPI_Datatype otype, int target, TMPI_Aint disp,        \
                   TMPI_Count tcount, TMPI_Datatype ttype, TMPI_Op op, TMPI_Win win P) {                          \
    BEGIN("MPI_" #X "_c", on_win(win));                                                                           \
    CARRY(o, "origin_count", ocount, otype);                                                                      \
    CARRY(t, "target_count", tcount, ttype);                                                                      \
    return TMPI_##X(origin, o.count, o.type, target, disp, t.count, t.type, op, win A);                           \
  }
ACCUMULATE(Accumulate, , )
ACCUMULATE(Raccumulate, NB_PARAM, NB_ARG)
#undef ACCUMULATE

#define GET_ACCUMULATE(X, P, A)                                                                                    \
  int TMPI_##X##_c(const void* origin, TMPI_Count ocount, TMPI_Datatype otype, void* result, TMPI_Count rcount,   \
                   TMPI_Datatype rtype, int target, TMPI_Aint disp, TMPI_Count tcount, TMPI_Datatype ttype,       \
                   TMPI_Op op, TMPI_Win win P) {                                                                  \
    BEGIN("MPI_" #X "_c", on_win(win));                                                                            \
    CARRY(o, "origin_count", ocount, otype);                                                                       \
    CARRY(r, "result_count", rcount, rtype);                                                                       \
    CARRY(t, "target_count", tcount, ttype);                                                                       \
    return TMPI_##X(origin, o.count, o.type, result, r.count, r.type, target, disp, t.count, t.type, op, win A);  \
  }
GET_ACCUMULATE(Get_accumulate, , )
GET_ACCUMULATE(Rget_accumulate, NB_PARAM, NB_ARG)
#undef GET_ACCUMULATE

const char* const kDispUnitHint = "a window's displacement unit is an int inside Tucana";

int TMPI_Win_create_c(void* base, TMPI_Aint size, TMPI_Aint disp_unit, TMPI_Info info, TMPI_Comm comm,
                      TMPI_Win* win) {
  BEGIN("MPI_Win_create_c", on_comm(comm));
  TO_INT(du, "disp_unit", disp_unit, kDispUnitHint);
  return TMPI_Win_create(base, size, du, info, comm, win);
}

int TMPI_Win_allocate_c(TMPI_Aint size, TMPI_Aint disp_unit, TMPI_Info info, TMPI_Comm comm, void* baseptr,
                        TMPI_Win* win) {
  BEGIN("MPI_Win_allocate_c", on_comm(comm));
  TO_INT(du, "disp_unit", disp_unit, kDispUnitHint);
  return TMPI_Win_allocate(size, du, info, comm, baseptr, win);
}

int TMPI_Win_allocate_shared_c(TMPI_Aint size, TMPI_Aint disp_unit, TMPI_Info info, TMPI_Comm comm, void* baseptr,
                               TMPI_Win* win) {
  BEGIN("MPI_Win_allocate_shared_c", on_comm(comm));
  TO_INT(du, "disp_unit", disp_unit, kDispUnitHint);
  return TMPI_Win_allocate_shared(size, du, info, comm, baseptr, win);
}

int TMPI_Win_shared_query_c(TMPI_Win win, int rank, TMPI_Aint* size, TMPI_Aint* disp_unit, void* baseptr) {
  int du = 0;
  int e = TMPI_Win_shared_query(win, rank, size, &du, baseptr);
  if (!e) *disp_unit = du;
  return e;
}

// ---------------------------------------------------------------- MPI-IO

// Reads and writes at the individual or shared file pointer (LAST is the
// status or request parameter, ARG its name).
#define FILE_RW(X, CONST, LAST, ARG)                                                                    \
  int TMPI_File_##X##_c(TMPI_File fh, CONST void* buf, TMPI_Count count, TMPI_Datatype type LAST) {    \
    BEGIN("MPI_File_" #X "_c", on_file(fh));                                                            \
    CARRY(c, "count", count, type);                                                                     \
    return TMPI_File_##X(fh, buf, c.count, c.type ARG);                                                 \
  }
#define FILE_RW_AT(X, CONST, LAST, ARG)                                                                              \
  int TMPI_File_##X##_c(TMPI_File fh, TMPI_Offset offset, CONST void* buf, TMPI_Count count, TMPI_Datatype type LAST) { \
    BEGIN("MPI_File_" #X "_c", on_file(fh));                                                                         \
    CARRY(c, "count", count, type);                                                                                  \
    return TMPI_File_##X(fh, offset, buf, c.count, c.type ARG);                                                      \
  }
#define ST_PARAM , TMPI_Status* status
#define ST_ARG , status
FILE_RW(read, , ST_PARAM, ST_ARG)
FILE_RW(read_all, , ST_PARAM, ST_ARG)
FILE_RW(write, const, ST_PARAM, ST_ARG)
FILE_RW(write_all, const, ST_PARAM, ST_ARG)
FILE_RW(iread, , NB_PARAM, NB_ARG)
FILE_RW(iread_all, , NB_PARAM, NB_ARG)
FILE_RW(iwrite, const, NB_PARAM, NB_ARG)
FILE_RW(iwrite_all, const, NB_PARAM, NB_ARG)
FILE_RW(read_shared, , ST_PARAM, ST_ARG)
FILE_RW(write_shared, const, ST_PARAM, ST_ARG)
FILE_RW(iread_shared, , NB_PARAM, NB_ARG)
FILE_RW(iwrite_shared, const, NB_PARAM, NB_ARG)
FILE_RW(read_ordered, , ST_PARAM, ST_ARG)
FILE_RW(write_ordered, const, ST_PARAM, ST_ARG)
FILE_RW(read_all_begin, , , )
FILE_RW(write_all_begin, const, , )
FILE_RW(read_ordered_begin, , , )
FILE_RW(write_ordered_begin, const, , )
FILE_RW_AT(read_at, , ST_PARAM, ST_ARG)
FILE_RW_AT(read_at_all, , ST_PARAM, ST_ARG)
FILE_RW_AT(write_at, const, ST_PARAM, ST_ARG)
FILE_RW_AT(write_at_all, const, ST_PARAM, ST_ARG)
FILE_RW_AT(iread_at, , NB_PARAM, NB_ARG)
FILE_RW_AT(iread_at_all, , NB_PARAM, NB_ARG)
FILE_RW_AT(iwrite_at, const, NB_PARAM, NB_ARG)
FILE_RW_AT(iwrite_at_all, const, NB_PARAM, NB_ARG)
FILE_RW_AT(read_at_all_begin, , , )
FILE_RW_AT(write_at_all_begin, const, , )
#undef FILE_RW
#undef FILE_RW_AT

int TMPI_File_get_type_extent_c(TMPI_File fh, TMPI_Datatype type, TMPI_Count* extent) {
  TMPI_Aint e = 0;
  int err = TMPI_File_get_type_extent(fh, type, &e);
  if (!err) *extent = e;
  return err;
}

}  // extern "C"
