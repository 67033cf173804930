// MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size for the
// data representation "external32" (MPI 3.1 section 13.5.2): big-endian,
// IEEE floating point, and the sizes of table 13.2 whatever the C types
// here are (MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes, MPI_WCHAR 2,
// MPI_LONG_DOUBLE a 16-byte IEEE quad). The data is packed as MPI_Pack does
// (typemap.cc) and each predefined element of the type signature converted.
#include <tucana/tmpi.h>

#include <cassert>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/datatype/external32.h"
#include "mpi/datatype/typemap.h"

using namespace tucana::mpi;

namespace {

enum class Kind {
  Raw,         // bytes as they are (characters, bytes, booleans)
  Signed,      // two's complement, possibly narrowed or widened
  Unsigned,    // the same, zero-extended
  Float,       // IEEE of the same size: byte order only
  LongDouble,  // the C long double, as an IEEE quad (binary128)
};

// One predefined element is one or two fields (a complex number's parts, a
// MAXLOC pair's value and index), each `native` bytes in packed native data
// and `external` bytes in external32.
struct Field {
  Kind kind;
  unsigned native, external;
};
struct Layout {
  int n = 0;
  Field f[2];
};

Field field_of(TMPI_Datatype t) {
  switch (t) {
    case TMPI_DT_LONG: return {Kind::Signed, sizeof(long), 4};
    case TMPI_DT_UNSIGNED_LONG: return {Kind::Unsigned, sizeof(unsigned long), 4};
    case TMPI_DT_WCHAR: return {Kind::Unsigned, sizeof(wchar_t), 2};
    case TMPI_DT_LONG_DOUBLE:
    case TMPI_DT_REAL16: return {Kind::LongDouble, sizeof(long double), 16};
    default: break;
  }
  const TypeInfo* info = type_info(t);
  auto size = static_cast<unsigned>(info->size);
  switch (info->cls) {
    case TypeClass::INT:
    case TypeClass::LOGICAL: return {size == 1 ? Kind::Raw : Kind::Signed, size, size};
    case TypeClass::UINT: return {size == 1 ? Kind::Raw : Kind::Unsigned, size, size};
    case TypeClass::FLOAT: return {Kind::Float, size, size};
    default: return {Kind::Raw, size, size};  // BOOL, BYTE, NONE
  }
}

Layout layout_of(TMPI_Datatype t) {
  Layout l;
  auto pair = [&](TMPI_Datatype a, TMPI_Datatype b) {
    l.n = 2, l.f[0] = field_of(a), l.f[1] = field_of(b);
  };
  switch (t) {
    case TMPI_DT_C_FLOAT_COMPLEX: case TMPI_DT_CXX_FLOAT_COMPLEX: case TMPI_DT_COMPLEX: case TMPI_DT_COMPLEX8:
      pair(TMPI_DT_FLOAT, TMPI_DT_FLOAT); break;
    case TMPI_DT_C_DOUBLE_COMPLEX: case TMPI_DT_CXX_DOUBLE_COMPLEX: case TMPI_DT_DOUBLE_COMPLEX:
    case TMPI_DT_COMPLEX16:
      pair(TMPI_DT_DOUBLE, TMPI_DT_DOUBLE); break;
    case TMPI_DT_C_LONG_DOUBLE_COMPLEX: case TMPI_DT_CXX_LONG_DOUBLE_COMPLEX: case TMPI_DT_COMPLEX32:
      pair(TMPI_DT_LONG_DOUBLE, TMPI_DT_LONG_DOUBLE); break;
    case TMPI_DT_FLOAT_INT: pair(TMPI_DT_FLOAT, TMPI_DT_INT); break;
    case TMPI_DT_DOUBLE_INT: pair(TMPI_DT_DOUBLE, TMPI_DT_INT); break;
    case TMPI_DT_LONG_INT: pair(TMPI_DT_LONG, TMPI_DT_INT); break;
    case TMPI_DT_2INT: pair(TMPI_DT_INT, TMPI_DT_INT); break;
    case TMPI_DT_SHORT_INT: pair(TMPI_DT_SHORT, TMPI_DT_INT); break;
    case TMPI_DT_LONG_DOUBLE_INT: pair(TMPI_DT_LONG_DOUBLE, TMPI_DT_INT); break;
    case TMPI_DT_2REAL: pair(TMPI_DT_REAL, TMPI_DT_REAL); break;
    case TMPI_DT_2DOUBLE_PRECISION: pair(TMPI_DT_DOUBLE_PRECISION, TMPI_DT_DOUBLE_PRECISION); break;
    case TMPI_DT_2INTEGER: pair(TMPI_DT_INTEGER, TMPI_DT_INTEGER); break;
    default: l.n = 1, l.f[0] = field_of(t); break;
  }
  return l;
}

// The external32 layouts of every predefined type, by handle.
const Layout* layouts() {
  static const std::vector<Layout> all = [] {
    std::vector<Layout> v(TMPI_DATATYPE_END_);
    for (TMPI_Datatype t = 1; t < TMPI_DATATYPE_END_; ++t) v[static_cast<std::size_t>(t)] = layout_of(t);
    return v;
  }();
  return all.data();
}

std::size_t external_size(TMPI_Datatype t) {
  const Layout& l = layouts()[t];
  return l.n == 1 ? l.f[0].external : l.f[0].external + l.f[1].external;
}

// Bytes of external32 data in one element of `map`.
std::size_t external_size(const TypeMap& map) {
  std::size_t bytes = 0;
  for (const Run& r : map.signature) bytes += r.count * external_size(r.type);
  return bytes;
}

bool little_endian() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

// An unsigned integer of `n` (1, 2, 4, 8) bytes in native order, and back.
std::uint64_t load_native(const unsigned char* p, unsigned n) {
  switch (n) {
    case 1: return *p;
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}
void store_native(unsigned char* p, unsigned n, std::uint64_t v) {
  switch (n) {
    case 1: *p = static_cast<unsigned char>(v); break;
    case 2: { auto w = static_cast<std::uint16_t>(v); std::memcpy(p, &w, 2); break; }
    case 4: { auto w = static_cast<std::uint32_t>(v); std::memcpy(p, &w, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}
void store_big(unsigned char* p, unsigned n, std::uint64_t v) {
  for (unsigned i = 0; i < n; ++i) p[n - 1 - i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint64_t load_big(const unsigned char* p, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

// A long double as the two 64-bit halves of an IEEE quad, and back.
// x87 extended (64 digits): sign and exponent as a quad's, the 63 bits of
// the fraction at the top of the quad's 112 (the explicit integer bit
// dropped; it comes back from the exponent). A quad long double: as is.
constexpr int kLongDoubleDigits = std::numeric_limits<long double>::digits;
constexpr bool kLongDoubleSupported =
    (kLongDoubleDigits == 64 || kLongDoubleDigits == 113) && sizeof(long double) == 16;

void long_double_to_quad(const unsigned char* p, std::uint64_t* hi, std::uint64_t* lo) {
  std::uint64_t a, b;  // the low and high 8 bytes as they lie (little-endian hosts)
  std::memcpy(&a, p, 8);
  std::memcpy(&b, p + 8, 8);
  if (kLongDoubleDigits == 113) {
    *hi = b, *lo = a;
    return;
  }
  std::uint64_t sign_exp = b & 0xffff, fraction = a & 0x7fffffffffffffffULL;
  *hi = sign_exp << 48 | fraction >> 15;
  *lo = (fraction & 0x7fff) << 49;
}

void quad_to_long_double(std::uint64_t hi, std::uint64_t lo, unsigned char* p) {
  std::uint64_t a, b;
  if (kLongDoubleDigits == 113) {
    a = lo, b = hi;
  } else {  // the fraction's lowest 49 bits do not fit: truncated
    std::uint64_t sign_exp = hi >> 48, fraction = (hi & 0xffffffffffffULL) << 15 | lo >> 49;
    std::uint64_t integer_bit = (sign_exp & 0x7fff) != 0 ? 1ULL << 63 : 0;
    a = fraction | integer_bit, b = sign_exp;
  }
  std::memset(p, 0, 16);
  std::memcpy(p, &a, 8);
  std::memcpy(p + 8, &b, kLongDoubleDigits == 113 ? 8 : 2);
}

// Converts one field from packed native data to external32 (`pack`) or
// back; false when an integer does not fit the external32 size.
bool convert(const Field& f, bool pack, const unsigned char* in, unsigned char* out) {
  switch (f.kind) {
    case Kind::Raw:
      std::memcpy(out, in, f.native);
      return true;
    case Kind::LongDouble: {
      std::uint64_t hi, lo;
      if (pack) {
        long_double_to_quad(in, &hi, &lo);
        store_big(out, 8, hi);
        store_big(out + 8, 8, lo);
      } else {
        quad_to_long_double(load_big(in, 8), load_big(in + 8, 8), out);
      }
      return true;
    }
    case Kind::Float:
      if (pack) store_big(out, f.native, load_native(in, f.native));
      else store_native(out, f.native, load_big(in, f.native));
      return true;
    case Kind::Signed:
    case Kind::Unsigned: {
      unsigned from = pack ? f.native : f.external, to = pack ? f.external : f.native;
      std::uint64_t v = pack ? load_native(in, from) : load_big(in, from);
      bool is_signed = f.kind == Kind::Signed;
      // Sign- or zero-extend from `from` bytes to 64 bits.
      if (from < 8 && is_signed && (v >> (8 * from - 1) & 1)) v |= ~0ULL << (8 * from);
      bool fits = true;
      if (to < 8) {
        std::uint64_t high = v >> (8 * to - (is_signed ? 1 : 0));
        std::uint64_t all = is_signed ? (~0ULL >> (8 * to - 1)) : 0;
        fits = high == 0 || (is_signed && high == all);
      }
      if (pack) store_big(out, to, v);
      else store_native(out, to, v);
      return fits;
    }
  }
  return true;
}

// Converts `count` elements of `map` between packed native data and
// external32; returns the first predefined type whose value did not fit,
// or TMPI_DATATYPE_NULL.
TMPI_Datatype convert_all(const TypeMap& map, std::size_t count, bool pack, const unsigned char* in,
                          unsigned char* out) {
  std::size_t per_element = 0;
  for (const Run& r : map.signature) per_element += r.count;
  return external32_convert(map, count * per_element, pack, in, out);
}

// The common checks, in this order: the data representation, the datatype
// and the element count (not negative).
TypeMapPtr checked(Subrank* me, const char* call, const char* datarep, TMPI_Datatype type, int count, int* err) {
  if (!datarep || std::strcmp(datarep, "external32") != 0) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, call, "data representation \"%s\" is not \"external32\"",
                     datarep ? datarep : "(null)");
    return nullptr;
  }
  TypeMapPtr m = type_map(type);
  if (!m) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
    return nullptr;
  }
  TMPI_Datatype bad = TMPI_DATATYPE_NULL;
  if (!external32_convertible(*m, &bad)) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TYPE, call, "this machine's %s cannot be converted to external32",
                     type_info(bad)->name);
    return nullptr;
  }
  if (count < 0) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COUNT, call, "negative count %d", count);
    return nullptr;
  }
  return m;
}

// The packed data's `bytes` at `position` must lie within the packed buffer
// of `size` bytes: else MPI_ERR_TRUNCATE, "<bytes> bytes <fails> at
// position ...".
int check_span(Subrank* me, const char* call, TMPI_Aint bytes, TMPI_Aint position, TMPI_Aint size,
               const char* fails) {
  if (position < 0 || position + bytes > size)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_TRUNCATE, call, "%ld bytes %s at position %ld of a %ld-byte buffer",
                     static_cast<long>(bytes), fails, static_cast<long>(position), static_cast<long>(size));
  return TMPI_SUCCESS;
}

}  // namespace

