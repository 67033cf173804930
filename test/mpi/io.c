/*
 * io -- MPI-IO (MPI-3.1 ch. 13), self-checking, any size.
 *
 *  1. Errors under MPI_ERRORS_RETURN (the default of files and of
 *     MPI_FILE_NULL): a missing file without MPI_MODE_CREATE
 *     (MPI_ERR_NO_SUCH_FILE), bad access modes (MPI_ERR_AMODE), MPI_MODE_EXCL
 *     on an existing file, MPI_File_delete of a missing file.
 *  2. Explicit offsets: every rank writes its block with
 *     MPI_File_write_at_all and reads back its right neighbour's; the
 *     non-blocking forms (statuses count with MPI_Get_count); zero-count
 *     accesses; a read past the end; MPI_File_get_size/set_size/preallocate;
 *     amode, group, info, atomicity; the file reopened on MPI_COMM_SELF.
 *  3. A view with a vector filetype (interleaved blocks per rank, resized
 *     so that it tiles), read back through the default view and through the
 *     view into a strided memory type; MPI_File_get_view,
 *     MPI_File_get_byte_offset, MPI_File_get_type_extent.
 *  4. Individual file pointers: seek (SET, CUR, END), get_position, the
 *     non-blocking and split collective forms.
 *  5. The shared file pointer: MPI_File_write_ordered (rank order),
 *     MPI_File_write_shared and MPI_File_iwrite_shared (every record present
 *     once), read_ordered, read_shared, seek_shared, the ordered split
 *     collectives; MPI_MODE_APPEND starts both pointers at the end.
 *  6. MPI_MODE_DELETE_ON_CLOSE.
 *  7. A view whose filetype holds no data at the odd ranks: collective
 *     writes, file pointers (individual and shared); under Tucana, an
 *     access through it is MPI_ERR_ARG, and a bad filetype at one rank
 *     fails MPI_File_set_view at every rank instead of hanging the others.
 * The files are named after the process id of rank 0 (tests run in
 * parallel) in the current directory and deleted at the end.
 * Prints "OK io" on rank 0.
 */
#define TESTNAME "io"
#include "mpitest.h"
#include <unistd.h>

#define N 16       /* ints per rank in the block tests */
#define NB 3       /* blocks per rank per filetype tile */
#define B 2        /* ints per block */

static void file_name(char *name, size_t n, long pid, const char *what)
{
    snprintf(name, n, "io_test_%ld_%s.dat", pid, what);
}

static int error_class(int err)
{
    int cls = -1;
    MPI_Error_class(err, &cls);
    return cls;
}

/* What one rank wrote is seen by another after sync-barrier-sync. */
static void settle(MPI_File fh)
{
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
}

static int count_of(MPI_Status *st, MPI_Datatype type)
{
    int n = -1;
    MPI_Get_count(st, type, &n);
    return n;
}

static void errors(long pid)
{
    char name[256];
    file_name(name, sizeof name, pid, "missing");
    MPI_Errhandler eh;
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    CHECK_TRUE(eh == MPI_ERRORS_RETURN, "MPI_FILE_NULL's error handler is MPI_ERRORS_RETURN");
    MPI_File fh = MPI_FILE_NULL;
    int err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_NO_SUCH_FILE, error_class(err), "open of a missing file without MPI_MODE_CREATE");
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_AMODE, error_class(err), "two access modes");
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_AMODE, error_class(err), "no access mode");
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_AMODE, error_class(err), "MPI_MODE_RDONLY with MPI_MODE_CREATE");
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_AMODE, error_class(err), "MPI_MODE_RDONLY with MPI_MODE_EXCL");

    /* create it, then MPI_MODE_EXCL fails */
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    CHECK(MPI_SUCCESS, err, "create");
    MPI_File_get_errhandler(fh, &eh);
    CHECK_TRUE(eh == MPI_ERRORS_RETURN, "a file's default error handler is MPI_ERRORS_RETURN");
    MPI_File_close(&fh);
    CHECK_TRUE(fh == MPI_FILE_NULL, "MPI_File_close sets MPI_FILE_NULL");
    MPI_File fx = MPI_FILE_NULL;
    err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fx);
    CHECK(MPI_ERR_FILE_EXISTS, error_class(err), "MPI_MODE_EXCL on an existing file");
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        CHECK(MPI_SUCCESS, MPI_File_delete(name, MPI_INFO_NULL), "delete");
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        CHECK(MPI_ERR_NO_SUCH_FILE, error_class(MPI_File_delete(name, MPI_INFO_NULL)), "delete of a missing file");
}

