/*
 * attributes -- user attributes, error handlers, error classes, matched
 * probes and the datatype calls old and new codes make (MPI-3.1 6.7, 8.3-8.5,
 * 3.8.2, 4.1, and the MPI-1 calls removed in 3.0), self-checking, any size.
 *
 *  1. Communicator keyvals: MPI_Comm_dup runs the copy callbacks (a copy
 *     function that copies, MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN);
 *     MPI_Comm_free and MPI_Comm_delete_attr run the delete callbacks; a
 *     value set twice runs the delete callback of the old one; MPI_Attr_put/
 *     get and MPI_Keyval_create (MPI-1) work the same way.
 *  2. Datatype keyvals (copied by MPI_Type_dup, deleted by MPI_Type_free)
 *     and window keyvals. A copy callback that fails fails MPI_Comm_dup /
 *     MPI_Type_dup (its error class, MPI_COMM_NULL / MPI_DATATYPE_NULL, the
 *     attributes copied before it deleted); a delete callback that fails
 *     fails MPI_Comm_set_attr and MPI_Comm_delete_attr, the value kept.
 *  3. A user error handler on a communicator and on a window is called
 *     with the object and the error code; MPI_Comm_call_errhandler;
 *     MPI_Errhandler_create/set (MPI-1); MPI_Comm_dup keeps the handler;
 *     a file handler on MPI_FILE_NULL sees a failed MPI_File_open.
 *  4. MPI_Add_error_class/code/string: classes above MPI_ERR_LASTCODE,
 *     MPI_Error_class and MPI_Error_string of the new codes,
 *     MPI_LASTUSEDCODE.
 *  5. Matched probes: MPI_Mprobe/MPI_Mrecv and MPI_Improbe/MPI_Imrecv take
 *     the probed message (a later receive with the same envelope gets the
 *     next one), MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC.
 *  6. Generalized requests: pending until MPI_Grequest_complete; the query
 *     callback makes the status, the free callback runs once.
 *  7. MPI_Address, MPI_Type_extent/lb/ub, MPI_Type_struct/hvector/hindexed,
 *     MPI_Type_create_hindexed_block, MPI_Type_match_size, MPI_Type_set/
 *     get_name, MPI_Type_size_x/get_extent_x, MPI_Get_elements_x; counts
 *     beyond an int (a 2400 MiB type, 3e9 elements in a status; the int
 *     calls give MPI_UNDEFINED).
 * Prints "OK attributes" on rank 0.
 */
#include <limits.h>
#define TESTNAME "attributes"
#include "mpitest.h"

struct counts {
    int copies, deletes;
};

