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

typedef void TMPI_User_function(void *invec, void *inoutvec, int *len, TMPI_Datatype *datatype);

typedef struct TMPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int tmpi_cancelled;
  long long tmpi_bytes; /* received payload size in bytes */
} TMPI_Status;

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
  TMPI_APPNUM = 6
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
  TMPI_ERR_LASTCODE
};

#define TMPI_FN(NAME, PARAMS) int TMPI_##NAME PARAMS;
#define TMPI_FN_R(RET, NAME, PARAMS) RET TMPI_##NAME PARAMS;
#include "tmpi_functions.def"
#undef TMPI_FN
#undef TMPI_FN_R

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_TMPI_H */
