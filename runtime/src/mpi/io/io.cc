// MPI-IO (MPI_File_*) at subrank granularity over POSIX I/O.
//
// Every subrank that opens a file gets its own File object and its own file
// descriptor: the subranks of a process share nothing but the file itself.
// Data moves with pread/pwrite at once, in the calling subrank, so the
// non-blocking and split-collective forms complete in their first call, and
// the collective forms need no exchange between subranks (MPI asks no
// synchronization of them). Collective calls that must agree (open, close,
// set_view, set_size, seek_shared, the ordered calls) run their collectives
// on a private duplicate of the file's communicator.
//
// Views: a view is a displacement, an etype and a filetype. A position is
// counted in etypes of the view's data stream: the filetype's data blocks
// (its type-map blocks, which MPI requires in increasing order), tiled from
// the displacement every filetype extent. An access packs the user's data,
// maps its stream bytes to file extents and reads or writes them.
//
// The shared file pointer lives at rank 0 of the file's communicator, in a
// one-sided window (rma.cc) on the private duplicate, locked by every rank
// for the file's lifetime (MPI_MODE_NOCHECK): a shared access fetches and
// adds its size with MPI_Fetch_and_op, which the window's agent at rank 0
// applies one at a time, so every access gets its own range wherever its
// subrank runs.
//
// Atomic mode: each access holds a process-wide mutex (subranks of one
// process) and a POSIX record lock on the bytes it touches (processes).
//
// Data representations (MPI 3.1 section 13.5): "native" and "internal" (the
// same here) keep the bytes of memory. Under "external32" or a
// representation of MPI_Register_datarep the view's data stream holds file
// data: every predefined element takes its file size (external32's, or what
// the representation's extent function says), the etype and filetype are
// laid out by file extents (file_map: displacements counted in elements are
// scaled, byte displacements taken as they are), and an access converts the
// packed memory data to the stream (writes) or back (reads).
#include <tucana/tmpi.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <string>
#include <tuple>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "mpi/datatype/external32.h"
#include "mpi/info.h"
#include "mpi/request.h"
#include "mpi/datatype/typemap.h"
#include "sync/mutex.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

// A registered data representation (MPI_Register_datarep); a null
// conversion function is MPI_CONVERSION_FN_NULL.
struct Datarep {
  TMPI_Datarep_conversion_function* read = nullptr;
  TMPI_Datarep_conversion_function* write = nullptr;
  TMPI_Datarep_extent_function* extent = nullptr;
  void* extra = nullptr;
};

// The data representation of a view.
struct Representation {
  enum Kind { Native, External32, User };
  Kind kind = Native;
  std::string name = "native";  // as given: "native" or "internal" for Native
  Datarep user;                 // kind User: the registered functions
  std::vector<long long> sizes; // file sizes of predefined types asked so far (0: not yet)
};

struct View {
  Representation rep;
  TMPI_Offset disp = 0;
  TMPI_Datatype etype = TMPI_DT_BYTE;     // Tucana's own duplicates of derived types
  TMPI_Datatype filetype = TMPI_DT_BYTE;
  long long esize = 1;                   // stream (file representation) bytes of one etype
  long long ft_size = 1, ft_extent = 1;  // stream bytes and file extent of one filetype
  std::vector<Block> blocks;             // the filetype's data, merged, in order
  std::vector<long long> before;         // data bytes of the blocks before each block
  bool contiguous = true;                // the stream is the file from disp on
};

enum class Split { None, ReadAll, WriteAll, ReadAtAll, WriteAtAll, ReadOrdered, WriteOrdered };

struct File {
  Subrank* owner = nullptr;
  TMPI_File handle = TMPI_FILE_NULL;
  TMPI_Comm comm = TMPI_COMM_NULL;  // private duplicate of the opening communicator
  int rank = 0, size = 0;
  int fd = -1;
  int amode = 0;
  std::string path;
  TMPI_Errhandler errhandler = TMPI_ERRORS_RETURN;  // MPI's default for files
  bool atomic = false;
  View view;
  TMPI_Offset pos = 0;       // the individual file pointer, in etypes
  long long shared = 0;      // rank 0: the shared file pointer, in etypes (window memory)
  TMPI_Win win = TMPI_WIN_NULL;
  Split split = Split::None;  // the split collective begun and not yet ended
  long long split_bytes = 0;
};

// 0 is MPI_FILE_NULL; handles are never reused. MPI_FILE_NULL's error
// handlers share the files' lock.
struct FileTable {
  HandleTable<File*, HandleReuse::kNever> files{sync::LockLevel::kLeaf, "files", 1};
  std::map<const Subrank*, TMPI_Errhandler> null_handlers TUCANA_GUARDED_BY(files.mutex());  // per subrank
};
FileTable& table() {
  static FileTable* t = new FileTable;  // never destroyed
  return *t;
}

// The data representations of MPI_Register_datarep. The table is the
// process's, but each subrank is an MPI process to the program: a name is
// registered per subrank (every rank of a program registers its
// representations, as every process does under MPI), and a subrank sees
// only its own registrations. Entries are never removed (MPI has no call
// for it). Errors are reported after the lock is let go (the error handler
// is the program's, and looks into the file table).
struct DatarepTable {
  sync::Mutex lock{sync::LockLevel::kLeaf, "data representations"};
  std::map<std::pair<const Subrank*, std::string>, Datarep> reps TUCANA_GUARDED_BY(lock);
};
DatarepTable& datareps() {
  static DatarepTable* t = new DatarepTable;  // never destroyed
  return *t;
}

// Held around atomic-mode accesses and around close(): POSIX record locks
// belong to the process, and closing any descriptor of a file drops them.
// Only system calls run under it (F_SETLKW waits for other processes'
// record locks, which they hold only for their own transfers).
sync::Mutex& io_mutex() {
  static sync::Mutex* m = new sync::Mutex(sync::LockLevel::kLeaf, "file record locks");
  return *m;
}

File* find(TMPI_File fh) { return table().files.find(fh).value_or(nullptr); }

TMPI_Errhandler null_handler(const Subrank* me) {
  FileTable& t = table();
  sync::MutexLock hold(t.files.mutex());
  auto it = t.null_handlers.find(me);
  return it == t.null_handlers.end() ? TMPI_ERRORS_RETURN : it->second;
}

// ---------------------------------------------------------------- errors

// Errors without a file (open, delete, invalid handles) go through the
// error handler of MPI_FILE_NULL.
#define NULL_ERROR(ME, CODE, CALL, ...) report_error(ME, null_handler(ME), TMPI_FILE_NULL, CODE, CALL, __VA_ARGS__)
#define FILE_ERROR(F, CODE, CALL, ...) report_error((F)->owner, (F)->errhandler, (F)->handle, CODE, CALL, __VA_ARGS__)

#define TMPI_FILE_CALL(NAME, FH)                                                                         \
  const char* const call_name = NAME;                                                                    \
  Entered me = enter(call_name);                                                                        \
  File* f = find(FH);                                                                                    \
  if (!f || f->owner != me)                                                                              \
    return NULL_ERROR(me, TMPI_ERR_FILE, call_name, "invalid file handle %d", static_cast<int>(FH))

int errno_class(int e) {
  switch (e) {
    case ENOENT: return TMPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM: return TMPI_ERR_ACCESS;
    case EEXIST: return TMPI_ERR_FILE_EXISTS;
    case EROFS: return TMPI_ERR_READ_ONLY;
    case ENOSPC: return TMPI_ERR_NO_SPACE;
    case EDQUOT: return TMPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP: return TMPI_ERR_BAD_FILE;
    default: return TMPI_ERR_IO;
  }
}

// A file name may carry a ROMIO file-system prefix ("ufs:out.dat").
std::string strip_prefix(const char* name) {
  static const char* const prefixes[] = {"ufs:", "nfs:", "lustre:", "gpfs:", "posix:"};
  for (const char* p : prefixes)
    if (std::strncmp(name, p, std::strlen(p)) == 0) return name + std::strlen(p);
  return name;
}

// ---------------------------------------------------------------- views