static int copy_plus_one(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval;
    ((struct counts *)extra)->copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value;
    ((struct counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval;
    ((struct counts *)extra)->copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)keyval, (void)value;
    ((struct counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)value;
    ((struct counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

/* Error handlers get no state of their own: they record what they saw
 * per world rank (the ranks of a process share globals, not their slots). */
#define MAX_RANKS 256
static int comm_handler_code[MAX_RANKS], win_handler_code[MAX_RANKS], file_handler_code[MAX_RANKS];

static void file_handler(MPI_File *file, int *code, ...)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    (void)file;
    file_handler_code[rank % MAX_RANKS] = *code;
}

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    (void)comm;
    comm_handler_code[rank % MAX_RANKS] = *code;
}

static void win_handler(MPI_Win *win, int *code, ...)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    (void)win;
    win_handler_code[rank % MAX_RANKS] = *code;
}

static void keyvals(void)
{
    struct counts c = {0, 0}, d = {0, 0};
    int copied, dupped, dropped, flag;
    MPI_Comm_create_keyval(copy_plus_one, count_delete, &copied, &c);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupped, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &dropped, &d);
    char base[8];
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, copied, base);
    MPI_Comm_set_attr(a, dupped, base + 4);
    MPI_Comm_set_attr(a, dropped, base);
    MPI_Comm_set_attr(a, dropped, base + 2); /* replaces: the old value is deleted */
    CHECK(1, d.deletes, "replacing a value deletes the old one");
    MPI_Comm_dup(a, &b);
    CHECK(1, c.copies, "MPI_Comm_dup ran the copy callback");
    void *v = NULL;
    MPI_Comm_get_attr(b, copied, &v, &flag);
    CHECK_TRUE(flag && v == base + 1, "the copy callback's value");
    MPI_Comm_get_attr(b, dupped, &v, &flag);
    CHECK_TRUE(flag && v == base + 4, "MPI_COMM_DUP_FN copies the value");
    MPI_Comm_get_attr(b, dropped, &v, &flag);
    CHECK(0, flag, "MPI_COMM_NULL_COPY_FN does not copy");
    MPI_Comm_delete_attr(b, copied);
    CHECK(1, c.deletes, "MPI_Comm_delete_attr runs the delete callback");
    MPI_Comm_get_attr(b, copied, &v, &flag);
    CHECK(0, flag, "a deleted attribute is gone");
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    CHECK(2, c.deletes, "MPI_Comm_free deletes the attributes");
    CHECK(2, d.deletes, "MPI_Comm_free deletes every attribute");
    MPI_Comm_free_keyval(&copied);
    CHECK(MPI_KEYVAL_INVALID, copied, "MPI_Comm_free_keyval");
    MPI_Comm_free_keyval(&dupped);
    MPI_Comm_free_keyval(&dropped);

    /* the MPI-1 names */
    struct counts old = {0, 0};
    int key;
    MPI_Keyval_create(MPI_NULL_COPY_FN, count_delete, &key, &old);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Attr_put(a, key, base + 3);
    MPI_Attr_get(a, key, &v, &flag);
    CHECK_TRUE(flag && v == base + 3, "MPI_Attr_get");
    MPI_Attr_delete(a, key);
    CHECK(1, old.deletes, "MPI_Attr_delete");
    MPI_Comm_free(&a);
    MPI_Keyval_free(&key);
    int *tag_ub;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    CHECK_TRUE(flag && *tag_ub >= 32767, "predefined attributes still work");

    /* datatypes and windows */
    struct counts t = {0, 0}, w = {0, 0};
    MPI_Type_create_keyval(type_copy, type_delete, &key, &t);
    MPI_Datatype pair, pair2;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_set_attr(pair, key, base);
    MPI_Type_dup(pair, &pair2);
    CHECK(1, t.copies, "MPI_Type_dup copies attributes");
    MPI_Type_get_attr(pair2, key, &v, &flag);
    CHECK_TRUE(flag && v == base, "the datatype attribute was copied");
    MPI_Type_free(&pair);
    MPI_Type_free(&pair2);
    CHECK(2, t.deletes, "MPI_Type_free deletes attributes");
    MPI_Type_free_keyval(&key);
    int cell = 0;
    MPI_Win win;
    MPI_Win_create(&cell, sizeof cell, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &key, &w);
    MPI_Win_set_attr(win, key, base + 5);
    MPI_Win_get_attr(win, key, &v, &flag);
    CHECK_TRUE(flag && v == base + 5, "window attribute");
    MPI_Win_free(&win);
    CHECK(1, w.deletes, "MPI_Win_free deletes attributes");
    MPI_Win_free_keyval(&key);
}

