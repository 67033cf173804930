// Process topologies: Cartesian (MPI_Dims_create, MPI_Cart_*), graph
// (MPI_Graph_*), distributed graph (MPI_Dist_graph_*), the identity
// mappings (MPI_Cart_map, MPI_Graph_map) and MPI_Topo_test. The neighbours
// of any of them feed the neighbourhood collectives (coll/calls.cc).
//
// Ranks never move (reorder is ignored): subranks have no placement to
// improve that the program could not ask for with its own rank order.
#include <tucana/tmpi.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "mpi/errors.h"
#include "core/runtime.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

// MPI_ERR_RANK unless `rank` is a rank of `c` (the communicator `comm`).
int check_rank(Subrank* me, TMPI_Comm comm, const char* call, const Comm& c, int rank) {
  if (rank >= 0 && rank < c.size) return TMPI_SUCCESS;
  return mpi_error(me, comm, TMPI_ERR_RANK, call, "invalid rank %d (%s has ranks 0 to %d)", rank, comm_name(comm),
                   c.size - 1);
}

// The communicator `comm` if it is valid and has the topology `topology`
// (Comm::cart, ::graph or ::dist_graph), else null with *err set: to
// MPI_ERR_COMM, or to MPI_ERR_TOPOLOGY "<comm> has no <kind> topology".
template <typename Topology>
const Comm* with_topology(Subrank* me, TMPI_Comm comm, const char* call, std::unique_ptr<Topology> Comm::*topology,
                          const char* kind, int* err) {
  const Comm* c = me->handles->comm(comm);
  if (!c) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
    return nullptr;
  }
  if (!(c->*topology)) {
    *err = mpi_error(me, comm, TMPI_ERR_TOPOLOGY, call, "%s has no %s topology", comm_name(comm), kind);
    return nullptr;
  }
  return c;
}

const Comm* cart_of(Subrank* me, TMPI_Comm comm, const char* call, int* err) {
  return with_topology(me, comm, call, &Comm::cart, "Cartesian", err);
}

// Row-major coordinates of `rank` in `dims`.
void coords_of(const CartTopology& t, int rank, int* coords) {
  for (int d = static_cast<int>(t.dims.size()) - 1; d >= 0; --d) {
    int n = t.dims[static_cast<std::size_t>(d)];
    coords[d] = rank % n;
    rank /= n;
  }
}

// The rank at `coords`, wrapping periodic dimensions; MPI_PROC_NULL when a
// coordinate of a non-periodic one is outside.
int rank_at(const CartTopology& t, const int* coords) {
  int rank = 0;
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    int n = t.dims[d], c = coords[d];
    if (c < 0 || c >= n) {
      if (!t.periods[d]) return TMPI_PROC_NULL;
      c = ((c % n) + n) % n;
    }
    rank = rank * n + c;
  }
  return rank;
}

const Comm* graph_of(Subrank* me, TMPI_Comm comm, const char* call, int* err) {
  return with_topology(me, comm, call, &Comm::graph, "graph", err);
}

const Comm* dist_graph_of(Subrank* me, TMPI_Comm comm, const char* call, int* err) {
  return with_topology(me, comm, call, &Comm::dist_graph, "distributed graph", err);
}

// The neighbours of `rank` in a graph topology (edges index[rank-1] to index[rank]).
std::vector<int> graph_neighbors(const GraphTopology& g, int rank) {
  std::size_t begin = rank == 0 ? 0 : static_cast<std::size_t>(g.index[static_cast<std::size_t>(rank - 1)]);
  std::size_t end = static_cast<std::size_t>(g.index[static_cast<std::size_t>(rank)]);
  return std::vector<int>(g.edges.begin() + static_cast<std::ptrdiff_t>(begin),
                          g.edges.begin() + static_cast<std::ptrdiff_t>(end));
}

// Checks a graph as MPI_Graph_create and MPI_Graph_map take it: `nnodes`
// nodes (at most `size`), cumulative degrees, edges to nodes.
int check_graph(Subrank* me, TMPI_Comm comm, const char* call, int size, int nnodes, const int index[],
                const int edges[]) {
  if (nnodes < 0 || nnodes > size)
    return mpi_error(me, comm, TMPI_ERR_ARG, call, "invalid nnodes %d (%s has %d ranks)", nnodes, comm_name(comm),
                     size);
  int prev = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < prev)
      return mpi_error(me, comm, TMPI_ERR_ARG, call, "index[%d] = %d is smaller than the one before (%d)", i, index[i],
                       prev);
    prev = index[i];
  }
  for (int e = 0; e < prev; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return mpi_error(me, comm, TMPI_ERR_ARG, call, "edges[%d] = %d is not a node (0 to %d)", e, edges[e],
                       nnodes - 1);
  return TMPI_SUCCESS;
}