// The file size of the predefined `type` under `r` into `*out`; a user
// representation asks its extent function once per type and view. Returns
// TMPI_SUCCESS, or the extent function's error (reported by the caller),
// or TMPI_ERR_CONVERSION for an extent that is not positive.
// Requires: 0 < type < TMPI_DATATYPE_END_.
int basic_file_size(Representation* r, TMPI_Datatype type, long long* out) {
  assert(type > 0 && type < TMPI_DATATYPE_END_ && "basic_file_size: a predefined datatype");
  auto i = static_cast<std::size_t>(type);
  if (r->sizes.size() <= i) r->sizes.resize(static_cast<std::size_t>(TMPI_DATATYPE_END_), 0);
  if (r->sizes[i] > 0) {
    *out = r->sizes[i];
    return TMPI_SUCCESS;
  }
  long long size = 0;
  switch (r->kind) {
    case Representation::Native: {
      TypeMapPtr keep;
      size = static_cast<long long>(find_type(type, &keep)->size);
      break;
    }
    case Representation::External32: size = static_cast<long long>(external32_size(type)); break;
    case Representation::User: {
      TMPI_Aint ext = 0;
      if (int err = r->user.extent(type, &ext, r->user.extra)) return err;
      size = ext;
      break;
    }
  }
  if (size <= 0) return TMPI_ERR_CONVERSION;
  r->sizes[i] = size;
  *out = size;
  return TMPI_SUCCESS;
}

// A datatype's layout in the file (MPI 3.1 section 13.5.1, "file extent"):
// its blocks of file data in type-map order, the stream bytes it holds, and
// its bounds, all in file bytes.
struct FileMap {
  std::vector<Block> blocks;
  long long size = 0;
  long long lb = 0, ub = 0;
  bool empty = true;  // no entry placed yet (bounds not set)

  long long extent() const { return ub - lb; }
  // Adds a copy of `child` at file displacement `d`.
  void place(const FileMap& child, long long d) {
    for (const Block& b : child.blocks) {
      std::ptrdiff_t at = static_cast<std::ptrdiff_t>(d) + b.offset;
      if (!blocks.empty() && blocks.back().offset + static_cast<std::ptrdiff_t>(blocks.back().length) == at)
        blocks.back().length += b.length;
      else
        blocks.push_back({at, b.length});
    }
    size += child.size;
    if (child.empty) return;
    lb = empty ? d + child.lb : std::min(lb, d + child.lb);
    ub = empty ? d + child.ub : std::max(ub, d + child.ub);
    empty = false;
  }
};

// The file layout of a datatype under `r`: from its constructor's record
// (typemap.h, Contents), with the file sizes of the predefined types. The
// displacements a constructor counts in elements (contiguous, vector,
// indexed, indexed_block, subarray) are scaled by the file extent of the
// old type; byte displacements (hvector, hindexed, hindexed_block, struct,
// resized) are taken as they are, as MPI 3.1 section 13.5.1 says. No
// alignment padding is added (file data is packed). Returns TMPI_SUCCESS,
// TMPI_ERR_TYPE (with `*why`) for a type it cannot lay out (darray), or the
// error of basic_file_size.
int file_map(Representation* r, const TypeMap& map, const Contents* c, FileMap* out, const char** why) {
  *out = FileMap{};
  if (map.predefined || !c || c->combiner == TMPI_COMBINER_NAMED || c->combiner == TMPI_COMBINER_F90_REAL ||
      c->combiner == TMPI_COMBINER_F90_COMPLEX || c->combiner == TMPI_COMBINER_F90_INTEGER) {
    if (!map.predefined) {
      *why = "a derived datatype without its constructor's record";
      return TMPI_ERR_TYPE;
    }
    long long size = 0;
    for (const Run& run : map.signature) {
      long long each;
      if (int err = basic_file_size(r, run.type, &each)) return err;
      size += each * static_cast<long long>(run.count);
    }
    if (size) out->blocks.push_back({0, static_cast<std::size_t>(size)});
    out->size = size;
    out->lb = 0, out->ub = size, out->empty = false;
    return TMPI_SUCCESS;
  }
  std::vector<FileMap> kids(c->types.size());
  for (std::size_t i = 0; i < c->types.size(); ++i) {
    const TypeArg& a = c->types[i];
    TypeMapPtr keep;
    ContentsPtr kc;
    const TypeMap* km;
    if (a.map) {
      km = a.map.get(), kc = a.contents;
    } else {
      km = find_type(a.handle, &keep);
      kc = type_contents(a.handle);
    }
    if (!km) {
      *why = "an old datatype that is no longer valid";
      return TMPI_ERR_TYPE;
    }
    if (int err = file_map(r, *km, kc.get(), &kids[i], why)) return err;
  }
  const std::vector<int>& n = c->integers;
  const std::vector<TMPI_Aint>& a = c->addresses;
  auto blocks_at = [&](const FileMap& k, long long start, long long stride, int len) {
    for (int j = 0; j < len; ++j) out->place(k, start + j * stride);
  };
  switch (c->combiner) {
    case TMPI_COMBINER_DUP: *out = kids[0]; break;
    case TMPI_COMBINER_CONTIGUOUS: blocks_at(kids[0], 0, kids[0].extent(), n[0]); break;
    case TMPI_COMBINER_VECTOR:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[0], 1LL * i * n[2] * kids[0].extent(), kids[0].extent(), n[1]);
      break;
    case TMPI_COMBINER_HVECTOR:
    case TMPI_COMBINER_HVECTOR_INTEGER:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[0], 1LL * i * a[0], kids[0].extent(), n[1]);
      break;
    case TMPI_COMBINER_INDEXED:
      for (int i = 0; i < n[0]; ++i)
        blocks_at(kids[0], 1LL * n[1 + n[0] + i] * kids[0].extent(), kids[0].extent(), n[1 + i]);
      break;
    case TMPI_COMBINER_HINDEXED:
    case TMPI_COMBINER_HINDEXED_INTEGER:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[0], a[i], kids[0].extent(), n[1 + i]);
      break;
    case TMPI_COMBINER_INDEXED_BLOCK:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[0], 1LL * n[2 + i] * kids[0].extent(), kids[0].extent(), n[1]);
      break;
    case TMPI_COMBINER_HINDEXED_BLOCK:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[0], a[i], kids[0].extent(), n[1]);
      break;
    case TMPI_COMBINER_STRUCT:
    case TMPI_COMBINER_STRUCT_INTEGER:
      for (int i = 0; i < n[0]; ++i) blocks_at(kids[i], a[i], kids[i].extent(), n[1 + i]);
      break;
    case TMPI_COMBINER_SUBARRAY: {
      int nd = n[0];
      const int *sizes = &n[1], *subsizes = &n[1 + nd], *starts = &n[1 + 2 * nd];
      bool c_order = n[1 + 3 * nd] == TMPI_ORDER_C;
      long long total = 1, all = 1;
      for (int d = 0; d < nd; ++d) total *= subsizes[d], all *= sizes[d];
      std::vector<int> idx(static_cast<std::size_t>(nd), 0);
      for (long long e = 0; e < total; ++e) {
        long long element = 0;
        for (int k = 0; k < nd; ++k) {
          int d = c_order ? k : nd - 1 - k;
          element = element * sizes[d] + starts[d] + idx[static_cast<std::size_t>(d)];
        }
        out->place(kids[0], element * kids[0].extent());
        for (int k = nd - 1; k >= 0; --k) {  // next index, fastest dimension first
          int d = c_order ? k : nd - 1 - k;
          if (++idx[static_cast<std::size_t>(d)] < subsizes[d]) break;
          idx[static_cast<std::size_t>(d)] = 0;
        }
      }
      out->lb = 0, out->ub = all * kids[0].extent(), out->empty = false;
      break;
    }
    case TMPI_COMBINER_RESIZED:
      *out = kids[0];
      out->lb = a[0], out->ub = a[0] + a[1], out->empty = false;
      break;
    default:
      *why = "darray datatypes cannot be laid out in a representation other than \"native\" yet";
      return TMPI_ERR_TYPE;
  }
  if (out->empty) out->lb = out->ub = 0;
  return TMPI_SUCCESS;
}

// The same for a handle. Requires: `map` is `type`'s map.
int file_map_of(Representation* r, TMPI_Datatype type, const TypeMap& map, FileMap* out, const char** why) {
  ContentsPtr c = map.predefined ? nullptr : type_contents(type);
  return file_map(r, map, c.get(), out, why);
}

// Sets `v` to (disp, etype, filetype) with the stream sizes of one etype and
// one filetype, the filetype's file extent and its blocks of stream data in
// file order; the caller checked the types.
void describe_view(View* v, TMPI_Offset disp, TMPI_Datatype etype, TMPI_Datatype filetype, long long esize,
                   long long ft_size, long long ft_extent, const std::vector<Block>& blocks) {
  v->disp = disp;
  v->etype = etype;
  v->filetype = filetype;
  v->esize = esize;
  v->ft_size = ft_size;
  v->ft_extent = ft_extent;
  v->blocks.clear();
  v->before.clear();
  long long seen = 0;
  for (const Block& b : blocks) {
    if (!b.length) continue;
    if (!v->blocks.empty() && v->blocks.back().offset + static_cast<std::ptrdiff_t>(v->blocks.back().length) == b.offset) {
      v->blocks.back().length += b.length;
    } else {
      v->blocks.push_back(b);
      v->before.push_back(seen);
    }
    seen += static_cast<long long>(b.length);
  }
  v->contiguous = v->blocks.size() == 1 && v->blocks[0].offset == 0 &&
                  static_cast<long long>(v->blocks[0].length) == v->ft_extent;
}

