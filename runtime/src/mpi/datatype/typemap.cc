// The datatype table and the MPI_Type_* constructors.
#include "mpi/attributes.h"
#include "mpi/datatype/typemap.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstring>
#include <unordered_map>

#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "sync/mutex.h"

namespace tucana::mpi {

namespace {

constexpr TMPI_Datatype kFirstDerived = 256;

void append(std::vector<Block>& blocks, std::ptrdiff_t offset, std::size_t length) {
  if (length == 0) return;
  if (!blocks.empty() && blocks.back().offset + static_cast<std::ptrdiff_t>(blocks.back().length) == offset)
    blocks.back().length += length;
  else
    blocks.push_back(Block{offset, length});
}

void append(std::vector<Run>& runs, TMPI_Datatype type, std::size_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().type == type)
    runs.back().count += count;
  else
    runs.push_back(Run{type, count});
}

// A derived datatype. MPI_Type_free while operations that use it are
// pending (pinned by non-blocking collectives, which look the handle up
// when they run) only marks it freed; it goes when the last of them lets
// go. Handles are never reused.
struct Derived {
  TypeMapPtr map;
  ContentsPtr contents;  // how it was made (MPI_Type_get_contents)
  int pins = 0;
  bool freed = false;
};

// Errors are reported after the lock is let go (the error handler is the
// program's).
struct TypeTable {
  sync::Mutex mutex{sync::LockLevel::kLeaf, "datatypes"};
  std::unordered_map<TMPI_Datatype, Derived> derived TUCANA_GUARDED_BY(mutex);
  TMPI_Datatype next TUCANA_GUARDED_BY(mutex) = kFirstDerived;
  // Handles of freed types, handed out again (the last freed first), as
  // MPICH and Open MPI do: programs that create and free types in a loop
  // expect the numbers to stay small, and some compare them.
  std::vector<TMPI_Datatype> free_handles TUCANA_GUARDED_BY(mutex);
  std::vector<TypeMapPtr> predefined;  // index = handle; never written after the constructor
  TypeTable() {
    predefined.resize(TMPI_DATATYPE_END_);
    for (TMPI_Datatype t = 1; t < TMPI_DATATYPE_END_; ++t) {
      auto m = std::make_shared<TypeMap>();
      const TypeInfo* info = type_info(t);
      m->size = info->size;
      // A pair type (MPI_DOUBLE_INT) is its two members; the padding of
      // its C struct counts in the extent only.
      append(m->blocks, 0, info->first);
      if (info->size > info->first)
        append(m->blocks, static_cast<std::ptrdiff_t>(info->second_offset), info->size - info->first);
      m->ub = static_cast<std::ptrdiff_t>(info->extent);
      m->true_ub = m->blocks.back().offset + static_cast<std::ptrdiff_t>(m->blocks.back().length);
      m->basic = t;
      m->basic_count = 1;
      m->signature.push_back(Run{t, 1});
      m->align = info->align;
      m->predefined = m->committed = true;
      predefined[static_cast<std::size_t>(t)] = m;
    }
  }
};

TypeTable& table() {
  static TypeTable t;
  return t;
}

// Drops a freed type whose last user let go; its handle may be reused.
void erase_derived(TypeTable& t, std::unordered_map<TMPI_Datatype, Derived>::iterator it)
    TUCANA_REQUIRES(t.mutex) {
  t.free_handles.push_back(it->first);
  t.derived.erase(it);
}

TMPI_Datatype add(TypeMapPtr map, ContentsPtr contents = nullptr) {
  TypeTable& t = table();
  sync::MutexLock lock(t.mutex);
  TMPI_Datatype h;
  if (!t.free_handles.empty()) {
    h = t.free_handles.back();
    t.free_handles.pop_back();
  } else {
    h = t.next++;
  }
  Derived& d = t.derived[h];
  d.map = std::move(map);
  d.contents = std::move(contents);
  return h;
}

TMPI_Datatype add(TypeMap map) { return add(std::make_shared<const TypeMap>(std::move(map))); }

// The most blocks one type map lists, and the most signature runs it
// holds: a datatype of more blocks is kept compact (TypeMap::pieces); one
// of more signature runs (a mix of predefined types repeated that often)
// is refused with an error (too_big) rather than filling memory.
constexpr std::size_t kMaxBlocks = std::size_t{1} << 24;

// Accumulates a type map from copies of other types at byte displacements.
struct Builder {
  TypeMap map;
  bool first = true;
  bool mixed = false;
  bool too_big = false;  // over kMaxBlocks signature runs: the constructor fails (too_big_error)
  std::vector<TypePiece> pieces;  // once compact: the map's pieces
  bool compact = false;