bool unweighted(const int* w) { return w == TMPI_UNWEIGHTED; }
// A weights array that holds nothing to read (or to write).
bool no_weights(const int* w) { return w == nullptr || w == TMPI_UNWEIGHTED || w == TMPI_WEIGHTS_EMPTY; }

int check_ranks(Subrank* me, TMPI_Comm comm, const char* call, const char* what, int n, const int ranks[], int size) {
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return mpi_error(me, comm, TMPI_ERR_RANK, call, "%s[%d] = %d is not a rank of %s (0 to %d)", what, i, ranks[i],
                       comm_name(comm), size - 1);
  return TMPI_SUCCESS;
}

}  // namespace

namespace tucana::mpi {

void Comm::copy_topology(const Comm& from) {
  if (from.cart) cart = std::make_unique<CartTopology>(*from.cart);
  if (from.graph) graph = std::make_unique<GraphTopology>(*from.graph);
  if (from.dist_graph) dist_graph = std::make_unique<DistGraphTopology>(*from.dist_graph);
}

bool topology_neighbors(const Comm& c, Neighbors* out) {
  out->cartesian = false;
  if (c.cart) {
    cart_neighbors(c, &out->sources);
    out->destinations = out->sources;
    out->cartesian = true;
    return true;
  }
  if (c.graph) {
    out->sources = graph_neighbors(*c.graph, c.rank);
    out->destinations = out->sources;
    return true;
  }
  if (c.dist_graph) {
    out->sources = c.dist_graph->sources;
    out->destinations = c.dist_graph->destinations;
    return true;
  }
  return false;
}

// The neighbours of a Cartesian communicator's rank in MPI's order: for each
// dimension, the one at -1 then the one at +1 (MPI_PROC_NULL off an edge).
bool cart_neighbors(const Comm& c, std::vector<int>* out) {
  if (!c.cart) return false;
  const CartTopology& t = *c.cart;
  std::vector<int> coords(t.dims.size());
  coords_of(t, c.rank, coords.data());
  out->clear();
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    for (int step : {-1, 1}) {
      std::vector<int> at(coords);
      at[d] += step;
      out->push_back(rank_at(t, at.data()));
    }
  }
  return true;
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  const char* call = "MPI_Dims_create";
  Entered me = enter(call);
  if (nnodes < 1 || ndims < 0)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_DIMS, call, "invalid arguments nnodes=%d ndims=%d", nnodes, ndims);
  int fixed = 1, free_dims = 0;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] < 0) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_DIMS, call, "dims[%d] = %d is negative", d, dims[d]);
    if (dims[d] > 0) fixed *= dims[d];
    else ++free_dims;
  }
  if (nnodes % fixed != 0)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_DIMS, call,
                     "%d nodes cannot be divided among the given dimensions (their product is %d)", nnodes, fixed);
  if (free_dims == 0) {
    if (fixed != nnodes)
      return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_DIMS, call, "the dimensions multiply to %d, not %d", fixed, nnodes);
    return TMPI_SUCCESS;
  }
  // Prime factors of what is left, largest first, each to the smallest
  // free dimension so far: as balanced as possible, then sorted decreasing.
  int left = nnodes / fixed;
  std::vector<int> factors;
  for (int p = 2; p * p <= left; ++p)
    while (left % p == 0) {
      factors.push_back(p);
      left /= p;
    }
  if (left > 1) factors.push_back(left);
  std::sort(factors.rbegin(), factors.rend());
  std::vector<int> sizes(static_cast<std::size_t>(free_dims), 1);
  for (int f : factors) *std::min_element(sizes.begin(), sizes.end()) *= f;
  std::sort(sizes.rbegin(), sizes.rend());
  std::size_t k = 0;
  for (int d = 0; d < ndims; ++d)
    if (dims[d] == 0) dims[d] = sizes[k++];
  return TMPI_SUCCESS;
}