// The file offset of byte `q` of the view's data stream, and how many
// stream bytes from there lie contiguous in its block.
long long file_offset(const View& v, long long q, long long* run) {
  if (v.ft_size == 0) {  // a view with no data: only its start (stream_bytes refuses data)
    *run = 0;
    return v.disp;
  }
  if (v.contiguous) {
    *run = -1;  // to the end
    return v.disp + q;
  }
  long long tile = q / v.ft_size, within = q % v.ft_size;
  std::size_t i = static_cast<std::size_t>(std::upper_bound(v.before.begin(), v.before.end(), within) - v.before.begin()) - 1;
  long long in_block = within - v.before[i];
  *run = static_cast<long long>(v.blocks[i].length) - in_block;
  return v.disp + tile * v.ft_extent + v.blocks[i].offset + in_block;
}

using Extents = std::vector<std::pair<long long, long long>>;  // (file offset, length)

// The file extents of stream bytes [q, q + bytes), adjacent ones merged.
Extents extents_of(const View& v, long long q, long long bytes) {
  Extents out;
  while (bytes > 0) {
    long long run;
    long long at = file_offset(v, q, &run);
    long long len = run < 0 ? bytes : std::min(run, bytes);
    if (!out.empty() && out.back().first + out.back().second == at)
      out.back().second += len;
    else
      out.emplace_back(at, len);
    q += len;
    bytes -= len;
  }
  return out;
}

// The view position (in etypes) just past the last byte of a file of
// `fsize` bytes that the view reaches: where MPI_SEEK_END counts from.
long long view_end(const View& v, long long fsize) {
  long long span = fsize - v.disp;
  if (span <= 0) return 0;
  long long data;
  if (v.contiguous) {
    data = span;
  } else {
    long long tile = span / v.ft_extent;
    data = tile * v.ft_size;
    long long base = tile * v.ft_extent;
    for (const Block& b : v.blocks)
      data += std::clamp<long long>(span - (base + b.offset), 0, static_cast<long long>(b.length));
  }
  return (data + v.esize - 1) / v.esize;
}

void free_view_types(View* v) {
  for (TMPI_Datatype* t : {&v->etype, &v->filetype}) {
    TypeMapPtr keep;
    const TypeMap* m = find_type(*t, &keep);
    if (m && !m->predefined) TMPI_Type_free(t);
    *t = TMPI_DT_BYTE;
  }
}

// ---------------------------------------------------------------- data access

long long file_size(const File* f) {
  struct stat st;
  if (fstat(f->fd, &st) != 0) return -1;
  return static_cast<long long>(st.st_size);
}

// Moves the extents to or from the packed `data`; `*done` is how many bytes
// moved before the end of file (reads) or an error.
int transfer(File* f, bool write, const Extents& ext, char* data, long long* done) {
  *done = 0;
  for (const auto& [at, len] : ext) {
    long long moved = 0;
    while (moved < len) {
      ssize_t n = write ? pwrite(f->fd, data + *done, static_cast<std::size_t>(len - moved), at + moved)
                        : pread(f->fd, data + *done, static_cast<std::size_t>(len - moved), at + moved);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno;
      if (n == 0) return 0;  // end of file (a read)
      moved += n;
      *done += n;
    }
  }
  return 0;
}

// The stream bytes of `count` elements of `map` under the view's
// representation into `*out` (the packed size for "native"); an error of
// the representation's extent function goes through the file's handler.
int stream_bytes(File* f, const char* call, const TypeMap& map, int count, long long* out) {
  Representation& r = f->view.rep;
  if (f->view.ft_size == 0 && map.size > 0 && count > 0)
    return FILE_ERROR(f, TMPI_ERR_ARG, call, "the file view holds no data (its filetype has size 0)");
  if (r.kind == Representation::Native) {
    *out = static_cast<long long>(map.size) * count;
    return TMPI_SUCCESS;
  }
  long long each = 0;
  for (const Run& run : map.signature) {
    long long size;
    if (int err = basic_file_size(&r, run.type, &size))
      return FILE_ERROR(f, err, call, "data representation \"%s\": no file extent for %s", r.name.c_str(),
                        type_info(run.type)->name);
    each += size * static_cast<long long>(run.count);
  }
  *out = each * count;
  return TMPI_SUCCESS;
}

// How much of `count` elements of `map` the first `bytes` stream bytes hold
// whole: `*items` predefined elements (tiled signature) and `*packed` bytes
// of packed native data. Requires: the file sizes of `map`'s predefined
// types are known (stream_bytes succeeded), 0 <= bytes.
void whole_items(Representation* r, const TypeMap& map, long long bytes, long long* items, long long* packed) {
  long long per_items = 0, per_stream = 0;
  std::vector<long long> sizes;
  for (const Run& run : map.signature) {
    long long size = 0;
    int err = basic_file_size(r, run.type, &size);
    assert(err == TMPI_SUCCESS && "whole_items: file sizes known");
    (void)err;
    sizes.push_back(size);
    per_items += static_cast<long long>(run.count);
    per_stream += size * static_cast<long long>(run.count);
  }
  long long whole = per_stream ? bytes / per_stream : 0, rest = per_stream ? bytes % per_stream : 0;
  *items = whole * per_items;
  *packed = whole * static_cast<long long>(map.size);
  for (std::size_t i = 0; i < map.signature.size(); ++i) {
    const Run& run = map.signature[i];
    long long n = std::min(static_cast<long long>(run.count), rest / sizes[i]);
    TypeMapPtr keep;
    *items += n;
    *packed += n * static_cast<long long>(find_type(run.type, &keep)->size);
    rest -= n * sizes[i];
    if (n < static_cast<long long>(run.count)) break;
  }
}