namespace tucana::mpi {

std::size_t external32_size(TMPI_Datatype type) {
  assert(type > 0 && type < TMPI_DATATYPE_END_ && "external32_size: a predefined datatype");
  return external_size(type);
}

bool external32_convertible(const TypeMap& map, TMPI_Datatype* bad) {
  // The long double conversions read its halves as a little-endian host
  // lays them out.
  if (kLongDoubleSupported && little_endian()) return true;
  for (const Run& r : map.signature)
    if (layouts()[r.type].f[0].kind == Kind::LongDouble) {
      *bad = r.type;
      return false;
    }
  return true;
}

TMPI_Datatype external32_convert(const TypeMap& map, std::size_t items, bool to_external, const void* in_,
                                 void* out_) {
  TMPI_Datatype unused = TMPI_DATATYPE_NULL;
  assert(external32_convertible(map, &unused) && "external32_convert: convertible here");
  (void)unused;
  auto* in = static_cast<const unsigned char*>(in_);
  auto* out = static_cast<unsigned char*>(out_);
  TMPI_Datatype bad = TMPI_DATATYPE_NULL;
  const Layout* all = layouts();
  while (items > 0) {
    assert(!map.signature.empty() && "external32_convert: items of a type with data");
    for (const Run& r : map.signature) {
      const Layout& l = all[r.type];
      for (std::size_t e = 0; e < r.count && items > 0; ++e, --items)
        for (int k = 0; k < l.n; ++k) {
          const Field& f = l.f[k];
          if (!convert(f, to_external, in, out) && bad == TMPI_DATATYPE_NULL) bad = r.type;
          in += to_external ? f.native : f.external;
          out += to_external ? f.external : f.native;
        }
      if (items == 0) break;
    }
  }
  return bad;
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Pack_external_size(const char datarep[], int incount, TMPI_Datatype type, TMPI_Aint* size) {
  const char* call = "MPI_Pack_external_size";
  Entered me = enter(call);
  int err = TMPI_SUCCESS;
  TypeMapPtr m = checked(me, call, datarep, type, incount, &err);
  if (!m) return err;
  *size = static_cast<TMPI_Aint>(static_cast<std::size_t>(incount) * external_size(*m));
  return TMPI_SUCCESS;
}

int TMPI_Pack_external(const char datarep[], const void* inbuf, int incount, TMPI_Datatype type, void* outbuf,
                       TMPI_Aint outsize, TMPI_Aint* position) {
  const char* call = "MPI_Pack_external";
  Entered me = enter(call);
  int err = TMPI_SUCCESS;
  TypeMapPtr m = checked(me, call, datarep, type, incount, &err);
  if (!m) return err;
  auto count = static_cast<std::size_t>(incount);
  auto bytes = static_cast<TMPI_Aint>(count * external_size(*m));
  if (int e = check_span(me, call, bytes, *position, outsize, "do not fit")) return e;
  std::vector<unsigned char> native(count * m->size);
  pack(inbuf, count, *m, native.data());
  TMPI_Datatype bad =
      convert_all(*m, count, true, native.data(), static_cast<unsigned char*>(outbuf) + *position);
  if (bad != TMPI_DATATYPE_NULL)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_CONVERSION, call,
                     "a value of %s does not fit its external32 size", type_info(bad)->name);
  *position += bytes;
  return TMPI_SUCCESS;
}

int TMPI_Unpack_external(const char datarep[], const void* inbuf, TMPI_Aint insize, TMPI_Aint* position,
                         void* outbuf, int outcount, TMPI_Datatype type) {
  const char* call = "MPI_Unpack_external";
  Entered me = enter(call);
  int err = TMPI_SUCCESS;
  TypeMapPtr m = checked(me, call, datarep, type, outcount, &err);
  if (!m) return err;
  auto count = static_cast<std::size_t>(outcount);
  auto bytes = static_cast<TMPI_Aint>(count * external_size(*m));
  if (int e = check_span(me, call, bytes, *position, insize, "are not left")) return e;
  std::vector<unsigned char> native(count * m->size);
  TMPI_Datatype bad =
      convert_all(*m, count, false, static_cast<const unsigned char*>(inbuf) + *position, native.data());
  if (bad != TMPI_DATATYPE_NULL)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_CONVERSION, call,
                     "an external32 value of %s does not fit here", type_info(bad)->name);
  unpack(native.data(), count, *m, outbuf);
  *position += bytes;
  return TMPI_SUCCESS;
}

}  // extern "C"
