// Cartesian process topologies: MPI_Dims_create, MPI_Cart_* and
// MPI_Topo_test. (The neighbourhood collectives are in collectives.cc.)
#include <tucana/tmpi.h>

#include <algorithm>
#include <vector>

#include "mpi/errors.h"
#include "mpi/runtime.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

const Comm* cart_of(Subrank* me, TMPI_Comm comm, const char* call, int* err) {
  const Comm* c = me->handles.comm(comm);
  if (!c) {
    *err = mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
    return nullptr;
  }
  if (!c->cart) {
    *err = mpi_error(me, comm, TMPI_ERR_TOPOLOGY, call, "%s has no Cartesian topology", comm_name(comm));
    return nullptr;
  }
  return c;
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

}  // namespace

namespace tucana::mpi {

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
  Subrank* me = enter(call);
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
  Subrank* me = enter(call);
  CommInfo pi;
  if (!comm_info(me, comm_old, &pi))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm_old);
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
  Subrank* me = enter("MPI_Cartdim_get");
  int err = 0;
  const Comm* c = cart_of(me, comm, "MPI_Cartdim_get", &err);
  if (!c) return err;
  *ndims = static_cast<int>(c->cart->dims.size());
  return TMPI_SUCCESS;
}

int TMPI_Cart_get(TMPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  Subrank* me = enter("MPI_Cart_get");
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
  Subrank* me = enter(call);
  int err = 0;
  const Comm* c = cart_of(me, comm, call, &err);
  if (!c) return err;
  if (rank < 0 || rank >= c->size)
    return mpi_error(me, comm, TMPI_ERR_RANK, call, "invalid rank %d (%s has ranks 0 to %d)", rank, comm_name(comm),
                     c->size - 1);
  std::vector<int> all(c->cart->dims.size());
  coords_of(*c->cart, rank, all.data());
  for (int d = 0; d < std::min(maxdims, static_cast<int>(all.size())); ++d) coords[d] = all[static_cast<std::size_t>(d)];
  return TMPI_SUCCESS;
}

int TMPI_Cart_rank(TMPI_Comm comm, const int coords[], int* rank) {
  const char* call = "MPI_Cart_rank";
  Subrank* me = enter(call);
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
  Subrank* me = enter(call);
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
  Subrank* me = enter(call);
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
  Subrank* me = enter("MPI_Topo_test");
  const Comm* c = me->handles.comm(comm);
  if (!c) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Topo_test", "invalid communicator %d", comm);
  *status = c->cart ? TMPI_CART : TMPI_UNDEFINED;
  return TMPI_SUCCESS;
}

}  // extern "C"