// Reads (write false) or writes `count` elements of `type` at `buf` at view
// position `pos` (etypes); `*bytes` gets the bytes of memory data moved (for
// the status) and `*stream` the bytes of the view's data stream (file
// representation) moved. Under a representation other than "native" the
// data is converted: external32 here (external32.h), a user
// representation by its conversion functions, called once per access with
// position 0 and the count of predefined elements (MPI 3.1 section 13.5.3).
int access(File* f, const char* call, bool write, TMPI_Offset pos, void* buf, int count, TMPI_Datatype type,
           long long* bytes, long long* stream) {
  *bytes = *stream = 0;
  if (write && (f->amode & TMPI_MODE_RDONLY))
    return FILE_ERROR(f, TMPI_ERR_READ_ONLY, call, "the file was opened with MPI_MODE_RDONLY");
  if (!write && (f->amode & TMPI_MODE_WRONLY))
    return FILE_ERROR(f, TMPI_ERR_ACCESS, call, "the file was opened with MPI_MODE_WRONLY");
  if (count < 0) return FILE_ERROR(f, TMPI_ERR_COUNT, call, "negative count %d", count);
  TypeMapPtr keep;
  const TypeMap* map = find_type(type, &keep);
  if (!map) return FILE_ERROR(f, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (!map->committed)
    return FILE_ERROR(f, TMPI_ERR_TYPE, call, "datatype %d is not committed (MPI_Type_commit)", type);
  long long total = 0;
  if (int err = stream_bytes(f, call, *map, count, &total)) return err;
  if (total % f->view.esize)
    return FILE_ERROR(f, TMPI_ERR_TYPE, call, "%lld bytes of data are not a whole number of etypes of %lld bytes",
                      total, f->view.esize);
  if (pos < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call, "negative offset %lld", static_cast<long long>(pos));
  if (total == 0) return TMPI_SUCCESS;
  if (!buf && map->predefined) return FILE_ERROR(f, TMPI_ERR_BUFFER, call, "null buffer for %d elements", count);
  Representation& rep = f->view.rep;
  long long packed_total = static_cast<long long>(map->size) * count;
  long long items = 0;
  for (const Run& run : map->signature) items += static_cast<long long>(run.count);
  items *= count;
  // How the data is converted: not at all (the stream is the packed memory
  // data), by external32 here, or by the user's function.
  enum { None, External32, UserFn } how = None;
  TMPI_Datarep_conversion_function* user_fn = write ? rep.user.write : rep.user.read;
  if (rep.kind == Representation::External32) how = External32;
  if (rep.kind == Representation::User && user_fn) how = UserFn;
  if (how == None && total != packed_total)
    return FILE_ERROR(f, TMPI_ERR_CONVERSION, call,
                      "data representation \"%s\" has no %s conversion function, but its file extents differ "
                      "from the native sizes",
                      rep.name.c_str(), write ? "write" : "read");
  if (how == External32) {
    TMPI_Datatype bad = TMPI_DATATYPE_NULL;
    if (!external32_convertible(*map, &bad))
      return FILE_ERROR(f, TMPI_ERR_CONVERSION, call, "this machine's %s cannot be converted to external32",
                        type_info(bad)->name);
  }
  if (how == UserFn && items > INT_MAX)
    return FILE_ERROR(f, TMPI_ERR_COUNT, call, "%lld predefined elements are more than a conversion function takes",
                      items);
  std::vector<char> staging, converted;
  char* data = static_cast<char*>(buf);
  bool packed = !map->contiguous();
  if (packed) {  // the packed memory data
    staging.resize(static_cast<std::size_t>(packed_total));
    if (packed) data = staging.data();
    if (write && packed) pack(buf, static_cast<std::size_t>(count), *map, staging.data());
  }
  if (how != None) {
    converted.resize(static_cast<std::size_t>(total));
    if (write && how == External32) {
      TMPI_Datatype bad = external32_convert(*map, static_cast<std::size_t>(items), true, packed ? staging.data() : buf,
                                             converted.data());
      if (bad != TMPI_DATATYPE_NULL)
        return FILE_ERROR(f, TMPI_ERR_CONVERSION, call, "a value of %s does not fit its external32 size",
                          type_info(bad)->name);
    }
    if (write && how == UserFn) {
      if (int err = user_fn(buf, type, static_cast<int>(items), converted.data(), 0, rep.user.extra))
        return FILE_ERROR(f, err, call, "the write conversion function of data representation \"%s\" failed",
                          rep.name.c_str());
    }
    data = converted.data();
  }
  Extents ext = extents_of(f->view, pos * f->view.esize, total);
  int err = 0;
  if (f->atomic) {
    sync::MutexLock hold(io_mutex());
    long long first = ext.front().first, last = first;
    for (const auto& e : ext) {
      first = std::min(first, e.first);
      last = std::max(last, e.first + e.second);
    }
    struct flock lk {};
    lk.l_type = static_cast<short>(write ? F_WRLCK : F_RDLCK);
    lk.l_whence = SEEK_SET;
    lk.l_start = first;
    lk.l_len = last - first;
    while (fcntl(f->fd, F_SETLKW, &lk) != 0 && errno == EINTR) {
    }
    err = transfer(f, write, ext, data, stream);
    lk.l_type = F_UNLCK;
    fcntl(f->fd, F_SETLK, &lk);
  } else {
    err = transfer(f, write, ext, data, stream);
  }
  long long moved_items = items;
  *bytes = *stream;
  if (how != None) {
    if (write) {
      *bytes = *stream == total ? packed_total : 0;
      if (*stream != total) whole_items(&rep, *map, *stream, &moved_items, bytes);
    } else {
      whole_items(&rep, *map, *stream, &moved_items, bytes);
    }
  }
  if (!write && how == External32) {
    TMPI_Datatype bad = external32_convert(*map, static_cast<std::size_t>(moved_items), false, converted.data(),
                                           packed ? staging.data() : buf);
    if (bad != TMPI_DATATYPE_NULL && !err)
      return FILE_ERROR(f, TMPI_ERR_CONVERSION, call, "an external32 value of %s does not fit here",
                        type_info(bad)->name);
  }
  if (!write && how == UserFn && moved_items > 0) {
    if (int e = user_fn(buf, type, static_cast<int>(moved_items), converted.data(), 0, rep.user.extra))
      return FILE_ERROR(f, e, call, "the read conversion function of data representation \"%s\" failed",
                        rep.name.c_str());
  }
  if (packed && !write && how != UserFn) unpack_bytes(staging.data(), static_cast<std::size_t>(*bytes), *map, buf);
  if (err)
    return FILE_ERROR(f, errno_class(err), call, "%s %s: %s", write ? "writing" : "reading", f->path.c_str(),
                      std::strerror(err));
  return TMPI_SUCCESS;
}

void set_status(TMPI_Status* status, long long bytes) {
  message_status(status, TMPI_ANY_SOURCE, TMPI_ANY_TAG, bytes);
}

int no_sequential(File* f, const char* call) {
  if (f->amode & TMPI_MODE_SEQUENTIAL)
    return FILE_ERROR(f, TMPI_ERR_UNSUPPORTED_OPERATION, call,
                      "the file was opened with MPI_MODE_SEQUENTIAL: only the shared file pointer may be used");
  return TMPI_SUCCESS;
}

// Explicit offsets.
int at(const char* call, TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type,
       bool write, TMPI_Status* status, TMPI_Request* request) {
  TMPI_FILE_CALL(call, fh);
  if (int err = no_sequential(f, call_name)) return err;
  long long bytes, stream;
  if (int err = access(f, call_name, write, offset, const_cast<void*>(buf), count, type, &bytes, &stream)) return err;
  set_status(status, bytes);
  if (request) *request = completed_io_request(me, call_name, bytes);
  return TMPI_SUCCESS;
}

// The individual file pointer.
int individual(const char* call, TMPI_File fh, const void* buf, int count, TMPI_Datatype type, bool write,
               TMPI_Status* status, TMPI_Request* request) {
  TMPI_FILE_CALL(call, fh);
  if (int err = no_sequential(f, call_name)) return err;
  long long bytes, stream;
  if (int err = access(f, call_name, write, f->pos, const_cast<void*>(buf), count, type, &bytes, &stream)) return err;
  f->pos += stream / f->view.esize;
  set_status(status, bytes);
  if (request) *request = completed_io_request(me, call_name, bytes);
  return TMPI_SUCCESS;
}

// Adds `delta` etypes to the shared file pointer; `*old` gets its value before.
int fetch_add_shared(File* f, long long delta, TMPI_Op op, long long* old) {
  if (int err = TMPI_Fetch_and_op(&delta, old, TMPI_DT_LONG_LONG_INT, 0, 0, op, f->win)) return err;
  return TMPI_Win_flush(0, f->win);
}

int etypes_of(File* f, const char* call, int count, TMPI_Datatype type, long long* n) {
  TypeMapPtr keep;
  const TypeMap* map = find_type(type, &keep);
  if (!map) return FILE_ERROR(f, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (count < 0) return FILE_ERROR(f, TMPI_ERR_COUNT, call, "negative count %d", count);
  long long bytes = 0;
  if (int err = stream_bytes(f, call, *map, count, &bytes)) return err;
  if (bytes % f->view.esize)
    return FILE_ERROR(f, TMPI_ERR_TYPE, call, "%lld bytes of data are not a whole number of etypes of %lld bytes",
                      bytes, f->view.esize);
  *n = bytes / f->view.esize;
  return TMPI_SUCCESS;
}

int shared(const char* call, TMPI_File fh, const void* buf, int count, TMPI_Datatype type, bool write,
           TMPI_Status* status, TMPI_Request* request) {
  TMPI_FILE_CALL(call, fh);
  long long n, start;
  if (int err = etypes_of(f, call_name, count, type, &n)) return err;
  if (n) {
    if (int err = fetch_add_shared(f, n, TMPI_OP_SUM, &start)) return err;
  } else {
    start = 0;
  }
  long long bytes, stream;
  if (int err = access(f, call_name, write, start, const_cast<void*>(buf), count, type, &bytes, &stream)) return err;
  set_status(status, bytes);
  if (request) *request = completed_io_request(me, call_name, bytes);
  return TMPI_SUCCESS;
}

// Collective: the ranks' accesses follow each other in rank order from the
// shared file pointer, which moves past them all.
int ordered(const char* call, TMPI_File fh, const void* buf, int count, TMPI_Datatype type, bool write,
            TMPI_Status* status) {
  TMPI_FILE_CALL(call, fh);
  long long n;
  if (int err = etypes_of(f, call_name, count, type, &n)) return err;
  std::vector<long long> all(static_cast<std::size_t>(f->size));
  if (int err = TMPI_Allgather(&n, 1, TMPI_DT_LONG_LONG_INT, all.data(), 1, TMPI_DT_LONG_LONG_INT, f->comm)) return err;
  long long before = 0, total = 0;
  for (int r = 0; r < f->size; ++r) {
    if (r < f->rank) before += all[static_cast<std::size_t>(r)];
    total += all[static_cast<std::size_t>(r)];
  }
  long long base = 0;
  if (f->rank == 0)
    if (int err = fetch_add_shared(f, total, TMPI_OP_SUM, &base)) return err;
  if (int err = TMPI_Bcast(&base, 1, TMPI_DT_LONG_LONG_INT, 0, f->comm)) return err;
  long long bytes, stream;
  if (int err = access(f, call_name, write, base + before, const_cast<void*>(buf), count, type, &bytes, &stream))
    return err;
  set_status(status, bytes);
  return TMPI_SUCCESS;
}

int begin_split(File* f, Split kind, int err, long long bytes) {
  if (err) return err;
  f->split = kind;
  f->split_bytes = bytes;
  return TMPI_SUCCESS;
}

int check_no_split(File* f, const char* call) {
  if (f->split != Split::None)
    return FILE_ERROR(f, TMPI_ERR_OTHER, call, "a split collective is active on this file already (end it first)");
  return TMPI_SUCCESS;
}

int end_split(const char* call, TMPI_File fh, Split kind, TMPI_Status* status) {
  TMPI_FILE_CALL(call, fh);
  if (f->split != kind)
    return FILE_ERROR(f, TMPI_ERR_OTHER, call_name, "no matching split collective was begun on this file");
  f->split = Split::None;
  set_status(status, f->split_bytes);
  return TMPI_SUCCESS;
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- open and close

int TMPI_File_open(TMPI_Comm comm, const char* filename, int amode, TMPI_Info info, TMPI_File* fh) {
  const char* call = "MPI_File_open";
  Entered me = enter(call);
  CommInfo ci;
  if (!fh) return NULL_ERROR(me, TMPI_ERR_ARG, call, "null file handle pointer");
  *fh = TMPI_FILE_NULL;
  if (!comm_info(me, comm, &ci)) return NULL_ERROR(me, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
  if (ci.comm->inter()) return inter_unsupported(me, comm, call);
  if (!filename || !*filename) return NULL_ERROR(me, TMPI_ERR_BAD_FILE, call, "empty file name");
  int access_modes = !!(amode & TMPI_MODE_RDONLY) + !!(amode & TMPI_MODE_WRONLY) + !!(amode & TMPI_MODE_RDWR);
  if (access_modes != 1)
    return NULL_ERROR(me, TMPI_ERR_AMODE, call,
                      "exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR must be given");
  if ((amode & TMPI_MODE_RDONLY) && (amode & (TMPI_MODE_CREATE | TMPI_MODE_EXCL)))
    return NULL_ERROR(me, TMPI_ERR_AMODE, call, "MPI_MODE_CREATE and MPI_MODE_EXCL need write access");
  if ((amode & TMPI_MODE_RDWR) && (amode & TMPI_MODE_SEQUENTIAL))
    return NULL_ERROR(me, TMPI_ERR_AMODE, call, "MPI_MODE_SEQUENTIAL cannot go with MPI_MODE_RDWR");
  if (!valid_info(info)) return NULL_ERROR(me, TMPI_ERR_INFO, call, "invalid info object");

  auto* f = new File;
  f->owner = me;
  f->amode = amode;
  f->path = strip_prefix(filename);
  if (int err = TMPI_Comm_dup(comm, &f->comm)) {
    delete f;
    return err;
  }
  TMPI_Comm_set_errhandler(f->comm, TMPI_ERRORS_RETURN);
  TMPI_Comm_rank(f->comm, &f->rank);
  TMPI_Comm_size(f->comm, &f->size);
  int flags = O_CLOEXEC | ((amode & TMPI_MODE_RDONLY) ? O_RDONLY : (amode & TMPI_MODE_WRONLY) ? O_WRONLY : O_RDWR);
  // Rank 0 creates the file; the others open it once it exists.
  int first[3] = {0, 0, amode};  // error class, errno, amode
  if (f->rank == 0) {
    int create = (amode & TMPI_MODE_CREATE) ? O_CREAT | ((amode & TMPI_MODE_EXCL) ? O_EXCL : 0) : 0;
    f->fd = open(f->path.c_str(), flags | create, 0666);
    if (f->fd < 0) first[0] = errno_class(errno), first[1] = errno;
  }
  TMPI_Bcast(first, 3, TMPI_DT_INT, 0, f->comm);
  int mine[2] = {first[0], first[1]};
  if (!mine[0] && first[2] != amode) mine[0] = TMPI_ERR_NOT_SAME;
  if (!mine[0] && f->rank != 0) {
    f->fd = open(f->path.c_str(), flags, 0666);
    if (f->fd < 0) mine[0] = errno_class(errno), mine[1] = errno;
  }
  int worst = mine[0];
  TMPI_Allreduce(&mine[0], &worst, 1, TMPI_DT_INT, TMPI_OP_MAX, f->comm);
  if (worst) {
    if (f->fd >= 0) {
      sync::MutexLock hold(io_mutex());
      close(f->fd);
    }
    TMPI_Comm_free(&f->comm);
    delete f;
    if (mine[0] == TMPI_ERR_NOT_SAME)
      return NULL_ERROR(me, worst, call, "the ranks gave different access modes for %s", filename);
    if (mine[0])
      return NULL_ERROR(me, worst, call, "cannot open %s: %s", filename, std::strerror(mine[1]));
    return NULL_ERROR(me, worst, call, "another rank could not open %s", filename);
  }
  // MPI_MODE_APPEND: both file pointers start at the end (the default view counts bytes).
  long long start = (amode & TMPI_MODE_APPEND) ? std::max(file_size(f), 0LL) : 0;
  f->pos = start;
  f->shared = start;
  TypeMapPtr keep;
  const TypeMap* byte = find_type(TMPI_DT_BYTE, &keep);
  assert(byte && byte->size == 1 && byte->extent() == 1);
  describe_view(&f->view, 0, TMPI_DT_BYTE, TMPI_DT_BYTE, 1, 1, 1, byte->blocks);
  if (int err = TMPI_Win_create(&f->shared, f->rank == 0 ? sizeof f->shared : 0, sizeof f->shared, TMPI_INFO_NULL,
                                f->comm, &f->win)) {
    {
      sync::MutexLock hold(io_mutex());
      close(f->fd);
    }
    TMPI_Comm_free(&f->comm);
    delete f;
    return err;
  }
  TMPI_Win_lock_all(TMPI_MODE_NOCHECK, f->win);
  f->handle = table().files.allocate(f);
  *fh = f->handle;
  return TMPI_SUCCESS;
}

int TMPI_File_close(TMPI_File* fh) {
  if (!fh) {
    Entered me = enter("MPI_File_close");
    return NULL_ERROR(me, TMPI_ERR_ARG, "MPI_File_close", "null file handle pointer");
  }
  TMPI_FILE_CALL("MPI_File_close", *fh);
  // After MPI_Win_free's barrier no rank accesses the file any more.
  TMPI_Win_unlock_all(f->win);
  TMPI_Win_free(&f->win);
  {
    sync::MutexLock hold(io_mutex());
    close(f->fd);
  }
  int err = TMPI_SUCCESS;
  if (f->amode & TMPI_MODE_DELETE_ON_CLOSE) {
    int e = 0;
    if (f->rank == 0 && unlink(f->path.c_str()) != 0) e = errno;
    TMPI_Bcast(&e, 1, TMPI_DT_INT, 0, f->comm);
    if (e) err = FILE_ERROR(f, errno_class(e), call_name, "deleting %s: %s", f->path.c_str(), std::strerror(e));
  }
  table().files.release(f->handle);
  free_view_types(&f->view);
  TMPI_Comm_free(&f->comm);
  delete f;
  *fh = TMPI_FILE_NULL;
  return err;
}

int TMPI_File_delete(const char* filename, TMPI_Info info) {
  const char* call = "MPI_File_delete";
  Entered me = enter(call);
  if (!filename) return NULL_ERROR(me, TMPI_ERR_BAD_FILE, call, "null file name");
  if (!valid_info(info)) return NULL_ERROR(me, TMPI_ERR_INFO, call, "invalid info object");
  if (unlink(strip_prefix(filename).c_str()) != 0) {
    int e = errno;
    return NULL_ERROR(me, errno_class(e), call, "cannot delete %s: %s", filename, std::strerror(e));
  }
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- file attributes

int TMPI_File_set_size(TMPI_File fh, TMPI_Offset size) {
  TMPI_FILE_CALL("MPI_File_set_size", fh);
  if (size < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "negative size %lld", static_cast<long long>(size));
  if (f->amode & TMPI_MODE_RDONLY)
    return FILE_ERROR(f, TMPI_ERR_READ_ONLY, call_name, "the file was opened with MPI_MODE_RDONLY");
  // Rank 0 resizes once every rank has made its earlier accesses, and every
  // rank returns once the size is set.
  if (int err = TMPI_Barrier(f->comm)) return err;
  int e = 0;
  if (f->rank == 0 && ftruncate(f->fd, size) != 0) e = errno;
  TMPI_Bcast(&e, 1, TMPI_DT_INT, 0, f->comm);
  if (e) return FILE_ERROR(f, errno_class(e), call_name, "resizing %s: %s", f->path.c_str(), std::strerror(e));
  return TMPI_SUCCESS;
}

int TMPI_File_preallocate(TMPI_File fh, TMPI_Offset size) {
  TMPI_FILE_CALL("MPI_File_preallocate", fh);
  if (size < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "negative size %lld", static_cast<long long>(size));
  if (f->amode & TMPI_MODE_RDONLY)
    return FILE_ERROR(f, TMPI_ERR_READ_ONLY, call_name, "the file was opened with MPI_MODE_RDONLY");
  if (int err = TMPI_Barrier(f->comm)) return err;
  int e = 0;
  if (f->rank == 0 && size > 0) {
    e = posix_fallocate(f->fd, 0, size);
    if (e == EOPNOTSUPP || e == EINVAL) {  // the file system cannot: at least the size
      e = 0;
      if (file_size(f) < size && ftruncate(f->fd, size) != 0) e = errno;
    }
  }
  TMPI_Bcast(&e, 1, TMPI_DT_INT, 0, f->comm);
  if (e) return FILE_ERROR(f, errno_class(e), call_name, "preallocating %s: %s", f->path.c_str(), std::strerror(e));
  return TMPI_SUCCESS;
}

int TMPI_File_get_size(TMPI_File fh, TMPI_Offset* size) {
  TMPI_FILE_CALL("MPI_File_get_size", fh);
  long long s = file_size(f);
  if (s < 0) return FILE_ERROR(f, TMPI_ERR_IO, call_name, "%s: %s", f->path.c_str(), std::strerror(errno));
  *size = s;
  return TMPI_SUCCESS;
}

int TMPI_File_get_group(TMPI_File fh, TMPI_Group* group) {
  TMPI_FILE_CALL("MPI_File_get_group", fh);
  return TMPI_Comm_group(f->comm, group);
}

int TMPI_File_get_amode(TMPI_File fh, int* amode) {
  TMPI_FILE_CALL("MPI_File_get_amode", fh);
  *amode = f->amode;
  return TMPI_SUCCESS;
}

// Tucana reads no hints: the info used is empty.
int TMPI_File_set_info(TMPI_File fh, TMPI_Info info) {
  TMPI_FILE_CALL("MPI_File_set_info", fh);
  if (!valid_info(info)) return FILE_ERROR(f, TMPI_ERR_INFO, call_name, "invalid info object");
  return TMPI_SUCCESS;
}

int TMPI_File_get_info(TMPI_File fh, TMPI_Info* info_used) {
  TMPI_FILE_CALL("MPI_File_get_info", fh);
  *info_used = new_info();
  return TMPI_SUCCESS;
}

int TMPI_File_sync(TMPI_File fh) {
  TMPI_FILE_CALL("MPI_File_sync", fh);
  if (fsync(f->fd) != 0) {
    int e = errno;
    if (e != EINVAL && e != EROFS)  // a file that cannot be synced needs no sync
      return FILE_ERROR(f, errno_class(e), call_name, "syncing %s: %s", f->path.c_str(), std::strerror(e));
  }
  return TMPI_SUCCESS;
}

int TMPI_File_set_atomicity(TMPI_File fh, int flag) {
  TMPI_FILE_CALL("MPI_File_set_atomicity", fh);
  f->atomic = flag != 0;
  return TMPI_SUCCESS;
}

int TMPI_File_get_atomicity(TMPI_File fh, int* flag) {
  TMPI_FILE_CALL("MPI_File_get_atomicity", fh);
  *flag = f->atomic;
  return TMPI_SUCCESS;
}

int TMPI_File_get_type_extent(TMPI_File fh, TMPI_Datatype type, TMPI_Aint* extent) {
  TMPI_FILE_CALL("MPI_File_get_type_extent", fh);
  TypeMapPtr keep;
  const TypeMap* map = find_type(type, &keep);
  if (!map) return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "invalid datatype %d", type);
  if (f->view.rep.kind == Representation::Native) {
    *extent = map->extent();  // as in memory
    return TMPI_SUCCESS;
  }
  FileMap fmap;
  const char* why = "";
  if (int err = file_map_of(&f->view.rep, type, *map, &fmap, &why))
    return FILE_ERROR(f, err, call_name, "datatype %d under data representation \"%s\": %s", type,
                      f->view.rep.name.c_str(), err == TMPI_ERR_TYPE ? why : "the extent function failed");
  *extent = fmap.extent();
  return TMPI_SUCCESS;
}

// MPI_FILE_NULL's handler applies to MPI_File_open and MPI_File_delete.
int TMPI_File_set_errhandler(TMPI_File fh, TMPI_Errhandler errhandler) {
  const char* call = "MPI_File_set_errhandler";
  Entered me = enter(call);
  File* f = fh == TMPI_FILE_NULL ? nullptr : find(fh);
  if (fh != TMPI_FILE_NULL && (!f || f->owner != me))
    return NULL_ERROR(me, TMPI_ERR_FILE, call, "invalid file handle %d", static_cast<int>(fh));
  if (!valid_errhandler(errhandler, ErrhandlerKind::File)) {
    TMPI_Errhandler h = f ? f->errhandler : null_handler(me);
    return report_error(me, h, fh, TMPI_ERR_ARG, call,
                        "not an error handler for files (MPI_File_create_errhandler makes them)");
  }
  if (f) {
    f->errhandler = errhandler;
  } else {
    FileTable& t = table();
    sync::MutexLock hold(t.files.mutex());
    t.null_handlers[me] = errhandler;
  }
  return TMPI_SUCCESS;
}

int TMPI_File_get_errhandler(TMPI_File fh, TMPI_Errhandler* errhandler) {
  const char* call = "MPI_File_get_errhandler";
  Entered me = enter(call);
  if (fh == TMPI_FILE_NULL) {
    *errhandler = null_handler(me);
    return TMPI_SUCCESS;
  }
  File* f = find(fh);
  if (!f || f->owner != me) return NULL_ERROR(me, TMPI_ERR_FILE, call, "invalid file handle %d", static_cast<int>(fh));
  *errhandler = f->errhandler;
  return TMPI_SUCCESS;
}

int TMPI_File_call_errhandler(TMPI_File fh, int errorcode) {
  const char* call = "MPI_File_call_errhandler";
  Entered me = enter(call);
  if (fh == TMPI_FILE_NULL) {
    NULL_ERROR(me, errorcode, call, "error code %d raised by the program", errorcode);
    return TMPI_SUCCESS;
  }
  File* f = find(fh);
  if (!f || f->owner != me) return NULL_ERROR(me, TMPI_ERR_FILE, call, "invalid file handle %d", static_cast<int>(fh));
  FILE_ERROR(f, errorcode, call, "error code %d raised by the program", errorcode);
  return TMPI_SUCCESS;  // the handler returned
}

// ---------------------------------------------------------------- views

int TMPI_File_set_view(TMPI_File fh, TMPI_Offset disp, TMPI_Datatype etype, TMPI_Datatype filetype,
                       const char* datarep, TMPI_Info info) {
  TMPI_FILE_CALL("MPI_File_set_view", fh);
  Representation rep;
  TypeMapPtr ekeep, fkeep;
  const TypeMap *em = nullptr, *fm = nullptr;
  long long esize = 0, ft_size = 0, ft_extent = 0;
  const std::vector<Block>* blocks = nullptr;
  FileMap efile, ffile;
  auto check = [&]() -> int {
    if (!datarep) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "null data representation");
    rep.name = datarep;
    if (rep.name == "native" || rep.name == "internal") {
      rep.kind = Representation::Native;
    } else if (rep.name == "external32") {
      rep.kind = Representation::External32;
    } else {
      DatarepTable& t = datareps();
      sync::MutexLock hold(t.lock);
      auto it = t.reps.find({me, rep.name});
      if (it == t.reps.end()) {
        hold.unlock();
        return FILE_ERROR(f, TMPI_ERR_UNSUPPORTED_DATAREP, call_name,
                          "data representation \"%s\" is not \"native\", \"internal\", \"external32\" or "
                          "registered by this rank (MPI_Register_datarep)",
                          datarep);
      }
      rep.kind = Representation::User;
      rep.user = it->second;
    }
    if (!valid_info(info)) return FILE_ERROR(f, TMPI_ERR_INFO, call_name, "invalid info object");
    em = find_type(etype, &ekeep);
    fm = find_type(filetype, &fkeep);
    if (!em || !em->committed) return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "invalid or uncommitted etype %d", etype);
    if (!fm || !fm->committed)
      return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "invalid or uncommitted filetype %d", filetype);
    // A view is kept as the filetype's list of blocks.
    if (em->compact() || fm->compact())
      return FILE_ERROR(f, TMPI_ERR_TYPE, call_name,
                        "the %s has more than 16 Mi separate blocks of data: Tucana keeps a file view as the list "
                        "of its blocks, and refuses one that large",
                        em->compact() ? "etype" : "filetype");
    // The layouts in the file: the memory maps under "native", else from
    // the file sizes of the representation.
    esize = static_cast<long long>(em->size), ft_size = static_cast<long long>(fm->size), ft_extent = fm->extent();
    blocks = &fm->blocks;
    if (rep.kind != Representation::Native) {
      const char* why = "";
      for (auto [type, map, out] : {std::tuple{etype, em, &efile}, std::tuple{filetype, fm, &ffile}})
        if (int err = file_map_of(&rep, type, *map, out, &why))
          return FILE_ERROR(f, err, call_name, "%s %d under data representation \"%s\": %s",
                            out == &efile ? "etype" : "filetype", type, datarep,
                            err == TMPI_ERR_TYPE ? why : "no file extent for one of its predefined types");
      esize = efile.size, ft_size = ffile.size, ft_extent = ffile.extent();
      blocks = &ffile.blocks;
    }
    if (esize == 0) return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "the etype holds no data");
    // A filetype may hold no data at all (a rank that takes part in the
    // collective accesses with nothing to access, as MPICH allows).
    if (ft_size % esize)
      return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "the filetype must hold a whole number of etypes");
    std::ptrdiff_t end = 0;
    for (const Block& b : *blocks) {
      if (b.length && b.offset < end)
        return FILE_ERROR(f, TMPI_ERR_TYPE, call_name,
                          "the filetype's displacements must be non-negative and increasing");
      if (b.length) end = b.offset + static_cast<std::ptrdiff_t>(b.length);
    }
    if (ft_extent <= 0) return FILE_ERROR(f, TMPI_ERR_TYPE, call_name, "the filetype's extent must be positive");
    if (disp == TMPI_DISPLACEMENT_CURRENT) {
      if (!(f->amode & TMPI_MODE_SEQUENTIAL))
        return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL");
      long long now = 0, zero = 0, run;
      if (int err = fetch_add_shared(f, zero, TMPI_OP_NO_OP, &now)) return err;
      disp = file_offset(f->view, now * f->view.esize, &run);
    }
    if (disp < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "negative displacement %lld", static_cast<long long>(disp));
    return TMPI_SUCCESS;
  };
  // The call is collective: when one rank's arguments are bad, every rank
  // fails, instead of the others waiting for it in the barriers below.
  int err = check();
  int bad = err != TMPI_SUCCESS, any = 0;
  if (int e = TMPI_Allreduce(&bad, &any, 1, TMPI_DT_INT, TMPI_OP_MAX, f->comm)) return e;
  if (err) return err;
  if (any)
    return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "another rank passed invalid arguments to this collective call");
  // Keep duplicates: the program may free its types at once.
  TMPI_Datatype e = etype, ft = filetype;
  if (!em->predefined) TMPI_Type_dup(etype, &e);
  if (!fm->predefined) TMPI_Type_dup(filetype, &ft);
  free_view_types(&f->view);
  describe_view(&f->view, disp, e, ft, esize, ft_size, ft_extent, *blocks);
  f->view.rep = std::move(rep);
  f->pos = 0;
  // Both file pointers go back to 0: once every rank has left its earlier
  // shared accesses behind, rank 0 resets the shared one.
  if (int err = TMPI_Barrier(f->comm)) return err;
  if (f->rank == 0) {
    long long zero = 0, old;
    if (int err = fetch_add_shared(f, zero, TMPI_OP_REPLACE, &old)) return err;
  }
  return TMPI_Barrier(f->comm);
}

