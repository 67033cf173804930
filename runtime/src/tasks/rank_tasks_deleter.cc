// RankTasksDeleter on its own: whatever holds a Subrank (the unit tests of
// the runtime's parts included) can destroy its tasks' records without the
// rest of the runtime (as libc/state_deleter.cc).
#include "tasks/task.h"

#include <cstdlib>

namespace tucana::tasks {

void RankTasksDeleter::operator()(RankTasks* t) const { delete t; }

Task::~Task() {
  if (owns_arg) std::free(arg);
}

}  // namespace tucana::tasks
