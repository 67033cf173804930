// The per-subrank libc functions (runtime/src/libc) against glibc's own:
// outside subranks they use the process-wide state, so a call-by-call
// comparison with glibc here checks the same code that subranks run
// (test/mpi/libc_state.c checks that the states are per subrank).
//
// Each case runs in a child process, so that glibc and Tucana both start
// from a fresh process's state (rand()'s default seed, getopt's first call).
#include <getopt.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <tucana/privatize.h>
#include <unistd.h>

#include <cassert>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

// Runs `body` in a child process and returns what it returned.
std::string in_child(const std::function<std::string()>& body) {
  int fds[2];
  int rc = pipe(fds);
  assert(rc == 0);
  (void)rc;
  std::fflush(nullptr);
  pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    std::string out = body();
    const char* p = out.data();
    std::size_t left = out.size();
    while (left > 0) {
      ssize_t n = write(fds[1], p, left);
      if (n <= 0) _exit(2);
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  return out;
}

// --- getopt -------------------------------------------------------------------

enum class Kind { kGetopt, kLong, kLongOnly };

// One implementation: glibc's functions and variables, or Tucana's.
struct Impl {
  int (*getopt)(int, char* const*, const char*);
  int (*getopt_long)(int, char* const*, const char*, const option*, int*);
  int (*getopt_long_only)(int, char* const*, const char*, const option*, int*);
  int* optind;
  char** optarg;
  int* opterr;
  int* optopt;
};

Impl glibc_impl() { return Impl{getopt, getopt_long, getopt_long_only, &optind, &optarg, &opterr, &optopt}; }

Impl tucana_impl() {
  return Impl{tucana_getopt,       tucana_getopt_long, tucana_getopt_long_only, tucana_priv_optind(),
              tucana_priv_optarg(), tucana_priv_opterr(), tucana_priv_optopt()};
}

int flag_value = 0;

const option kLongopts[] = {
    {"verbose", no_argument, nullptr, 'v'},
    {"version", no_argument, nullptr, 'V'},
    {"size", required_argument, nullptr, 's'},
    {"color", optional_argument, nullptr, 'c'},
    {"colour", optional_argument, nullptr, 'c'},  // same as color: "--col" is no ambiguity
    {"quiet", no_argument, &flag_value, 1},
    {"quit", no_argument, &flag_value, 2},
    {"output", required_argument, nullptr, 'o'},
    {"all", no_argument, nullptr, 'a'},
    {"a-b", no_argument, nullptr, 'A'},
    {nullptr, 0, nullptr, 0},
};

struct Scan {
  const char* optstring;
  std::vector<const char*> args;  // argv[1...]; empty in a rescan: keep the argv
  int optind_before = -1;         // a rescan: optind set to this first
  int stop_after = -1;            // at most this many calls (-1: until -1)
};

struct GetoptCase {
  const char* name;
  Kind kind;
  std::vector<Scan> scans;
  int opterr = 1;
  bool posixly_correct = false;
  const char* expect_message = nullptr;  // must be in glibc's stderr
};

// Where p points: into which original argument, at what offset.
std::string describe(const char* p, const std::vector<char*>& originals) {
  if (!p) return "null";
  for (std::size_t i = 0; i < originals.size(); ++i) {
    std::size_t len = std::strlen(originals[i]);
    if (p >= originals[i] && p <= originals[i] + len)
      return "'" + std::string(p) + "'@" + std::to_string(i) + "+" + std::to_string(p - originals[i]);
  }
  return "'" + std::string(p) + "'@elsewhere";
}

// Everything one implementation does over a case: per call the result,
// optind, optarg, optopt, longindex, the flag variable and argv's order;
// then what it wrote on stderr.
std::string transcript(const Impl& impl, const GetoptCase& c) {
  if (c.posixly_correct) setenv("POSIXLY_CORRECT", "1", 1);
  *impl.opterr = c.opterr;
  flag_value = 0;
  char tmpl[] = "/tmp/tucana_libc_test_XXXXXX";
  int err_fd = mkstemp(tmpl);
  assert(err_fd >= 0);
  unlink(tmpl);
  std::fflush(stderr);
  int saved = dup(2);
  dup2(err_fd, 2);

  std::string out;
  std::vector<char*> originals;
  std::vector<char*> argv;
  for (const Scan& scan : c.scans) {
    if (!scan.args.empty() || argv.empty()) {
      originals.clear();
      originals.push_back(strdup("prog"));
      for (const char* a : scan.args) originals.push_back(strdup(a));
      argv = originals;
      argv.push_back(nullptr);
    }
    if (scan.optind_before >= 0) *impl.optind = scan.optind_before;
    int argc = static_cast<int>(argv.size()) - 1;
    out += "scan " + std::string(scan.optstring) + "\n";
    for (int calls = 0; scan.stop_after < 0 || calls < scan.stop_after; ++calls) {
      int longindex = -1;
      int r = 0;
      switch (c.kind) {
        case Kind::kGetopt: r = impl.getopt(argc, argv.data(), scan.optstring); break;
        case Kind::kLong: r = impl.getopt_long(argc, argv.data(), scan.optstring, kLongopts, &longindex); break;
        case Kind::kLongOnly:
          r = impl.getopt_long_only(argc, argv.data(), scan.optstring, kLongopts, &longindex);
          break;
      }
      out += "r=" + std::to_string(r) + " optind=" + std::to_string(*impl.optind) +
             " optarg=" + describe(*impl.optarg, originals) + " optopt=" + std::to_string(*impl.optopt) +
             " longindex=" + std::to_string(longindex) + " flag=" + std::to_string(flag_value) + " argv=";
      for (int i = 0; i < argc; ++i) {
        for (std::size_t j = 0; j < originals.size(); ++j)
          if (argv[static_cast<std::size_t>(i)] == originals[j]) out += std::to_string(j) + ",";
      }
      out += "\n";
      if (r == -1 || calls > 60) break;
    }
  }

  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string err;
  char buf[4096];
  lseek(err_fd, 0, SEEK_SET);
  ssize_t n;
  while ((n = read(err_fd, buf, sizeof buf)) > 0) err.append(buf, static_cast<std::size_t>(n));
  close(err_fd);
  return out + "stderr:\n" + err;
}

std::vector<GetoptCase> getopt_cases() {
  const Kind S = Kind::kGetopt, L = Kind::kLong, O = Kind::kLongOnly;
  const char* shorts = "abo:c::";
  std::vector<GetoptCase> v = {
      // short options
      {"separate", S, {{shorts, {"-a", "-b"}}}},
      {"grouped", S, {{shorts, {"-abc"}}}},
      {"grouped_optional_arg", S, {{shorts, {"-acx", "-c", "y"}}}},
      {"attached_arg", S, {{shorts, {"-ofile"}}}},
      {"separate_arg", S, {{shorts, {"-o", "file"}}}},
      {"group_then_attached_arg", S, {{shorts, {"-abofile", "x"}}}},
      {"group_then_separate_arg", S, {{shorts, {"-abo", "file", "x"}}}},
      {"arg_looks_like_option", S, {{shorts, {"-o", "-a", "-b"}}}},
      {"missing_arg", S, {{shorts, {"-ab", "-o"}}}, 1, false, "option requires an argument -- 'o'"},
      {"invalid", S, {{shorts, {"-x"}}}, 1, false, "invalid option -- 'x'"},
      {"invalid_in_group", S, {{shorts, {"-axb"}}}},
      {"colon_is_no_option", S, {{shorts, {"-:", "-;"}}}},
      {"permute", S, {{shorts, {"x", "-a", "y", "-b", "z"}}}},
      {"permute_with_args", S, {{shorts, {"x", "-a", "-o", "f", "y", "z", "-b", "w"}}}},
      {"double_dash", S, {{shorts, {"x", "-a", "--", "-b", "y"}}}},
      {"double_dash_first", S, {{shorts, {"--", "-a"}}}},
      {"double_dash_last", S, {{shorts, {"x", "-a", "--"}}}},
      {"dash_alone", S, {{shorts, {"-a", "-", "-b"}}}},
      {"no_arguments", S, {{shorts, {}}}},
      {"only_nonoptions", S, {{shorts, {"x", "y"}}}},
      {"plus_stops", S, {{"+ab", {"-a", "x", "-b"}}}},
      {"minus_in_order", S, {{"-ab", {"-a", "x", "-b", "y", "--", "z"}}}},
      {"colon_silent", S, {{":ab:o:", {"-x", "-o"}}}},
      {"plus_colon", S, {{"+:ab", {"-c", "-b", "-a", "x", "-a"}}}},
      {"minus_colon", S, {{"-:o:", {"x", "-o"}}}},
      {"opterr_0", S, {{shorts, {"-x", "-o"}}}, 0},
      {"posixly_correct", S, {{"ab", {"-a", "x", "-b"}}}, 1, true},
      {"long_to_short_getopt", S, {{shorts, {"--verbose"}}}, 1, false, "invalid option -- '-'"},
      {"optional_last", S, {{"a::", {"-a"}}}},
      {"non_ascii_option", S, {{shorts, {"-\xe9"}}}},
      {"W_without_longopts", S, {{"W;a", {"-W", "x"}}}},
      // long options
      {"long", L, {{shorts, {"--verbose", "--size=10", "--size", "20", "--output=f"}}}},
      {"long_abbrev", L, {{shorts, {"--verb", "--s=3", "--out", "o"}}}},
      {"long_ambiguous", L, {{shorts, {"--ver", "-a"}}}, 1, false, "is ambiguous; possibilities:"},
      {"long_same_meaning", L, {{shorts, {"--col=red", "--colo", "--colour"}}}},
      {"long_ambiguous_flags", L, {{shorts, {"--qui"}}}},
      {"long_exact_wins", L, {{shorts, {"--quit", "--quiet"}}}},
      {"long_exact_vs_prefix", L, {{shorts, {"--a", "--all", "--a-"}}}},
      {"long_missing_arg", L, {{shorts, {"--size"}}}, 1, false, "requires an argument"},
      {"long_missing_arg_colon", L, {{":ab", {"--size"}}}},
      {"long_no_arg_allowed", L, {{shorts, {"--verbose=yes", "--all=1"}}}, 1, false, "doesn't allow an argument"},
      {"long_optional_separate", L, {{shorts, {"--color", "red", "--color=", "--colour=blue"}}}},
      {"long_unknown", L, {{shorts, {"--unknown", "--unknown=5", "-a"}}}, 1, false, "unrecognized option '--unknown=5'"},
      {"long_empty_name", L, {{shorts, {"--=x"}}}},
      {"long_permute", L, {{shorts, {"-v", "file", "--all", "-o", "out", "g", "--size", "1", "h"}}}},
      {"long_double_dash", L, {{shorts, {"x", "--size=1", "y", "--", "--verbose"}}}},
      {"long_opterr_0", L, {{shorts, {"--ver", "--zz", "--size"}}}, 0},
      {"long_plus", L, {{"+ab", {"--all", "x", "--verbose"}}}},
      {"long_minus", L, {{"-ab", {"--all", "x", "--verbose", "y"}}}},
      {"long_W", L, {{"W;ab", {"-W", "verbose", "-Wsize=3", "-aWall", "-W", "nope", "-W"}}}},
      {"long_short_mixed", L, {{shorts, {"-ab", "--size", "5", "-ofile", "--", "-c"}}}},
      // getopt_long_only
      {"long_only", O, {{"abo:v", {"-verbose", "-size=3", "-a", "-ab", "--all"}}}},
      {"long_only_ambiguous", O, {{"abo:v", {"-ver"}}}},
      {"long_only_same_meaning_ambiguous", O, {{"abo:v", {"-col"}}}},
      {"long_only_short_wins", O, {{"abo:v", {"-v", "-o", "x"}}}},
      {"long_only_fallback_to_short", O, {{"abo:v", {"-vx", "-ba"}}}},
      {"long_only_unknown", O, {{"abo:v", {"-zzz", "--zzz"}}}},
      {"long_only_single_letter_long", O, {{"abo:v", {"-s"}}}},
      {"long_only_args", O, {{"abo:v", {"-size", "4", "-o", "f", "-output=g", "x"}}}},
      // new scans
      {"reset_and_rescan", S, {{"ab", {"-a", "x", "-b"}}, {"+ab", {}, 0}}},
      {"reset_mid_group", S, {{"abc", {"-abc", "-a"}, -1, 1}, {"abc", {}, 0}}},
      {"optind_1_mid_group", S, {{"abc", {"-abc", "-a"}, -1, 1}, {"abc", {}, 1}}},
      {"optind_1_after_end", S, {{"ab", {"-a", "x", "-b"}}, {"ab", {}, 1}}},
      {"reset_new_argv", L, {{shorts, {"--all", "x"}}, {"+ab", {"y", "--size=2"}, 0}}},
      {"reset_with_new_ordering", L, {{"+ab", {"-a", "x", "-b"}, -1, 1}, {"ab", {}, 0}}},
      {"skip_ahead", S, {{"abc", {"-a", "-b", "-c", "x"}, -1, 1}, {"abc", {}, 3}}},
  };
  return v;
}

class GetoptTest : public ::testing::TestWithParam<GetoptCase> {};

TEST_P(GetoptTest, SameAsGlibc) {
  const GetoptCase& c = GetParam();
  std::string glibc = in_child([&] { return transcript(glibc_impl(), c); });
  std::string tucana = in_child([&] { return transcript(tucana_impl(), c); });
  EXPECT_NE(glibc.find("r=-1"), std::string::npos) << glibc;
  if (c.expect_message) {
    EXPECT_NE(glibc.find(c.expect_message), std::string::npos) << glibc;
  }
  EXPECT_EQ(glibc, tucana);
  if (std::getenv("TUCANA_TEST_VERBOSE")) std::printf("%s:\n%s\n", c.name, glibc.c_str());
}

INSTANTIATE_TEST_SUITE_P(Cases, GetoptTest, ::testing::ValuesIn(getopt_cases()),
                         [](const ::testing::TestParamInfo<GetoptCase>& info) { return info.param.name; });

TEST(LibcState, InitialValues) {
  std::string s = in_child([] {
    return std::to_string(*tucana_priv_optind()) + " " + std::to_string(*tucana_priv_opterr()) + " " +
           std::to_string(*tucana_priv_optopt()) + " " + (*tucana_priv_optarg() ? "set" : "null");
  });
  EXPECT_EQ(s, "1 1 63 null");
  // Outside subranks the state is one, whichever thread asks.
  EXPECT_EQ(tucana_priv_optind(), tucana_priv_optind());
}

// --- rand, random -----------------------------------------------------------

// n values, alternately from rand() and random(), reseeded (seed_again) half-way.
std::string sequence(int (*rnd)(), long (*random_fn)(), void (*seed_fn)(unsigned), const unsigned* seed,
                     const unsigned* seed_again) {
  std::string out;
  if (seed) seed_fn(*seed);
  for (int i = 0; i < 40; ++i) {
    if (i == 20 && seed_again) seed_fn(*seed_again);
    out += std::to_string(i % 3 == 0 ? static_cast<long>(rnd()) : random_fn()) + " ";
  }
  return out;
}

std::string glibc_sequence(bool use_srandom, const unsigned* seed, const unsigned* again) {
  return in_child([=] {
    return sequence(rand, random, use_srandom ? srandom : srand, seed, again);
  });
}

std::string tucana_sequence(bool use_srandom, const unsigned* seed, const unsigned* again) {
  return in_child([=] {
    return sequence(tucana_rand, tucana_random, use_srandom ? tucana_srandom : tucana_srand, seed, again);
  });
}

TEST(LibcRand, DefaultSeed) {
  std::string glibc = glibc_sequence(false, nullptr, nullptr);
  EXPECT_EQ(glibc.rfind("1804289383 ", 0), 0u) << glibc;  // glibc's well-known first value
  EXPECT_EQ(glibc, tucana_sequence(false, nullptr, nullptr));
}

TEST(LibcRand, Seeds) {
  for (unsigned seed : {0u, 1u, 2u, 7u, 42u, 12345u, 0x7fffffffu, UINT_MAX}) {
    const unsigned again = seed * 3 + 1;
    for (bool use_srandom : {false, true}) {
      EXPECT_EQ(glibc_sequence(use_srandom, &seed, nullptr), tucana_sequence(use_srandom, &seed, nullptr))
          << "seed " << seed;
      EXPECT_EQ(glibc_sequence(use_srandom, &seed, &again), tucana_sequence(use_srandom, &seed, &again))
          << "seed " << seed << " then " << again;
    }
  }
  // Different seeds, different sequences (the comparison above means something).
  unsigned a = 1, b = 2;
  EXPECT_NE(tucana_sequence(false, &a, nullptr), tucana_sequence(false, &b, nullptr));
}

// --- strtok -------------------------------------------------------------------

std::string tokens(char* (*tok)(char*, const char*), const char* input, const char* delims1,
                   const char* delims2) {
  std::string out;
  std::vector<char> buf(input, input + std::strlen(input) + 1);
  char* p = tok(buf.data(), delims1);
  int nulls = 0;
  for (int i = 0; i < 20 && nulls < 2; ++i) {  // also: a call after the end stays null
    out += p ? "[" + std::string(p) + "]@" + std::to_string(p - buf.data()) + " " : "null ";
    nulls += !p;
    p = tok(nullptr, i % 2 ? delims2 : delims1);
  }
  return out;
}

TEST(LibcStrtok, SameAsGlibc) {
  const char* cases[][3] = {
      {"a,b,c", ",", ","},         {",,a,,b,,", ",", ","},   {"", ",", ","},
      {",,,", ",", ","},           {"a b;c d;e", " ;", ";"}, {"one", ",", ","},
      {"x:y,z:w", ":", ","},       {"a,b", "", ""},
  };
  for (auto& c : cases) {
    EXPECT_EQ(tokens(strtok, c[0], c[1], c[2]), tokens(tucana_strtok, c[0], c[1], c[2]))
        << "'" << c[0] << "' '" << c[1] << "' '" << c[2] << "'";
  }
}

}  // namespace