static void errhandlers(int rank, int size)
{
    MPI_Errhandler eh, got;
    MPI_Comm c, d;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_create_errhandler(comm_handler, &eh);
    MPI_Comm_set_errhandler(c, eh);
    MPI_Comm_get_errhandler(c, &got);
    CHECK(eh, got, "MPI_Comm_get_errhandler");
    int x = 0;
    comm_handler_code[rank % MAX_RANKS] = 0;
    int rc = MPI_Send(&x, 1, MPI_INT, size, 0, c); /* an invalid rank */
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(MPI_ERR_RANK, cls, "the call returns the error after the handler");
    MPI_Error_class(comm_handler_code[rank % MAX_RANKS], &cls);
    CHECK(MPI_ERR_RANK, cls, "the user handler saw the error");
    MPI_Comm_call_errhandler(c, MPI_ERR_OTHER);
    CHECK(MPI_ERR_OTHER, comm_handler_code[rank % MAX_RANKS], "MPI_Comm_call_errhandler");
    MPI_Comm_dup(c, &d);
    MPI_Comm_get_errhandler(d, &got);
    CHECK(eh, got, "MPI_Comm_dup keeps the error handler");
    MPI_Errhandler_free(&eh);
    CHECK(MPI_ERRHANDLER_NULL, eh, "MPI_Errhandler_free");
    comm_handler_code[rank % MAX_RANKS] = 0;
    MPI_Comm_call_errhandler(d, MPI_ERR_ARG);
    CHECK(MPI_ERR_ARG, comm_handler_code[rank % MAX_RANKS], "a freed handler stays attached");
    MPI_Comm_free(&d);

    MPI_Errhandler old;
    MPI_Errhandler_create(comm_handler, &old); /* the MPI-1 names */
    MPI_Errhandler_set(c, old);
    MPI_Errhandler_get(c, &got);
    CHECK(old, got, "MPI_Errhandler_get");
    MPI_Errhandler_free(&old);
    MPI_Comm_free(&c);

    int cell = 0;
    MPI_Win win;
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_create_errhandler(win_handler, &eh);
    MPI_Win_set_errhandler(win, eh);
    MPI_Win_call_errhandler(win, MPI_ERR_WIN);
    CHECK(MPI_ERR_WIN, win_handler_code[rank % MAX_RANKS], "MPI_Win_call_errhandler");
    MPI_Win_fence(0, win);
    rc = MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    MPI_Error_class(win_handler_code[rank % MAX_RANKS], &cls);
    CHECK(MPI_ERR_RANK, cls, "the window's handler saw a bad target");
    MPI_Win_fence(0, win);
    MPI_Errhandler_free(&eh);
    MPI_Win_free(&win);

    MPI_File_create_errhandler(file_handler, &eh);
    MPI_File_set_errhandler(MPI_FILE_NULL, eh);
    MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO);
    CHECK(MPI_ERR_IO, file_handler_code[rank % MAX_RANKS], "MPI_File_call_errhandler");
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir/no-such-file", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_Error_class(file_handler_code[rank % MAX_RANKS], &cls);
    CHECK_TRUE(cls == MPI_ERR_NO_SUCH_FILE || cls == MPI_ERR_FILE || cls == MPI_ERR_IO || cls == MPI_ERR_ACCESS,
               "the file handler saw a failed open");
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    int mine, code, code2, len, *last;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&mine);
    CHECK_TRUE(mine > MPI_ERR_LASTCODE, "an added class is above MPI_ERR_LASTCODE");
    MPI_Add_error_code(mine, &code);
    MPI_Add_error_code(MPI_ERR_ARG, &code2);
    MPI_Add_error_string(code, "my own error");
    MPI_Error_class(code, &cls);
    CHECK(mine, cls, "the class of an added code");
    MPI_Error_class(code2, &cls);
    CHECK(MPI_ERR_ARG, cls, "a code added to a predefined class");
    MPI_Error_string(code, text, &len);
    CHECK(0, strcmp(text, "my own error"), "MPI_Error_string of an added code");
    int flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    CHECK_TRUE(flag && *last >= code2, "MPI_LASTUSEDCODE");
}