int TMPI_Cart_create(TMPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     TMPI_Comm* comm_cart) {
  (void)reorder;  // ranks keep their order: subranks have no placement to improve
  const char* call = "MPI_Cart_create";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm_old, &pi))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm_old);
  if (pi.comm->inter()) return inter_unsupported(me, comm_old, call);
  if (ndims < 0) return mpi_error(me, comm_old, TMPI_ERR_DIMS, call, "invalid ndims %d", ndims);
  long long cells = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) return mpi_error(me, comm_old, TMPI_ERR_DIMS, call, "dims[%d] = %d must be positive", d, dims[d]);
    cells *= dims[d];
  }
  if (cells > pi.size)
    return mpi_error(me, comm_old, TMPI_ERR_TOPOLOGY, call, "the grid has %lld cells but %s has only %d ranks", cells,
                     comm_name(comm_old), pi.size);
  std::vector<int> members;
  for (int r = 0; r < cells; ++r) members.push_back(pi.comm->to_world(r));
  Comm* created = nullptr;
  if (int e = create_comm(me, comm_old, pi, call, std::move(members), pi.rank < cells, comm_cart, &created)) return e;
  if (created) {
    created->cart = std::make_unique<CartTopology>();
    created->cart->dims.assign(dims, dims + ndims);
    for (int d = 0; d < ndims; ++d) created->cart->periods.push_back(periods[d] ? 1 : 0);
  }
  return TMPI_SUCCESS;
}

int TMPI_Cartdim_get(TMPI_Comm comm, int* ndims) {
  Entered me = enter("MPI_Cartdim_get");
  int err = 0;
  const Comm* c = cart_of(me, comm, "MPI_Cartdim_get", &err);
  if (!c) return err;
  *ndims = static_cast<int>(c->cart->dims.size());
  return TMPI_SUCCESS;
}

int TMPI_Cart_get(TMPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  Entered me = enter("MPI_Cart_get");
  int err = 0;
  const Comm* c = cart_of(me, comm, "MPI_Cart_get", &err);
  if (!c) return err;
  const CartTopology& t = *c->cart;
  int n = std::min(maxdims, static_cast<int>(t.dims.size()));
  std::vector<int> all(t.dims.size());
  coords_of(t, c->rank, all.data());
  for (int d = 0; d < n; ++d) {
    dims[d] = t.dims[static_cast<std::size_t>(d)];
    periods[d] = t.periods[static_cast<std::size_t>(d)];
    coords[d] = all[static_cast<std::size_t>(d)];
  }
  return TMPI_SUCCESS;
}

int TMPI_Cart_coords(TMPI_Comm comm, int rank, int maxdims, int coords[]) {
  const char* call = "MPI_Cart_coords";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = cart_of(me, comm, call, &err);
  if (!c) return err;
  if (int e = check_rank(me, comm, call, *c, rank)) return e;
  std::vector<int> all(c->cart->dims.size());
  coords_of(*c->cart, rank, all.data());
  for (int d = 0; d < std::min(maxdims, static_cast<int>(all.size())); ++d) coords[d] = all[static_cast<std::size_t>(d)];
  return TMPI_SUCCESS;
}

int TMPI_Cart_rank(TMPI_Comm comm, const int coords[], int* rank) {
  const char* call = "MPI_Cart_rank";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = cart_of(me, comm, call, &err);
  if (!c) return err;
  int r = rank_at(*c->cart, coords);
  if (r == TMPI_PROC_NULL)
    return mpi_error(me, comm, TMPI_ERR_RANK, call, "coordinates outside a non-periodic dimension");
  *rank = r;
  return TMPI_SUCCESS;
}

int TMPI_Cart_shift(TMPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  const char* call = "MPI_Cart_shift";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = cart_of(me, comm, call, &err);
  if (!c) return err;
  const CartTopology& t = *c->cart;
  if (direction < 0 || direction >= static_cast<int>(t.dims.size()))
    return mpi_error(me, comm, TMPI_ERR_DIMS, call, "invalid direction %d (the grid has %zu dimensions)", direction,
                     t.dims.size());
  std::vector<int> coords(t.dims.size());
  coords_of(t, c->rank, coords.data());
  std::vector<int> at(coords);
  at[static_cast<std::size_t>(direction)] = coords[static_cast<std::size_t>(direction)] + disp;
  *rank_dest = rank_at(t, at.data());
  at[static_cast<std::size_t>(direction)] = coords[static_cast<std::size_t>(direction)] - disp;
  *rank_source = rank_at(t, at.data());
  return TMPI_SUCCESS;
}

