/* Tucana's virtual MPI: the types, constants and functions that a program
 * compiled by tucanacc/tucanacxx calls. Every name carries the TMPI_ prefix
 * so that this header can sit next to the real <mpi.h> inside the runtime;
 * user programs include Tucana's <mpi.h>, which gives them the MPI_ names.
 *
 * Handles: communicators, datatypes, ops and error handlers are small
 * integers (as in MPICH); requests are pointers. C and C++. */
#ifndef TUCANA_TMPI_H
#define TUCANA_TMPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int TMPI_Comm;
typedef int TMPI_Datatype;
typedef int TMPI_Op;
typedef int TMPI_Group;
typedef int TMPI_Errhandler;
typedef int TMPI_Info;
typedef struct tmpi_request *TMPI_Request;
typedef intptr_t TMPI_Aint;
typedef long long TMPI_Offset;
typedef long long TMPI_Count;

typedef int TMPI_Win;
typedef int TMPI_File;
typedef int TMPI_Message;
typedef int TMPI_Fint;
typedef int TMPI_Session; /* MPI 4.0 sessions (mpi/comm/session.cc) */
typedef struct tmpi_t_enum *TMPI_T_enum;
typedef struct tmpi_t_cvar_handle *TMPI_T_cvar_handle;
typedef struct tmpi_t_pvar_handle *TMPI_T_pvar_handle;
typedef struct tmpi_t_pvar_session *TMPI_T_pvar_session;

typedef void TMPI_User_function(void *invec, void *inoutvec, int *len, TMPI_Datatype *datatype);
/* MPI 4.0's big-count form (MPI_Op_create_c): the length is an MPI_Count */
typedef void TMPI_User_function_c(void *invec, void *inoutvec, TMPI_Count *len, TMPI_Datatype *datatype);

typedef struct TMPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int tmpi_cancelled;
  long long tmpi_bytes; /* received payload size in bytes */
} TMPI_Status;