static void matched_probes(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[3] = {rank, rank + 100, rank + 200}, in[3] = {-1, -1, -1};
    MPI_Request sends[3];
    for (int i = 0; i < 3; i++)
        MPI_Isend(&out[i], 1, MPI_INT, right, 9, MPI_COMM_WORLD, &sends[i]);
    MPI_Message m;
    MPI_Status st;
    MPI_Mprobe(left, 9, MPI_COMM_WORLD, &m, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(1, count, "MPI_Mprobe's status");
    /* the probed message is out of matching: a receive gets the next one */
    MPI_Recv(&in[1], 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Mrecv(&in[0], 1, MPI_INT, &m, &st);
    CHECK(MPI_MESSAGE_NULL, m, "MPI_Mrecv sets MPI_MESSAGE_NULL");
    CHECK(left, in[0], "MPI_Mrecv got the probed (first) message");
    CHECK(left + 100, in[1], "the receive got the second");
    CHECK(left, st.MPI_SOURCE, "MPI_Mrecv's status source");
    int flag = 0;
    while (!flag)
        MPI_Improbe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, &m, &st);
    MPI_Request r;
    MPI_Imrecv(&in[2], 1, MPI_INT, &m, &r);
    MPI_Wait(&r, &st);
    CHECK(left + 200, in[2], "MPI_Imrecv");
    CHECK(9, st.MPI_TAG, "MPI_Imrecv's status tag");
    MPI_Waitall(3, sends, MPI_STATUSES_IGNORE);
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st);
    CHECK(MPI_MESSAGE_NO_PROC, m, "MPI_Mprobe(MPI_PROC_NULL)");
    MPI_Mrecv(NULL, 0, MPI_INT, &m, &st);
    CHECK(MPI_PROC_NULL, st.MPI_SOURCE, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
}

struct greq_state {
    int queries, frees, source;
};

static int greq_query(void *extra, MPI_Status *status)
{
    struct greq_state *g = extra;
    g->queries++;
    status->MPI_SOURCE = g->source;
    status->MPI_TAG = 77;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, 0);
    return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
    ((struct greq_state *)extra)->frees++;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

static void generalized(int rank)
{
    struct greq_state g = {0, 0, rank};
    MPI_Request r;
    MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g, &r);
    int flag = 1;
    MPI_Status st;
    MPI_Test(&r, &flag, &st);
    CHECK(0, flag, "a generalized request is pending until completed");
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    CHECK_TRUE(r == MPI_REQUEST_NULL, "MPI_Wait frees it");
    CHECK(rank, st.MPI_SOURCE, "the query callback's source");
    CHECK(77, st.MPI_TAG, "the query callback's tag");
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(3, count, "the query callback's count");
    CHECK(1, g.frees, "the free callback ran once");
    CHECK_TRUE(g.queries >= 1, "the query callback ran");
}

/* A copy callback that fails. */
static int copy_fails(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval, (void)in, (void)out;
    ((struct counts *)extra)->copies++;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int type_copy_fails(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval, (void)in, (void)out;
    ((struct counts *)extra)->copies++;
    *flag = 1;
    return MPI_ERR_OTHER;
}

/* A delete callback that fails while *extra (an int) is 0. */
static int delete_fails(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value;
    return *(int *)extra ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* A failing delete callback fails MPI_Comm_set_attr (replacing) and
 * MPI_Comm_delete_attr, and the attribute keeps its value. */
static void failing_deletes(void)
{
    MPI_Comm c;
    int key, flag = 0, delete_ok = 0;
    void *got = NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fails, &key, &delete_ok);
    CHECK(MPI_SUCCESS, MPI_Comm_set_attr(c, key, (void *)1), "first MPI_Comm_set_attr");
    CHECK_TRUE(MPI_Comm_set_attr(c, key, (void *)2) != MPI_SUCCESS, "MPI_Comm_set_attr whose delete callback fails");
    MPI_Comm_get_attr(c, key, &got, &flag);
    CHECK_TRUE(flag && got == (void *)1, "the attribute keeps its value after a failed replace");
    CHECK_TRUE(MPI_Comm_delete_attr(c, key) != MPI_SUCCESS, "MPI_Comm_delete_attr whose delete callback fails");
    flag = 0;
    MPI_Comm_get_attr(c, key, &got, &flag);
    CHECK_TRUE(flag && got == (void *)1, "the attribute stays after a failed delete");
    delete_ok = 1;
    CHECK(MPI_SUCCESS, MPI_Comm_delete_attr(c, key), "MPI_Comm_delete_attr once the callback succeeds");
    MPI_Comm_get_attr(c, key, &got, &flag);
    CHECK(0, flag, "the attribute is gone");
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&c);
}