int TMPI_Cart_sub(TMPI_Comm comm, const int remain_dims[], TMPI_Comm* newcomm) {
  const char* call = "MPI_Cart_sub";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = cart_of(me, comm, call, &err);
  if (!c) return err;
  CommInfo pi;
  comm_info(me, comm, &pi);
  const CartTopology t = *c->cart;  // a copy: the table may grow below
  std::vector<int> coords(t.dims.size());
  coords_of(t, c->rank, coords.data());
  // Ranks that agree on the dropped coordinates form one sub-grid; inside
  // it, the parent's row-major order is the sub-grid's row-major order.
  int color = 0;
  CartTopology sub;
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    if (remain_dims[d]) {
      sub.dims.push_back(t.dims[d]);
      sub.periods.push_back(t.periods[d]);
    } else {
      color = color * t.dims[d] + coords[d];
    }
  }
  std::vector<int> members;
  if (int e = split_members(me, comm, pi, color, pi.rank, &members)) return e;
  Comm* created = nullptr;
  if (int e = create_comm(me, comm, pi, call, std::move(members), true, newcomm, &created)) return e;
  created->cart = std::make_unique<CartTopology>(std::move(sub));
  return TMPI_SUCCESS;
}

int TMPI_Topo_test(TMPI_Comm comm, int* status) {
  Entered me = enter("MPI_Topo_test");
  const Comm* c = me->handles->comm(comm);
  if (!c) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Topo_test", "invalid communicator %d", comm);
  *status = c->cart ? TMPI_CART : c->graph ? TMPI_GRAPH : c->dist_graph ? TMPI_DIST_GRAPH : TMPI_UNDEFINED;
  return TMPI_SUCCESS;
}

int TMPI_Cart_map(TMPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  (void)periods;
  const char* call = "MPI_Cart_map";
  Entered me = enter(call);
  CommInfo ci;
  if (!comm_info(me, comm, &ci)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
  if (ndims < 0) return mpi_error(me, comm, TMPI_ERR_DIMS, call, "invalid ndims %d", ndims);
  long long cells = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) return mpi_error(me, comm, TMPI_ERR_DIMS, call, "dims[%d] = %d must be positive", d, dims[d]);
    cells *= dims[d];
  }
  if (cells > ci.size)
    return mpi_error(me, comm, TMPI_ERR_TOPOLOGY, call, "the grid has %lld cells but %s has only %d ranks", cells,
                     comm_name(comm), ci.size);
  *newrank = ci.rank < cells ? ci.rank : TMPI_UNDEFINED;  // the identity, as MPI_Cart_create places ranks
  return TMPI_SUCCESS;
}

int TMPI_Graph_create(TMPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      TMPI_Comm* comm_graph) {
  (void)reorder;
  const char* call = "MPI_Graph_create";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm_old, &pi))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm_old);
  if (pi.comm->inter()) return inter_unsupported(me, comm_old, call);
  if (int e = check_graph(me, comm_old, call, pi.size, nnodes, index, edges)) return e;
  std::vector<int> members;
  for (int r = 0; r < nnodes; ++r) members.push_back(pi.comm->to_world(r));
  Comm* created = nullptr;
  if (int e = create_comm(me, comm_old, pi, call, std::move(members), pi.rank < nnodes, comm_graph, &created))
    return e;
  if (created) {
    created->graph = std::make_unique<GraphTopology>();
    created->graph->index.assign(index, index + nnodes);
    created->graph->edges.assign(edges, edges + (nnodes ? index[nnodes - 1] : 0));
  }
  return TMPI_SUCCESS;
}

int TMPI_Graphdims_get(TMPI_Comm comm, int* nnodes, int* nedges) {
  int err = 0;
  const Comm* c = graph_of(enter("MPI_Graphdims_get"), comm, "MPI_Graphdims_get", &err);
  if (!c) return err;
  *nnodes = static_cast<int>(c->graph->index.size());
  *nedges = static_cast<int>(c->graph->edges.size());
  return TMPI_SUCCESS;
}