  // `copies` copies of `old`, one extent apart, from `displacement`.
  void add(const TypeMapPtr& old, std::ptrdiff_t displacement, std::size_t copies) {
    add_run(old, displacement, 1, 0, copies);
  }
  // `count` runs at displacement + i * stride, each `blocklength` copies of
  // `old` one extent apart (a vector).
  void add_run(const TypeMapPtr& old_ptr, std::ptrdiff_t displacement, std::size_t count, std::ptrdiff_t stride,
               std::size_t blocklength) {
    if (too_big) return;
    const TypeMap& old = *old_ptr;
    const std::size_t copies = count * blocklength;
    const std::ptrdiff_t ext = old.extent();
    // A run of copies of a contiguous type is one block.
    const bool run_is_block = old.contiguous() && !old.compact();
    const std::size_t per_run = run_is_block ? 1 : old.blocks.size() * blocklength;
    if (!compact && copies > 0 && old.size > 0 &&
        (old.compact() || (per_run > 0 && count > (kMaxBlocks - map.blocks.size()) / per_run)))
      go_compact();
    if (copies > 0) {
      if (compact) {
        pieces.push_back(TypePiece{displacement, count, stride, blocklength, old_ptr});
        // The bounds of the first and last copies in each direction.
        std::ptrdiff_t last_run = static_cast<std::ptrdiff_t>(count - 1) * stride;
        std::ptrdiff_t last_copy = static_cast<std::ptrdiff_t>(blocklength - 1) * ext;
        std::ptrdiff_t lo = displacement + std::min<std::ptrdiff_t>(0, last_run) + std::min<std::ptrdiff_t>(0, last_copy);
        std::ptrdiff_t hi = displacement + std::max<std::ptrdiff_t>(0, last_run) + std::max<std::ptrdiff_t>(0, last_copy);
        bound(lo + old.lb, hi + old.ub, lo + old.true_lb, hi + old.true_ub);
      } else {
        for (std::size_t i = 0; i < count; ++i) {
          std::ptrdiff_t run = displacement + static_cast<std::ptrdiff_t>(i) * stride;
          if (run_is_block) {
            append(map.blocks, run + (old.blocks.empty() ? 0 : old.blocks[0].offset), blocklength * old.size);
            std::ptrdiff_t last = run + static_cast<std::ptrdiff_t>(blocklength - 1) * ext;
            bound(std::min(run, last) + old.lb, std::max(run, last) + old.ub, std::min(run, last) + old.true_lb,
                  std::max(run, last) + old.true_ub);
            continue;
          }
          for (std::size_t c = 0; c < blocklength; ++c) {
            std::ptrdiff_t at = run + static_cast<std::ptrdiff_t>(c) * ext;
            for (const Block& b : old.blocks) append(map.blocks, at + b.offset, b.length);
            bound(at + old.lb, at + old.ub, at + old.true_lb, at + old.true_ub);
          }
        }
      }
    }
    map.size += copies * old.size;
    if (copies == 0) return;
    map.align = std::max(map.align, old.align);
    map.explicit_bounds = map.explicit_bounds || old.explicit_bounds;
    if (old.size == 0) return;
    if (old.signature.size() == 1) {
      append(map.signature, old.signature[0].type, copies * old.signature[0].count);
    } else {
      for (std::size_t c = 0; c < copies && !too_big; ++c) {
        for (const Run& r : old.signature) append(map.signature, r.type, r.count);
        too_big = map.signature.size() > kMaxBlocks;
      }
    }
    if (map.basic == TMPI_DATATYPE_NULL && !mixed && map.basic_count == 0) map.basic = old.basic;
    if (old.basic != map.basic || old.basic == TMPI_DATATYPE_NULL) mixed = true;
    map.basic_count += copies * old.basic_count;
  }
  // From here on the map is kept as pieces; the blocks listed so far
  // become the first.
  void go_compact() {
    compact = true;
    if (map.blocks.empty()) return;
    auto listed = std::make_shared<TypeMap>();
    listed->blocks = std::move(map.blocks);
    map.blocks.clear();
    for (const Block& b : listed->blocks) listed->size += b.length;
    listed->ub = listed->true_ub = 0;  // only its blocks are walked (one copy)
    pieces.push_back(TypePiece{0, 1, 0, 1, std::move(listed)});
  }
  void bound(std::ptrdiff_t lb, std::ptrdiff_t ub, std::ptrdiff_t tlb, std::ptrdiff_t tub) {
    if (first) {
      map.lb = lb, map.ub = ub, map.true_lb = tlb, map.true_ub = tub;
      first = false;
      return;
    }
    map.lb = std::min(map.lb, lb), map.ub = std::max(map.ub, ub);
    map.true_lb = std::min(map.true_lb, tlb), map.true_ub = std::max(map.true_ub, tub);
  }
  TypeMap done() {
    if (mixed) map.basic = TMPI_DATATYPE_NULL;
    if (compact) map.pieces = std::make_shared<const std::vector<TypePiece>>(std::move(pieces));
    return std::move(map);
  }
  // MPI's rule for a struct type: unless a bound was set explicitly, the
  // extent is rounded up to the largest alignment of the predefined types
  // in it, so that an array of the type lies as an array of the C struct.
  void pad_extent() {
    if (map.explicit_bounds || map.align <= 1) return;
    std::ptrdiff_t extent = map.ub - map.lb, align = static_cast<std::ptrdiff_t>(map.align);
    if (extent > 0 && extent % align) map.ub += align - extent % align;
  }
};

// Common checks of the constructors; returns the old type's map or reports.
TypeMapPtr old_type(const char* call, TMPI_Datatype old, int* err) {
  TypeMapPtr m = type_map(old);
  if (!m) *err = mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", old);
  return m;
}

int bad_count(const char* call, int count) {
  return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_COUNT, call, "negative count %d", count);
}

