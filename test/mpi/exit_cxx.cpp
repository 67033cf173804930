// A C++ program that ends with std::exit(0) after MPI_Finalize while a
// static object with a destructor is alive: the object is privatized, so
// its destructor runs once per subrank, as once per rank under mpirun.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

struct Logger {
  std::string name = "logger";
  ~Logger() { std::printf("destructor of %s ran\n", name.c_str()); }
};
static Logger logger;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string line = "done " + std::to_string(rank);
  std::printf("%s\n", line.c_str());
  MPI_Finalize();
  std::exit(0);
}
