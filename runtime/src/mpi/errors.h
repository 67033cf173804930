// Error reporting of the virtual MPI.
#pragma once

#include <tucana/tmpi.h>

#include "fiber/keep_errno.h"
#include "core/runtime.h"
#include "mpi/comm/communicator.h"
#include "sync/mutex.h"

namespace tucana::mpi {

// Reports an error of `call` made by `me` on `comm`. Under
// MPI_ERRORS_ARE_FATAL (the default) prints
//   tucana: error: subrank R: CALL: MESSAGE
// and aborts the whole job; under MPI_ERRORS_RETURN returns `code`.
int mpi_error(const Subrank* me, TMPI_Comm comm, int code, const char* call, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
// The same under the error handler `handler` (a file's, which is not a
// communicator's).
int report_error(const Subrank* me, TMPI_Errhandler handler, int object, int code, const char* call, const char* fmt, ...)
    __attribute__((format(printf, 6, 7)));

// (fatal(): core/output.h.)

// What enter() returns: the calling subrank, and the keeper of the
// program's errno over the call (fiber::KeepCallErrno): kept as
// `Entered me = enter(call);`, it puts the caller's errno back when the MPI
// function returns, whatever the runtime's work in between set. Not
// copyable: pass `me` on as the Subrank* it converts to.
class Entered {
 public:
  Entered(Subrank* me, int caller_errno) : keep_(caller_errno), me_(me) {}
  operator Subrank*() const { return me_; }
  Subrank* operator->() const { return me_; }
  Subrank& operator*() const { return *me_; }

 private:
  fiber::KeepCallErrno keep_;
  Subrank* me_;
};

// The subrank making MPI call `call`; a fatal error when called outside a
// subrank or, unless `before_init_ok`, before MPI_Init or after MPI_Finalize.
Entered enter(const char* call, bool before_init_ok = false);

// Marks `me` as polling without success (after a failed MPI_Test or
// MPI_Iprobe), described by `what` for the deadlock report. The next MPI
// call clears it (in enter()). The stall detector counts polling subranks as
// blocked, so a program spinning on MPI_Test in a deadlock is reported too.
void note_polling(Subrank* me, const BlockedIn& what);
// (Subrank::blocked's lock: polling_mutex(), core/runtime.h.)

// A call of `call`, which Tucana declares but does not run: prints
//   tucana: error: subrank R: CALL is not supported by Tucana: REASON
// (a warning, once per call name and process, under MPI_ERRORS_RETURN) and
// returns MPI_ERR_UNSUPPORTED_OPERATION through `comm`'s error handler.
int unsupported_call(const char* call, const char* reason, TMPI_Comm comm);

// User error handlers (errhandlers.cc). A handler is valid for the kind of
// object it was made for; calling it passes a pointer to the object's handle.
enum class ErrhandlerKind { Comm, Win, File, Session };
bool valid_errhandler(TMPI_Errhandler handler, ErrhandlerKind kind);
// A new user handler for objects of `kind`, calling `fn` (of that kind's
// function type).
int create_errhandler(ErrhandlerKind kind, void* fn, TMPI_Errhandler* errhandler);
void call_user_errhandler(TMPI_Errhandler handler, int* object, int code);
// Error classes and codes the program added: the text ("" when none was
// set; null when `code` was not added) and the class (-1: not added).
const char* user_error_text(int code);
int user_error_class(int code);
// The MPI_LASTUSEDCODE attribute's value (MPI_Comm_get_attr gives a pointer
// to the calling subrank's copy of it).
int last_used_error_code();

// The text of an error class, as MPI_Error_string gives it.
const char* error_text(int code);

}  // namespace tucana::mpi
