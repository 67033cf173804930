// Transport::configure with the system's real MPI (initialized here as a
// singleton, one process): it splits the library's own MPI_TAG_UB as
// comm/tag_encoding.h plans, gives programs at least MPI's 32767, and
// refuses a layout with too many subranks per process, naming the limit.
// Initialized as --progress worker with several workers: MPI_THREAD_FUNNELED,
// and no thread but the initializing one may call MPI through it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <climits>
#include <string>
#include <thread>

#include "comm/layout.h"
#include "comm/tag_encoding.h"
#include "comm/transport.h"

namespace {

using tucana::comm::Layout;
using tucana::comm::plan_tags;
using tucana::comm::Progress;
using tucana::comm::TagPlan;
using tucana::comm::Transport;

Layout layout(int total, int nprocs, int workers) {
  Layout l;
  std::string error;
  EXPECT_TRUE(Layout::compute(total, nprocs, 0, workers, &l, &error)) << error;
  return l;
}

// One test: MPI can be initialized once per process.
TEST(TransportWithTheRealMpi, ConfigureSplitsTheLibrarysTagSpace) {
  Transport t;
  std::string error;
  ASSERT_TRUE(t.init(nullptr, nullptr, /*threads_needed=*/true, Progress::kWorker, &error)) << error;
  ASSERT_EQ(t.size(), 1);
  int level = -1;
  MPI_Query_thread(&level);
  EXPECT_EQ(level, MPI_THREAD_FUNNELED);  // not SERIALIZED, as --progress any asks with several workers
  EXPECT_EQ(t.progress(), Progress::kWorker);
  EXPECT_TRUE(t.may_call_mpi());
  bool other_may = true, other_started = true;
  std::thread other([&] {
    other_may = t.may_call_mpi();
    const long long in[Transport::kAgreementValues] = {1, 1, 0, 0};
    other_started = t.agreement_start(in);  // refused: it would call MPI_Iallreduce
    t.poll();                                // does nothing there
  });
  other.join();
  EXPECT_FALSE(other_may);
  EXPECT_FALSE(other_started);

  // 2 processes of 2 x 128 subranks: 8 bits per local index.
  const Layout too_many = layout(512, 2, 2);
  error.clear();
  EXPECT_FALSE(t.configure(too_many, &error));
  EXPECT_NE(error.find("too many subranks per process for the tag space: 256 subranks per process"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("the MPI library's MPI_TAG_UB ("), std::string::npos) << error;
  EXPECT_NE(error.find("fewer than the 15 that MPI guarantees (MPI_TAG_UB >= 32767)"), std::string::npos) << error;

  // -np 2 --workers 2 --vf 8: accepted, as planned for the library's MPI_TAG_UB.
  const Layout ok = layout(32, 2, 2);
  error.clear();
  ASSERT_TRUE(t.configure(ok, &error)) << error;
  const long library_tag_ub = (1L << t.real_tag_bits()) - 1;
  TagPlan plan;
  ASSERT_TRUE(plan_tags(library_tag_ub, 16, true, &plan, &error)) << error;
  EXPECT_GE(t.user_tag_ub(), 32767);
  EXPECT_EQ(t.user_tag_ub(), plan.user_tag_ub);
  EXPECT_EQ(t.subrank_bits(), 4);
  EXPECT_EQ(t.context_bits(), plan.format.context_bits);
  EXPECT_GE(t.remote_contexts(), 2);  // MPI_COMM_WORLD's two contexts at least
  t.finalize();
}

}  // namespace