/* A copy callback that fails fails the dup: an error of the callback's
 * class, MPI_COMM_NULL (MPI_DATATYPE_NULL), and the attributes copied
 * before it are deleted with the half-made object. */
static void failing_copies(void)
{
    struct counts good = {0, 0}, bad = {0, 0}, tgood = {0, 0}, tbad = {0, 0};
    int kgood, kbad, tkgood, tkbad, e, cls;
    MPI_Comm c, d = MPI_COMM_WORLD;
    MPI_Datatype t, u = MPI_INT;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(copy_plus_one, count_delete, &kgood, &good);
    MPI_Comm_create_keyval(copy_fails, count_delete, &kbad, &bad);
    MPI_Comm_set_attr(c, kgood, (void *)1);
    MPI_Comm_set_attr(c, kbad, (void *)2);
    e = MPI_Comm_dup(c, &d);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_OTHER, cls, "MPI_Comm_dup whose copy callback fails");
    CHECK_TRUE(d == MPI_COMM_NULL, "MPI_Comm_dup whose copy callback fails gives MPI_COMM_NULL");
    CHECK(1, bad.copies, "the failing copy callback ran once");
    CHECK(good.copies, good.deletes, "the attribute copied before the failure was deleted with the new communicator");
    MPI_Comm_free(&c);
    CHECK(1 + good.copies, good.deletes, "deletes after freeing the original");
    MPI_Comm_free_keyval(&kgood);
    MPI_Comm_free_keyval(&kbad);

    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_create_keyval(type_copy, type_delete, &tkgood, &tgood);
    MPI_Type_create_keyval(type_copy_fails, type_delete, &tkbad, &tbad);
    MPI_Type_set_attr(t, tkgood, (void *)1);
    MPI_Type_set_attr(t, tkbad, (void *)2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    e = MPI_Type_dup(t, &u);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_OTHER, cls, "MPI_Type_dup whose copy callback fails");
    CHECK_TRUE(u == MPI_DATATYPE_NULL, "MPI_Type_dup whose copy callback fails gives MPI_DATATYPE_NULL");
    CHECK(tgood.copies, tgood.deletes, "the datatype attribute copied before the failure was deleted");
    MPI_Type_free(&t);
    MPI_Type_free_keyval(&tkgood);
    MPI_Type_free_keyval(&tkbad);
}

/* Counts beyond an int: a datatype of 2516582400 bytes (built without
 * allocating it), MPI_Status_set_elements_x / MPI_Get_elements_x of 3e9
 * elements, and the int forms giving MPI_UNDEFINED. */
static void large_counts(void)
{
    MPI_Datatype mib, big;
    MPI_Count size = -1, n = -1;
    MPI_Status st;
    int isize = 0, count = 0;
    const MPI_Count three_billion = 3000000000LL;
    MPI_Type_contiguous(1 << 20, MPI_CHAR, &mib);
    MPI_Type_contiguous(2400, mib, &big);
    MPI_Type_commit(&big);
    MPI_Type_size_x(big, &size);
    CHECK(2516582400LL, size, "MPI_Type_size_x of 2400 MiB");
    MPI_Type_size(big, &isize);
    CHECK(MPI_UNDEFINED, isize, "MPI_Type_size of 2400 MiB does not fit an int");
    MPI_Status_set_elements_x(&st, MPI_CHAR, three_billion);
    MPI_Get_elements_x(&st, MPI_CHAR, &n);
    CHECK(three_billion, n, "MPI_Get_elements_x after MPI_Status_set_elements_x of 3e9");
    MPI_Get_count(&st, MPI_CHAR, &count);
    CHECK(MPI_UNDEFINED, count, "MPI_Get_count of 3e9 elements does not fit an int");
    MPI_Get_elements(&st, MPI_CHAR, &count);
    CHECK(MPI_UNDEFINED, count, "MPI_Get_elements of 3e9 elements does not fit an int");
    MPI_Get_elements_x(&st, big, &n);
    CHECK(three_billion, n, "MPI_Get_elements_x in a 2400 MiB type counts its chars");
    MPI_Type_free(&big);
    MPI_Type_free(&mib);
    /* (a type of more than INT_MAX bytes: large_types.c) */
}

