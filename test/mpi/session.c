/*
 * session -- MPI 4.0 sessions (MPI 4.0 ch. 11.3), self-checking, any size.
 * The program never calls MPI_Init: everything goes through sessions.
 *
 *  1. MPI_Session_create_errhandler before any session; MPI_Session_init
 *     with a thread level asked in its info; MPI_Initialized stays 0;
 *     MPI_Session_get_info gives a "thread_level".
 *  2. The process sets: at least "mpi://WORLD" and "mpi://SELF", their
 *     names by index (the length first, then a truncated copy), their
 *     "mpi_size" (MPI_Session_get_pset_info).
 *  3. MPI_Group_from_session_pset + MPI_Comm_create_from_group: a
 *     communicator of every rank (an allreduce, a ring of messages), one of
 *     the caller alone, and two at once from disjoint groups (even and odd
 *     ranks, different string tags); MPI_GROUP_EMPTY gives MPI_COMM_NULL.
 *  4. MPI_Intercomm_create_from_groups between the even and the odd ranks.
 *  5. Error handlers: MPI_Session_call_errhandler calls the session's own
 *     handler with its handle (the handler marks the session); under MPI_ERRORS_RETURN a pset index out of range and an
 *     unknown pset name return an error, as do an invalid "thread_level"
 *     and a null communicator pointer; MPI_Session_get_errhandler.
 *  6. MPI_Session_finalize sets MPI_SESSION_NULL; a second session after
 *     the first one ended works the same.
 * Prints "OK session" on rank 0 of the job.
 */
#define TESTNAME "session"
#include "mpitest.h"

/* Checks without MPI_COMM_WORLD (no MPI_Init here): the rank printed is the
 * one in `comm` when known. */
#define SCHECK(expected, got, ...)                                                  \
    do {                                                                            \
        long long e_ = (long long)(expected), g_ = (long long)(got);                \
        if (e_ != g_) {                                                             \
            fprintf(stderr, "FAIL session: line %d: ", __LINE__);                  \
            fprintf(stderr, __VA_ARGS__);                                           \
            fprintf(stderr, " expected %lld got %lld\n", e_, g_);                  \
            fflush(stderr);                                                         \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/* The session's own handler. It leaves its mark on the session it is
 * given (no writable globals in these programs): it replaces itself with
 * MPI_ERRORS_RETURN, so a second error would not reach it. */
static void on_error(MPI_Session *session, int *code, ...)
{
    if (*code == MPI_ERR_OTHER)
        MPI_Session_set_errhandler(*session, MPI_ERRORS_RETURN);
}

static int find_pset(MPI_Session s, const char *want)
{
    int n = 0;
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    for (int i = 0; i < n; i++) {
        int len = 0;
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
        SCHECK(1, len > 1, "pset %d: length with the null", i);
        char *name = xmalloc((size_t)len);
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
        SCHECK(len - 1, (long long)strlen(name), "pset %d: name length", i);
        int same = strcmp(name, want) == 0;
        if (same && len > 4) {
            /* a short buffer gets a truncated, terminated copy */
            char cut[4] = {'x', 'x', 'x', 'x'};
            int four = 4;
            MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &four, cut);
            SCHECK(0, strncmp(cut, name, 3), "truncated pset name");
            SCHECK(0, cut[3], "truncated pset name ends with a null");
        }
        free(name);
        if (same)
            return 1;
    }
    return 0;
}

static void pset_and_comms(MPI_Session s)
{
    SCHECK(1, find_pset(s, "mpi://WORLD"), "the process set mpi://WORLD is listed");
    SCHECK(1, find_pset(s, "mpi://SELF"), "the process set mpi://SELF is listed");

    MPI_Group world, self;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &world);
    MPI_Group_from_session_pset(s, "mpi://SELF", &self);
    int size, rank, self_size;
    MPI_Group_size(world, &size);
    MPI_Group_rank(world, &rank);
    MPI_Group_size(self, &self_size);
    SCHECK(1, self_size, "mpi://SELF has one process");

    MPI_Info info;
    char value[32];
    int flag = 0;
    MPI_Session_get_pset_info(s, "mpi://WORLD", &info);
    MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag);
    SCHECK(1, flag, "mpi://WORLD has an mpi_size");
    SCHECK(size, atoi(value), "mpi_size of mpi://WORLD");
    MPI_Info_free(&info);

    MPI_Comm comm;
    MPI_Comm_create_from_group(world, "org.tucana.test.session.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    int csize, crank;
    MPI_Comm_size(comm, &csize);
    MPI_Comm_rank(comm, &crank);
    SCHECK(size, csize, "size of the communicator from mpi://WORLD");
    SCHECK(rank, crank, "rank in the communicator from mpi://WORLD");
    long long sum = 0, mine = crank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
    SCHECK((long long)size * (size + 1) / 2, sum, "allreduce over the session's communicator");
    int token = -1, right = (crank + 1) % csize, left = (crank + csize - 1) % csize;
    MPI_Sendrecv(&crank, 1, MPI_INT, right, 5, &token, 1, MPI_INT, left, 5, comm, MPI_STATUS_IGNORE);
    SCHECK(left, token, "ring message from the left");

    MPI_Comm alone;
    MPI_Comm_create_from_group(self, "org.tucana.test.session.self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &alone);
    MPI_Comm_size(alone, &csize);
    SCHECK(1, csize, "size of the communicator from mpi://SELF");
    MPI_Comm_free(&alone);
    MPI_Comm none = MPI_COMM_WORLD;
    MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "org.tucana.test.session.empty", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                               &none);
    SCHECK(MPI_COMM_NULL, none, "the communicator of MPI_GROUP_EMPTY is MPI_COMM_NULL");

    /* even and odd ranks at once, different tags */
    int nhalf = rank % 2 ? size / 2 : (size + 1) / 2;
    int *members = xmalloc((size_t)size * sizeof(int));
    int *other = xmalloc((size_t)size * sizeof(int));
    int nother = 0;
    for (int r = rank % 2, k = 0; r < size; r += 2)
        members[k++] = r;
    for (int r = 1 - rank % 2; r < size; r += 2)
        other[nother++] = r;
    MPI_Group half, rest;
    MPI_Group_incl(world, nhalf, members, &half);
    MPI_Group_incl(world, nother, other, &rest);
    MPI_Comm hc;
    MPI_Comm_create_from_group(half, rank % 2 ? "org.tucana.test.session.odd" : "org.tucana.test.session.even",
                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &hc);
    MPI_Comm_size(hc, &csize);
    SCHECK(nhalf, csize, "size of the half's communicator");
    long long hsum = 0;
    mine = rank;
    MPI_Allreduce(&mine, &hsum, 1, MPI_LONG_LONG, MPI_SUM, hc);
    long long want = 0;
    for (int k = 0; k < nhalf; k++)
        want += members[k];
    SCHECK(want, hsum, "allreduce within the half");
    MPI_Comm_free(&hc);

    if (size >= 2) {
        MPI_Comm inter;
        MPI_Intercomm_create_from_groups(half, 0, rest, 0, "org.tucana.test.session.inter", MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &inter);
        int remote = 0, is_inter = 0;
        MPI_Comm_test_inter(inter, &is_inter);
        MPI_Comm_remote_size(inter, &remote);
        SCHECK(1, is_inter, "MPI_Intercomm_create_from_groups makes an intercommunicator");
        SCHECK(nother, remote, "remote group size");
        int lrank;
        MPI_Comm_rank(inter, &lrank);
        if (lrank == 0) {
            int got = -1, leader = members[0];
            MPI_Sendrecv(&leader, 1, MPI_INT, 0, 9, &got, 1, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE);
            SCHECK(other[0], got, "the remote leader's world rank");
        }
        MPI_Comm_free(&inter);
    }
    MPI_Group_free(&half);
    MPI_Group_free(&rest);
    free(members);
    free(other);
    MPI_Comm_free(&comm);
    MPI_Group_free(&world);
    MPI_Group_free(&self);
}