// Process-wide storage, registrations per subrank (see DatarepTable).
// Errors go through MPI_FILE_NULL's handler, as for the other file calls
// without a file handle (ROMIO does the same).
int TMPI_Register_datarep(const char* datarep, TMPI_Datarep_conversion_function* read_conversion_fn,
                          TMPI_Datarep_conversion_function* write_conversion_fn,
                          TMPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  const char* call = "MPI_Register_datarep";
  Entered me = enter(call);
  if (!datarep || !*datarep) return NULL_ERROR(me, TMPI_ERR_ARG, call, "empty data representation name");
  if (std::strlen(datarep) >= TMPI_MAX_DATAREP_STRING)
    return NULL_ERROR(me, TMPI_ERR_ARG, call, "the name \"%.40s...\" has %zu characters; MPI_MAX_DATAREP_STRING is %d",
                      datarep, std::strlen(datarep), TMPI_MAX_DATAREP_STRING);
  if (!dtype_file_extent_fn) return NULL_ERROR(me, TMPI_ERR_ARG, call, "null extent function");
  std::string name = datarep;
  if (name == "native" || name == "internal" || name == "external32")
    return NULL_ERROR(me, TMPI_ERR_DUP_DATAREP, call, "\"%s\" is a predefined data representation", datarep);
  Datarep d;
  auto null_fn = [](TMPI_Datarep_conversion_function* fn) { return !fn || fn == TMPI_CONVERSION_FN_NULL; };
  d.read = null_fn(read_conversion_fn) ? nullptr : read_conversion_fn;
  d.write = null_fn(write_conversion_fn) ? nullptr : write_conversion_fn;
  d.extent = dtype_file_extent_fn;
  d.extra = extra_state;
  bool added;
  {
    DatarepTable& t = datareps();
    sync::MutexLock hold(t.lock);
    added = t.reps.emplace(std::make_pair(static_cast<Subrank*>(me), name), d).second;
  }
  if (!added)
    return NULL_ERROR(me, TMPI_ERR_DUP_DATAREP, call, "data representation \"%s\" is registered already", datarep);
  return TMPI_SUCCESS;
}

