// Datatypes as type maps: the bytes one element of a datatype covers,
// relative to its buffer address, as a list of blocks, with its size, bounds
// and extent. Predefined datatypes are one block; derived ones are built by
// the MPI_Type_* constructors. Non-contiguous data is packed into (and
// unpacked from) a contiguous buffer by the subrank itself, outside any lock
// of the MPI library; only contiguous bytes travel.
#pragma once

#include <tucana/tmpi.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace tucana::mpi {

struct Block {
  std::ptrdiff_t offset;
  std::size_t length;
};

// `count` predefined elements of `type` in a row (a type signature).
struct Run {
  TMPI_Datatype type;
  std::size_t count;
};

struct TypeMap;
using TypeMapPtr = std::shared_ptr<const TypeMap>;

// Part of a datatype too large to list block by block (see
// TypeMap::pieces): `count` runs at `displacement + i * stride`, each
// `blocklength` copies of `unit` one extent of it apart.
struct TypePiece {
  std::ptrdiff_t displacement;
  std::size_t count;
  std::ptrdiff_t stride;
  std::size_t blocklength;
  TypeMapPtr unit;
};

struct TypeMap {
  std::size_t size = 0;            // bytes of data in one element
  std::ptrdiff_t lb = 0, ub = 0;   // bounds: extent = ub - lb
  std::ptrdiff_t true_lb = 0, true_ub = 0;
  std::vector<Block> blocks;       // one element's data, in type-map order
  // A datatype of more blocks than are listed (kMaxBlocks in typemap.cc,
  // 16 Mi) is kept compact instead, as the pieces it was built from, in
  // type-map order (`blocks` is then empty): its size, bounds and signature
  // are known, and packing walks the pieces without listing the blocks.
  std::shared_ptr<const std::vector<TypePiece>> pieces;
  // The predefined type all the data is made of (for reductions and
  // MPI_Get_elements), or TMPI_DATATYPE_NULL when mixed.
  TMPI_Datatype basic = TMPI_DATATYPE_NULL;
  std::size_t basic_count = 0;     // predefined elements in one element
  // The predefined elements of one element in type-map order (the type
  // signature), for counting those of a partly received element.
  std::vector<Run> signature;
  // The largest alignment of the predefined types in it: a struct type's
  // extent is rounded up to a multiple of it, as a C compiler pads a struct.
  std::size_t align = 1;
  // The bounds were set explicitly (MPI_Type_create_resized, subarrays, or
  // a type containing such a type): no alignment padding is added.
  bool explicit_bounds = false;
  bool predefined = false;
  bool committed = false;

  std::ptrdiff_t extent() const { return ub - lb; }
  bool compact() const { return pieces != nullptr; }
  // One block at offset 0 whose length is the extent: a plain byte array.
  bool contiguous() const {
    return size == 0 || (!pieces && blocks.size() == 1 && blocks[0].offset == 0 &&
                         static_cast<std::ptrdiff_t>(blocks[0].length) == extent());
  }
};

// The type map of a handle, or null if it is not a valid datatype. The
// pointer keeps the map alive after MPI_Type_free (pending operations).
TypeMapPtr type_map(TMPI_Datatype type);

// The same for the paths every message takes: predefined maps live as long
// as the process, so they come as a plain pointer without touching a shared
// reference count; a derived map is also stored in `keep` to stay alive.
const TypeMap* find_type(TMPI_Datatype type, TypeMapPtr* keep);

// A non-blocking collective looks its datatypes up by handle when it runs,
// possibly after MPI_Type_free: it pins them when it starts and unpins
// them when done, and a freed handle stays valid until the last pin goes.
// pin_type is false (and nothing to unpin) for predefined and invalid
// handles.
bool pin_type(TMPI_Datatype type);
void unpin_type(TMPI_Datatype type);
// Drops the MPI_Type_set_name name of a freed type (its handle may be
// handed out again).
void forget_type_name(TMPI_Datatype type);