int too_big_error(const char* call) {
  return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_INTERN, call,
                   "the datatype's type signature would have more than %zu runs of predefined types: Tucana "
                   "refuses one that large (build it from fewer, larger runs of one predefined type)",
                   kMaxBlocks);
}

}  // namespace

const TypeMap* find_type(TMPI_Datatype type, TypeMapPtr* keep) {
  if (type > 0 && type < TMPI_DATATYPE_END_) return table().predefined[static_cast<std::size_t>(type)].get();
  *keep = type_map(type);
  return keep->get();
}

TypeMapPtr type_map(TMPI_Datatype type) {
  TypeTable& t = table();
  if (type > 0 && type < TMPI_DATATYPE_END_) return t.predefined[static_cast<std::size_t>(type)];
  sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(type);
  return it == t.derived.end() ? nullptr : it->second.map;
}

bool pin_type(TMPI_Datatype type) {
  if (type < kFirstDerived) return false;
  TypeTable& t = table();
  sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(type);
  if (it == t.derived.end()) return false;
  ++it->second.pins;
  return true;
}

void unpin_type(TMPI_Datatype type) {
  if (type < kFirstDerived) return;
  TypeTable& t = table();
  sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(type);
  if (it == t.derived.end()) return;
  if (--it->second.pins == 0 && it->second.freed) erase_derived(t, it);
}