int TMPI_Graph_get(TMPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  int err = 0;
  const Comm* c = graph_of(enter("MPI_Graph_get"), comm, "MPI_Graph_get", &err);
  if (!c) return err;
  const GraphTopology& g = *c->graph;
  for (int i = 0; i < std::min(maxindex, static_cast<int>(g.index.size())); ++i) index[i] = g.index[static_cast<std::size_t>(i)];
  for (int i = 0; i < std::min(maxedges, static_cast<int>(g.edges.size())); ++i) edges[i] = g.edges[static_cast<std::size_t>(i)];
  return TMPI_SUCCESS;
}

int TMPI_Graph_neighbors_count(TMPI_Comm comm, int rank, int* nneighbors) {
  const char* call = "MPI_Graph_neighbors_count";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = graph_of(me, comm, call, &err);
  if (!c) return err;
  if (int e = check_rank(me, comm, call, *c, rank)) return e;
  *nneighbors = static_cast<int>(graph_neighbors(*c->graph, rank).size());
  return TMPI_SUCCESS;
}

int TMPI_Graph_neighbors(TMPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  const char* call = "MPI_Graph_neighbors";
  Entered me = enter(call);
  int err = 0;
  const Comm* c = graph_of(me, comm, call, &err);
  if (!c) return err;
  if (int e = check_rank(me, comm, call, *c, rank)) return e;
  std::vector<int> nb = graph_neighbors(*c->graph, rank);
  for (int i = 0; i < std::min(maxneighbors, static_cast<int>(nb.size())); ++i) neighbors[i] = nb[static_cast<std::size_t>(i)];
  return TMPI_SUCCESS;
}

int TMPI_Graph_map(TMPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  const char* call = "MPI_Graph_map";
  Entered me = enter(call);
  CommInfo ci;
  if (!comm_info(me, comm, &ci)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
  if (int e = check_graph(me, comm, call, ci.size, nnodes, index, edges)) return e;
  *newrank = ci.rank < nnodes ? ci.rank : TMPI_UNDEFINED;  // the identity, as MPI_Graph_create places ranks
  return TMPI_SUCCESS;
}

int TMPI_Dist_graph_create_adjacent(TMPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], TMPI_Info info,
                                    int reorder, TMPI_Comm* comm_dist_graph) {
  (void)info;
  (void)reorder;
  const char* call = "MPI_Dist_graph_create_adjacent";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm_old, &pi))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm_old);
  if (pi.comm->inter()) return inter_unsupported(me, comm_old, call);
  if (indegree < 0 || outdegree < 0)
    return mpi_error(me, comm_old, TMPI_ERR_ARG, call, "invalid degrees %d (in) and %d (out)", indegree, outdegree);
  if (int e = check_ranks(me, comm_old, call, "sources", indegree, sources, pi.size)) return e;
  if (int e = check_ranks(me, comm_old, call, "destinations", outdegree, destinations, pi.size)) return e;
  auto t = std::make_unique<DistGraphTopology>();
  t->weighted = !unweighted(sourceweights);
  t->sources.assign(sources, sources + indegree);
  t->destinations.assign(destinations, destinations + outdegree);
  if (no_weights(sourceweights)) t->source_weights.assign(static_cast<std::size_t>(indegree), 1);
  else t->source_weights.assign(sourceweights, sourceweights + indegree);
  if (no_weights(destweights)) t->destination_weights.assign(static_cast<std::size_t>(outdegree), 1);
  else t->destination_weights.assign(destweights, destweights + outdegree);
  Comm* created = nullptr;
  if (int e = create_comm(me, comm_old, pi, call, pi.comm->members(), true, comm_dist_graph, &created)) return e;
  created->dist_graph = std::move(t);
  return TMPI_SUCCESS;
}