static void datatypes(void)
{
    struct { char c; double d; int i; } s[2];
    MPI_Aint a0, a1, a2, extent, lb, ub;
    MPI_Address(&s[0].c, &a0);
    MPI_Address(&s[0].d, &a1);
    MPI_Address(&s[0].i, &a2);
    int lens[3] = {1, 1, 1};
    MPI_Aint disps[3] = {0, a1 - a0, a2 - a0};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, st, resized;
    MPI_Type_struct(3, lens, disps, types, &st);
    MPI_Type_create_resized(st, 0, sizeof s[0], &resized);
    MPI_Type_commit(&resized);
    MPI_Type_extent(resized, &extent);
    CHECK(sizeof s[0], extent, "MPI_Type_extent");
    MPI_Type_lb(resized, &lb);
    MPI_Type_ub(resized, &ub);
    CHECK(0, lb, "MPI_Type_lb");
    CHECK(sizeof s[0], ub, "MPI_Type_ub");
    MPI_Count size_x, lb_x, extent_x;
    MPI_Type_size_x(resized, &size_x);
    CHECK(1 + sizeof(double) + sizeof(int), size_x, "MPI_Type_size_x");
    MPI_Type_get_extent_x(resized, &lb_x, &extent_x);
    CHECK(sizeof s[0], extent_x, "MPI_Type_get_extent_x");
    MPI_Type_set_name(resized, "char-double-int");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(resized, name, &len);
    CHECK(0, strcmp(name, "char-double-int"), "MPI_Type_get_name");
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(0, strcmp(name, "MPI_DOUBLE"), "a predefined type's name");

    MPI_Datatype hv, hi, hb, matched;
    MPI_Type_hvector(2, 1, 2 * sizeof(double), MPI_DOUBLE, &hv);
    int hl[2] = {1, 2};
    MPI_Aint hd[2] = {0, 3 * sizeof(double)};
    MPI_Type_hindexed(2, hl, hd, MPI_DOUBLE, &hi);
    MPI_Type_create_hindexed_block(2, 2, hd, MPI_DOUBLE, &hb);
    int sz;
    MPI_Type_size(hv, &sz);
    CHECK(2 * sizeof(double), sz, "MPI_Type_hvector");
    MPI_Type_size(hi, &sz);
    CHECK(3 * sizeof(double), sz, "MPI_Type_hindexed");
    MPI_Type_size(hb, &sz);
    CHECK(4 * sizeof(double), sz, "MPI_Type_create_hindexed_block");
    MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &matched);
    MPI_Type_size(matched, &sz);
    CHECK(sizeof(double), sz, "MPI_Type_match_size");

    /* MPI_Get_elements_x of a self-message of two struct elements */
    MPI_Status status;
    MPI_Sendrecv(s, 2, resized, 0, 4, s, 2, resized, 0, 4, MPI_COMM_SELF, &status);
    MPI_Count elements;
    MPI_Get_elements_x(&status, resized, &elements);
    CHECK(6, elements, "MPI_Get_elements_x");
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);
    MPI_Type_free(&hb);
    MPI_Type_free(&st);
    MPI_Type_free(&resized);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    keyvals();
    errhandlers(rank, size);
    matched_probes(rank, size);
    generalized(rank);
    datatypes();
    failing_copies();
    failing_deletes();
    large_counts();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("OK attributes\n");
    return 0;
}