/* callbacks (MPI 3.1 A.2.3, and the MPI-1 ones removed in 3.0) */
typedef void TMPI_Comm_errhandler_function(TMPI_Comm *comm, int *code, ...);
typedef void TMPI_File_errhandler_function(TMPI_File *file, int *code, ...);
typedef void TMPI_Win_errhandler_function(TMPI_Win *win, int *code, ...);
typedef void TMPI_Session_errhandler_function(TMPI_Session *session, int *code, ...);
typedef void TMPI_Handler_function(TMPI_Comm *comm, int *code, ...);
typedef int TMPI_Comm_copy_attr_function(TMPI_Comm oldcomm, int keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int TMPI_Comm_delete_attr_function(TMPI_Comm comm, int keyval, void *attribute_val,
                                           void *extra_state);
typedef int TMPI_Type_copy_attr_function(TMPI_Datatype oldtype, int keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int TMPI_Type_delete_attr_function(TMPI_Datatype type, int keyval, void *attribute_val,
                                           void *extra_state);
typedef int TMPI_Win_copy_attr_function(TMPI_Win oldwin, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int TMPI_Win_delete_attr_function(TMPI_Win win, int keyval, void *attribute_val,
                                          void *extra_state);
typedef TMPI_Comm_copy_attr_function TMPI_Copy_function;
typedef TMPI_Comm_delete_attr_function TMPI_Delete_function;
typedef int TMPI_Grequest_query_function(void *extra_state, TMPI_Status *status);
typedef int TMPI_Grequest_free_function(void *extra_state);
typedef int TMPI_Grequest_cancel_function(void *extra_state, int complete);
typedef int TMPI_Datarep_extent_function(TMPI_Datatype datatype, TMPI_Aint *extent, void *extra_state);
typedef int TMPI_Datarep_conversion_function(void *userbuf, TMPI_Datatype datatype, int count,
                                             void *filebuf, TMPI_Offset position, void *extra_state);

/* handles */
#define TMPI_COMM_NULL ((TMPI_Comm)0)
#define TMPI_COMM_WORLD ((TMPI_Comm)1)
#define TMPI_COMM_SELF ((TMPI_Comm)2)
#define TMPI_DATATYPE_NULL ((TMPI_Datatype)0)
#define TMPI_OP_NULL ((TMPI_Op)0)
#define TMPI_GROUP_NULL ((TMPI_Group)0)
#define TMPI_INFO_NULL ((TMPI_Info)0)
#define TMPI_REQUEST_NULL ((TMPI_Request)0)
#define TMPI_ERRHANDLER_NULL ((TMPI_Errhandler)0)
#define TMPI_ERRORS_ARE_FATAL ((TMPI_Errhandler)1)
#define TMPI_ERRORS_RETURN ((TMPI_Errhandler)2)
#define TMPI_GROUP_EMPTY ((TMPI_Group)1)
#define TMPI_WIN_NULL ((TMPI_Win)0)
#define TMPI_SESSION_NULL ((TMPI_Session)0)
#define TMPI_FILE_NULL ((TMPI_File)0)
#define TMPI_MESSAGE_NULL ((TMPI_Message)0)
#define TMPI_MESSAGE_NO_PROC ((TMPI_Message)1)
#define TMPI_INFO_ENV ((TMPI_Info)1)
#define TMPI_T_ENUM_NULL ((TMPI_T_enum)0)
#define TMPI_T_CVAR_HANDLE_NULL ((TMPI_T_cvar_handle)0)
#define TMPI_T_PVAR_HANDLE_NULL ((TMPI_T_pvar_handle)0)
#define TMPI_T_PVAR_SESSION_NULL ((TMPI_T_pvar_session)0)
#define TMPI_T_PVAR_ALL_HANDLES ((TMPI_T_pvar_handle)1)

enum tmpi_datatype_handles {
  TMPI_DATATYPE_FIRST_ = 0,
#define TMPI_DATATYPE(NAME, CTYPE, CLASS) TMPI_DT_##NAME,
#include "tmpi_datatypes.def"
#undef TMPI_DATATYPE
  TMPI_DATATYPE_END_
};
enum tmpi_op_handles {
  TMPI_OP_FIRST_ = 0,
#define TMPI_OP(NAME, APPLIES) TMPI_OP_##NAME,
#include "tmpi_ops.def"
#undef TMPI_OP
  TMPI_OP_END_
};

/* special values */
#define TMPI_ANY_SOURCE (-1)
#define TMPI_PROC_NULL (-2)
#define TMPI_ROOT (-3)
#define TMPI_ANY_TAG (-1)
#define TMPI_UNDEFINED (-32766)
#define TMPI_BOTTOM ((void *)0)
#define TMPI_IN_PLACE ((void *)1)
#define TMPI_STATUS_IGNORE ((TMPI_Status *)0)
#define TMPI_STATUSES_IGNORE ((TMPI_Status *)0)
#define TMPI_MAX_PROCESSOR_NAME 256
#define TMPI_MAX_ERROR_STRING 512
#define TMPI_MAX_LIBRARY_VERSION_STRING 256
#define TMPI_ORDER_C 0
#define TMPI_ORDER_FORTRAN 1
#define TMPI_MAX_OBJECT_NAME 128
#define TMPI_BSEND_OVERHEAD 64
#define TMPI_KEYVAL_INVALID (-1)
#define TMPI_MAX_INFO_KEY 255
#define TMPI_MAX_INFO_VAL 1024
#define TMPI_MAX_PORT_NAME 1024
#define TMPI_MAX_DATAREP_STRING 128
#define TMPI_ARGV_NULL ((char **)0)
#define TMPI_ARGVS_NULL ((char ***)0)
#define TMPI_ERRCODES_IGNORE ((int *)0)
#define TMPI_F_STATUS_IGNORE ((TMPI_Fint *)0)
#define TMPI_F_STATUSES_IGNORE ((TMPI_Fint *)0)
/* a Fortran status: the C status as integers */
#define TMPI_STATUS_SIZE ((int)(sizeof(TMPI_Status) / sizeof(TMPI_Fint)))
#define TMPI_UNWEIGHTED ((int *)2)
#define TMPI_WEIGHTS_EMPTY ((int *)3)
#define TMPI_DISPLACEMENT_CURRENT ((TMPI_Offset)-54278278)
#define TMPI_VERSION 3
#define TMPI_SUBVERSION 1

enum tmpi_thread_levels {
  TMPI_THREAD_SINGLE = 0,
  TMPI_THREAD_FUNNELED = 1,
  TMPI_THREAD_SERIALIZED = 2,
  TMPI_THREAD_MULTIPLE = 3
};

/* predefined attribute keys (MPI_Comm_get_attr) */
enum tmpi_keyvals {
  TMPI_TAG_UB = 1,
  TMPI_HOST = 2,
  TMPI_IO = 3,
  TMPI_WTIME_IS_GLOBAL = 4,
  TMPI_UNIVERSE_SIZE = 5,
  TMPI_APPNUM = 6,
  TMPI_LASTUSEDCODE = 7,
  /* window attributes (MPI_Win_get_attr) */
  TMPI_WIN_BASE = 8,
  TMPI_WIN_SIZE = 9,
  TMPI_WIN_DISP_UNIT = 10,
  TMPI_WIN_CREATE_FLAVOR = 11,
  TMPI_WIN_MODEL = 12
};
enum tmpi_win_flavors {
  TMPI_WIN_FLAVOR_CREATE = 1,
  TMPI_WIN_FLAVOR_ALLOCATE = 2,
  TMPI_WIN_FLAVOR_DYNAMIC = 3,
  TMPI_WIN_FLAVOR_SHARED = 4
};
enum tmpi_win_models { TMPI_WIN_SEPARATE = 1, TMPI_WIN_UNIFIED = 2 };
/* lock types and assertions of one-sided synchronization */
enum tmpi_lock_types { TMPI_LOCK_EXCLUSIVE = 234, TMPI_LOCK_SHARED = 235 };
/* file access modes (MPI_File_open) and RMA assertions: both are bit sets */
enum tmpi_modes {
  TMPI_MODE_CREATE = 1,
  TMPI_MODE_RDONLY = 2,
  TMPI_MODE_WRONLY = 4,
  TMPI_MODE_RDWR = 8,
  TMPI_MODE_DELETE_ON_CLOSE = 16,
  TMPI_MODE_UNIQUE_OPEN = 32,
  TMPI_MODE_EXCL = 64,
  TMPI_MODE_APPEND = 128,
  TMPI_MODE_SEQUENTIAL = 256,
  TMPI_MODE_NOCHECK = 1024,
  TMPI_MODE_NOSTORE = 2048,
  TMPI_MODE_NOPUT = 4096,
  TMPI_MODE_NOPRECEDE = 8192,
  TMPI_MODE_NOSUCCEED = 16384
};
enum tmpi_seek_whence { TMPI_SEEK_SET = 600, TMPI_SEEK_CUR = 602, TMPI_SEEK_END = 604 };
/* MPI_Type_get_envelope */
enum tmpi_combiners {
  TMPI_COMBINER_NAMED = 1,
  TMPI_COMBINER_DUP,
  TMPI_COMBINER_CONTIGUOUS,
  TMPI_COMBINER_VECTOR,
  TMPI_COMBINER_HVECTOR_INTEGER,
  TMPI_COMBINER_HVECTOR,
  TMPI_COMBINER_INDEXED,
  TMPI_COMBINER_HINDEXED_INTEGER,
  TMPI_COMBINER_HINDEXED,
  TMPI_COMBINER_INDEXED_BLOCK,
  TMPI_COMBINER_HINDEXED_BLOCK,
  TMPI_COMBINER_STRUCT_INTEGER,
  TMPI_COMBINER_STRUCT,
  TMPI_COMBINER_SUBARRAY,
  TMPI_COMBINER_DARRAY,
  TMPI_COMBINER_F90_REAL,
  TMPI_COMBINER_F90_COMPLEX,
  TMPI_COMBINER_F90_INTEGER,
  TMPI_COMBINER_RESIZED
};
/* MPI_Type_create_darray */
enum tmpi_distributions {
  TMPI_DISTRIBUTE_BLOCK = 121,
  TMPI_DISTRIBUTE_CYCLIC = 122,
  TMPI_DISTRIBUTE_NONE = 123,
  TMPI_DISTRIBUTE_DFLT_DARG = -49767
};
/* MPI_Type_match_size */
enum tmpi_typeclasses { TMPI_TYPECLASS_REAL = 1, TMPI_TYPECLASS_INTEGER = 2, TMPI_TYPECLASS_COMPLEX = 3 };
/* the MPI tool information interface */
enum tmpi_t_verbosity {
  TMPI_T_VERBOSITY_USER_BASIC = 221,
  TMPI_T_VERBOSITY_USER_DETAIL,
  TMPI_T_VERBOSITY_USER_ALL,
  TMPI_T_VERBOSITY_TUNER_BASIC,
  TMPI_T_VERBOSITY_TUNER_DETAIL,
  TMPI_T_VERBOSITY_TUNER_ALL,
  TMPI_T_VERBOSITY_MPIDEV_BASIC,
  TMPI_T_VERBOSITY_MPIDEV_DETAIL,
  TMPI_T_VERBOSITY_MPIDEV_ALL
};
enum tmpi_t_bind {
  TMPI_T_BIND_NO_OBJECT = 9700,
  TMPI_T_BIND_MPI_COMM,
  TMPI_T_BIND_MPI_DATATYPE,
  TMPI_T_BIND_MPI_ERRHANDLER,
  TMPI_T_BIND_MPI_FILE,
  TMPI_T_BIND_MPI_GROUP,
  TMPI_T_BIND_MPI_OP,
  TMPI_T_BIND_MPI_REQUEST,
  TMPI_T_BIND_MPI_WIN,
  TMPI_T_BIND_MPI_MESSAGE,
  TMPI_T_BIND_MPI_INFO
};
enum tmpi_t_scope {
  TMPI_T_SCOPE_CONSTANT = 60438,
  TMPI_T_SCOPE_READONLY,
  TMPI_T_SCOPE_LOCAL,
  TMPI_T_SCOPE_GROUP,
  TMPI_T_SCOPE_GROUP_EQ,
  TMPI_T_SCOPE_ALL,
  TMPI_T_SCOPE_ALL_EQ
};
enum tmpi_t_pvar_class {
  TMPI_T_PVAR_CLASS_STATE = 240,
  TMPI_T_PVAR_CLASS_LEVEL,
  TMPI_T_PVAR_CLASS_SIZE,
  TMPI_T_PVAR_CLASS_PERCENTAGE,
  TMPI_T_PVAR_CLASS_HIGHWATERMARK,
  TMPI_T_PVAR_CLASS_LOWWATERMARK,
  TMPI_T_PVAR_CLASS_COUNTER,
  TMPI_T_PVAR_CLASS_AGGREGATE,
  TMPI_T_PVAR_CLASS_TIMER,
  TMPI_T_PVAR_CLASS_GENERIC
};

/* results of MPI_Comm_compare / MPI_Group_compare */
enum tmpi_compare_results { TMPI_IDENT = 0, TMPI_CONGRUENT = 1, TMPI_SIMILAR = 2, TMPI_UNEQUAL = 3 };
/* MPI_Comm_split_type */
enum tmpi_split_types { TMPI_COMM_TYPE_SHARED = 1 };
/* MPI_Topo_test */
enum tmpi_topologies { TMPI_GRAPH = 1, TMPI_CART = 2, TMPI_DIST_GRAPH = 3 };

/* error classes (MPI 3.1, 8.4) */
enum tmpi_error_classes {
  TMPI_SUCCESS = 0,
  TMPI_ERR_BUFFER,
  TMPI_ERR_COUNT,
  TMPI_ERR_TYPE,
  TMPI_ERR_TAG,
  TMPI_ERR_COMM,
  TMPI_ERR_RANK,
  TMPI_ERR_REQUEST,
  TMPI_ERR_ROOT,
  TMPI_ERR_GROUP,
  TMPI_ERR_OP,
  TMPI_ERR_TOPOLOGY,
  TMPI_ERR_DIMS,
  TMPI_ERR_ARG,
  TMPI_ERR_UNKNOWN,
  TMPI_ERR_TRUNCATE,
  TMPI_ERR_OTHER,
  TMPI_ERR_INTERN,
  TMPI_ERR_IN_STATUS,
  TMPI_ERR_PENDING,
  TMPI_ERR_UNSUPPORTED_OPERATION,
  TMPI_ERR_ACCESS,
  TMPI_ERR_AMODE,
  TMPI_ERR_ASSERT,
  TMPI_ERR_BAD_FILE,
  TMPI_ERR_BASE,
  TMPI_ERR_CONVERSION,
  TMPI_ERR_DISP,
  TMPI_ERR_DUP_DATAREP,
  TMPI_ERR_FILE_EXISTS,
  TMPI_ERR_FILE_IN_USE,
  TMPI_ERR_FILE,
  TMPI_ERR_INFO_KEY,
  TMPI_ERR_INFO_NOKEY,
  TMPI_ERR_INFO_VALUE,
  TMPI_ERR_INFO,
  TMPI_ERR_IO,
  TMPI_ERR_KEYVAL,
  TMPI_ERR_LOCKTYPE,
  TMPI_ERR_NAME,
  TMPI_ERR_NO_MEM,
  TMPI_ERR_NOT_SAME,
  TMPI_ERR_NO_SPACE,
  TMPI_ERR_NO_SUCH_FILE,
  TMPI_ERR_PORT,
  TMPI_ERR_QUOTA,
  TMPI_ERR_READ_ONLY,
  TMPI_ERR_RMA_ATTACH,
  TMPI_ERR_RMA_CONFLICT,
  TMPI_ERR_RMA_RANGE,
  TMPI_ERR_RMA_SHARED,
  TMPI_ERR_RMA_SYNC,
  TMPI_ERR_RMA_FLAVOR,
  TMPI_ERR_SERVICE,
  TMPI_ERR_SIZE,
  TMPI_ERR_SPAWN,
  TMPI_ERR_UNSUPPORTED_DATAREP,
  TMPI_ERR_WIN,
  TMPI_ERR_SESSION,
  /* returned by the MPI_T_ functions, which never call an error handler */
  TMPI_T_ERR_MEMORY,
  TMPI_T_ERR_NOT_INITIALIZED,
  TMPI_T_ERR_CANNOT_INIT,
  TMPI_T_ERR_INVALID_INDEX,
  TMPI_T_ERR_INVALID_ITEM,
  TMPI_T_ERR_INVALID_HANDLE,
  TMPI_T_ERR_OUT_OF_HANDLES,
  TMPI_T_ERR_OUT_OF_SESSIONS,
  TMPI_T_ERR_INVALID_SESSION,
  TMPI_T_ERR_CVAR_SET_NOT_NOW,
  TMPI_T_ERR_CVAR_SET_NEVER,
  TMPI_T_ERR_PVAR_NO_STARTSTOP,
  TMPI_T_ERR_PVAR_NO_WRITE,
  TMPI_T_ERR_PVAR_NO_ATOMIC,
  TMPI_T_ERR_INVALID_NAME,
  TMPI_T_ERR_INVALID,
  TMPI_ERR_LASTCODE
};

/* The runtime defines every MPI function under its profiling name PTMPI_X
 * (these declarations bind TMPI_X to it), and TMPI_X itself as a weak entry
 * that jumps there (src/mpi/pmpi_entry.S). A program's MPI_X calls TMPI_X, its
 * PMPI_X calls PTMPI_X: a tool that defines MPI_X replaces the weak entry and
 * reaches Tucana through PMPI_X, as with any MPI library. Inside the runtime a
 * call to TMPI_X is a call to PTMPI_X, never to a tool's wrapper. */
#define TMPI_FN(NAME, PARAMS, ROLE, NOTE) int TMPI_##NAME PARAMS __asm__("PTMPI_" #NAME);
#define TMPI_FN_R(RET, NAME, PARAMS, ROLE, NOTE) RET TMPI_##NAME PARAMS __asm__("PTMPI_" #NAME);
#define TMPI_UNSUPPORTED(NAME, PARAMS, HANDLE, REASON) int TMPI_##NAME PARAMS __asm__("PTMPI_" #NAME);
#include "tmpi_functions.def"
#include "tmpi_unsupported.def"
#undef TMPI_FN
#undef TMPI_FN_R
#undef TMPI_UNSUPPORTED

/* predefined attribute copy and delete callbacks (they are functions) */
#define TMPI_NULL_FNS(KIND, HANDLE)                                                          \
  int TMPI_##KIND##_NULL_COPY_FN(HANDLE oldobj, int keyval, void *extra_state, void *in,      \
                                 void *out, int *flag);                                       \
  int TMPI_##KIND##_DUP_FN(HANDLE oldobj, int keyval, void *extra_state, void *in, void *out, \
                           int *flag);                                                        \
  int TMPI_##KIND##_NULL_DELETE_FN(HANDLE obj, int keyval, void *value, void *extra_state);
TMPI_NULL_FNS(COMM, TMPI_Comm)
TMPI_NULL_FNS(TYPE, TMPI_Datatype)
TMPI_NULL_FNS(WIN, TMPI_Win)
#undef TMPI_NULL_FNS
int TMPI_CONVERSION_FN_NULL(void *userbuf, TMPI_Datatype datatype, int count, void *filebuf,
                            TMPI_Offset position, void *extra_state);

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_TMPI_H */
