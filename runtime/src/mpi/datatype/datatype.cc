#include "mpi/datatype/datatype.h"

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sync/mutex.h"

namespace tucana::mpi {

namespace {

// The layout of a C type in memory: one block, or a pair's two members.
template <typename T>
struct Members {
  static constexpr std::size_t size = sizeof(T), first = sizeof(T), second_offset = 0;
};
template <typename T>
struct Members<Pair<T>> {
  static constexpr std::size_t size = sizeof(T) + sizeof(int), first = sizeof(T),
                               second_offset = offsetof(Pair<T>, index);
};
template <typename T>
struct Members<Pair2<T>> {
  static constexpr std::size_t size = 2 * sizeof(T), first = sizeof(T), second_offset = offsetof(Pair2<T>, index);
};

const TypeInfo kTypes[] = {
#define TMPI_DATATYPE(NAME, CTYPE, CLASS)                                                              \
  {"MPI_" #NAME,         Members<CTYPE>::size,  TypeClass::CLASS,           sizeof(CTYPE), alignof(CTYPE), \
   Members<CTYPE>::first, Members<CTYPE>::second_offset},
#include <tucana/tmpi_datatypes.def>
#undef TMPI_DATATYPE
};

// A load of a possibly unaligned value (packed data).
template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(static_cast<void*>(&v), p, sizeof(T));
  return v;
}

const char* const kOpNames[] = {
#define TMPI_OP(NAME, APPLIES) "MPI_" #NAME,
#include <tucana/tmpi_ops.def>
#undef TMPI_OP
};

// MAXLOC/MINLOC on packed pairs (the index right after the value).
template <typename P>
bool reduce_pairs(TMPI_Op op, const void* in_bytes, void* io_bytes, std::size_t n) {
  using V = decltype(P::value);
  using I = decltype(P::index);
  constexpr std::size_t stride = sizeof(V) + sizeof(I);
  if (op != TMPI_OP_MAXLOC && op != TMPI_OP_MINLOC) return false;
  const bool max = op == TMPI_OP_MAXLOC;
  const auto* in = static_cast<const char*>(in_bytes);
  auto* io = static_cast<char*>(io_bytes);
  for (std::size_t i = 0; i < n; ++i, in += stride, io += stride) {
    V a = load<V>(in), b = load<V>(io);
    // Ties keep the smaller index, as MPI specifies.
    bool take = max ? a > b : a < b;
    if (!take && a == b) take = load<I>(in + sizeof(V)) < load<I>(io + sizeof(V));
    if (take) std::memcpy(io, in, stride);
  }
  return true;
}

// One reduction on one element type that is not a pair. The class decides
// which ops apply.
template <typename T, TypeClass C>
bool reduce_values(TMPI_Op op, const T* in, T* io, std::size_t n) {
  if constexpr (C == TypeClass::INT || C == TypeClass::UINT || C == TypeClass::FLOAT) {
    switch (op) {
      case TMPI_OP_MAX: for (std::size_t i = 0; i < n; ++i) io[i] = std::max(in[i], io[i]); return true;
      case TMPI_OP_MIN: for (std::size_t i = 0; i < n; ++i) io[i] = std::min(in[i], io[i]); return true;
      default: break;
    }
  }
  if constexpr (C == TypeClass::INT || C == TypeClass::UINT || C == TypeClass::FLOAT ||
                C == TypeClass::COMPLEX) {
    switch (op) {
      case TMPI_OP_SUM: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] + io[i]); return true;
      case TMPI_OP_PROD: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] * io[i]); return true;
      default: break;
    }
  }
  if constexpr (C == TypeClass::INT || C == TypeClass::UINT || C == TypeClass::BOOL ||
                C == TypeClass::LOGICAL) {
    switch (op) {
      case TMPI_OP_LAND: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>((in[i] != T{}) && (io[i] != T{})); return true;
      case TMPI_OP_LOR: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>((in[i] != T{}) || (io[i] != T{})); return true;
      case TMPI_OP_LXOR: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>((in[i] != T{}) != (io[i] != T{})); return true;
      default: break;
    }
  }
  if constexpr (C == TypeClass::INT || C == TypeClass::UINT || C == TypeClass::BYTE) {
    switch (op) {
      case TMPI_OP_BAND: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] & io[i]); return true;
      case TMPI_OP_BOR: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] | io[i]); return true;
      case TMPI_OP_BXOR: for (std::size_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] ^ io[i]); return true;
      default: break;
    }
  }
  return false;
}