void record_contents(TMPI_Datatype type, int combiner, std::vector<int> integers,
                     std::vector<TMPI_Aint> addresses, const std::vector<TMPI_Datatype>& types) {
  auto c = std::make_shared<Contents>();
  c->combiner = combiner;
  c->integers = std::move(integers);
  c->addresses = std::move(addresses);
  TypeTable& t = table();
  sync::MutexLock lock(t.mutex);
  for (TMPI_Datatype h : types) {
    TypeArg arg;
    if (h > 0 && h < TMPI_DATATYPE_END_) {
      arg.handle = h;
    } else {
      auto it = t.derived.find(h);
      // The constructor checked it; another subrank may have freed it since
      // (erroneous): it then decodes as the handle it was.
      if (it == t.derived.end() || it->second.map->predefined)
        arg.handle = h;  // MPI_Type_create_f90_*: predefined, never freed
      else
        arg.map = it->second.map, arg.contents = it->second.contents;
    }
    c->types.push_back(std::move(arg));
  }
  auto it = t.derived.find(type);
  assert(it != t.derived.end() && "record_contents: a derived datatype just made");
  it->second.contents = std::move(c);
}

ContentsPtr type_contents(TMPI_Datatype type) {
  if (type < kFirstDerived) return nullptr;
  TypeTable& t = table();
  sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(type);
  if (it == t.derived.end() || it->second.freed) return nullptr;
  return it->second.contents;
}

TMPI_Datatype decoded_type(const TypeArg& arg) {
  if (arg.handle != TMPI_DATATYPE_NULL) return arg.handle;
  assert(arg.map && "decoded_type: a derived argument has its map");
  return add(arg.map, arg.contents);
}

TMPI_Datatype add_predefined_alias(TMPI_Datatype base) {
  assert(base > 0 && base < TMPI_DATATYPE_END_);
  return add(table().predefined[static_cast<std::size_t>(base)]);
}

void pack(const void* in, std::size_t count, const TypeMap& map, void* out) {
  auto* dst = static_cast<char*>(out);
  const auto* src = static_cast<const char*>(in);
  if (map.compact()) {
    for (std::size_t i = 0; i < count; ++i)
      for_each_block(map, static_cast<std::ptrdiff_t>(i) * map.extent(), [&](std::ptrdiff_t at, std::size_t n) {
        std::memcpy(dst, src + at, n);
        dst += n;
      });
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const char* base = src + static_cast<std::ptrdiff_t>(i) * map.extent();
    for (const Block& b : map.blocks) {
      std::memcpy(dst, base + b.offset, b.length);
      dst += b.length;
    }
  }
}

void unpack(const void* in, std::size_t count, const TypeMap& map, void* out) {
  const auto* src = static_cast<const char*>(in);
  auto* dst = static_cast<char*>(out);
  if (map.compact()) {
    unpack_bytes(in, count * map.size, map, out);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    char* base = dst + static_cast<std::ptrdiff_t>(i) * map.extent();
    for (const Block& b : map.blocks) {
      std::memcpy(base + b.offset, src, b.length);
      src += b.length;
    }
  }
}

void unpack_bytes(const void* in, std::size_t bytes, const TypeMap& map, void* out) {
  const auto* src = static_cast<const char*>(in);
  auto* dst = static_cast<char*>(out);
  if (map.compact()) {
    // (The walk goes on to the end of the element in which the data ends,
    // copying nothing more.)
    for (std::size_t i = 0; bytes > 0 && map.size > 0; ++i)
      for_each_block(map, static_cast<std::ptrdiff_t>(i) * map.extent(), [&](std::ptrdiff_t at, std::size_t n) {
        n = std::min(n, bytes);
        if (n == 0) return;
        std::memcpy(dst + at, src, n);
        src += n;
        bytes -= n;
      });
    return;
  }
  for (std::size_t i = 0; bytes > 0 && map.size > 0; ++i) {
    char* base = dst + static_cast<std::ptrdiff_t>(i) * map.extent();
    for (const Block& b : map.blocks) {
      std::size_t n = b.length < bytes ? b.length : bytes;
      std::memcpy(base + b.offset, src, n);
      src += n;
      bytes -= n;
      if (bytes == 0) return;
    }
  }
}

