/* <mpi.h> as seen by programs built with tucanacc / tucanacxx.
 *
 * Every MPI_ name below is Tucana's virtual MPI: the functions are declared
 * under their MPI names but bound (with an asm label) to the runtime's
 * TMPI_ symbols, so a program's calls go to its subrank, never to the real
 * MPI library that the runtime itself runs on. Functions Tucana does not run
 * are declared so that calling one is a compile-time error naming it.
 * The tables behind this header: tucana/tmpi_functions.def,
 * tucana/tmpi_unsupported.def, tucana/tmpi_datatypes.def. */
#ifndef TUCANA_USER_MPI_H
#define TUCANA_USER_MPI_H

#include <tucana/tmpi.h>

#define TUCANA 1
#define MPI_VERSION TMPI_VERSION
#define MPI_SUBVERSION TMPI_SUBVERSION

#ifdef __cplusplus
extern "C" {
#endif

typedef TMPI_Comm MPI_Comm;
typedef TMPI_Datatype MPI_Datatype;
typedef TMPI_Op MPI_Op;
typedef TMPI_Group MPI_Group;
typedef TMPI_Errhandler MPI_Errhandler;
typedef TMPI_Info MPI_Info;
typedef TMPI_Request MPI_Request;
typedef TMPI_Aint MPI_Aint;
typedef TMPI_Offset MPI_Offset;
typedef TMPI_Count MPI_Count;
typedef TMPI_Status MPI_Status;
typedef TMPI_User_function MPI_User_function;
/* Types of unsupported features exist only so that their calls reach the
 * diagnostic below instead of an "unknown type" error. */
typedef struct tmpi_unsupported_win *MPI_Win;
typedef struct tmpi_unsupported_file *MPI_File;
typedef struct tmpi_unsupported_message *MPI_Message;

#define MPI_COMM_NULL TMPI_COMM_NULL
#define MPI_COMM_WORLD TMPI_COMM_WORLD
#define MPI_COMM_SELF TMPI_COMM_SELF
#define MPI_DATATYPE_NULL TMPI_DATATYPE_NULL
#define MPI_OP_NULL TMPI_OP_NULL
#define MPI_GROUP_NULL TMPI_GROUP_NULL
#define MPI_GROUP_EMPTY TMPI_GROUP_EMPTY
#define MPI_INFO_NULL TMPI_INFO_NULL
#define MPI_REQUEST_NULL TMPI_REQUEST_NULL
#define MPI_ERRHANDLER_NULL TMPI_ERRHANDLER_NULL
#define MPI_ERRORS_ARE_FATAL TMPI_ERRORS_ARE_FATAL
#define MPI_ERRORS_RETURN TMPI_ERRORS_RETURN

#define MPI_ANY_SOURCE TMPI_ANY_SOURCE
#define MPI_PROC_NULL TMPI_PROC_NULL
#define MPI_ROOT TMPI_ROOT
#define MPI_ANY_TAG TMPI_ANY_TAG
#define MPI_UNDEFINED TMPI_UNDEFINED
#define MPI_BOTTOM TMPI_BOTTOM
#define MPI_IN_PLACE TMPI_IN_PLACE
#define MPI_STATUS_IGNORE TMPI_STATUS_IGNORE
#define MPI_STATUSES_IGNORE TMPI_STATUSES_IGNORE
#define MPI_ORDER_C TMPI_ORDER_C
#define MPI_ORDER_FORTRAN TMPI_ORDER_FORTRAN
#define MPI_MAX_PROCESSOR_NAME TMPI_MAX_PROCESSOR_NAME
#define MPI_MAX_ERROR_STRING TMPI_MAX_ERROR_STRING
#define MPI_MAX_LIBRARY_VERSION_STRING TMPI_MAX_LIBRARY_VERSION_STRING
#define MPI_THREAD_SINGLE TMPI_THREAD_SINGLE
#define MPI_THREAD_FUNNELED TMPI_THREAD_FUNNELED
#define MPI_THREAD_SERIALIZED TMPI_THREAD_SERIALIZED
#define MPI_THREAD_MULTIPLE TMPI_THREAD_MULTIPLE
#define MPI_MAX_OBJECT_NAME TMPI_MAX_OBJECT_NAME
#define MPI_BSEND_OVERHEAD TMPI_BSEND_OVERHEAD
#define MPI_KEYVAL_INVALID TMPI_KEYVAL_INVALID
#define MPI_IDENT TMPI_IDENT
#define MPI_CONGRUENT TMPI_CONGRUENT
#define MPI_SIMILAR TMPI_SIMILAR
#define MPI_UNEQUAL TMPI_UNEQUAL
#define MPI_COMM_TYPE_SHARED TMPI_COMM_TYPE_SHARED
#define MPI_GRAPH TMPI_GRAPH
#define MPI_CART TMPI_CART
#define MPI_DIST_GRAPH TMPI_DIST_GRAPH
#define MPI_TAG_UB TMPI_TAG_UB
#define MPI_HOST TMPI_HOST
#define MPI_IO TMPI_IO
#define MPI_WTIME_IS_GLOBAL TMPI_WTIME_IS_GLOBAL
#define MPI_UNIVERSE_SIZE TMPI_UNIVERSE_SIZE
#define MPI_APPNUM TMPI_APPNUM

#define MPI_SUCCESS TMPI_SUCCESS
#define MPI_ERR_BUFFER TMPI_ERR_BUFFER
#define MPI_ERR_COUNT TMPI_ERR_COUNT
#define MPI_ERR_TYPE TMPI_ERR_TYPE
#define MPI_ERR_TAG TMPI_ERR_TAG
#define MPI_ERR_COMM TMPI_ERR_COMM
#define MPI_ERR_RANK TMPI_ERR_RANK
#define MPI_ERR_REQUEST TMPI_ERR_REQUEST
#define MPI_ERR_ROOT TMPI_ERR_ROOT
#define MPI_ERR_GROUP TMPI_ERR_GROUP
#define MPI_ERR_OP TMPI_ERR_OP
#define MPI_ERR_TOPOLOGY TMPI_ERR_TOPOLOGY
#define MPI_ERR_DIMS TMPI_ERR_DIMS
#define MPI_ERR_ARG TMPI_ERR_ARG
#define MPI_ERR_UNKNOWN TMPI_ERR_UNKNOWN
#define MPI_ERR_TRUNCATE TMPI_ERR_TRUNCATE
#define MPI_ERR_OTHER TMPI_ERR_OTHER
#define MPI_ERR_INTERN TMPI_ERR_INTERN
#define MPI_ERR_IN_STATUS TMPI_ERR_IN_STATUS
#define MPI_ERR_PENDING TMPI_ERR_PENDING
#define MPI_ERR_UNSUPPORTED_OPERATION TMPI_ERR_UNSUPPORTED_OPERATION
#define MPI_ERR_LASTCODE TMPI_ERR_LASTCODE

/* predefined datatypes and their aliases */
/* (enumerators, so that they are integer constant expressions in C too) */
enum tmpi_user_datatypes {
#define TMPI_DATATYPE(NAME, CTYPE, CLASS) MPI_##NAME = TMPI_DT_##NAME,
#include <tucana/tmpi_datatypes.def>
#undef TMPI_DATATYPE
  TMPI_USER_DATATYPES_END_
};
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX

/* predefined reduction operations */
enum tmpi_user_ops {
#define TMPI_OP(NAME, APPLIES) MPI_##NAME = TMPI_OP_##NAME,
#include <tucana/tmpi_ops.def>
#undef TMPI_OP
  TMPI_USER_OPS_END_
};

/* supported functions: MPI_X and PMPI_X both bound to TMPI_X */
#define TMPI_FN(NAME, PARAMS)                                                  \
  int MPI_##NAME PARAMS __asm__("TMPI_" #NAME);                                \
  int PMPI_##NAME PARAMS __asm__("TMPI_" #NAME);
#define TMPI_FN_R(RET, NAME, PARAMS)                                           \
  RET MPI_##NAME PARAMS __asm__("TMPI_" #NAME);                                \
  RET PMPI_##NAME PARAMS __asm__("TMPI_" #NAME);
#include <tucana/tmpi_functions.def>
#undef TMPI_FN
#undef TMPI_FN_R

/* Unsupported functions: a call is a compile-time error naming it and why.
 * Declared with any arguments ("()" in C, "(...)" in C++) so that the call,
 * not its argument list, is what the compiler reports. */
#ifdef __cplusplus
#define TMPI_ANY_ARGS (...)
#else
#define TMPI_ANY_ARGS ()
#endif
#define TMPI_UNSUPPORTED(NAME, REASON)                                         \
  int MPI_##NAME TMPI_ANY_ARGS __attribute__((error("MPI_" #NAME ": " REASON)));
#include <tucana/tmpi_unsupported.def>
#undef TMPI_UNSUPPORTED
#undef TMPI_ANY_ARGS

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_USER_MPI_H */