// Every rank may name any edge: each edge goes to both its ends (an
// alltoall of counts, an alltoallv of (kind, other end, weight) triples),
// and each rank lists what it got in the order of the ranks that sent it.
int TMPI_Dist_graph_create(TMPI_Comm comm_old, int n, const int nodes[], const int degrees[], const int targets[],
                           const int weights[], TMPI_Info info, int reorder, TMPI_Comm* newcomm) {
  (void)info;
  (void)reorder;
  const char* call = "MPI_Dist_graph_create";
  Entered me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm_old, &pi))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm_old);
  if (pi.comm->inter()) return inter_unsupported(me, comm_old, call);
  if (n < 0) return mpi_error(me, comm_old, TMPI_ERR_ARG, call, "invalid n %d", n);
  if (int e = check_ranks(me, comm_old, call, "sources", n, nodes, pi.size)) return e;
  const std::size_t size = static_cast<std::size_t>(pi.size);
  enum { kIn = 0, kOut = 1 };
  std::vector<std::vector<int>> to(size);
  for (int i = 0, k = 0; i < n; ++i) {
    if (degrees[i] < 0) return mpi_error(me, comm_old, TMPI_ERR_ARG, call, "degrees[%d] = %d is negative", i, degrees[i]);
    if (int e = check_ranks(me, comm_old, call, "destinations", degrees[i], targets + k, pi.size)) return e;
    for (int j = 0; j < degrees[i]; ++j, ++k) {
      int s = nodes[i], d = targets[k], w = no_weights(weights) ? 1 : weights[k];
      std::vector<int>& at_s = to[static_cast<std::size_t>(s)];
      at_s.insert(at_s.end(), {kOut, d, w});
      std::vector<int>& at_d = to[static_cast<std::size_t>(d)];
      at_d.insert(at_d.end(), {kIn, s, w});
    }
  }
  std::vector<int> scounts(size), sdispls(size), rcounts(size), rdispls(size);
  std::vector<int> out;
  for (std::size_t r = 0; r < size; ++r) {
    sdispls[r] = static_cast<int>(out.size());
    scounts[r] = static_cast<int>(to[r].size());
    out.insert(out.end(), to[r].begin(), to[r].end());
  }
  if (int e = TMPI_Alltoall(scounts.data(), 1, TMPI_DT_INT, rcounts.data(), 1, TMPI_DT_INT, comm_old)) return e;
  long long total = 0;
  for (std::size_t r = 0; r < size; ++r) {
    rdispls[r] = static_cast<int>(total);
    total += rcounts[r];
  }
  if (total > INT_MAX) return mpi_error(me, comm_old, TMPI_ERR_COUNT, call, "too many edges at rank %d", pi.rank);
  std::vector<int> in(static_cast<std::size_t>(total));
  if (int e = TMPI_Alltoallv(out.data(), scounts.data(), sdispls.data(), TMPI_DT_INT, in.data(), rcounts.data(),
                             rdispls.data(), TMPI_DT_INT, comm_old))
    return e;
  auto t = std::make_unique<DistGraphTopology>();
  t->weighted = !unweighted(weights);
  for (std::size_t i = 0; i + 2 < in.size(); i += 3) {
    if (in[i] == kIn) {
      t->sources.push_back(in[i + 1]);
      t->source_weights.push_back(in[i + 2]);
    } else {
      t->destinations.push_back(in[i + 1]);
      t->destination_weights.push_back(in[i + 2]);
    }
  }
  Comm* created = nullptr;
  if (int e = create_comm(me, comm_old, pi, call, pi.comm->members(), true, newcomm, &created)) return e;
  created->dist_graph = std::move(t);
  return TMPI_SUCCESS;
}

int TMPI_Dist_graph_neighbors_count(TMPI_Comm comm, int* inneighbors, int* outneighbors, int* weighted) {
  int err = 0;
  const Comm* c = dist_graph_of(enter("MPI_Dist_graph_neighbors_count"), comm, "MPI_Dist_graph_neighbors_count", &err);
  if (!c) return err;
  *inneighbors = static_cast<int>(c->dist_graph->sources.size());
  *outneighbors = static_cast<int>(c->dist_graph->destinations.size());
  *weighted = c->dist_graph->weighted;
  return TMPI_SUCCESS;
}

int TMPI_Dist_graph_neighbors(TMPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[]) {
  int err = 0;
  const Comm* c = dist_graph_of(enter("MPI_Dist_graph_neighbors"), comm, "MPI_Dist_graph_neighbors", &err);
  if (!c) return err;
  const DistGraphTopology& t = *c->dist_graph;
  for (int i = 0; i < std::min(maxindegree, static_cast<int>(t.sources.size())); ++i) {
    sources[i] = t.sources[static_cast<std::size_t>(i)];
    if (t.weighted && !no_weights(sourceweights)) sourceweights[i] = t.source_weights[static_cast<std::size_t>(i)];
  }
  for (int i = 0; i < std::min(maxoutdegree, static_cast<int>(t.destinations.size())); ++i) {
    destinations[i] = t.destinations[static_cast<std::size_t>(i)];
    if (t.weighted && !no_weights(destweights)) destweights[i] = t.destination_weights[static_cast<std::size_t>(i)];
  }
  return TMPI_SUCCESS;
}

}  // extern "C"