static void explicit_offsets(long pid, int rank, int size)
{
    char name[256];
    file_name(name, sizeof name, pid, "blocks");
    MPI_File fh;
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    int amode = 0;
    MPI_File_get_amode(fh, &amode);
    CHECK(MPI_MODE_CREATE | MPI_MODE_RDWR, amode, "MPI_File_get_amode");
    MPI_Group fg, wg;
    int cmp = -1;
    MPI_File_get_group(fh, &fg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(fg, wg, &cmp);
    CHECK(MPI_IDENT, cmp, "the file's group is the communicator's");
    MPI_Group_free(&fg);
    MPI_Group_free(&wg);
    MPI_Info info;
    CHECK(MPI_SUCCESS, MPI_File_get_info(fh, &info), "MPI_File_get_info");
    MPI_Info_free(&info);
    MPI_File_set_size(fh, 0);

    int mine[N], got[N];
    for (int i = 0; i < N; i++)
        mine[i] = rank * 1000 + i;
    MPI_Offset blk = (MPI_Offset)N * sizeof(int);
    MPI_Status st;
    CHECK(MPI_SUCCESS, MPI_File_write_at_all(fh, rank * blk, mine, N, MPI_INT, &st), "write_at_all");
    CHECK(N, count_of(&st, MPI_INT), "write_at_all status count");
    settle(fh);
    int right = (rank + 1) % size;
    for (int i = 0; i < N; i++)
        got[i] = -1;
    CHECK(MPI_SUCCESS, MPI_File_read_at_all(fh, right * blk, got, N, MPI_INT, &st), "read_at_all");
    CHECK(N, count_of(&st, MPI_INT), "read_at_all status count");
    for (int i = 0; i < N; i++)
        CHECK(right * 1000 + i, got[i], "the right neighbour's block, element %d", i);
    MPI_Offset fsize = -1;
    MPI_File_get_size(fh, &fsize);
    CHECK(size * blk, fsize, "MPI_File_get_size");

    /* zero counts, and a read at the end of the file */
    CHECK(MPI_SUCCESS, MPI_File_write_at(fh, rank * blk, mine, 0, MPI_INT, &st), "zero-count write");
    CHECK(0, count_of(&st, MPI_INT), "zero-count write status");
    CHECK(MPI_SUCCESS, MPI_File_read_at(fh, 0, got, 0, MPI_INT, &st), "zero-count read");
    CHECK(0, count_of(&st, MPI_INT), "zero-count read status");
    CHECK(MPI_SUCCESS, MPI_File_read_at(fh, size * blk, got, N, MPI_INT, &st), "read at the end");
    CHECK(0, count_of(&st, MPI_INT), "a read at the end reads nothing");
    CHECK(MPI_SUCCESS, MPI_File_read_at(fh, size * blk - 2 * (MPI_Offset)sizeof(int), got, N, MPI_INT, &st),
          "read across the end");
    CHECK(2, count_of(&st, MPI_INT), "a read across the end reads what is there");
    settle(fh);

    /* non-blocking: a second region after the blocks */
    MPI_Request reqs[2];
    for (int i = 0; i < N; i++)
        mine[i] = -(rank * 1000 + i);
    MPI_Offset second = size * blk;
    CHECK(MPI_SUCCESS, MPI_File_iwrite_at(fh, second + rank * blk, mine, N / 2, MPI_INT, &reqs[0]), "iwrite_at");
    CHECK(MPI_SUCCESS, MPI_File_iwrite_at_all(fh, second + rank * blk + blk / 2, mine + N / 2, N / 2, MPI_INT,
                                              &reqs[1]), "iwrite_at_all");
    MPI_Status sts[2];
    MPI_Waitall(2, reqs, sts);
    CHECK(N / 2, count_of(&sts[0], MPI_INT), "iwrite_at status count");
    CHECK(N / 2, count_of(&sts[1], MPI_INT), "iwrite_at_all status count");
    settle(fh);
    int left = (rank + size - 1) % size;
    for (int i = 0; i < N; i++)
        got[i] = 0;
    CHECK(MPI_SUCCESS, MPI_File_iread_at(fh, second + left * blk, got, N / 2, MPI_INT, &reqs[0]), "iread_at");
    int flag = 0;
    while (!flag)
        MPI_Test(&reqs[0], &flag, &st);
    CHECK(N / 2, count_of(&st, MPI_INT), "iread_at status count");
    CHECK(MPI_SUCCESS, MPI_File_iread_at_all(fh, second + left * blk + blk / 2, got + N / 2, N / 2, MPI_INT,
                                             &reqs[1]), "iread_at_all");
    MPI_Wait(&reqs[1], &st);
    CHECK(N / 2, count_of(&st, MPI_INT), "iread_at_all status count");
    for (int i = 0; i < N; i++)
        CHECK(-(left * 1000 + i), got[i], "non-blocking: the left neighbour's element %d", i);

    /* sizes (the barriers keep every rank's accesses before each resize) */
    MPI_File_get_size(fh, &fsize);
    CHECK(2 * size * blk, fsize, "size after the second region");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS, MPI_File_set_size(fh, size * blk), "MPI_File_set_size");
    MPI_File_get_size(fh, &fsize);
    CHECK(size * blk, fsize, "MPI_File_set_size truncates");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS, MPI_File_set_size(fh, 3 * size * blk), "MPI_File_set_size");
    MPI_File_get_size(fh, &fsize);
    CHECK(3 * size * blk, fsize, "MPI_File_set_size extends");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS, MPI_File_preallocate(fh, size * blk), "MPI_File_preallocate");
    MPI_File_get_size(fh, &fsize);
    CHECK(3 * size * blk, fsize, "MPI_File_preallocate never shrinks");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_set_size(fh, size * blk);

    /* atomic mode */
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &flag);
    CHECK(1, flag, "MPI_File_get_atomicity");
    CHECK(MPI_SUCCESS, MPI_File_write_at(fh, rank * blk, mine, 1, MPI_INT, &st), "atomic write");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS, MPI_File_read_at(fh, right * blk, got, 1, MPI_INT, &st), "atomic read");
    CHECK(-(right * 1000), got[0], "atomic mode: visible after a barrier");
    MPI_File_set_atomicity(fh, 0);
    MPI_File_close(&fh);

    /* every rank alone, on MPI_COMM_SELF */
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), "open on self");
    CHECK(MPI_SUCCESS, MPI_File_read_at(fh, 0, got, N, MPI_INT, &st), "read on self");
    CHECK(-0, got[0], "rank 0's first element");
    for (int i = 1; i < N; i++)
        CHECK(i, got[i], "rank 0's element %d", i);
    int err = MPI_File_write_at(fh, 0, got, 1, MPI_INT, &st);
    CHECK_TRUE(err != MPI_SUCCESS, "a write to a read-only file fails");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