int TMPI_File_get_view(TMPI_File fh, TMPI_Offset* disp, TMPI_Datatype* etype, TMPI_Datatype* filetype,
                       char* datarep) {
  TMPI_FILE_CALL("MPI_File_get_view", fh);
  *disp = f->view.disp;
  // Derived types come back as new types the program frees.
  TMPI_Datatype* out[2] = {etype, filetype};
  TMPI_Datatype in[2] = {f->view.etype, f->view.filetype};
  for (int i = 0; i < 2; ++i) {
    TypeMapPtr keep;
    const TypeMap* m = find_type(in[i], &keep);
    if (m && !m->predefined)
      TMPI_Type_dup(in[i], out[i]);
    else
      *out[i] = in[i];
  }
  if (datarep) std::strcpy(datarep, f->view.rep.name.c_str());
  return TMPI_SUCCESS;
}

int TMPI_File_get_byte_offset(TMPI_File fh, TMPI_Offset offset, TMPI_Offset* disp) {
  TMPI_FILE_CALL("MPI_File_get_byte_offset", fh);
  if (offset < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "negative offset %lld", static_cast<long long>(offset));
  long long run;
  *disp = file_offset(f->view, offset * f->view.esize, &run);
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- explicit offsets

int TMPI_File_read_at(TMPI_File fh, TMPI_Offset offset, void* buf, int count, TMPI_Datatype type,
                      TMPI_Status* status) {
  return at("MPI_File_read_at", fh, offset, buf, count, type, false, status, nullptr);
}
int TMPI_File_read_at_all(TMPI_File fh, TMPI_Offset offset, void* buf, int count, TMPI_Datatype type,
                          TMPI_Status* status) {
  return at("MPI_File_read_at_all", fh, offset, buf, count, type, false, status, nullptr);
}
int TMPI_File_write_at(TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type,
                       TMPI_Status* status) {
  return at("MPI_File_write_at", fh, offset, buf, count, type, true, status, nullptr);
}
int TMPI_File_write_at_all(TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type,
                           TMPI_Status* status) {
  return at("MPI_File_write_at_all", fh, offset, buf, count, type, true, status, nullptr);
}
int TMPI_File_iread_at(TMPI_File fh, TMPI_Offset offset, void* buf, int count, TMPI_Datatype type,
                       TMPI_Request* request) {
  return at("MPI_File_iread_at", fh, offset, buf, count, type, false, nullptr, request);
}
int TMPI_File_iwrite_at(TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type,
                        TMPI_Request* request) {
  return at("MPI_File_iwrite_at", fh, offset, buf, count, type, true, nullptr, request);
}
int TMPI_File_iread_at_all(TMPI_File fh, TMPI_Offset offset, void* buf, int count, TMPI_Datatype type,
                           TMPI_Request* request) {
  return at("MPI_File_iread_at_all", fh, offset, buf, count, type, false, nullptr, request);
}
int TMPI_File_iwrite_at_all(TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type,
                            TMPI_Request* request) {
  return at("MPI_File_iwrite_at_all", fh, offset, buf, count, type, true, nullptr, request);
}

// ---------------------------------------------------------------- individual file pointers

int TMPI_File_read(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return individual("MPI_File_read", fh, buf, count, type, false, status, nullptr);
}
int TMPI_File_read_all(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return individual("MPI_File_read_all", fh, buf, count, type, false, status, nullptr);
}
int TMPI_File_write(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return individual("MPI_File_write", fh, buf, count, type, true, status, nullptr);
}
int TMPI_File_write_all(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return individual("MPI_File_write_all", fh, buf, count, type, true, status, nullptr);
}
int TMPI_File_iread(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return individual("MPI_File_iread", fh, buf, count, type, false, nullptr, request);
}
int TMPI_File_iwrite(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return individual("MPI_File_iwrite", fh, buf, count, type, true, nullptr, request);
}
int TMPI_File_iread_all(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return individual("MPI_File_iread_all", fh, buf, count, type, false, nullptr, request);
}
int TMPI_File_iwrite_all(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return individual("MPI_File_iwrite_all", fh, buf, count, type, true, nullptr, request);
}

int TMPI_File_seek(TMPI_File fh, TMPI_Offset offset, int whence) {
  TMPI_FILE_CALL("MPI_File_seek", fh);
  if (int err = no_sequential(f, call_name)) return err;
  long long to;
  switch (whence) {
    case TMPI_SEEK_SET: to = offset; break;
    case TMPI_SEEK_CUR: to = f->pos + offset; break;
    case TMPI_SEEK_END: to = view_end(f->view, file_size(f)) + offset; break;
    default: return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "invalid whence %d", whence);
  }
  if (to < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "the position would be negative (%lld)", to);
  f->pos = to;
  return TMPI_SUCCESS;
}

