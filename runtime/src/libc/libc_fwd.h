// What core/runtime.h needs to hold a subrank's libc state (libc_state.h).
#pragma once

namespace tucana::libc {

struct State;

// Deletes a State (libc_state.cc), so that holders need not see its definition.
struct StateDeleter {
  void operator()(State* state) const;
};

}  // namespace tucana::libc