/* Interleaved blocks: rank r owns blocks r, r + size, r + 2 size, ... of B ints. */
static void vector_view(long pid, int rank, int size)
{
    char name[256];
    file_name(name, sizeof name, pid, "view");
    MPI_File fh;
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    MPI_File_set_size(fh, 0);
    MPI_Datatype vec, filetype;
    MPI_Type_vector(NB, B, B * size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)NB * B * size * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_free(&vec);
    MPI_Offset disp = (MPI_Offset)rank * B * sizeof(int);
    CHECK(MPI_SUCCESS, MPI_File_set_view(fh, disp, MPI_INT, filetype, "native", MPI_INFO_NULL), "set_view");
    MPI_Type_free(&filetype); /* the view keeps its own */

    int mine[2 * NB * B], all_n = 2 * NB * B * size;
    for (int i = 0; i < 2 * NB * B; i++)
        mine[i] = rank * 10000 + i;
    MPI_Status st;
    /* two calls: the second continues in the filetype's next tile */
    CHECK(MPI_SUCCESS, MPI_File_write_all(fh, mine, NB * B, MPI_INT, &st), "write_all through the view");
    CHECK(NB * B, count_of(&st, MPI_INT), "write_all status count");
    CHECK(MPI_SUCCESS, MPI_File_write_all(fh, mine + NB * B, NB * B, MPI_INT, &st), "second write_all");
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    CHECK(2 * NB * B, pos, "the individual pointer counts etypes");
    MPI_Offset byte = -1;
    MPI_File_get_byte_offset(fh, B, &byte);
    CHECK(disp + (MPI_Offset)B * size * sizeof(int), byte, "byte offset of the second block");
    MPI_File_get_byte_offset(fh, NB * B, &byte);
    CHECK(disp + (MPI_Offset)NB * B * size * sizeof(int), byte, "byte offset of the second tile");
    MPI_Aint ext = 0;
    MPI_File_get_type_extent(fh, MPI_INT, &ext);
    CHECK(sizeof(int), ext, "MPI_File_get_type_extent");

    MPI_Offset gdisp = -1;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &gdisp, &et, &ft, rep);
    CHECK(disp, gdisp, "get_view displacement");
    CHECK_TRUE(et == MPI_INT, "get_view etype");
    CHECK(0, strcmp(rep, "native"), "get_view representation");
    MPI_Aint lb, ftext;
    MPI_Type_get_extent(ft, &lb, &ftext);
    CHECK((MPI_Aint)NB * B * size * sizeof(int), ftext, "get_view filetype extent");
    MPI_Type_free(&ft);
    settle(fh);

    /* the whole file through the default view */
    CHECK(MPI_SUCCESS, MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "default view");
    int *all = xmalloc(sizeof(int) * all_n);
    CHECK(MPI_SUCCESS, MPI_File_read_at_all(fh, 0, all, all_n, MPI_INT, &st), "read the whole file");
    CHECK(all_n, count_of(&st, MPI_INT), "whole file count");
    for (int p = 0; p < all_n; p++) {
        int blk = p / B, owner = blk % size, round = blk / size;
        CHECK(owner * 10000 + round * B + p % B, all[p], "interleaved file, int %d", p);
    }
    free(all);

    /* back through the view, into every other int of memory */
    MPI_Type_vector(NB, B, B * size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)NB * B * size * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_free(&vec);
    MPI_File_set_view(fh, disp, MPI_INT, filetype, "native", MPI_INFO_NULL);
    MPI_Type_free(&filetype);
    MPI_Datatype strided;
    MPI_Type_vector(2 * NB * B, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int back[4 * NB * B];
    for (int i = 0; i < 4 * NB * B; i++)
        back[i] = -7;
    CHECK(MPI_SUCCESS, MPI_File_read_all(fh, back, 1, strided, &st), "read_all into a strided type");
    CHECK(1, count_of(&st, strided), "one strided element");
    for (int i = 0; i < 2 * NB * B; i++) {
        CHECK(rank * 10000 + i, back[2 * i], "through the view, int %d", i);
        CHECK(-7, back[2 * i + 1], "the gaps in memory stay, int %d", i);
    }
    MPI_Type_free(&strided);

    int err = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "no-such-representation", MPI_INFO_NULL);
    CHECK(MPI_ERR_UNSUPPORTED_DATAREP, error_class(err), "an unknown data representation");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