// How a datatype was made, for MPI_Type_get_envelope/contents (MPI 3.1
// section 4.1.13): the combiner and the constructor's arguments in the
// order and numbers that section gives. A datatype argument is kept as a
// `TypeArg`: a named type (or a Fortran-kind one, MPI_Type_create_f90_*,
// which is predefined too) by its handle, a derived one by its type map and
// contents, so that it can be decoded after the program freed it.
struct Contents;
using ContentsPtr = std::shared_ptr<const Contents>;
struct TypeArg {
  TMPI_Datatype handle = TMPI_DATATYPE_NULL;  // a named type; else NULL
  TypeMapPtr map;                              // a derived type: its map
  ContentsPtr contents;                        //   and how it was made
};
struct Contents {
  int combiner = TMPI_COMBINER_NAMED;
  std::vector<int> integers;
  std::vector<TMPI_Aint> addresses;
  std::vector<TypeArg> types;
};

// Records how the derived datatype `type` was made, replacing what a
// constructor it was built with recorded (MPI_Type_vector is built with
// MPI_Type_create_hindexed; the last record is the user's call).
// Requires: `type` is a derived datatype just made by the calling
// constructor, and every handle in `types` is a valid datatype (checked by
// that constructor already).
void record_contents(TMPI_Datatype type, int combiner, std::vector<int> integers,
                     std::vector<TMPI_Aint> addresses, const std::vector<TMPI_Datatype>& types);
// How `type` was made: null for a named (predefined) type or an invalid
// handle; a combiner F90_* for the types of MPI_Type_create_f90_*.
ContentsPtr type_contents(TMPI_Datatype type);
// A handle for a datatype argument of MPI_Type_get_contents: the named
// type itself, or a new derived handle (which the program frees) with the
// argument's map and contents.
TMPI_Datatype decoded_type(const TypeArg& arg);
// A datatype that behaves as the predefined `base` (same map, reductions,
// never freed: MPI_Type_free reports it) under a handle of its own, for
// MPI_Type_create_f90_*. Requires: `base` is a predefined handle.
TMPI_Datatype add_predefined_alias(TMPI_Datatype base);

// Calls f(offset, length) for each block of data of one element of `map`
// placed at byte offset `at`, in type-map order (a compact map's blocks
// are walked, never listed). Adjacent blocks are not merged.
template <class F>
void for_each_block(const TypeMap& map, std::ptrdiff_t at, F&& f) {
  if (!map.pieces) {
    for (const Block& b : map.blocks) f(at + b.offset, b.length);
    return;
  }
  for (const TypePiece& p : *map.pieces) {
    const TypeMap& u = *p.unit;
    for (std::size_t i = 0; i < p.count; ++i) {
      std::ptrdiff_t run = at + p.displacement + static_cast<std::ptrdiff_t>(i) * p.stride;
      if (u.size == 0) break;
      if (u.contiguous()) {  // the run is one block
        f(run, p.blocklength * u.size);
        continue;
      }
      for (std::size_t j = 0; j < p.blocklength; ++j) for_each_block(u, run + static_cast<std::ptrdiff_t>(j) * u.extent(), f);
    }
  }
}

// Copies `count` elements at `in` (a user buffer laid out by `map`) into the
// contiguous `out`, or back. `out`/`in` hold count * map.size bytes.
void pack(const void* in, std::size_t count, const TypeMap& map, void* out);
void unpack(const void* in, std::size_t count, const TypeMap& map, void* out);
// Unpacks the first `bytes` bytes of packed data, in type-map order: a
// message may end inside an element (MPI_Get_elements counts what arrived).
void unpack_bytes(const void* in, std::size_t bytes, const TypeMap& map, void* out);

// The predefined elements in the first `bytes` bytes of packed data of
// `map` (MPI_Get_elements), or -1 when they end inside a predefined element.
long long elements_in(const TypeMap& map, long long bytes);
// The bytes of packed data that hold the first `elements` predefined
// elements of `map` (MPI_Status_set_elements).
long long bytes_of_elements(const TypeMap& map, long long elements);
// MPI_Get_elements and its _x form: sets *elements to elements_in of the
// bytes `status` says were received, counted in `type`. An invalid `type`
// is reported as `call`'s MPI_ERR_TYPE, whose code it returns.
int received_elements(const char* call, const TMPI_Status* status, TMPI_Datatype type, long long* elements);

}  // namespace tucana::mpi
