// OpenMP threadprivate variables, per subrank and per thread (see
// threadprivate.cc; registered by translated code through
// tucana_priv_threadprivate, tucana/privatize.h).
#pragma once

#include <cstddef>

namespace tucana::mpi {
struct Subrank;
}

namespace tucana::omp {

// True once the program has registered a threadprivate variable.
bool threadprivate_in_use();

// Called on a thread of a team that `subrank` started, as it begins the team's implicit task: its threadprivate copies
// take the values of its place in that subrank's teams. Contract: called
// inside the team (omp_get_level() is the team's level).
void install_team_thread(const mpi::Subrank* subrank);

}  // namespace tucana::omp