static void pointers(long pid, int rank, int size)
{
    char name[256];
    file_name(name, sizeof name, pid, "pointers");
    MPI_File fh;
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    MPI_File_set_size(fh, 0);
    const MPI_Offset reg = 8 * N * sizeof(int); /* each rank's region, bytes */
    int v[N], got[N];
    for (int i = 0; i < N; i++)
        v[i] = rank * 100 + i;
    MPI_Status st;
    MPI_Offset pos = -1;
    MPI_File_seek(fh, rank * reg, MPI_SEEK_SET);
    MPI_File_write(fh, v, 4, MPI_INT, &st);
    CHECK(4, count_of(&st, MPI_INT), "write status");
    MPI_File_get_position(fh, &pos);
    CHECK(rank * reg + 16, pos, "position after a write");
    MPI_File_seek(fh, -8, MPI_SEEK_CUR);
    MPI_File_get_position(fh, &pos);
    CHECK(rank * reg + 8, pos, "MPI_SEEK_CUR backwards");
    MPI_File_write(fh, v + 10, 2, MPI_INT, &st); /* overwrites v[2], v[3] */
    MPI_Request req;
    MPI_File_iwrite(fh, v + 4, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(2, count_of(&st, MPI_INT), "iwrite status");
    MPI_File_iwrite_all(fh, v + 6, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_File_write_all(fh, v + 8, 2, MPI_INT, &st);
    MPI_File_write_all_begin(fh, v + 12, 2, MPI_INT);
    MPI_File_write_all_end(fh, v + 12, &st);
    CHECK(2, count_of(&st, MPI_INT), "write_all_end status");
    MPI_File_write_at_all_begin(fh, rank * reg + 48, v + 14, 2, MPI_INT);
    MPI_File_write_at_all_end(fh, v + 14, &st);
    CHECK(2, count_of(&st, MPI_INT), "write_at_all_end status");
    MPI_File_get_position(fh, &pos);
    CHECK(rank * reg + 48, pos, "explicit offsets leave the pointer alone");
    settle(fh);

    int want[12] = {0, 1, 10, 11, 4, 5, 6, 7, 8, 9, 12, 13};
    int left = (rank + size - 1) % size;
    MPI_File_seek(fh, left * reg, MPI_SEEK_SET);
    MPI_File_read(fh, got, 4, MPI_INT, &st);
    MPI_File_iread(fh, got + 4, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(2, count_of(&st, MPI_INT), "iread status");
    MPI_File_iread_all(fh, got + 6, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_File_read_all(fh, got + 8, 2, MPI_INT, &st);
    MPI_File_read_all_begin(fh, got + 10, 2, MPI_INT);
    MPI_File_read_all_end(fh, got + 10, &st);
    CHECK(2, count_of(&st, MPI_INT), "read_all_end status");
    MPI_File_read_at_all_begin(fh, left * reg + 48, got + 12, 2, MPI_INT);
    MPI_File_read_at_all_end(fh, got + 12, &st);
    CHECK(2, count_of(&st, MPI_INT), "read_at_all_end status");
    for (int i = 0; i < 12; i++)
        CHECK(left * 100 + want[i], got[i], "the left neighbour's region, int %d", i);
    CHECK(left * 100 + 14, got[12], "write_at_all_begin's data");

    MPI_Offset fsize;
    MPI_File_get_size(fh, &fsize);
    MPI_File_seek(fh, 0, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    CHECK(fsize, pos, "MPI_SEEK_END");
    CHECK((size - 1) * reg + 56, fsize, "size: the last rank's region");
    MPI_File_seek(fh, -4, MPI_SEEK_END);
    MPI_File_read(fh, got, 1, MPI_INT, &st);
    CHECK((size - 1) * 100 + 15, got[0], "the last int, found from the end");
    int err = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    CHECK_TRUE(err != MPI_SUCCESS, "a negative position is an error");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

static void shared_pointer(long pid, int rank, int size)
{
    char name[256];
    file_name(name, sizeof name, pid, "shared");
    MPI_File fh;
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    MPI_File_set_size(fh, 0);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    /* ordered: rank r writes r + 1 copies of r */
    int v[64], got[64];
    for (int i = 0; i < rank + 1; i++)
        v[i] = rank;
    MPI_Status st;
    CHECK(MPI_SUCCESS, MPI_File_write_ordered(fh, v, rank + 1, MPI_INT, &st), "write_ordered");
    CHECK(rank + 1, count_of(&st, MPI_INT), "write_ordered status count");
    int tri = size * (size + 1) / 2;
    MPI_Offset pos = -1;
#ifdef TUCANA /* MPICH 4.0's ROMIO leaves it one rank's count further */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(tri, pos, "the shared pointer after write_ordered");
#endif
    MPI_File_seek_shared(fh, tri, MPI_SEEK_SET);
    /* the split form: one more round, the other way round (size - r copies) */
    for (int i = 0; i < size - rank; i++)
        v[i] = 100 + rank;
    MPI_File_write_ordered_begin(fh, v, size - rank, MPI_INT);
    MPI_File_write_ordered_end(fh, v, &st);
    CHECK(size - rank, count_of(&st, MPI_INT), "write_ordered_end status count");
    settle(fh);
    if (rank == 0) {
        int *all = xmalloc(sizeof(int) * 2 * tri);
        MPI_File_read_at(fh, 0, all, 2 * tri, MPI_INT, &st);
        CHECK(2 * tri, count_of(&st, MPI_INT), "the ordered part");
        int p = 0;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < r + 1; i++, p++)
                CHECK(r, all[p], "write_ordered: rank order, int %d", p);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < size - r; i++, p++)
                CHECK(100 + r, all[p], "write_ordered_begin: rank order, int %d", p);
        free(all);
    }
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    CHECK(MPI_SUCCESS, MPI_File_read_ordered(fh, got, rank + 1, MPI_INT, &st), "read_ordered");
    CHECK(rank + 1, count_of(&st, MPI_INT), "read_ordered status count");
    for (int i = 0; i < rank + 1; i++)
        CHECK(rank, got[i], "read_ordered int %d", i);
    MPI_File_read_ordered_begin(fh, got, size - rank, MPI_INT);
    MPI_File_read_ordered_end(fh, got, &st);
    for (int i = 0; i < size - rank; i++)
        CHECK(100 + rank, got[i], "read_ordered_begin int %d", i);

    /* write_shared: records (rank, k) appended in any order, each once */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_END);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(2 * tri, pos, "MPI_SEEK_END of the shared pointer");
    MPI_Barrier(MPI_COMM_WORLD); /* before anyone moves it */
    const int per = 4;
    for (int k = 0; k < per - 1; k++) {
        int rec[2] = {rank, k};
        CHECK(MPI_SUCCESS, MPI_File_write_shared(fh, rec, 2, MPI_INT, &st), "write_shared");
        CHECK(2, count_of(&st, MPI_INT), "write_shared status count");
    }
    int rec[2] = {rank, per - 1};
    MPI_Request req;
    MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(2, count_of(&st, MPI_INT), "iwrite_shared status count");
    settle(fh);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(2 * tri + 2 * per * size, pos, "the shared pointer after the records");
    if (rank == 0) {
        int n = per * size;
        int *recs = xmalloc(sizeof(int) * 2 * n), *seen = xmalloc(sizeof(int) * n);
        memset(seen, 0, sizeof(int) * n);
        MPI_File_read_at(fh, 2 * tri, recs, 2 * n, MPI_INT, &st);
        CHECK(2 * n, count_of(&st, MPI_INT), "all records");
        for (int i = 0; i < n; i++) {
            int r = recs[2 * i], k = recs[2 * i + 1];
            CHECK_TRUE(r >= 0 && r < size && k >= 0 && k < per, "record %d is valid", i);
            seen[r * per + k]++;
        }
        for (int i = 0; i < n; i++)
            CHECK(1, seen[i], "record (%d, %d) present once", i / per, i % per);
        free(recs);
        free(seen);
    }
    /* read_shared: every rank gets distinct records */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_seek_shared(fh, 2 * tri, MPI_SEEK_SET);
    int one[2] = {-1, -1};
    MPI_File_read_shared(fh, one, 2, MPI_INT, &st);
    CHECK(2, count_of(&st, MPI_INT), "read_shared status count");
    MPI_File_iread_shared(fh, got, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(2, count_of(&st, MPI_INT), "iread_shared status count");
    int ids[2] = {one[0] * per + one[1], got[0] * per + got[1]};
    int *every = xmalloc(sizeof(int) * 2 * size);
    MPI_Allgather(ids, 2, MPI_INT, every, 2, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < 2 * size; i++) {
        CHECK_TRUE(every[i] >= 0 && every[i] < per * size, "read_shared: a valid record (%d)", every[i]);
        for (int j = 0; j < i; j++)
            CHECK_TRUE(every[i] != every[j], "read_shared hands out distinct records (%d)", every[i]);
    }
    free(every);
    MPI_File_close(&fh);

    /* MPI_MODE_APPEND: both pointers start at the end */
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh),
          "open to append");
    MPI_Offset fsize = -1;
    MPI_File_get_size(fh, &fsize);
    MPI_File_get_position(fh, &pos);
    CHECK(fsize, pos, "MPI_MODE_APPEND: the individual pointer");
    MPI_File_get_position_shared(fh, &pos);
    CHECK(fsize, pos, "MPI_MODE_APPEND: the shared pointer");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

static void delete_on_close(long pid, int rank)
{
    char name[256];
    file_name(name, sizeof name, pid, "scratch");
    MPI_File fh;
    CHECK(MPI_SUCCESS,
          MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh), "open");
    MPI_Status st;
    MPI_File_write_at(fh, rank * (MPI_Offset)sizeof(int), &rank, 1, MPI_INT, &st);
    settle(fh);
    int got = -1;
    MPI_File_read_at(fh, 0, &got, 1, MPI_INT, &st);
    CHECK(0, got, "rank 0's int");
    CHECK(MPI_SUCCESS, MPI_File_close(&fh), "close");
    MPI_Barrier(MPI_COMM_WORLD);
    int err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(MPI_ERR_NO_SUCH_FILE, error_class(err), "the file is gone after close");
}

/* A view whose filetype holds no data at the odd ranks (an indexed type of
 * no blocks, resized to tile): collective writes where those ranks write
 * nothing, file pointers, the shared one (MPICH's setview_zero); a
 * non-empty access through the empty view is an error. Under Tucana also:
 * a bad filetype at one rank fails MPI_File_set_view at every rank. */
static void empty_view(long pid, int rank, int size)
{
    char name[256];
    int i, buf[2] = {10 * rank, 10 * rank + 1}, disp[2], n = rank % 2 ? 0 : 2, evens = (size + 1) / 2;
    MPI_Datatype indexed, filetype;
    MPI_File fh;
    MPI_Offset pos = -1, shared = -1;
    file_name(name, sizeof name, pid, "empty_view");
    CHECK(MPI_SUCCESS, MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    /* the even ranks' ints interleave, two per even rank per tile */
    disp[0] = rank / 2;
    disp[1] = evens + rank / 2;
    MPI_Type_create_indexed_block(n, 1, disp, MPI_INT, &indexed);
    MPI_Type_create_resized(indexed, 0, 2 * evens * (MPI_Aint)sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    CHECK(MPI_SUCCESS, MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL),
          "MPI_File_set_view with %s filetype", n ? "a" : "an empty");
    for (i = 0; i < 2; i++) {
        CHECK(MPI_SUCCESS, MPI_File_write_all(fh, buf, n, MPI_INT, MPI_STATUS_IGNORE), "MPI_File_write_all %d", i);
        MPI_File_get_position(fh, &pos);
        CHECK(n * (i + 1), pos, "individual file pointer after write %d", i);
        MPI_File_get_position_shared(fh, &shared);
        CHECK(0, shared, "shared file pointer after write %d", i);
    }
#ifdef TUCANA
    /* (ROMIO returns MPI_SUCCESS and writes nothing) */
    if (n == 0)
        CHECK(MPI_ERR_ARG, error_class(MPI_File_write(fh, buf, 1, MPI_INT, MPI_STATUS_IGNORE)),
              "writing an int through a view that holds no data");
    {
        MPI_Datatype bad;
        int e;
        MPI_Type_contiguous(3, MPI_CHAR, &bad); /* not a whole number of ints */
        MPI_Type_commit(&bad);
        e = MPI_File_set_view(fh, 0, MPI_INT, rank == size - 1 ? bad : MPI_INT, "native", MPI_INFO_NULL);
        CHECK_TRUE(e != MPI_SUCCESS, "MPI_File_set_view fails at every rank when one rank's filetype is bad");
        MPI_Type_free(&bad);
    }
#endif
    CHECK(MPI_SUCCESS, MPI_File_close(&fh), "close");
    MPI_Barrier(MPI_COMM_WORLD);
    /* what the file holds: per tile, each even rank's first int, then each one's second */
    if (rank == 0) {
        int got[64], k;
        MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        MPI_File_read_at(fh, 0, got, 4 * evens, MPI_INT, MPI_STATUS_IGNORE);
        for (k = 0; k < 2 * evens; k++) {
            int tile = k / evens, r = 2 * (k % evens);
            CHECK(10 * r, got[2 * evens * tile + k % evens], "tile %d: even rank %d's first int", tile, r);
            CHECK(10 * r + 1, got[2 * evens * tile + evens + k % evens], "tile %d: even rank %d's second int", tile, r);
        }
        MPI_File_close(&fh);
        MPI_File_delete(name, MPI_INFO_NULL);
    }
    MPI_Type_free(&filetype);
    MPI_Type_free(&indexed);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    errors(pid);
    explicit_offsets(pid, rank, size);
    vector_view(pid, rank, size);
    pointers(pid, rank, size);
    shared_pointer(pid, rank, size);
    delete_on_close(pid, rank);
    empty_view(pid, rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK io\n");
    MPI_Finalize();
    return 0;
}