int TMPI_File_get_position(TMPI_File fh, TMPI_Offset* offset) {
  TMPI_FILE_CALL("MPI_File_get_position", fh);
  *offset = f->pos;
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- the shared file pointer

int TMPI_File_read_shared(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return shared("MPI_File_read_shared", fh, buf, count, type, false, status, nullptr);
}
int TMPI_File_write_shared(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return shared("MPI_File_write_shared", fh, buf, count, type, true, status, nullptr);
}
int TMPI_File_iread_shared(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return shared("MPI_File_iread_shared", fh, buf, count, type, false, nullptr, request);
}
int TMPI_File_iwrite_shared(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Request* request) {
  return shared("MPI_File_iwrite_shared", fh, buf, count, type, true, nullptr, request);
}
int TMPI_File_read_ordered(TMPI_File fh, void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return ordered("MPI_File_read_ordered", fh, buf, count, type, false, status);
}
int TMPI_File_write_ordered(TMPI_File fh, const void* buf, int count, TMPI_Datatype type, TMPI_Status* status) {
  return ordered("MPI_File_write_ordered", fh, buf, count, type, true, status);
}

// Collective, with the same arguments everywhere: rank 0 moves the pointer
// once every rank is there, then tells the others.
int TMPI_File_seek_shared(TMPI_File fh, TMPI_Offset offset, int whence) {
  TMPI_FILE_CALL("MPI_File_seek_shared", fh);
  if (whence != TMPI_SEEK_SET && whence != TMPI_SEEK_CUR && whence != TMPI_SEEK_END)
    return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "invalid whence %d", whence);
  if (int err = TMPI_Barrier(f->comm)) return err;
  long long to = 0;
  if (f->rank == 0) {
    long long now = 0, zero = 0, old;
    if (whence == TMPI_SEEK_CUR) fetch_add_shared(f, zero, TMPI_OP_NO_OP, &now);
    if (whence == TMPI_SEEK_END) now = view_end(f->view, file_size(f));
    to = now + offset;
    if (to >= 0) fetch_add_shared(f, to, TMPI_OP_REPLACE, &old);
  }
  if (int err = TMPI_Bcast(&to, 1, TMPI_DT_LONG_LONG_INT, 0, f->comm)) return err;
  if (to < 0) return FILE_ERROR(f, TMPI_ERR_ARG, call_name, "the position would be negative (%lld)", to);
  return TMPI_SUCCESS;
}