template <typename T, TypeClass C>
bool reduce(TMPI_Op op, const void* in, void* io, std::size_t n) {
  if (op == TMPI_OP_REPLACE) {
    if (n) std::memcpy(io, in, n * Members<T>::size);
    return true;
  }
  if (op == TMPI_OP_NO_OP) return true;
  if constexpr (C == TypeClass::PAIR)
    return reduce_pairs<T>(op, in, io, n);
  else
    return reduce_values<T, C>(op, static_cast<const T*>(in), static_cast<T*>(io), n);
}

}  // namespace

const TypeInfo* type_info(TMPI_Datatype type) {
  if (type <= TMPI_DATATYPE_FIRST_ || type >= TMPI_DATATYPE_END_) return nullptr;
  return &kTypes[type - 1];
}

namespace {
// A user operation. MPI_Op_free while operations that use it are pending
// (pinned by non-blocking collectives) only marks it freed; it goes when
// the last of them lets go; then its handle may be handed out again (the
// last freed first, as MPICH and Open MPI do).
struct UserOp {
  TMPI_User_function* fn;
  bool commute;
  bool big_count = false;  // fn is an MPI_User_function_c (MPI_Op_create_c)
  int pins = 0;
  bool freed = false;
};
sync::Mutex g_user_ops_mutex(sync::LockLevel::kLeaf, "user operations");
std::unordered_map<TMPI_Op, UserOp> g_user_ops TUCANA_GUARDED_BY(g_user_ops_mutex);
TMPI_Op g_next_user_op TUCANA_GUARDED_BY(g_user_ops_mutex) = kFirstUserOp;
std::vector<TMPI_Op> g_free_user_ops TUCANA_GUARDED_BY(g_user_ops_mutex);

void erase_user_op(std::unordered_map<TMPI_Op, UserOp>::iterator it) TUCANA_REQUIRES(g_user_ops_mutex) {
  g_free_user_ops.push_back(it->first);
  g_user_ops.erase(it);
}
}  // namespace

TMPI_Op create_user_op(TMPI_User_function* fn, bool commute, bool big_count) {
  sync::MutexLock lock(g_user_ops_mutex);
  TMPI_Op op;
  if (!g_free_user_ops.empty()) {
    op = g_free_user_ops.back();
    g_free_user_ops.pop_back();
  } else {
    op = g_next_user_op++;
  }
  g_user_ops[op] = UserOp{fn, commute, big_count};
  return op;
}

bool free_user_op(TMPI_Op op) {
  sync::MutexLock lock(g_user_ops_mutex);
  auto it = g_user_ops.find(op);
  if (it == g_user_ops.end() || it->second.freed) return false;
  if (it->second.pins > 0)
    it->second.freed = true;
  else
    erase_user_op(it);
  return true;
}

bool pin_op(TMPI_Op op) {
  if (op < kFirstUserOp) return false;
  sync::MutexLock lock(g_user_ops_mutex);
  auto it = g_user_ops.find(op);
  if (it == g_user_ops.end()) return false;
  ++it->second.pins;
  return true;
}

void unpin_op(TMPI_Op op) {
  if (op < kFirstUserOp) return;
  sync::MutexLock lock(g_user_ops_mutex);
  auto it = g_user_ops.find(op);
  if (it == g_user_ops.end()) return;
  if (--it->second.pins == 0 && it->second.freed) erase_user_op(it);
}

TMPI_User_function* user_op(TMPI_Op op, bool* commute, bool* big_count) {
  sync::MutexLock lock(g_user_ops_mutex);
  auto it = g_user_ops.find(op);
  if (it == g_user_ops.end()) return nullptr;
  *commute = it->second.commute;
  if (big_count) *big_count = it->second.big_count;
  return it->second.fn;
}

const char* op_name(TMPI_Op op) {
  if (op >= kFirstUserOp) {
    bool commute;
    return user_op(op, &commute) ? "a user operation" : nullptr;
  }
  if (op <= TMPI_OP_FIRST_ || op >= TMPI_OP_END_) return nullptr;
  return kOpNames[op - 1];
}

bool apply_op(TMPI_Op op, TMPI_Datatype type, const void* in, void* inout, std::size_t count) {
  switch (type) {
#define TMPI_DATATYPE(NAME, CTYPE, CLASS)                                                   \
  case TMPI_DT_##NAME:                                                                    \
    return reduce<CTYPE, TypeClass::CLASS>(op, in, inout, count);
#include <tucana/tmpi_datatypes.def>
#undef TMPI_DATATYPE
    default:
      return false;
  }
}

}  // namespace tucana::mpi