long long elements_in(const TypeMap& map, long long bytes) {
  if (map.size == 0) return 0;
  long long size = static_cast<long long>(map.size);
  long long elements = bytes / size * static_cast<long long>(map.basic_count);
  long long rest = bytes % size;
  for (const Run& r : map.signature) {
    if (rest == 0) break;
    long long each = static_cast<long long>(type_info(r.type)->size);
    long long n = std::min(rest / each, static_cast<long long>(r.count));
    elements += n;
    rest -= n * each;
    if (n < static_cast<long long>(r.count)) break;  // ends inside this run
  }
  return rest == 0 ? elements : -1;
}

long long bytes_of_elements(const TypeMap& map, long long elements) {
  if (map.basic_count == 0) return 0;
  long long per = static_cast<long long>(map.basic_count);
  long long bytes = elements / per * static_cast<long long>(map.size);
  long long rest = elements % per;
  for (const Run& r : map.signature) {
    if (rest == 0) break;
    long long n = std::min(rest, static_cast<long long>(r.count));
    bytes += n * static_cast<long long>(type_info(r.type)->size);
    rest -= n;
  }
  return bytes;
}

int received_elements(const char* call, const TMPI_Status* status, TMPI_Datatype type, long long* elements) {
  int err = TMPI_SUCCESS;
  TypeMapPtr m = old_type(call, type, &err);
  if (!m) return err;
  *elements = elements_in(*m, status->tmpi_bytes);
  return TMPI_SUCCESS;
}

}  // namespace tucana::mpi

using namespace tucana::mpi;