int TMPI_File_get_position_shared(TMPI_File fh, TMPI_Offset* offset) {
  TMPI_FILE_CALL("MPI_File_get_position_shared", fh);
  long long now = 0, zero = 0;
  if (int err = fetch_add_shared(f, zero, TMPI_OP_NO_OP, &now)) return err;
  *offset = now;
  return TMPI_SUCCESS;
}

// ---------------------------------------------------------------- split collectives
// The data moves in the begin call; the end call gives its status.

int TMPI_File_read_at_all_begin(TMPI_File fh, TMPI_Offset offset, void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_read_at_all_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = at(call_name, fh, offset, buf, count, type, false, &st, nullptr);
  return begin_split(f, Split::ReadAtAll, err, st.tmpi_bytes);
}
int TMPI_File_read_at_all_end(TMPI_File fh, void*, TMPI_Status* status) {
  return end_split("MPI_File_read_at_all_end", fh, Split::ReadAtAll, status);
}
int TMPI_File_write_at_all_begin(TMPI_File fh, TMPI_Offset offset, const void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_write_at_all_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = at(call_name, fh, offset, buf, count, type, true, &st, nullptr);
  return begin_split(f, Split::WriteAtAll, err, st.tmpi_bytes);
}
int TMPI_File_write_at_all_end(TMPI_File fh, const void*, TMPI_Status* status) {
  return end_split("MPI_File_write_at_all_end", fh, Split::WriteAtAll, status);
}
int TMPI_File_read_all_begin(TMPI_File fh, void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_read_all_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = individual(call_name, fh, buf, count, type, false, &st, nullptr);
  return begin_split(f, Split::ReadAll, err, st.tmpi_bytes);
}
int TMPI_File_read_all_end(TMPI_File fh, void*, TMPI_Status* status) {
  return end_split("MPI_File_read_all_end", fh, Split::ReadAll, status);
}
int TMPI_File_write_all_begin(TMPI_File fh, const void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_write_all_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = individual(call_name, fh, buf, count, type, true, &st, nullptr);
  return begin_split(f, Split::WriteAll, err, st.tmpi_bytes);
}
int TMPI_File_write_all_end(TMPI_File fh, const void*, TMPI_Status* status) {
  return end_split("MPI_File_write_all_end", fh, Split::WriteAll, status);
}
int TMPI_File_read_ordered_begin(TMPI_File fh, void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_read_ordered_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = ordered(call_name, fh, buf, count, type, false, &st);
  return begin_split(f, Split::ReadOrdered, err, st.tmpi_bytes);
}
int TMPI_File_read_ordered_end(TMPI_File fh, void*, TMPI_Status* status) {
  return end_split("MPI_File_read_ordered_end", fh, Split::ReadOrdered, status);
}
int TMPI_File_write_ordered_begin(TMPI_File fh, const void* buf, int count, TMPI_Datatype type) {
  TMPI_FILE_CALL("MPI_File_write_ordered_begin", fh);
  if (int err = check_no_split(f, call_name)) return err;
  TMPI_Status st;
  int err = ordered(call_name, fh, buf, count, type, true, &st);
  return begin_split(f, Split::WriteOrdered, err, st.tmpi_bytes);
}
int TMPI_File_write_ordered_end(TMPI_File fh, const void*, TMPI_Status* status) {
  return end_split("MPI_File_write_ordered_end", fh, Split::WriteOrdered, status);
}

}  // extern "C"
