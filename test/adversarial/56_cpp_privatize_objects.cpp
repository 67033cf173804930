// no annotations: C++ globals with constructors (vector, map, string), init order within the file, static locals with
// dynamic init in functions and member functions, thread_local object, class statics
#include <mpi.h>
#include <cstdio>
#include <map>
#include <string>
#include <vector>
static int ctor_count = 0;
struct Tracker { int id; Tracker() : id(++ctor_count) {} };
Tracker t1;
Tracker t2;
std::vector<int> history(3, 7);
std::map<std::string, long> registry{{"init", 1}};
std::string greeting = std::string("hi") + std::to_string(history.size());
thread_local std::vector<long> tl_buf(2, 5);
struct Box { static std::vector<int> items; long get(int r) { static long base = compute(r); return base; } static long compute(int r) { return 1000 + r; } };
std::vector<int> Box::items;
static long &cache() { static long c = registry.size() * 100; return c; }
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i <= rank; i++) history.push_back(rank);
  registry["rank"] = rank;
  greeting += "-" + std::to_string(rank);
  tl_buf.push_back(rank);
  Box::items.assign(rank + 1, rank);
  Box bx;
  long g = bx.get(rank);
  cache() += rank;
  MPI_Barrier(MPI_COMM_WORLD);
  long hs = 0;
  for (int h : history) hs = hs * 3 + h;
  std::printf("rank %d t %d %d ctors %d hist %zu %ld reg %zu %s tl %zu items %zu g %ld cache %ld\n", rank, t1.id, t2.id,
              ctor_count, history.size(), hs, registry.size(), greeting.c_str(), tl_buf.size(), Box::items.size(), g, cache());
  MPI_Finalize();
  return 0;
}