int main(void)
{
    MPI_Errhandler eh;
    MPI_Info asked;
    MPI_Info_create(&asked);
    MPI_Info_set(asked, "thread_level", "MPI_THREAD_SINGLE");
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Session_create_errhandler(on_error, &eh);
    SCHECK(MPI_SUCCESS, MPI_Session_init(asked, eh, &s), "MPI_Session_init");
    MPI_Info_free(&asked);
    SCHECK(1, s != MPI_SESSION_NULL, "a session handle");
    int inited = 1;
    MPI_Initialized(&inited);
    SCHECK(0, inited, "MPI_Initialized in a program that only uses sessions");

    MPI_Info used;
    char level[64];
    int flag = 0;
    MPI_Session_get_info(s, &used);
    MPI_Info_get(used, "thread_level", sizeof level - 1, level, &flag);
    SCHECK(1, flag, "the session's info has a thread_level");
    SCHECK(0, strncmp(level, "MPI_THREAD_", 11), "thread_level names a level");
    MPI_Info_free(&used);

    pset_and_comms(s);

    /* error handlers */
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    MPI_Session_get_errhandler(s, &got);
    SCHECK(eh, got, "MPI_Session_get_errhandler gives the handler of MPI_Session_init");
    MPI_Session_call_errhandler(s, MPI_ERR_OTHER);
    MPI_Session_get_errhandler(s, &got);
    SCHECK(MPI_ERRORS_RETURN, got, "MPI_Session_call_errhandler ran the session's handler on that session");
    int n = 0, len = 0;
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    SCHECK(1, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, NULL) != MPI_SUCCESS,
           "a pset index out of range is an error");
    MPI_Group g = MPI_GROUP_NULL;
    SCHECK(1, MPI_Group_from_session_pset(s, "org.tucana.no.such.pset", &g) != MPI_SUCCESS,
           "an unknown pset name is an error");
    MPI_Errhandler_free(&eh);
    {
        MPI_Info bad;
        MPI_Session s2 = MPI_SESSION_NULL;
        MPI_Info_create(&bad);
        MPI_Info_set(bad, "thread_level", "NOT_A_LEVEL");
        SCHECK(1, MPI_Session_init(bad, MPI_ERRORS_RETURN, &s2) != MPI_SUCCESS,
               "an invalid thread_level is an error");
        MPI_Info_free(&bad);
        MPI_Group self;
        MPI_Group_from_session_pset(s, "mpi://SELF", &self);
        SCHECK(1, MPI_Comm_create_from_group(self, "org.tucana.test.session.null", MPI_INFO_NULL,
                                             MPI_ERRORS_RETURN, NULL) != MPI_SUCCESS,
               "a null communicator pointer is an error");
        MPI_Group_free(&self);
    }

    MPI_Session_finalize(&s);
    SCHECK(MPI_SESSION_NULL, s, "MPI_Session_finalize sets MPI_SESSION_NULL");

    /* a second session, after the first one */
    SCHECK(MPI_SUCCESS, MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), "a second MPI_Session_init");
    MPI_Group world;
    MPI_Comm comm;
    int rank;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &world);
    MPI_Comm_create_from_group(world, "org.tucana.test.session.again", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    MPI_Group_free(&world);
    MPI_Session_finalize(&s);
    if (rank == 0)
        printf("OK session\n");
    return 0;
}
