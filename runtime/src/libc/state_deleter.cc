// StateDeleter on its own: whatever holds a Subrank (the unit tests of the
// runtime's parts included) can destroy its libc state without the rest of
// the runtime.
#include "libc/libc_state.h"

namespace tucana::libc {

void StateDeleter::operator()(State* state) const { delete state; }

}  // namespace tucana::libc
