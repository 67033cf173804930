// no annotations: static locals in a lambda, an inline function, a member function defined in the class, a local
// class's method, a constexpr-initialized static array; global pointer to a static local's storage via a function
#include <mpi.h>
#include <cstdio>
inline int next_id() { static int id = 0; return ++id; }
struct Acc { int add(int v) { static int sum = 0; sum += v; return sum; } };
static int &ref_counter() { static int c; return c; }
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto tick = [](int by) { static long ticks = 0; ticks += by; return ticks; };
  struct Local { static int twice(int v) { static int calls = 0; calls++; return v * 2 + calls; } };
  long t = 0;
  for (int i = 0; i <= rank; i++) t = tick(i + 1);
  int id = 0;
  for (int i = 0; i < rank + 2; i++) id = next_id();
  Acc a;
  int s = a.add(rank) + a.add(1);
  int lt = Local::twice(rank) + Local::twice(1);
  static constexpr int table[3] = {1, 2, 3};
  static int hits[3];
  hits[rank % 3] += table[rank % 3];
  ref_counter() += rank * 10;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d t %ld id %d s %d lt %d hits %d %d %d rc %d\n", rank, t, id, s, lt, hits[0], hits[1], hits[2], ref_counter());
  MPI_Finalize();
  return 0;
}