extern "C" {

int TMPI_Type_create_hindexed(int count, const int blocklengths[], const TMPI_Aint displacements[],
                              TMPI_Datatype old, TMPI_Datatype* newtype) {
  const char* call = "MPI_Type_create_hindexed";
  int err = TMPI_SUCCESS;
  if (count < 0) return bad_count(call, count);
  TypeMapPtr m = old_type(call, old, &err);
  if (!m) return err;
  Builder b;
  for (int i = 0; i < count; ++i) {
    if (blocklengths[i] < 0) return bad_count(call, blocklengths[i]);
    b.add(m, displacements[i], static_cast<std::size_t>(blocklengths[i]));
  }
  if (b.too_big) return too_big_error(call);
  *newtype = add(b.done());
  std::vector<int> integers{count};
  integers.insert(integers.end(), blocklengths, blocklengths + count);
  record_contents(*newtype, TMPI_COMBINER_HINDEXED, std::move(integers),
                  std::vector<TMPI_Aint>(displacements, displacements + count), {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_indexed(int count, const int blocklengths[], const int displacements[], TMPI_Datatype old,
                      TMPI_Datatype* newtype) {
  TypeMapPtr m = type_map(old);
  std::vector<TMPI_Aint> bytes(static_cast<std::size_t>(count > 0 ? count : 0));
  for (int i = 0; i < count; ++i) bytes[static_cast<std::size_t>(i)] = m ? displacements[i] * m->extent() : 0;
  int err = TMPI_Type_create_hindexed(count, blocklengths, bytes.data(), old, newtype);
  if (err) return err;
  std::vector<int> integers{count};
  integers.insert(integers.end(), blocklengths, blocklengths + count);
  integers.insert(integers.end(), displacements, displacements + count);
  record_contents(*newtype, TMPI_COMBINER_INDEXED, std::move(integers), {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], TMPI_Datatype old,
                                   TMPI_Datatype* newtype) {
  std::vector<int> lengths(static_cast<std::size_t>(count > 0 ? count : 0), blocklength);
  int err = TMPI_Type_indexed(count, lengths.data(), displacements, old, newtype);
  if (err) return err;
  std::vector<int> integers{count, blocklength};
  integers.insert(integers.end(), displacements, displacements + count);
  record_contents(*newtype, TMPI_COMBINER_INDEXED_BLOCK, std::move(integers), {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_create_hvector(int count, int blocklength, TMPI_Aint stride, TMPI_Datatype old,
                             TMPI_Datatype* newtype) {
  // One run, not arrays of `count` lengths and displacements: a count
  // near INT_MAX makes a compact map, not gigabytes of arrays.
  const char* call = "MPI_Type_create_hvector";
  int err = TMPI_SUCCESS;
  if (count < 0) return bad_count(call, count);
  if (blocklength < 0) return bad_count(call, blocklength);
  TypeMapPtr m = old_type(call, old, &err);
  if (!m) return err;
  Builder b;
  b.add_run(m, 0, static_cast<std::size_t>(count), stride, static_cast<std::size_t>(blocklength));
  if (b.too_big) return too_big_error(call);
  *newtype = add(b.done());
  record_contents(*newtype, TMPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_vector(int count, int blocklength, int stride, TMPI_Datatype old, TMPI_Datatype* newtype) {
  TypeMapPtr m = type_map(old);
  int err = TMPI_Type_create_hvector(count, blocklength, m ? stride * m->extent() : 0, old, newtype);
  if (err) return err;
  record_contents(*newtype, TMPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_contiguous(int count, TMPI_Datatype old, TMPI_Datatype* newtype) {
  TypeMapPtr m = type_map(old);
  int err = TMPI_Type_create_hvector(count, 1, m ? m->extent() : 0, old, newtype);
  if (err) return err;
  record_contents(*newtype, TMPI_COMBINER_CONTIGUOUS, {count}, {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_create_struct(int count, const int blocklengths[], const TMPI_Aint displacements[],
                            const TMPI_Datatype types[], TMPI_Datatype* newtype) {
  const char* call = "MPI_Type_create_struct";
  if (count < 0) return bad_count(call, count);
  Builder b;
  for (int i = 0; i < count; ++i) {
    int err = TMPI_SUCCESS;
    TypeMapPtr m = old_type(call, types[i], &err);
    if (!m) return err;
    if (blocklengths[i] < 0) return bad_count(call, blocklengths[i]);
    b.add(m, displacements[i], static_cast<std::size_t>(blocklengths[i]));
  }
  if (b.too_big) return too_big_error(call);
  b.pad_extent();
  *newtype = add(b.done());
  std::vector<int> integers{count};
  integers.insert(integers.end(), blocklengths, blocklengths + count);
  record_contents(*newtype, TMPI_COMBINER_STRUCT, std::move(integers),
                  std::vector<TMPI_Aint>(displacements, displacements + count),
                  std::vector<TMPI_Datatype>(types, types + count));
  return TMPI_SUCCESS;
}

int TMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              TMPI_Datatype old, TMPI_Datatype* newtype) {
  const char* call = "MPI_Type_create_subarray";
  int err = TMPI_SUCCESS;
  TypeMapPtr m = old_type(call, old, &err);
  if (!m) return err;
  if (ndims < 1)
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_DIMS, call, "ndims %d < 1", ndims);
  // Dimension d varies fastest last (C order) or first (Fortran order).
  std::vector<int> dim(static_cast<std::size_t>(ndims));
  for (int d = 0; d < ndims; ++d) dim[static_cast<std::size_t>(d)] = order == TMPI_ORDER_C ? d : ndims - 1 - d;
  for (int d = 0; d < ndims; ++d)
    if (subsizes[d] < 0 || starts[d] < 0 || starts[d] + subsizes[d] > sizes[d])
      return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_ARG, call,
                       "dimension %d: start %d + subsize %d exceeds size %d", d, starts[d], subsizes[d], sizes[d]);
  Builder b;
  std::vector<int> idx(static_cast<std::size_t>(ndims), 0);
  long total = 1;
  for (int d = 0; d < ndims; ++d) total *= subsizes[d];
  for (long n = 0; n < total && !b.too_big; ++n) {
    std::ptrdiff_t element = 0;
    for (int k = 0; k < ndims; ++k) {
      int d = dim[static_cast<std::size_t>(k)];
      element = element * sizes[d] + starts[d] + idx[static_cast<std::size_t>(d)];
    }
    b.add(m, element * m->extent(), 1);
    for (int k = ndims - 1; k >= 0; --k) {  // next index, fastest dimension first
      int d = dim[static_cast<std::size_t>(k)];
      if (++idx[static_cast<std::size_t>(d)] < subsizes[d]) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  if (b.too_big) return too_big_error(call);
  TypeMap map = b.done();
  // A subarray's extent is the whole array's.
  long all = 1;
  for (int d = 0; d < ndims; ++d) all *= sizes[d];
  map.lb = 0;
  map.ub = all * m->extent();
  map.explicit_bounds = true;
  *newtype = add(std::move(map));
  std::vector<int> integers{ndims};
  for (const int* a : {sizes, subsizes, starts}) integers.insert(integers.end(), a, a + ndims);
  integers.push_back(order);
  record_contents(*newtype, TMPI_COMBINER_SUBARRAY, std::move(integers), {}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_create_resized(TMPI_Datatype old, TMPI_Aint lb, TMPI_Aint extent, TMPI_Datatype* newtype) {
  int err = TMPI_SUCCESS;
  TypeMapPtr m = old_type("MPI_Type_create_resized", old, &err);
  if (!m) return err;
  TypeMap map = *m;
  map.predefined = map.committed = false;
  map.lb = lb;
  map.ub = lb + extent;
  map.explicit_bounds = true;
  *newtype = add(std::move(map));
  record_contents(*newtype, TMPI_COMBINER_RESIZED, {}, {lb, extent}, {old});
  return TMPI_SUCCESS;
}

int TMPI_Type_dup(TMPI_Datatype old, TMPI_Datatype* newtype) {
  int err = TMPI_SUCCESS;
  TypeMapPtr m = old_type("MPI_Type_dup", old, &err);
  if (!m) return err;
  TypeMap map = *m;
  map.predefined = false;
  *newtype = add(std::move(map));
  record_contents(*newtype, TMPI_COMBINER_DUP, {}, {}, {old});
  if (int e = copy_attributes(AttrKind::Type, old, *newtype)) {  // as dup_attributes (communicator.cc)
    TMPI_Type_free(newtype);
    *newtype = TMPI_DATATYPE_NULL;
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, e, "MPI_Type_dup", "an attribute copy callback returned error %d", e);
  }
  return TMPI_SUCCESS;
}

int TMPI_Type_commit(TMPI_Datatype* type) {
  TypeTable& t = table();
  tucana::sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(*type);
  if (it == t.derived.end() || it->second.freed) {
    lock.unlock();
    if (*type > 0 && *type < TMPI_DATATYPE_END_) return TMPI_SUCCESS;
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_commit", "invalid datatype %d", *type);
  }
  if (it->second.map->committed) return TMPI_SUCCESS;
  auto committed = std::make_shared<TypeMap>(*it->second.map);
  committed->committed = true;
  it->second.map = committed;
  return TMPI_SUCCESS;
}

int TMPI_Type_free(TMPI_Datatype* type) {
  // Delete callbacks first, outside the table's lock (they may call MPI);
  // the types of MPI_Type_create_f90_* are predefined and stay.
  if (type && *type >= TMPI_DATATYPE_END_) {
    TypeMapPtr m = type_map(*type);
    if (m && m->predefined)
      return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_free",
                       "datatype %d is predefined (made by MPI_Type_create_f90_*)", *type);
    if (int err = delete_attributes(AttrKind::Type, *type)) return err;
    // Before the handle can be handed out again (to another subrank of the
    // process, at once), not after.
    if (m && !m->predefined) forget_type_name(*type);
  }
  TypeTable& t = table();
  tucana::sync::MutexLock lock(t.mutex);
  auto it = t.derived.find(*type);
  if (it == t.derived.end() || it->second.freed) {
    lock.unlock();
    return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_free",
                     "datatype %d is not a derived datatype", *type);
  }
  // Requests hold their own reference to the map; non-blocking collectives
  // pinned the handle, which stays until the last of them completes.
  if (it->second.pins > 0)
    it->second.freed = true;
  else
    erase_derived(t, it);
  lock.unlock();
  *type = TMPI_DATATYPE_NULL;
  return TMPI_SUCCESS;
}

int TMPI_Type_size(TMPI_Datatype type, int* size) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_size", "invalid datatype %d", type);
  // MPI_UNDEFINED when an int cannot hold it (MPI 3.1 sec. 4.1.5; see
  // MPI_Type_size_x).
  *size = m->size > static_cast<std::size_t>(INT_MAX) ? TMPI_UNDEFINED : static_cast<int>(m->size);
  return TMPI_SUCCESS;
}

int TMPI_Type_get_extent(TMPI_Datatype type, TMPI_Aint* lb, TMPI_Aint* extent) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_get_extent", "invalid datatype %d", type);
  *lb = m->lb;
  *extent = m->extent();
  return TMPI_SUCCESS;
}

int TMPI_Type_get_true_extent(TMPI_Datatype type, TMPI_Aint* lb, TMPI_Aint* extent) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Type_get_true_extent", "invalid datatype %d", type);
  *lb = m->true_lb;
  *extent = m->true_ub - m->true_lb;
  return TMPI_SUCCESS;
}

int TMPI_Get_address(const void* location, TMPI_Aint* address) {
  *address = reinterpret_cast<TMPI_Aint>(location);
  return TMPI_SUCCESS;
}

int TMPI_Pack_size(int incount, TMPI_Datatype type, TMPI_Comm comm, int* size) {
  (void)comm;
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), TMPI_COMM_WORLD, TMPI_ERR_TYPE, "MPI_Pack_size", "invalid datatype %d", type);
  if (incount < 0) return bad_count("MPI_Pack_size", incount);
  // MPI_UNDEFINED when it does not fit an int (as MPI_Type_size; MPI_Pack_size_c gives it).
  long long bytes = static_cast<long long>(incount) * static_cast<long long>(m->size);
  *size = bytes > INT_MAX ? TMPI_UNDEFINED : static_cast<int>(bytes);
  return TMPI_SUCCESS;
}

int TMPI_Pack(const void* inbuf, int incount, TMPI_Datatype type, void* outbuf, int outsize, int* position,
              TMPI_Comm comm) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), comm, TMPI_ERR_TYPE, "MPI_Pack", "invalid datatype %d", type);
  std::size_t bytes = static_cast<std::size_t>(incount) * m->size;
  if (*position + static_cast<long>(bytes) > outsize)
    return mpi_error(current_subrank(), comm, TMPI_ERR_TRUNCATE, "MPI_Pack",
                     "%zu bytes do not fit at position %d of a %d-byte buffer", bytes, *position, outsize);
  pack(inbuf, static_cast<std::size_t>(incount), *m, static_cast<char*>(outbuf) + *position);
  *position += static_cast<int>(bytes);
  return TMPI_SUCCESS;
}

int TMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, TMPI_Datatype type,
                TMPI_Comm comm) {
  TypeMapPtr m = type_map(type);
  if (!m) return mpi_error(current_subrank(), comm, TMPI_ERR_TYPE, "MPI_Unpack", "invalid datatype %d", type);
  std::size_t bytes = static_cast<std::size_t>(outcount) * m->size;
  if (*position + static_cast<long>(bytes) > insize)
    return mpi_error(current_subrank(), comm, TMPI_ERR_TRUNCATE, "MPI_Unpack",
                     "%zu bytes are not left at position %d of a %d-byte buffer", bytes, *position, insize);
  unpack(static_cast<const char*>(inbuf) + *position, static_cast<std::size_t>(outcount), *m, outbuf);
  *position += static_cast<int>(bytes);
  return TMPI_SUCCESS;
}

}  // extern "C"
