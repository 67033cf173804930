// GNU getopt on a GetoptState (getopt.h). The behaviour, down to the
// messages and the bookkeeping of permuted non-options, is glibc's, checked
// call by call against glibc in test/unit/libc_test.cc.
#include "libc/getopt.h"

#include <libintl.h>
#include <tucana/privatize.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

namespace tucana::libc {
namespace {

using Scan = GetoptState::Scan;

// glibc's messages come from its own catalog (in the C locale: as written).
const char* text(const char* message) { return dgettext("libc", message); }

// "-" alone is a non-option too (it conventionally names stdin).
bool is_nonoption(const char* arg) { return arg[0] != '-' || arg[1] == '\0'; }

// Moves the non-options skipped so far, argv[first_nonopt, last_nonopt),
// behind the options found after them, argv[last_nonopt, optind), each block
// keeping its order.
void move_nonoptions_back(char** argv, Scan& d) {
  std::rotate(argv + d.first_nonopt, argv + d.last_nonopt, argv + d.optind);
  d.first_nonopt += d.optind - d.last_nonopt;
  d.last_nonopt = d.optind;
}

// Starts a scan: returns optstring without its ordering prefix.
const char* start_scan(Scan& d, const char* optstring) {
  if (d.optind == 0) d.optind = 1;
  d.first_nonopt = d.last_nonopt = d.optind;
  d.nextchar = nullptr;
  if (optstring[0] == '-') {
    d.ordering = Scan::Ordering::kReturnInOrder;
    ++optstring;
  } else if (optstring[0] == '+') {
    d.ordering = Scan::Ordering::kRequireOrder;
    ++optstring;
  } else if (std::getenv("POSIXLY_CORRECT")) {
    d.ordering = Scan::Ordering::kRequireOrder;
  } else {
    d.ordering = Scan::Ordering::kPermute;
  }
  d.initialized = true;
  return optstring;
}

// The parts of one call that the long-option code needs.
struct Call {
  int argc;
  char** argv;
  const char* optstring;  // without the ordering prefix
  const option* longopts;
  int* longindex;
  bool print_errors;
};

bool same_meaning(const option& a, const option& b) {
  return a.has_arg == b.has_arg && a.flag == b.flag && a.val == b.val;
}

// The argument argv[d.optind] as a long option whose name (and "=value")
// starts at d.nextchar, written after `prefix` ("--", "-" or "-W "). Returns
// what getopt returns, the argument consumed; nothing when long_only allows
// the argument to be taken as short options instead (then d is unchanged).
std::optional<int> long_option(Scan& d, const Call& c, bool long_only, const char* prefix) {
  char* name = d.nextchar;
  const char* name_end = name + std::strcspn(name, "=");
  std::size_t length = static_cast<std::size_t>(name_end - name);

  const option* found = nullptr;
  int found_index = -1;
  for (int i = 0; c.longopts[i].name; ++i) {
    if (std::strlen(c.longopts[i].name) == length && std::strncmp(c.longopts[i].name, name, length) == 0) {
      found = &c.longopts[i];
      found_index = i;
      break;
    }
  }
  if (!found) {
    // An abbreviation: ambiguous when two options it abbreviates differ in
    // what they do (getopt_long_only: always), the list naming the first
    // one and those that differ from it.
    std::vector<int> listed;
    for (int i = 0; c.longopts[i].name; ++i) {
      if (std::strncmp(c.longopts[i].name, name, length) != 0) continue;
      if (!found) {
        found = &c.longopts[i];
        found_index = i;
        listed.push_back(i);
      } else if (long_only || !same_meaning(*found, c.longopts[i])) {
        listed.push_back(i);
      }
    }
    if (listed.size() > 1) {
      if (c.print_errors) {
        // One locked sequence of writes, so that the line stays whole.
        flockfile(stderr);
        std::fprintf(stderr, text("%s: option '%s%s' is ambiguous; possibilities:"), c.argv[0], prefix, name);
        for (int i : listed) std::fprintf(stderr, " '%s%s'", prefix, c.longopts[i].name);
        std::fprintf(stderr, "\n");
        funlockfile(stderr);
      }
      d.nextchar = name + std::strlen(name);
      ++d.optind;
      d.optopt = 0;
      return '?';
    }
  }
  if (!found) {
    // getopt_long_only's "-x..." that is no long option may still be short
    // options if it starts with one ("--x..." never is).
    if (!long_only || c.argv[d.optind][1] == '-' || !std::strchr(c.optstring, *name)) {
      if (c.print_errors) std::fprintf(stderr, text("%s: unrecognized option '%s%s'\n"), c.argv[0], prefix, name);
      d.nextchar = nullptr;
      ++d.optind;
      d.optopt = 0;
      return '?';
    }
    return std::nullopt;
  }

  ++d.optind;
  d.nextchar = nullptr;
  if (*name_end == '=') {
    if (found->has_arg == no_argument) {
      if (c.print_errors)
        std::fprintf(stderr, text("%s: option '%s%s' doesn't allow an argument\n"), c.argv[0], prefix,
                     found->name);
      d.optopt = found->val;
      return '?';
    }
    d.optarg = const_cast<char*>(name_end + 1);
  } else if (found->has_arg == required_argument) {
    // An optional argument is only ever given with '='.
    if (d.optind >= c.argc) {
      if (c.print_errors)
        std::fprintf(stderr, text("%s: option '%s%s' requires an argument\n"), c.argv[0], prefix, found->name);
      d.optopt = found->val;
      return c.optstring[0] == ':' ? ':' : '?';
    }
    d.optarg = c.argv[d.optind++];
  }
  if (c.longindex) *c.longindex = found_index;
  if (found->flag) {
    *found->flag = found->val;
    return 0;
  }
  return found->val;
}


// getopt_parse() on the scan's own copies of the variables.
int parse(Scan& d, int argc, char** argv, const char* optstring, const option* longopts, int* longindex,
          bool long_only) {
  if (argc < 1) return -1;
  d.optarg = nullptr;
  if (d.optind == 0 || !d.initialized) {
    optstring = start_scan(d, optstring);
  } else if (optstring[0] == '-' || optstring[0] == '+') {
    ++optstring;
  }
  // A leading ':' (after the ordering prefix): no messages, and ':' for a
  // missing argument.
  const Call c{argc, argv, optstring, longopts, longindex, d.opterr != 0 && optstring[0] != ':'};

  if (!d.nextchar || *d.nextchar == '\0') {
    // The next element of argv. The program may have moved optind back
    // since the last call: the skipped non-options cannot lie beyond it.
    d.last_nonopt = std::min(d.last_nonopt, d.optind);
    d.first_nonopt = std::min(d.first_nonopt, d.optind);
    if (d.ordering == Scan::Ordering::kPermute) {
      if (d.first_nonopt != d.last_nonopt && d.last_nonopt != d.optind) {
        move_nonoptions_back(argv, d);
      } else if (d.last_nonopt != d.optind) {
        d.first_nonopt = d.optind;
      }
      while (d.optind < argc && is_nonoption(argv[d.optind])) ++d.optind;
      d.last_nonopt = d.optind;
    }
    // "--" ends the options; it counts as one, so it goes before the
    // non-options skipped so far, and everything after it is a non-option.
    if (d.optind != argc && std::strcmp(argv[d.optind], "--") == 0) {
      ++d.optind;
      if (d.first_nonopt != d.last_nonopt && d.last_nonopt != d.optind) {
        move_nonoptions_back(argv, d);
      } else if (d.first_nonopt == d.last_nonopt) {
        d.first_nonopt = d.optind;
      }
      d.last_nonopt = argc;
      d.optind = argc;
    }
    if (d.optind == argc) {
      // Done: optind names the first of the non-options moved to the end.
      if (d.first_nonopt != d.last_nonopt) d.optind = d.first_nonopt;
      return -1;
    }
    if (is_nonoption(argv[d.optind])) {
      if (d.ordering == Scan::Ordering::kRequireOrder) return -1;
      d.optarg = argv[d.optind++];  // '-' ordering: returned as option 1
      return 1;
    }
    if (longopts) {
      if (argv[d.optind][1] == '-') {
        d.nextchar = argv[d.optind] + 2;
        return *long_option(d, c, long_only, "--");
      }
      // getopt_long_only: "-x" with x a short option is that option, any
      // other "-name" is tried as a long option first.
      if (long_only && (argv[d.optind][2] != '\0' || !std::strchr(optstring, argv[d.optind][1]))) {
        d.nextchar = argv[d.optind] + 1;
        if (std::optional<int> result = long_option(d, c, long_only, "-")) return *result;
      }
    }
    d.nextchar = argv[d.optind] + 1;
  }

  // The next short option of the current group.
  char opt = *d.nextchar++;
  const char* spec = std::strchr(optstring, opt);
  if (*d.nextchar == '\0') ++d.optind;  // the group's last character
  if (!spec || opt == ':' || opt == ';') {
    if (c.print_errors) std::fprintf(stderr, text("%s: invalid option -- '%c'\n"), argv[0], opt);
    d.optopt = opt;
    return '?';
  }
  if (spec[0] == 'W' && spec[1] == ';' && longopts) {
    // "-W name" (or "-Wname") is POSIX's spelling of "--name".
    if (*d.nextchar != '\0') {
      // the name is the rest of this element
    } else if (d.optind == argc) {
      if (c.print_errors) std::fprintf(stderr, text("%s: option requires an argument -- '%c'\n"), argv[0], opt);
      d.optopt = opt;
      return optstring[0] == ':' ? ':' : '?';
    } else {
      d.nextchar = argv[d.optind];
    }
    return *long_option(d, c, false, "-W ");
  }
  if (spec[1] == ':') {
    if (spec[2] == ':') {
      // An optional argument: only the rest of this element.
      if (*d.nextchar != '\0') {
        d.optarg = d.nextchar;
        ++d.optind;
      }
    } else if (*d.nextchar != '\0') {
      d.optarg = d.nextchar;  // "-ofile"
      ++d.optind;
    } else if (d.optind == argc) {
      if (c.print_errors) std::fprintf(stderr, text("%s: option requires an argument -- '%c'\n"), argv[0], opt);
      d.optopt = opt;
      opt = optstring[0] == ':' ? ':' : '?';
    } else {
      d.optarg = argv[d.optind++];  // "-o file"
    }
    d.nextchar = nullptr;
  }
  return opt;
}

}  // namespace

int getopt_parse(GetoptState& state, int argc, char** argv, const char* optstring, const option* longopts,
                 int* longindex, bool long_only) {
  assert(optstring);
  Scan& d = state.scan;
  d.optind = state.optind;
  d.opterr = state.opterr;
  int result = parse(d, argc, argv, optstring, longopts, longindex, long_only);
  state.optind = d.optind;
  state.optarg = d.optarg;
  state.optopt = d.optopt;
  return result;
}

}  // namespace tucana::libc

using tucana::libc::current_state;
using tucana::libc::getopt_parse;

// argv is declared const as in POSIX, but GNU getopt permutes it (as
// glibc's does, through the same cast).
extern "C" {

int tucana_getopt(int argc, char* const argv[], const char* optstring) {
  return getopt_parse(current_state().getopt, argc, const_cast<char**>(argv), optstring, nullptr, nullptr, false);
}

int tucana_getopt_long(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                       int* longindex) {
  return getopt_parse(current_state().getopt, argc, const_cast<char**>(argv), optstring, longopts, longindex,
                      false);
}

int tucana_getopt_long_only(int argc, char* const argv[], const char* optstring, const struct option* longopts,
                            int* longindex) {
  return getopt_parse(current_state().getopt, argc, const_cast<char**>(argv), optstring, longopts, longindex, true);
}

}  // extern "C"
